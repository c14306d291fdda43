package org.robostream.torch.dist;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.TreeSet;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.bytedeco.javacpp.chrono.Milliseconds;
import org.bytedeco.pytorch.ByteVector;
import org.bytedeco.pytorch.Store;
import org.bytedeco.pytorch.StringVector;

/**
 * The ranks' check of one job's settings, over rank 0's store, before any collective. Only ranks
 * that proved the job's secret reach the store ({@link StoreFront}); the store's keys can be listed
 * by whoever reaches it, so the seals below are what make a value the job's. Every key lives under
 * a namespace derived from the job's secret and identity ({@link #namespace}), the process group's
 * own keys too ({@code PrefixStore}), so two jobs never read each other's. Each rank writes a hello
 * (its rank, world size, a fresh nonce and its settings) sealed with an HMAC-SHA256 of the secret;
 * rank 0 reads them in rank order, checks each seal and compares every setting with its own, and
 * writes a sealed verdict naming every hello's nonce: go, or the first problem (a seal that does
 * not verify, another world size, settings that differ with each rank's value). A value is read
 * only under the namespace and at most {@link #MAX_VALUE_BYTES}. Every wait is bounded by the
 * timeout and names what it waited for. Stateless.
 */
final class Handshake {
  static final int MAX_VALUE_BYTES = 256 << 10;
  // How long a refusing rank 0 keeps the store up for the ranks to read its verdict.
  private static final Duration HEARD_WAIT = Duration.ofSeconds(10);
  private static final ObjectMapper JSON = new ObjectMapper();

  private Handshake() {}

  /** The keys' prefix for {@code job}: unguessable without its secret. */
  static String namespace(JobCheck job) {
    byte[] mac =
        hmac(
            job.secret(),
            ("robostream rendezvous namespace|" + job.job()).getBytes(StandardCharsets.UTF_8));
    return "robostream/" + HexFormat.of().formatHex(mac, 0, 16) + "/";
  }

  /**
   * Proves this rank and checks the others (rank 0), or waits for rank 0's verdict.
   *
   * @throws DistributedException naming the problem (every rank gets rank 0's words)
   */
  static void run(Store store, Rendezvous r, JobCheck job, Duration timeout) {
    String ns = namespace(job);
    String nonce = HexFormat.of().formatHex(random(16));
    ObjectNode hello = JSON.createObjectNode();
    hello.put("rank", r.rank()).put("world", r.world()).put("nonce", nonce);
    ObjectNode settings = hello.putObject("settings");
    job.settings().forEach(settings::put);
    long deadline = System.nanoTime() + timeout.toNanos();
    if (r.rank() != 0) {
      set(store, ns + "hello/" + r.rank(), seal(job, hello));
      JsonNode verdict;
      try {
        verdict = read(store, ns + "verdict", job, r, "rank 0's verdict", deadline, timeout);
      } catch (Unsealed e) {
        throw new DistributedException(r.describe() + ": " + e.getMessage());
      }
      if (!contains(verdict.path("nonces"), nonce)) {
        throw new DistributedException(
            r.describe()
                + ": rank 0's verdict does not answer this rank's hello (a stale verdict)");
      }
      set(store, ns + "heard/" + r.rank(), "1"); // rank 0 may stop serving the store now
      if (!verdict.path("ok").asBoolean(false)) {
        throw new DistributedException(r.describe() + ": " + verdict.path("message").asText());
      }
      return;
    }
    List<String> nonces = new ArrayList<>(List.of(nonce));
    String problem = null;
    for (int rank = 1; rank < r.world() && problem == null; rank++) {
      JsonNode theirs;
      try {
        theirs = read(store, ns + "hello/" + rank, job, r, "rank " + rank, deadline, timeout);
      } catch (Unsealed e) {
        problem = e.getMessage();
        break;
      }
      nonces.add(theirs.path("nonce").asText());
      problem = compare(hello, theirs, rank);
    }
    ObjectNode verdict = JSON.createObjectNode();
    verdict.put("ok", problem == null);
    if (problem != null) {
      verdict.put("message", problem);
    }
    nonces.forEach(verdict.putArray("nonces")::add);
    set(store, ns + "verdict", seal(job, verdict));
    if (problem != null) {
      // Rank 0 stops serving the store when it fails: until every rank it heard has read the
      // verdict, or the rank would report the store gone instead of rank 0's words.
      awaitHeard(store, ns, nonces.size(), deadline);
      throw new DistributedException(r.describe() + ": " + problem);
    }
  }

  /**
   * Waits (until {@code deadline}, at most {@link #HEARD_WAIT}) for ranks 1 to {@code ranks - 1} to
   * say they read the verdict. A rank that does not is not waited for again: its own wait for the
   * verdict names the problem.
   */
  private static void awaitHeard(Store store, String ns, int ranks, long deadline) {
    long until = Math.min(deadline, System.nanoTime() + HEARD_WAIT.toNanos());
    for (int rank = 1; rank < ranks; rank++) {
      long left = (until - System.nanoTime()) / 1_000_000;
      if (left <= 0) {
        return;
      }
      try {
        store._wait(new StringVector(ns + "heard/" + rank), new Milliseconds(left));
      } catch (RuntimeException notHeard) {
        return;
      }
    }
  }

