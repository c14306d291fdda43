package org.robostream.torch.dist;

import java.io.IOException;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * How a rank other than 0 reaches the store: libtorch's store client connects to this tunnel on the
 * loopback, and the tunnel carries the connection to rank 0's {@link StoreFront} after proving the
 * job's secret there, and checking rank 0's proof in return ({@link FrontProof}). Only connections
 * from this process pass (another local user could reach the loopback port too); the rest are
 * closed unanswered. The first failure is kept ({@link #failure}) for the rank's message. Closed
 * with the store.
 */
final class StoreTunnel implements AutoCloseable {
  private final ServerSocket local;
  private final InetSocketAddress frontAddress;
  private final String at;
  private final FrontProof proof;
  private final Duration timeout;
  private final AtomicReference<String> failure = new AtomicReference<>();
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;

  private StoreTunnel(
      ServerSocket local, InetSocketAddress front, String at, JobCheck job, Duration timeout) {
    this.local = local;
    this.frontAddress = front;
    this.at = at;
    this.proof = new FrontProof(job);
    this.timeout = timeout;
  }

  /**
   * A tunnel to {@code r}'s rank 0, listening at 127.0.0.1 on a free port ({@link #port}); each
   * connection it carries has {@code timeout} to reach rank 0 and prove itself.
   */
  static StoreTunnel open(Rendezvous r, JobCheck job, Duration timeout) throws IOException {
    return open(
        new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0),
        new InetSocketAddress(r.host(), r.port()),
        r.host() + ":" + r.port(),
        job,
        timeout);
  }

  /**
   * A tunnel listening at {@code listenAt} to the front at {@code front} ({@code at} names it in
   * messages).
   */
  static StoreTunnel open(
      InetSocketAddress listenAt,
      InetSocketAddress front,
      String at,
      JobCheck job,
      Duration timeout)
      throws IOException {
    if (!ProcSockets.available()) {
      throw new IOException("the store's tunnel needs Linux's /proc to tell its own connections");
    }
    ServerSocket local = new ServerSocket();
    try {
      local.bind(listenAt, 64);
    } catch (IOException e) {
      local.close();
      throw e;
    }
    StoreTunnel tunnel = new StoreTunnel(local, front, at, job, timeout);
    Relay.thread(tunnel::accept, "robostream-store-tunnel").start();
    return tunnel;
  }

  /** Where this process's store client connects: the tunnel's address. */
  InetAddress address() {
    return local.getInetAddress();
  }

  /** Where this process's store client connects. */
  int port() {
    return local.getLocalPort();
  }

  /** Why the tunnel could not carry a connection to rank 0, or null. */
  String failure() {
    return failure.get();
  }

  private void accept() {
    while (!closed) {
      Socket s;
      try {
        s = local.accept();
      } catch (IOException e) {
        return; // closed
      }
      boolean ours;
      try {
        ours = ProcSockets.ownConnection(s.getPort(), local.getLocalPort());
      } catch (IOException e) {
        ours = false;
      }
      if (!ours) {
        Relay.closeQuietly(s);
        continue;
      }
      open.add(s);
      Relay.thread(() -> carry(s), "robostream-store-tunnel-proof").start();
    }
  }

  /** Proves the secret at rank 0's front, checks its answer, then relays {@code s} there. */
  private void carry(Socket s) {
    // Each connection gets the whole timeout: libtorch may open one long after the join (NCCL
    // keeps the store).
    long deadline = System.nanoTime() + timeout.toNanos();
    Socket front = null;
    boolean relayed = false;
    try {
      byte[] greeting = null;
      while (greeting == null) {
        front = connect(deadline);
        open.add(front);
        try {
          greeting =
              FrontProof.read(front, FrontProof.FRONT_MAGIC.length + FrontProof.NONCE, deadline);
        } catch (java.io.EOFException busy) {
          // Closed before its greeting: rank 0 had many connections to prove at once. Again.
          open.remove(front);
          Relay.closeQuietly(front);
          front = null;
        }
      }
      byte[] magic = java.util.Arrays.copyOf(greeting, FrontProof.FRONT_MAGIC.length);
      if (!MessageDigest.isEqual(magic, FrontProof.FRONT_MAGIC)) {
        fail(at + " is not a robostream rank 0 (another program listens at MASTER_PORT?)");
        return;
      }
      byte[] frontNonce =
          java.util.Arrays.copyOfRange(greeting, FrontProof.FRONT_MAGIC.length, greeting.length);
      byte[] nonce = FrontProof.nonce();
      OutputStream out = front.getOutputStream();
      out.write(FrontProof.RANK_MAGIC);
      out.write(nonce);
      out.write(proof.rankSeal(frontNonce, nonce));
      out.flush();
      byte[] answer = FrontProof.read(front, FrontProof.MAC, deadline);
      if (!MessageDigest.isEqual(answer, proof.frontSeal(frontNonce, nonce))) {
        fail(at + " did not prove the job's secret (" + JobCheck.ENV + " or the job differs)");
        return;
      }
      front.setTcpNoDelay(true);
      // The relay ends when either side hangs up (the store client closes with the store).
      open.remove(s);
      open.remove(front);
      Relay.start(s, front, "robostream-store-tunnel-relay", () -> {});
      relayed = true;
    } catch (SocketTimeoutException e) {
      fail(
          front == null
              ? "rank 0 did not answer within "
                  + timeout.toSeconds()
                  + " s (--dist-timeout): nothing listened at "
                  + at
              : "rank 0 at "
                  + at
                  + " did not answer as a robostream rank 0 within "
                  + timeout.toSeconds()
                  + " s (--dist-timeout): is something else listening at that port? (set"
                  + " MASTER_PORT)");
    } catch (IOException e) {
      fail(
          "rank 0 at "
              + at
              + " hung up before its proof (this rank did not prove the job's secret: "
              + JobCheck.ENV
              + " or the job differs) ("
              + e.getMessage()
              + ")");
    } finally {
      if (!relayed) {
        open.remove(s);
        Relay.closeQuietly(s);
        if (front != null) {
          open.remove(front);
          Relay.closeQuietly(front);
        }
      }
    }
  }

  /** A connection to rank 0's front, retried until {@code deadline} while nothing listens yet. */
  private Socket connect(long deadline) throws IOException {
    InetSocketAddress address = frontAddress;
    long pause = 50;
    while (true) {
      long left = (deadline - System.nanoTime()) / 1_000_000;
      if (left <= 0 || closed) {
        throw new SocketTimeoutException("nobody listens");
      }
      Socket s = new Socket();
      try {
        s.connect(address, (int) Math.min(left, Integer.MAX_VALUE));
        return s;
      } catch (ConnectException e) {
        s.close();
        try {
          Thread.sleep(Math.min(pause, left));
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          throw new SocketTimeoutException("interrupted");
        }
        pause = Math.min(pause * 2, 1000);
      } catch (IOException e) {
        s.close();
        throw e;
      }
    }
  }

  private void fail(String why) {
    failure.compareAndSet(null, why);
  }

  @Override
  public void close() {
    closed = true;
    Relay.closeQuietly(local);
    for (Socket s : open) {
      Relay.closeQuietly(s);
    }
    open.clear();
  }
}
