package org.robostream.torch.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.robostream.testing.Processes;

/**
 * Who may join a job's rendezvous, and how long anyone waits ({@link Handshake}): ranks as torchrun
 * starts them, each a JVM ({@link JoinProcess}), over a real TCPStore and Gloo group on this
 * machine. A peer without the job's secret (another job at the port, another user) is never paired;
 * ranks with different settings or world sizes are refused naming each rank's value; hostile and
 * random connections to rank 0's store do not stop the job; every wait ends at the timeout, naming
 * what it waited for.
 */
class RendezvousTrustTest {
  private static final String SECRET = "0123456789abcdef0123456789abcdef";
  private static final int TIMEOUT_S = 20;

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  private static Process rank(int port, int rank, int world, String secret, String setting, int t)
      throws IOException {
    return rank(port, rank, world, secret, setting, t, Map.of());
  }

  private static Process rank(
      int port, int rank, int world, String secret, String setting, int t, Map<String, String> more)
      throws IOException {
    Map<String, String> env = new HashMap<>(more);
    env.put("MASTER_ADDR", "127.0.0.1");
    env.put("MASTER_PORT", Integer.toString(port));
    env.put("RANK", Integer.toString(rank));
    env.put("WORLD_SIZE", Integer.toString(world));
    env.put("LOCAL_RANK", Integer.toString(rank));
    env.put(JobCheck.ENV, secret);
    env.put("SETTING", setting);
    for (String v :
        List.of("SLURM_PROCID", "SLURM_NTASKS", "OMPI_COMM_WORLD_RANK", "SLURM_JOB_ID")) {
      env.put(v, null);
    }
    return Processes.start(
        env, Processes.javaMain(JoinProcess.class.getName(), Integer.toString(t)));
  }