  /** What differs between rank 0's hello and rank {@code rank}'s, or null. */
  private static String compare(JsonNode mine, JsonNode theirs, int rank) {
    // Numbers only: asInt would read the text "1" as rank 1 (found by HandshakeFuzzTest).
    if (!theirs.path("rank").isInt() || theirs.path("rank").intValue() != rank) {
      return "the hello of rank " + rank + " says rank " + theirs.path("rank");
    }
    if (!theirs.path("world").isInt()
        || theirs.path("world").intValue() != mine.path("world").intValue()) {
      return "rank "
          + rank
          + " has a world of "
          + theirs.path("world")
          + " ranks, rank 0 of "
          + mine.path("world")
          + " (every rank must start with the same WORLD_SIZE)";
    }
    TreeSet<String> names = new TreeSet<>();
    mine.path("settings").fieldNames().forEachRemaining(names::add);
    theirs.path("settings").fieldNames().forEachRemaining(names::add);
    List<String> differ = new ArrayList<>();
    for (String name : names) {
      JsonNode a = mine.path("settings").get(name);
      JsonNode b = theirs.path("settings").get(name);
      if (a == null || !a.equals(b)) {
        differ.add(
            name
                + ": rank 0 has "
                + (a == null ? "none" : a.asText())
                + ", rank "
                + rank
                + " has "
                + (b == null ? "none" : b.asText()));
      }
    }
    return differ.isEmpty()
        ? null
        : "the ranks were started with different settings (every rank must have the same): "
            + String.join("; ", differ);
  }

  private static boolean contains(JsonNode list, String value) {
    for (Iterator<JsonNode> it = list.elements(); it.hasNext(); ) {
      if (it.next().asText().equals(value)) {
        return true;
      }
    }
    return false;
  }

  /** A peer's sealed value that does not verify. */
  private static final class Unsealed extends RuntimeException {
    Unsealed(String message) {
      super(message);
    }
  }

  /** Waits for {@code key} (until {@code deadline}), reads it and checks its seal. */
  private static JsonNode read(
      Store store,
      String key,
      JobCheck job,
      Rendezvous r,
      String what,
      long deadline,
      Duration timeout) {
    long left = Math.max(1, (deadline - System.nanoTime()) / 1_000_000);
    try {
      store._wait(new StringVector(key), new Milliseconds(left));
    } catch (RuntimeException e) {
      throw new DistributedException(
          r.describe()
              + ": "
              + what
              + " did not arrive within "
              + timeout.toSeconds()
              + " s (--dist-timeout); every rank must start with the same MASTER_ADDR/MASTER_PORT"
              + " and the same job secret ("
              + secretOrigin(job)
              + ")",
          e);
    }
    ByteVector got = store.get(key);
    long size = got.size();
    if (size > MAX_VALUE_BYTES) {
      throw new Unsealed(what + " wrote " + size + " bytes, over the bound of " + MAX_VALUE_BYTES);
    }
    byte[] bytes = got.get();
    String text = new String(bytes, StandardCharsets.UTF_8);
    int cut = text.lastIndexOf('\n');
    JsonNode value = null;
    boolean sealed = false;
    if (cut > 0) {
      byte[] body = text.substring(0, cut).getBytes(StandardCharsets.UTF_8);
      byte[] mac = hmac(job.secret(), body);
      byte[] claimed;
      try {
        claimed = HexFormat.of().parseHex(text.substring(cut + 1));
      } catch (IllegalArgumentException e) {
        claimed = new byte[0];
      }
      if (MessageDigest.isEqual(mac, claimed)) {
        sealed = true;
        try {
          value = JSON.readTree(body);
        } catch (java.io.IOException e) {
          value = null;
        }
      }
    }
    if (sealed && (value == null || !value.isObject())) {
      throw new Unsealed(
          what + " proved the job's secret but is not a JSON object: another robostream version?");
    }
    if (value == null) {
      throw new Unsealed(
          what
              + " did not prove this job's secret ("
              + secretOrigin(job)
              + "): another job at this port, or not a rank at all");
    }
    return value;
  }

  private static String secretOrigin(JobCheck job) {
    return job.origin().equals(JobCheck.ENV)
        ? JobCheck.ENV
        : JobCheck.ENV + ", else " + job.origin();
  }

  /** {@code value}'s text, a newline and its HMAC under the job's secret, in hex. */
  static String seal(JobCheck job, JsonNode value) {
    String body = value.toString();
    return body
        + "\n"
        + HexFormat.of().formatHex(hmac(job.secret(), body.getBytes(StandardCharsets.UTF_8)));
  }

  private static void set(Store store, String key, String value) {
    store.set(key, value);
  }

  static byte[] hmac(byte[] key, byte[] data) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(data);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("every JVM has HmacSHA256", e);
    }
  }

  private static byte[] random(int n) {
    byte[] b = new byte[n];
    new SecureRandom().nextBytes(b);
    return b;
  }
}
