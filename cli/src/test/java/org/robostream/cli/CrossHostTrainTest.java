package org.robostream.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.testing.Datasets;
import org.robostream.testing.Fixtures;
import org.robostream.testing.Processes;

/**
 * robostream train on two simulated hosts ({@link HostsRig}): two ranks per node, four in all, over
 * real TCP between network namespaces and a real Gloo group. Started as SLURM starts them (rank 0's
 * host from the node list), then as torchrun does (MASTER_ADDR is node 0's address), with node 1's
 * ranks killed after step 7 and every rank resumed from the last checkpoint. The output folder is
 * one both nodes see (under /tmp, as a cluster's shared file system). Skipped where the rig cannot
 * be made.
 */
class CrossHostTrainTest {
  private static final int WORLD = 4;
  private static final int DIST_TIMEOUT_S = 60;

  /** The port SLURM's job id gives the rendezvous: 15000 + 4242 % 20000. */
  private static final String SLURM_JOB_ID = "4242";

  private static final int SLURM_PORT = 19242;
  private static final int TORCHRUN_PORT = 29500;

  /** Every variable a launcher sets: none may leak in from the test's own environment. */
  private static final List<String> LAUNCHER_VARIABLES =
      List.of(
          "MASTER_ADDR",
          "MASTER_PORT",
          "RANK",
          "WORLD_SIZE",
          "LOCAL_RANK",
          "LOCAL_WORLD_SIZE",
          "GROUP_RANK",
          "TORCHELASTIC_RUN_ID",
          "SLURM_PROCID",
          "SLURM_NTASKS",
          "SLURM_NODEID",
          "SLURM_LOCALID",
          "SLURM_JOB_ID",
          "SLURM_JOB_NODELIST",
          "SLURM_NODELIST",
          "SLURM_NNODES",
          "SLURM_JOB_NUM_NODES",
          "OMPI_COMM_WORLD_RANK",
          "OMPI_COMM_WORLD_SIZE",
          "OMPI_COMM_WORLD_LOCAL_RANK",
          "GLOO_SOCKET_IFNAME");

  @TempDir Path tmp;

  @BeforeAll
  static void makeRig() throws Exception {
    HostsRig.start();
  }

  @AfterAll
  static void removeRig() throws Exception {
    HostsRig.stop();
  }

  /** SLURM's variables for {@code rank} (srun sets no MASTER_ADDR: the node list names it). */
  private static Map<String, String> slurm(int rank) {
    return Map.of(
        "SLURM_PROCID",
        "" + rank,
        "SLURM_NTASKS",
        "" + WORLD,
        "SLURM_NODEID",
        "" + rank / 2,
        "SLURM_LOCALID",
        "" + rank % 2,
        "SLURM_JOB_ID",
        SLURM_JOB_ID,
        "SLURM_JOB_NODELIST",
        HostsRig.NAME + "-node[0-1]",
        "SLURM_NNODES",
        "2",
        "SLURM_JOB_NUM_NODES",
        "2");
  }

  /** torchrun's variables for {@code rank}, run with --nnodes 2 --master_addr node 0. */
  private static Map<String, String> torchrun(int rank) {
    return Map.of(
        "MASTER_ADDR", HostsRig.NODE0_JOB,
        "MASTER_PORT", "" + TORCHRUN_PORT,
        "RANK", "" + rank,
        "WORLD_SIZE", "" + WORLD,
        "LOCAL_RANK", "" + rank % 2,
        "LOCAL_WORLD_SIZE", "2",
        "GROUP_RANK", "" + rank / 2);
  }

  /** Starts {@code rank} on its node (ranks 0 and 1 on node 0), logging to NAME-rankR.log. */
  private Process start(int rank, Map<String, String> launcher, String name, List<String> args)
      throws Exception {
    List<String> train =
        new ArrayList<>(
            List.of(
                "train",
                "--root",
                Datasets.patternV30().toString(),
                "--batch-size",
                "6",
                "--buffer-size",
                "20",
                "--n-action-steps",
                "3",
                "--log-freq",
                "5",
                "--dist-timeout",
                "" + DIST_TIMEOUT_S,
                "--steps",
                "10",
                "--save-freq",
                "5"));
    train.addAll(args);
    ProcessBuilder pb =
        new ProcessBuilder(HostsRig.on(rank / 2, Processes.cli(train.toArray(String[]::new))))
            .directory(Fixtures.repoRoot().toFile())
            .redirectErrorStream(true)
            .redirectOutput(log(name, rank).toFile());
    LAUNCHER_VARIABLES.forEach(pb.environment()::remove);
    pb.environment().putAll(launcher);
    // As the SLURM launcher does: one secret per job, the same on every node.
    pb.environment().put("ROBOSTREAM_JOB_SECRET", "cross-host-test-" + name + "-0123456789");
    return pb.start();
  }

  private Path log(String name, int rank) {
    return tmp.resolve(name + "-rank" + rank + ".log");
  }

