package org.robostream.torch.dist;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;

/**
 * What a rank proves to rank 0's {@link StoreFront} before any byte reaches the store, and what
 * rank 0 proves back. Immutable. Fixed sizes, so neither side reads more than {@link #HELLO} bytes
 * before the proof:
 *
 * <ol>
 *   <li>rank 0: the front's magic and a fresh nonce (40 bytes);
 *   <li>the rank: its magic, a nonce and an HMAC-SHA256 of both under the job's secret and
 *       namespace (72 bytes);
 *   <li>rank 0: an HMAC of the nonces reversed (32 bytes): the rank reached this job's rank 0.
 * </ol>
 */
final class FrontProof {
  static final int NONCE = 32;
  static final int MAC = 32;
  static final byte[] FRONT_MAGIC = "RSFRONT1".getBytes(StandardCharsets.US_ASCII);
  static final byte[] RANK_MAGIC = "RSRANK01".getBytes(StandardCharsets.US_ASCII);

  /** The rank's whole message: magic, nonce, seal. */
  static final int HELLO = RANK_MAGIC.length + NONCE + MAC;

  private static final SecureRandom RANDOM = new SecureRandom();
  private final byte[] secret;
  private final String namespace;

  FrontProof(JobCheck job) {
    this.secret = job.secret();
    this.namespace = Handshake.namespace(job);
  }

  /** The seal a rank sends for the front's nonce and its own. */
  byte[] rankSeal(byte[] frontNonce, byte[] rankNonce) {
    return seal("rank", frontNonce, rankNonce);
  }

  /** The seal rank 0 answers with. */
  byte[] frontSeal(byte[] frontNonce, byte[] rankNonce) {
    return seal("front", rankNonce, frontNonce);
  }

  /** True when {@code hello} is a rank's message sealed for {@code frontNonce}. */
  boolean verifies(byte[] hello, byte[] frontNonce) {
    byte[] magic = java.util.Arrays.copyOfRange(hello, 0, RANK_MAGIC.length);
    byte[] nonce =
        java.util.Arrays.copyOfRange(hello, RANK_MAGIC.length, RANK_MAGIC.length + NONCE);
    byte[] mac = java.util.Arrays.copyOfRange(hello, RANK_MAGIC.length + NONCE, HELLO);
    return MessageDigest.isEqual(magic, RANK_MAGIC)
        && MessageDigest.isEqual(mac, rankSeal(frontNonce, nonce));
  }

  private byte[] seal(String who, byte[] first, byte[] second) {
    byte[] label =
        ("robostream store front|" + who + "|" + namespace + "|").getBytes(StandardCharsets.UTF_8);
    byte[] data = new byte[label.length + first.length + second.length];
    System.arraycopy(label, 0, data, 0, label.length);
    System.arraycopy(first, 0, data, label.length, first.length);
    System.arraycopy(second, 0, data, label.length + first.length, second.length);
    return Handshake.hmac(secret, data);
  }

  static byte[] nonce() {
    byte[] b = new byte[NONCE];
    RANDOM.nextBytes(b);
    return b;
  }

  /**
   * Exactly {@code n} bytes from {@code s}, before {@code deadline} ({@link System#nanoTime}): a
   * peer that sends them a byte at a time still cannot hold the reader past it.
   *
   * @throws SocketTimeoutException at the deadline
   * @throws EOFException when the peer hangs up first
   */
  static byte[] read(Socket s, int n, long deadline) throws IOException {
    byte[] b = new byte[n];
    InputStream in = s.getInputStream();
    int off = 0;
    while (off < n) {
      long left = (deadline - System.nanoTime()) / 1_000_000;
      if (left <= 0) {
        throw new SocketTimeoutException("no answer in time");
      }
      s.setSoTimeout((int) Math.min(Integer.MAX_VALUE, left));
      int got = in.read(b, off, n - off);
      if (got < 0) {
        throw new EOFException("hung up after " + off + " of " + n + " bytes");
      }
      off += got;
    }
    return b;
  }
}
