package org.robostream.torch.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.bytedeco.javacpp.SizeTPointer;
import org.bytedeco.javacpp.chrono.Milliseconds;
import org.bytedeco.pytorch.StringVector;
import org.bytedeco.pytorch.TCPStore;
import org.bytedeco.pytorch.TCPStoreOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.robostream.testing.Processes;
import org.robostream.torch.TorchNatives;

/**
 * Rank 0's {@link StoreFront} and another rank's {@link StoreTunnel} around a real libtorch store
 * in this JVM: a rank that proves the job's secret reaches the store through both; nothing else
 * reaches it. A store client of libtorch's own at the port (which, with the store on the network,
 * listed every key of the job and could rewrite them) gets no byte of the store; 1,000 hostile
 * connections at the front are each closed unanswered while the job's own client keeps working; the
 * tunnel carries only this process's connections, and names a rank 0 that cannot prove the secret,
 * or does not answer, within the timeout.
 */
class StoreFrontTest {
  private static final byte[] SECRET =
      "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8);
  private static final Duration TIMEOUT = Duration.ofSeconds(3);

  private final List<AutoCloseable> opened = new ArrayList<>();
  private StoreFront front;
  private DataParallel.Meeting meeting;
  private TCPStore server;
  private int port;

  private static JobCheck job(byte[] secret) {
    return new JobCheck(secret, "test", "front-test", new TreeMap<>(Map.of("--lr", "0.001")));
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  private Rendezvous rank(int rank) {
    return new Rendezvous("127.0.0.1", port, rank, 2, rank, "test");
  }

  private static TCPStore client(int port, int timeoutMs) {
    TCPStoreOptions o = new TCPStoreOptions();
    o.port((short) port)
        .isServer(false)
        .numWorkers(new SizeTPointer(1).put(2))
        .waitWorkers(false)
        .timeout(new Milliseconds(timeoutMs));
    return new TCPStore("127.0.0.1", o);
  }

  @BeforeEach
  void serve() throws IOException {
    TorchNatives.load();
    port = freePort();
    // Rank 0 as the trainer opens it: the front, the filtered store, rank 0's own tunnel.
    meeting = DataParallel.openStore(rank(0), job(SECRET), TIMEOUT, new Milliseconds(10_000));
    front = meeting.front();
    server = (TCPStore) meeting.store();
    server.set("rank0", "here");
  }

  @AfterEach
  void close() {
    for (AutoCloseable c : opened) {
      Relay.closeQuietly(c);
    }
    meeting.close();
  }

  /** The job's own rank through its tunnel: the store answers both ways. */
  private TCPStore throughTunnel() throws IOException {
    StoreTunnel tunnel = StoreTunnel.open(rank(1), job(SECRET), TIMEOUT);
    opened.add(tunnel);
    TCPStore c = client(tunnel.port(), 10_000);
    assertNull(tunnel.failure());
    return c;
  }

  @Test
  void aRankThatProvesTheSecretReachesTheStoreThroughItsTunnel() throws IOException {
    TCPStore rank1 = throughTunnel();
    assertEquals("here", rank1.get_to_str("rank0"));
    rank1.set("rank1", "there");
    assertEquals("there", server.get_to_str("rank1"));
    assertEquals(0, front.refused());
    rank1.close();
  }

  /**
   * libtorch's own store client at MASTER_PORT: its constructor fails (the front waits for a proof,
   * then hangs up) and it never wrote or listed a key.
   */
  @Test
  void aStoreClientAtThePortReachesNothing() {
    long start = System.nanoTime();
    assertThrows(RuntimeException.class, () -> client(port, 8_000).listKeys());
    double s = (System.nanoTime() - start) / 1e9;
    assertTrue(s < 30, "its client gave up (at its own timeout): " + s + " s");
    assertEquals(1, server.getNumKeys(), "only rank 0's key (and no intruder's)");
    assertTrue(front.refused() >= 1);
  }

  /**
   * 1,000 hostile connections at the front: random bytes, a byte and a hang up, 64 KiB floods,
   * hellos of the right size with a wrong seal, the right magic with another job's seal, silent
   * ones. None reaches the store (each is counted refused); the job's own rank still gets in.
   */
  @Test
  void aThousandHostileConnectionsAreClosedUnansweredAndTheJobStillMeets() throws Exception {
    Random random = new Random(36);
    FrontProof another = new FrontProof(job("another job's secret, 32 chars!".getBytes()));
    List<Socket> silent = new ArrayList<>();
    int made = 0;
    for (int i = 0; i < 1000; i++) {
      Socket s;
      try {
        s = new Socket(InetAddress.getLoopbackAddress(), port);
      } catch (IOException refusedAtTheDoor) {
        continue;
      }
      made++;
      try {
        OutputStream out = s.getOutputStream();
        switch (i % 6) {
          case 0 -> out.write(bytes(random, 1 + random.nextInt(512)));
          case 1 -> out.write(random.nextInt(256));
          case 2 -> {
            s.setSoTimeout(50);
            out.write(bytes(random, 64 << 10));
          }
          case 3 -> out.write(bytes(random, FrontProof.HELLO));
          case 4 -> {
            byte[] greeting =
                FrontProof.read(s, FrontProof.FRONT_MAGIC.length + FrontProof.NONCE, deadline());
            byte[] nonce = FrontProof.nonce();
            out.write(FrontProof.RANK_MAGIC);
            out.write(nonce);
            out.write(
                another.rankSeal(
                    java.util.Arrays.copyOfRange(
                        greeting, FrontProof.FRONT_MAGIC.length, greeting.length),
                    nonce));
            // The front hangs up without its own proof: nothing to read but the end.
            assertEquals(-1, readAfterGreeting(s), "a wrong seal got an answer");
          }
          default -> {
            if (silent.size() < 32) {
              silent.add(s);
              continue;
            }
          }
        }
      } catch (IOException e) {
        // the front hung up on us: fine
      }
      s.close();
    }
    TCPStore rank1 = throughTunnel();
    assertEquals("here", rank1.get_to_str("rank0"));
    for (Socket s : silent) {
      s.close();
    }
    assertTrue(made >= 900, "connections made: " + made);
    assertEquals(1, server.getNumKeys(), "no hostile connection wrote a key");
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (front.refused() < made && System.nanoTime() < deadline) {
      Thread.sleep(50); // the silent ones end at the proof's time
    }
    assertEquals(made, front.refused(), "each hostile connection refused once");
    rank1.close();
    System.out.println("store front fuzz: " + made + " hostile connections, all refused");
  }

  /**
   * More silent connections than the front lets wait at once, held open: they cannot lock the job
   * out (each newcomer closes the oldest), and the job's rank gets in at once.
   */
  @Test
  void silentConnectionsCannotLockTheRanksOut() throws Exception {
    List<Socket> silent = new ArrayList<>();
    try {
      for (int i = 0; i < StoreFront.UNPROVEN + 100; i++) {
        silent.add(new Socket(InetAddress.getLoopbackAddress(), port));
      }
      long start = System.nanoTime();
      TCPStore rank1 = throughTunnel();
      assertEquals("here", rank1.get_to_str("rank0"));
      double s = (System.nanoTime() - start) / 1e9;
      assertTrue(s < 2, "in at once, not at the proof's time: " + s + " s");
      rank1.close();
    } finally {
      for (Socket s : silent) {
        s.close();
      }
    }
  }

  /**
   * {@code python3 -c probe} as this account, and as another ({@code nobody}, as another local user
   * would run it) where the test runs as root.
   */
  private static List<List<String>> asThisAndAnotherAccount(String probe) {
    List<List<String>> commands = new ArrayList<>();
    commands.add(List.of("/usr/bin/python3", "-c", probe));
    if ("root".equals(System.getProperty("user.name"))) {
      commands.add(
          List.of(
              "setpriv",
              "--reuid=65534",
              "--regid=65534",
              "--clear-groups",
              "/usr/bin/python3",
              "-c",
              probe));
    }
    return commands;
  }

  /** Bytes after the front's greeting: -1 when it hung up. */
  private static int readAfterGreeting(Socket s) throws IOException {
    s.setSoTimeout(5000);
    InputStream in = s.getInputStream();
    return in.read();
  }

  private static long deadline() {
    return System.nanoTime() + Duration.ofSeconds(5).toNanos();
  }

  private static byte[] bytes(Random random, int n) {
    byte[] b = new byte[n];
    random.nextBytes(b);
    return b;
  }

  /**
   * Another process at the tunnel's loopback port (another local user could be one): closed at
   * once, and nothing of it reaches rank 0's front.
   */
  @Test
  void theTunnelCarriesOnlyThisProcesssConnections() throws Exception {
    StoreTunnel tunnel = StoreTunnel.open(rank(1), job(SECRET), TIMEOUT);
    opened.add(tunnel);
    String probe =
        "import socket\n"
            + "s = socket.create_connection(('127.0.0.1', "
            + tunnel.port()
            + "), timeout=10)\n"
            + "s.sendall(b'x' * 72)\n"
            + "print('got', len(s.recv(100)))\n";
    for (List<String> command : asThisAndAnotherAccount(probe)) {
      Processes.Result r = Processes.run(Map.of(), null, 30, command);
      assertEquals(0, r.rc(), r.output());
      assertTrue(r.output().contains("got 0"), "closed unanswered: " + r.output());
    }
    assertEquals(0, front.refused(), "nothing reached the front");
    assertNull(tunnel.failure());
  }

  /**
   * The store's own port on the loopback: a connection from anything but the front's relays is
   * dropped before it connects, from this process, another process, and another account alike.
   */
  @Test
  void theStoresLoopbackPortAdmitsOnlyTheFrontsRelays() throws Exception {
    int storePort = front.storePort();
    try (Socket s = new Socket()) {
      assertThrows(
          java.net.SocketTimeoutException.class,
          () -> s.connect(new java.net.InetSocketAddress("127.0.0.1", storePort), 1500));
    }
    String probe =
        "import socket\n"
            + "try:\n"
            + "    socket.create_connection(('127.0.0.1', "
            + storePort
            + "), timeout=2)\n"
            + "    print('connected')\n"
            + "except OSError as e:\n"
            + "    print('dropped', type(e).__name__)\n";
    for (List<String> command : asThisAndAnotherAccount(probe)) {
      Processes.Result r = Processes.run(Map.of(), null, 30, command);
      assertEquals(0, r.rc(), r.output());
      assertTrue(r.output().contains("dropped"), String.join(" ", command) + ": " + r.output());
    }
    assertThrows(RuntimeException.class, () -> client(storePort, 3_000).listKeys());
    assertEquals(1, server.getNumKeys());
    // The job's own rank still gets in, through the front.
    TCPStore rank1 = throughTunnel();
    assertEquals("here", rank1.get_to_str("rank0"));
    rank1.close();
  }

  /** A rank of another secret: rank 0 turns it away unanswered; its tunnel names the secret. */
  @Test
  void aRankOfAnotherSecretIsTurnedAwayAndToldWhy() throws IOException {
    StoreTunnel tunnel =
        StoreTunnel.open(rank(1), job("another job's secret, 32 chars!".getBytes()), TIMEOUT);
    opened.add(tunnel);
    assertThrows(RuntimeException.class, () -> client(tunnel.port(), 3_000).listKeys());
    assertNotNull(tunnel.failure());
    assertTrue(tunnel.failure().contains(JobCheck.ENV), tunnel.failure());
    assertEquals(1, server.getNumKeys());
  }

  /** Something at the port that accepts and never speaks: named within the timeout. */
  @Test
  void aSilentListenerIsNamedWithinTheTimeout() throws IOException {
    try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      List<Socket> held = new ArrayList<>();
      Thread t =
          Relay.thread(
              () -> {
                try {
                  while (true) {
                    held.add(silent.accept());
                  }
                } catch (IOException e) {
                  // closed
                }
              },
              "silent");
      t.start();
      Rendezvous r = new Rendezvous("127.0.0.1", silent.getLocalPort(), 1, 2, 1, "test");
      StoreTunnel tunnel = StoreTunnel.open(r, job(SECRET), TIMEOUT);
      opened.add(tunnel);
      long start = System.nanoTime();
      assertThrows(RuntimeException.class, () -> client(tunnel.port(), 5_000).listKeys());
      assertTrue((System.nanoTime() - start) / 1e9 < 10);
      assertNotNull(tunnel.failure());
      assertTrue(
          tunnel.failure().contains("did not answer as a robostream rank 0"), tunnel.failure());
    }
  }

  /**
   * A store connection libtorch opens long after the join (NCCL keeps the store) gets the whole
   * timeout too: the tunnel's clock starts per connection, not when the tunnel opened.
   */
  @Test
  void aConnectionOpenedAfterTheTimeoutStillGetsThrough() throws Exception {
    StoreTunnel tunnel = StoreTunnel.open(rank(1), job(SECRET), Duration.ofSeconds(1));
    opened.add(tunnel);
    Thread.sleep(1500);
    TCPStore late = client(tunnel.port(), 10_000);
    assertEquals("here", late.get_to_str("rank0"));
    assertNull(tunnel.failure());
    late.close();
  }

  @Test
  void keysListedThroughTheTunnelAreTheJobsOwn() throws IOException {
    TCPStore rank1 = throughTunnel();
    StringVector keys = rank1.listKeys();
    assertEquals(1, keys.size());
    assertEquals("rank0", keys.get(0).getString());
    rank1.close();
  }
}