  private static Processes.Result finish(Process p) throws Exception {
    byte[] text = p.getInputStream().readAllBytes();
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("a rank ran past 120 s");
    }
    return new Processes.Result(p.exitValue(), new String(text, StandardCharsets.UTF_8));
  }

  @Test
  void ranksOfOneJobJoinAndDifferentSettingsAreRefusedNamingEachRanksValue() throws Exception {
    int port = freePort();
    Process r0 = rank(port, 0, 2, SECRET, "0.001", TIMEOUT_S);
    Process r1 = rank(port, 1, 2, SECRET, "0.001", TIMEOUT_S);
    for (Processes.Result r : List.of(finish(r0), finish(r1))) {
      assertEquals(0, r.rc(), r.output());
      assertTrue(r.output().contains("joined"), r.output());
    }
    port = freePort();
    r0 = rank(port, 0, 2, SECRET, "0.001", TIMEOUT_S);
    r1 = rank(port, 1, 2, SECRET, "0.01", TIMEOUT_S);
    for (Processes.Result r : List.of(finish(r0), finish(r1))) {
      assertEquals(3, r.rc(), r.output());
      assertTrue(
          r.output().contains("different settings")
              && r.output().contains("--lr: rank 0 has 0.001, rank 1 has 0.01"),
          r.output());
    }
  }

  @Test
  void anotherWorldSizeIsRefusedAtOnceNamingBoth() throws Exception {
    int port = freePort();
    Process r0 = rank(port, 0, 3, SECRET, "0.001", 60);
    Process r1 = rank(port, 1, 2, SECRET, "0.001", 60);
    for (Processes.Result r : List.of(finish(r0), finish(r1))) {
      assertEquals(3, r.rc(), r.output());
      assertTrue(r.output().contains("rank 1 has a world of 2 ranks, rank 0 of 3"), r.output());
      assertTrue(failedWithinSeconds(r.output()) < 30, "before the 60 s timeout: " + r.output());
    }
  }

  /**
   * A rank of another job (another secret) at this job's port: never paired. Rank 0's front turns
   * it away before it reaches the store, and it says why; rank 0 waits out the timeout naming the
   * secret as a cause.
   */
  @Test
  void aPeerWithoutTheJobsSecretIsNeverPaired() throws Exception {
    int port = freePort();
    Process r0 = rank(port, 0, 2, SECRET, "0.001", 8);
    Process intruder = rank(port, 1, 2, "another job's secret, 32 chars!", "0.001", 8);
    Processes.Result zero = finish(r0);
    Processes.Result other = finish(intruder);
    for (Processes.Result r : List.of(zero, other)) {
      assertEquals(3, r.rc(), r.output());
      assertTrue(r.output().contains(JobCheck.ENV), r.output());
    }
    assertTrue(zero.output().contains("did not arrive within 8 s"), zero.output());
    assertTrue(other.output().contains("did not prove the job's secret"), other.output());
  }

  /**
   * 1,000 connections to rank 0's port while the job meets: random bytes, a single byte and a hang
   * up, 64 KiB floods, silent half-open ones. c10d's store alone stopped accepting after such
   * traffic (a partial command holds its loop: 951 connections were left unaccepted after 1,000
   * one-byte ones); behind rank 0's front none of it reaches the store, so the ranks meet.
   */
  @Test
  void aThousandHostileConnectionsNeitherCrashNorHoldARankPastTheTimeout() throws Exception {
    int port = freePort();
    Process r0 = rank(port, 0, 2, SECRET, "0.001", 15);
    waitForListener(port);
    Random random = new Random(36);
    List<Socket> halfOpen = new ArrayList<>();
    int made = 0;
    for (int i = 0; i < 1000; i++) {
      try {
        Socket s = new Socket(InetAddress.getLoopbackAddress(), port);
        made++;
        OutputStream out = s.getOutputStream();
        switch (i % 4) {
          case 0 -> {
            byte[] junk = new byte[1 + random.nextInt(512)];
            random.nextBytes(junk);
            out.write(junk);
            s.close();
          }
          case 1 -> {
            out.write(new byte[] {(byte) random.nextInt(256)});
            s.close();
          }
          case 2 -> {
            byte[] big = new byte[64 << 10];
            random.nextBytes(big);
            s.setSoTimeout(50);
            try {
              out.write(big);
            } catch (IOException e) {
              // the store hung up on us: fine
            }
            s.close();
          }
          default -> {
            if (halfOpen.size() < 32) {
              halfOpen.add(s); // connected, silent
            } else {
              s.close();
            }
          }
        }
      } catch (IOException e) {
        // refused or reset
      }
    }
    Process r1 = rank(port, 1, 2, SECRET, "0.001", 15);
    Processes.Result first = finish(r0);
    Processes.Result second = finish(r1);
    for (Socket s : halfOpen) {
      s.close();
    }
    assertTrue(made >= 900, "connections made: " + made);
    String both = first.output() + "\n---\n" + second.output();
    for (Processes.Result r : List.of(first, second)) {
      assertEquals(0, r.rc(), both);
      assertTrue(r.output().contains("joined"), both);
    }
    System.out.println(
        "hostile store fuzz: " + made + " connections at rank 0's port; both joined");
  }

  /**
   * Gloo's data connections are not authenticated (TRAINING.md), so what a port scan finds must at
   * least do no harm: 1,000 junk connections to the ranks' Gloo listeners while they exchange
   * (random bytes, a random 8-byte sequence number and a payload, all-ones words). Every exchange
   * stays right and both ranks finish; none crashes. And the store is gone once they met: rank 0 no
   * longer listens at MASTER_PORT, so nobody can fill or wedge it while the job trains.
   */
  @Test
  void junkAtTheGlooListenersHarmsNothingAndTheStoreIsGoneOnceTheRanksMet() throws Exception {
    int port = freePort();
    java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("gloo-junk");
    java.nio.file.Path stop = dir.resolve("stop");
    Map<String, String> hold = Map.of("STOP_FILE", stop.toString());
    Process r0 = rank(port, 0, 2, SECRET, "0.001", TIMEOUT_S, hold);
    Process r1 = rank(port, 1, 2, SECRET, "0.001", TIMEOUT_S, hold);
    // Once the ranks met, rank 0 stops serving the store (and its front) and rank 1 closes its
    // tunnel to it: what each rank still listens at then is its Gloo device's one listener.
    boolean storeGone = false;
    List<Integer> gloo = new ArrayList<>();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while ((!storeGone || gloo.size() != 2) && System.nanoTime() < deadline) {
      Thread.sleep(100);
      List<Integer> zero = listeningPorts(r0.pid());
      List<Integer> one = listeningPorts(r1.pid());
      storeGone = zero.size() == 1 && !zero.contains(port);
      gloo.clear();
      if (one.size() == 1) {
        gloo.addAll(zero);
        gloo.addAll(one);
      }
    }
    Random random = new Random(37);
    int made = 0;
    for (int i = 0; i < 1000 && gloo.size() >= 2; i++) {
      try (Socket s = new Socket(InetAddress.getLoopbackAddress(), gloo.get(i % gloo.size()))) {
        made++;
        byte[] junk = new byte[8 + random.nextInt(2048)];
        random.nextBytes(junk);
        if (i % 3 == 2) {
          java.util.Arrays.fill(junk, (byte) 0xff);
        }
        s.getOutputStream().write(junk);
      } catch (IOException e) {
        // refused or reset: fine
      }
    }
    java.nio.file.Files.createFile(stop);
    Processes.Result first = finish(r0);
    Processes.Result second = finish(r1);
    String both = first.output() + "\n---\n" + second.output();
    assertTrue(storeGone, "rank 0 still serves the store at " + port + " after the join\n" + both);
    assertTrue(gloo.size() >= 2, "each rank's Gloo listener: " + gloo + "\n" + both);
    assertTrue(made >= 900, "connections made: " + made);
    for (Processes.Result r : List.of(first, second)) {
      assertEquals(0, r.rc(), both);
      assertTrue(r.output().matches("(?s).*held [1-9][0-9]* collectives.*"), both);
    }
    java.nio.file.Files.delete(stop);
    java.nio.file.Files.delete(dir);
  }

  /** The TCP ports process {@code pid} listens at (its sockets' inodes in /proc/net/tcp*). */
  private static List<Integer> listeningPorts(long pid) throws IOException {
    java.util.Set<String> inodes = new java.util.HashSet<>();
    try (java.nio.file.DirectoryStream<java.nio.file.Path> fds =
        java.nio.file.Files.newDirectoryStream(java.nio.file.Path.of("/proc/" + pid + "/fd"))) {
      for (java.nio.file.Path fd : fds) {
        try {
          String target = java.nio.file.Files.readSymbolicLink(fd).toString();
          if (target.startsWith("socket:[")) {
            inodes.add(target.substring(8, target.length() - 1));
          }
        } catch (IOException closed) {
          // the descriptor went away while we listed
        }
      }
    }
    List<Integer> ports = new ArrayList<>();
    for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
      for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of(table))) {
        String[] f = line.trim().split("\\s+");
        if (f.length > 9 && f[3].equals("0A") && inodes.contains(f[9])) {
          ports.add(Integer.parseInt(f[1].substring(f[1].lastIndexOf(':') + 1), 16));
        }
      }
    }
    return ports;
  }

  /**
   * Another local account (nobody, as the frame cache's tests use) cannot read the job's secret
   * file even where every folder above it is open to all: the file is this user's, mode 0600. So it
   * cannot prove the job, and is never paired (the test above). Root only (setpriv).
   */
  @Test
  void anotherAccountCannotReadTheJobsSecret() throws Exception {
    org.junit.jupiter.api.Assumptions.assumeTrue(
        "root".equals(System.getProperty("user.name")), "running as another account needs root");
    java.nio.file.Path home = java.nio.file.Files.createTempDirectory("home");
    JobCheck job = JobCheck.of(Map.of(), home, Map.of());
    java.nio.file.Path file = home.resolve(JobCheck.FILE);
    for (java.nio.file.Path dir = file.getParent(); dir.startsWith(home); dir = dir.getParent()) {
      java.nio.file.Files.setPosixFilePermissions(
          dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
    }
    Process cat =
        new ProcessBuilder(
                "setpriv",
                "--reuid=65534",
                "--regid=65534",
                "--clear-groups",
                "cat",
                file.toString())
            .redirectErrorStream(true)
            .start();
    String out = new String(cat.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(cat.waitFor(30, TimeUnit.SECONDS));
    assertTrue(cat.exitValue() != 0 && out.contains("Permission denied"), out);
    // The job's own ranks still read it: the same secret.
    assertTrue(
        java.util.Arrays.equals(job.secret(), JobCheck.of(Map.of(), home, Map.of()).secret()));
  }

  /**
   * With MASTER_ADDR=127.0.0.1, rank 0's front listens on the loopback only (libtorch alone binds
   * every interface): another host cannot reach it, and this machine's other addresses refuse.
   */
  @Test
  void rankZerosStoreListensOnlyAtMasterAddr() throws Exception {
    int port = freePort();
    Process r0 = rank(port, 0, 2, SECRET, "0.001", 10);
    waitForListener(port);
    List<String> listening = new ArrayList<>();
    String hexPort = String.format(java.util.Locale.ROOT, ":%04X", port);
    for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
      for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of(table))) {
        String[] f = line.trim().split("\\s+");
        if (f.length > 3 && f[1].endsWith(hexPort) && f[3].equals("0A")) {
          listening.add(f[1]);
        }
      }
    }
    assertEquals(1, listening.size(), listening.toString());
    assertTrue(
        listening.get(0).startsWith("0100007F:")
            || listening.get(0).startsWith("0000000000000000FFFF00000100007F:"),
        "the loopback only: " + listening);
    for (java.net.NetworkInterface nic :
        java.util.Collections.list(java.net.NetworkInterface.getNetworkInterfaces())) {
      for (InetAddress other : java.util.Collections.list(nic.getInetAddresses())) {
        if (!other.isLoopbackAddress() && other instanceof java.net.Inet4Address) {
          try (Socket s = new Socket()) {
            s.connect(new java.net.InetSocketAddress(other, port), 2000);
            throw new AssertionError("reached rank 0's store at " + other);
          } catch (IOException refused) {
            // as it must be
          }
        }
      }
    }
    Processes.Result r = finish(r0);
    assertEquals(3, r.rc(), r.output()); // nobody came: it gives up at its timeout
  }

  /**
   * A peer that speaks the store's protocol and arrives first. Served on the network, libtorch's
   * store let it list every key (the job's namespace among them) and write any; behind rank 0's
   * front it never gets a store connection: its client fails, having written nothing, and the job's
   * ranks meet.
   */
  @Test
  void aStoreClientThatArrivesFirstCannotTakeARanksPlace() throws Exception {
    int port = freePort();
    Process r0 = rank(port, 0, 2, SECRET, "0.001", 60);
    waitForListener(port);
    org.robostream.torch.TorchNatives.load();
    org.bytedeco.pytorch.TCPStoreOptions o = new org.bytedeco.pytorch.TCPStoreOptions();
    o.port((short) port)
        .isServer(false)
        .numWorkers(new org.bytedeco.javacpp.SizeTPointer(1).put(2))
        .waitWorkers(false)
        .timeout(new org.bytedeco.javacpp.chrono.Milliseconds(15_000));
    List<String> seen = new ArrayList<>();
    try {
      org.bytedeco.pytorch.TCPStore intruder = new org.bytedeco.pytorch.TCPStore("127.0.0.1", o);
      org.bytedeco.pytorch.StringVector keys = intruder.listKeys();
      for (long i = 0; i < keys.size(); i++) {
        seen.add(keys.get(i).getString());
      }
      intruder.set("/default_pg/0//cpu/rank_1", "{\"rank\":1}");
      seen.add("and it wrote a key");
    } catch (RuntimeException turnedAway) {
      // as it must be: the front hung up on it before any store byte
    }
    assertTrue(seen.isEmpty(), "a store client at the port got in: " + seen);
    Process r1 = rank(port, 1, 2, SECRET, "0.001", 60);
    for (Processes.Result r : List.of(finish(r0), finish(r1))) {
      assertEquals(0, r.rc(), r.output());
      assertTrue(r.output().contains("joined"), r.output());
    }
  }

  /** Something at the port that accepts and never answers: the rank gives up at its timeout. */
  @Test
  void aSilentListenerHoldsARankNoLongerThanTheTimeout() throws Exception {
    try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      Thread accepting =
          new Thread(
              () -> {
                List<Socket> held = new ArrayList<>();
                try {
                  while (true) {
                    held.add(silent.accept());
                  }
                } catch (IOException e) {
                  // closed: the test is over
                }
              });
      accepting.setDaemon(true);
      accepting.start();
      Processes.Result r = finish(rank(silent.getLocalPort(), 1, 2, SECRET, "0.001", 5));
      assertEquals(3, r.rc(), r.output());
      assertTrue(r.output().contains("within 5 s"), r.output());
      assertTrue(r.output().contains("did not answer as a robostream rank 0"), r.output());
      assertTrue(failedWithinSeconds(r.output()) < 15, r.output());
    }
  }

  private static void waitForListener(int port) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
        return;
      } catch (IOException e) {
        Thread.sleep(100);
      }
    }
    throw new AssertionError("rank 0 never listened at " + port);
  }

  private static double failedWithinSeconds(String output) {
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("failed after (\\d+) ms").matcher(output);
    return m.find() ? Long.parseLong(m.group(1)) / 1000.0 : Double.MAX_VALUE;
  }
}
