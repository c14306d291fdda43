package org.robostream.torch.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.bytedeco.javacpp.SizeTPointer;
import org.bytedeco.javacpp.chrono.Milliseconds;
import org.bytedeco.pytorch.ByteVector;
import org.bytedeco.pytorch.TCPStore;
import org.bytedeco.pytorch.TCPStoreOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.robostream.torch.TorchNatives;

/**
 * Random and hostile peers at the protocol level: what a rank reads from the store under the job's
 * namespace, mutated 1,000 ways (bit flips, cuts, appended bytes, values of other types, oversized
 * values, well-sealed hellos that lie about rank, world or settings, verdicts of other hellos). The
 * handshake must answer each with a {@link DistributedException} naming the problem, never another
 * exception, never a wait past the timeout, and never a "go" for a hello it did not check. A real
 * TCPStore in this JVM (no peers to start), each case under its own job so keys never meet.
 */
class HandshakeFuzzTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration TIMEOUT = Duration.ofSeconds(5);
  private static TCPStore store;
  private static int port;

  @BeforeAll
  static void serve() throws IOException {
    TorchNatives.load();
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    TCPStoreOptions o = new TCPStoreOptions();
    o.port((short) port)
        .isServer(true)
        .numWorkers(new SizeTPointer(1).put(1))
        .waitWorkers(false)
        .timeout(new Milliseconds(10_000));
    store = new TCPStore("127.0.0.1", o);
  }

  @AfterAll
  static void close() {
    store.close();
  }

  /** What rank 0 must say for each kind of spoiled hello (a cut may also leave no seal at all). */
  private static final String[] WORDS = {
    "did not prove this job's secret",
    "did not prove this job's secret",
    "did not prove this job's secret",
    "did not prove this job's secret",
    "bytes, over the bound of " + Handshake.MAX_VALUE_BYTES,
    "did not prove this job's secret",
    "proved the job's secret but is not a JSON object",
    " rank",
    "different settings",
    "different settings"
  };

  private static JobCheck job(int i) {
    java.util.SortedMap<String, String> settings =
        new TreeMap<>(Map.of("lr", "0.001", "steps", "100"));
    return new JobCheck(
        "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8),
        "test",
        "fuzz-" + i,
        settings);
  }

  private static Rendezvous rank(int r) {
    return new Rendezvous("127.0.0.1", port, r, 2, r, "test");
  }

  /** Rank 1's honest hello for {@code job}. */
  private static ObjectNode hello(JobCheck job) {
    ObjectNode h = JSON.createObjectNode();
    h.put("rank", 1).put("world", 2).put("nonce", "00112233445566778899aabbccddeeff");
    ObjectNode settings = h.putObject("settings");
    job.settings().forEach(settings::put);
    return h;
  }

  /** One of ten ways to spoil what a peer wrote; {@code sealed} is the honest, sealed text. */
  private static byte[] spoil(int kind, String sealed, JobCheck job, Random random) {
    byte[] b = sealed.getBytes(StandardCharsets.UTF_8);
    switch (kind) {
      case 0 -> { // a flipped bit anywhere
        b[random.nextInt(b.length)] ^= (byte) (1 << random.nextInt(8));
        return b;
      }
      case 1 -> { // cut short
        return java.util.Arrays.copyOf(b, random.nextInt(b.length));
      }
      case 2 -> { // bytes appended
        byte[] tail = new byte[1 + random.nextInt(64)];
        random.nextBytes(tail);
        byte[] out = java.util.Arrays.copyOf(b, b.length + tail.length);
        System.arraycopy(tail, 0, out, b.length, tail.length);
        return out;
      }
      case 3 -> { // random bytes, no seal
        byte[] junk = new byte[random.nextInt(4096)];
        random.nextBytes(junk);
        return junk;
      }
      case 4 -> { // over the size bound
        byte[] big = new byte[Handshake.MAX_VALUE_BYTES + 1 + random.nextInt(4096)];
        java.util.Arrays.fill(big, (byte) '{');
        return big;
      }
      case 5 -> { // sealed with another secret
        JobCheck other =
            new JobCheck(
                "another job's secret, 32 chars!".getBytes(StandardCharsets.UTF_8),
                "test",
                job.job(),
                job.settings());
        return Handshake.seal(other, hello(job)).getBytes(StandardCharsets.UTF_8);
      }
      case 6 -> { // well sealed, a value that is not an object
        return Handshake.seal(
                job,
                random.nextBoolean()
                    ? JSON.createArrayNode().add(1).add("x")
                    : JSON.getNodeFactory().numberNode(random.nextLong()))
            .getBytes(StandardCharsets.UTF_8);
      }
      case 7 -> { // well sealed, rank or world of another type or value
        ObjectNode h = hello(job);
        String field = random.nextBoolean() ? "rank" : "world";
        switch (random.nextInt(4)) {
          case 0 -> h.put(field, random.nextInt());
          case 1 -> h.put(field, "1");
          case 2 -> h.putNull(field);
          default -> h.remove(field);
        }
        if (h.path("rank").isInt() && h.path("rank").asInt() == 1) {
          h.put("world", 3); // never the honest pair
        }
        return Handshake.seal(job, h).getBytes(StandardCharsets.UTF_8);
      }
      case 8 -> { // well sealed, settings that differ: values, types, extra or missing names
        ObjectNode h = hello(job);
        ObjectNode s = (ObjectNode) h.get("settings");
        switch (random.nextInt(4)) {
          case 0 -> s.put("lr", Double.toString(random.nextDouble()));
          case 1 -> s.put("steps", 100); // a number, not the text "100"
          case 2 -> s.put("k" + random.nextInt(1000), "v");
          default -> s.remove("steps");
        }
        return Handshake.seal(job, h).getBytes(StandardCharsets.UTF_8);
      }
      default -> { // well sealed, settings of another shape, a nonce of another type
        ObjectNode h = hello(job);
        if (random.nextBoolean()) {
          h.putArray("settings").add("lr");
        } else {
          h.set("settings", JSON.createObjectNode().set("lr", JSON.createObjectNode()));
        }
        h.putObject("nonce");
        return Handshake.seal(job, h).getBytes(StandardCharsets.UTF_8);
      }
    }
  }

  @Test
  void rankZeroRefusesEverySpoiledHelloNamingTheProblem() throws Exception {
    Random random = new Random(3601);
    int[] refused = new int[10];
    for (int i = 0; i < 700; i++) {
      JobCheck job = job(i);
      int kind = i % 10;
      String ns = Handshake.namespace(job);
      byte[] spoiled = spoil(kind, Handshake.seal(job, hello(job)), job, random);
      store.set(ns + "hello/1", new ByteVector(spoiled));
      store.set(ns + "heard/1", "1"); // rank 1 read the verdict: rank 0 need not keep the store
      long start = System.nanoTime();
      try {
        Handshake.run(store, rank(0), job, TIMEOUT);
        // A bit flip or a cut can leave nothing changed only by chance; none does here.
        throw new AssertionError("case " + i + " (kind " + kind + ") was let in");
      } catch (DistributedException e) {
        refused[kind]++;
        String m = e.getMessage();
        assertTrue(m.startsWith("rank 0 of 2"), m);
        assertTrue(m.contains(WORDS[kind]) || kind == 4 && m.contains(WORDS[0]), kind + ": " + m);
      }
      assertTrue(System.nanoTime() - start < TIMEOUT.toNanos(), "case " + i + " waited");
      String verdict = new String(store.get(ns + "verdict").get(), StandardCharsets.UTF_8);
      assertTrue(verdict.startsWith("{\"ok\":false,\"message\":"), verdict);
    }
    for (int kind = 0; kind < 10; kind++) {
      assertEquals(70, refused[kind], "kind " + kind);
    }
  }

  @Test
  void aRankRefusesEveryVerdictThatDoesNotAnswerItsHello() throws Exception {
    Random random = new Random(3602);
    for (int i = 0; i < 300; i++) {
      JobCheck job = job(10_000 + i);
      String ns = Handshake.namespace(job);
      ObjectNode go = JSON.createObjectNode();
      go.put("ok", true);
      go.putArray("nonces").add("00112233445566778899aabbccddeeff");
      String sealed = Handshake.seal(job, go);
      // A replayed "go" of another hello, then the same spoiled as the hellos are.
      byte[] verdict =
          i % 10 == 9
              ? sealed.getBytes(StandardCharsets.UTF_8)
              : spoil(i % 10 == 7 || i % 10 == 8 ? 0 : i % 10, sealed, job, random);
      store.set(ns + "verdict", new ByteVector(verdict));
      try {
        Handshake.run(store, rank(1), job, TIMEOUT);
        throw new AssertionError("verdict " + i + " let rank 1 in");
      } catch (DistributedException e) {
        assertTrue(e.getMessage().startsWith("rank 1 of 2"), e.getMessage());
      }
    }
  }

  @Test
  void anHonestPairStillJoinsBetweenTheSpoiledOnes() throws Exception {
    JobCheck job = job(99_999);
    store.set(
        Handshake.namespace(job) + "hello/1",
        new ByteVector(Handshake.seal(job, hello(job)).getBytes(StandardCharsets.UTF_8)));
    Handshake.run(store, rank(0), job, TIMEOUT); // no exception: the control case
  }
}