  /** Waits for {@code p}; its exit code. */
  private int finish(Process p, String name, int rank) throws Exception {
    if (!p.waitFor(180, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError(name + " rank " + rank + " ran past 180 s:\n" + logText(name, rank));
    }
    return p.exitValue();
  }

  private String logText(String name, int rank) throws Exception {
    return Files.readString(log(name, rank));
  }

  /** Every rank's log, for a failure's message. */
  private String logs(String name) throws Exception {
    StringBuilder all = new StringBuilder();
    for (int r = 0; r < WORLD; r++) {
      if (Files.exists(log(name, r))) {
        all.append("--- rank ").append(r).append(":\n").append(logText(name, r));
      }
    }
    return all.toString();
  }

  @Test
  void fourRanksOnTwoHostsTrainOneModelAndResumeExactlyAfterNodeOneDies() throws Exception {
    Path straight = tmp.resolve("straight");
    List<String> out = List.of("--output-dir", straight.toString());

    // SLURM: node 0's ranks first, so the store can be probed before node 1 joins.
    List<Process> ranks = new ArrayList<>();
    for (int r = 0; r < 2; r++) {
      ranks.add(start(r, slurm(r), "slurm", out));
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (!HostsRig.connects(1, HostsRig.NODE0_JOB, SLURM_PORT)) {
      assertTrue(ranks.get(0).isAlive(), "rank 0 ended before serving: " + logs("slurm"));
      assertTrue(
          System.nanoTime() < deadline,
          "rank 0's store never became reachable from node 1: " + logs("slurm"));
      Thread.sleep(500);
    }
    // Rank 0's front listens on the job network's address only: not on node 0's data address (which
    // the Hub namespace shares), not on its loopback; the Hub has no route to the job network.
    assertFalse(HostsRig.connects("hub", HostsRig.NODE0_JOB, SLURM_PORT), "hub to the job net");
    assertFalse(HostsRig.connects("hub", HostsRig.NODE0_DATA, SLURM_PORT), "hub to node 0");
    assertFalse(HostsRig.connects(0, "127.0.0.1", SLURM_PORT), "node 0's loopback");
    for (int r = 2; r < WORLD; r++) {
      ranks.add(start(r, slurm(r), "slurm", out));
    }
    for (int r = 0; r < WORLD; r++) {
      assertEquals(0, finish(ranks.get(r), "slurm", r), logs("slurm"));
      String text = logText("slurm", r);
      assertTrue(text.contains("rank " + r + " of 4 (SLURM_PROCID/SLURM_NTASKS)"), text);
      assertTrue(text.contains("rendezvous at " + HostsRig.NAME + "-node0:" + SLURM_PORT), text);
    }
    oneModel(straight);

    // torchrun: node 1's ranks die after step 7; node 0's give up, bounded; all four resume.
    Path halted = tmp.resolve("halted");
    List<String> halt = List.of("--output-dir", halted.toString(), "--halt-after-step", "7");
    List<Process> first = new ArrayList<>();
    for (int r = 0; r < WORLD; r++) {
      first.add(start(r, torchrun(r), "halt", r < 2 ? out(halted) : halt));
    }
    for (int r = 2; r < WORLD; r++) {
      assertEquals(137, finish(first.get(r), "halt", r), logs("halt"));
    }
    long died = System.nanoTime();
    for (int r = 0; r < 2; r++) {
      assertNotEquals(0, finish(first.get(r), "halt", r), logs("halt"));
      assertTrue(
          logText("halt", r).contains("restart every rank with --resume-from"), logs("halt"));
    }
    long waited = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - died);
    assertTrue(waited < DIST_TIMEOUT_S + 15, "node 0 gave up in " + waited + " s");

    List<String> resume = new ArrayList<>(out(halted));
    resume.addAll(List.of("--resume-from", halted.resolve("checkpoint-5").toString()));
    List<Process> again = new ArrayList<>();
    for (int r = 0; r < WORLD; r++) {
      again.add(start(r, torchrun(r), "resume", resume));
    }
    for (int r = 0; r < WORLD; r++) {
      assertEquals(0, finish(again.get(r), "resume", r), logs("resume"));
      assertTrue(logText("resume", r).contains("rank " + r + " of 4 (RANK/WORLD_SIZE)"));
    }
    // The uninterrupted run's checkpoint, to the byte: weights, Adam state, data position.
    for (int r = 0; r < WORLD; r++) {
      for (String file :
          List.of(
              "policy/model.safetensors",
              "policy/optimizer.safetensors",
              "dataset_state.json",
              "trainer_state.json")) {
        Path part = Path.of("checkpoint-10", "rank" + r, file);
        assertEquals(-1L, Files.mismatch(straight.resolve(part), halted.resolve(part)), "" + part);
      }
    }
  }

  private static List<String> out(Path dir) {
    return List.of("--output-dir", dir.toString());
  }

  /**
   * One model: every rank trained (a loss in its metrics), each writes its own part of each
   * checkpoint into the shared folder, the four replicas are byte-identical, and rank 0's is the
   * run's model.
   */
  private static void oneModel(Path run) throws Exception {
    for (int step : new int[] {5, 10}) {
      Path ckpt = run.resolve("checkpoint-" + step);
      assertTrue(Files.isRegularFile(ckpt.resolve("step")), ckpt.toString());
      for (int r = 0; r < WORLD; r++) {
        for (String file : List.of("model.safetensors", "optimizer.safetensors")) {
          Path part = ckpt.resolve("rank" + r).resolve("policy").resolve(file);
          assertEquals(
              -1L, Files.mismatch(ckpt.resolve("rank0/policy").resolve(file), part), "" + part);
        }
      }
      assertEquals(
          -1L,
          Files.mismatch(
              ckpt.resolve("rank0/policy/model.safetensors"),
              ckpt.resolve("model/model.safetensors")));
    }
    Map<Integer, Boolean> trained = new HashMap<>();
    for (int r = 0; r < WORLD; r++) {
      Path metrics = run.resolve("metrics/rank" + r + ".jsonl");
      trained.put(r, Files.readString(metrics).contains("\"loss\""));
    }
    assertEquals(Map.of(0, true, 1, true, 2, true, 3, true), trained, "ranks that trained");
  }
}
