package org.robostream.torch.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.robostream.stream.RankWorld;

/** Where ranks meet, as each launcher's environment says it. */
class RendezvousTest {
  private static Rendezvous of(Map<String, String> env) {
    return Rendezvous.fromEnvironment(
        RankWorld.resolve(OptionalInt.empty(), OptionalInt.empty(), env), env);
  }

  @Test
  void torchrunNamesEverything() {
    Rendezvous r =
        of(
            Map.of(
                "MASTER_ADDR", "10.0.0.5",
                "MASTER_PORT", "29511",
                "RANK", "3",
                "WORLD_SIZE", "8",
                "LOCAL_RANK", "1"));
    assertEquals(new Rendezvous("10.0.0.5", 29511, 3, 8, 1, r.source()), r);
    assertTrue(r.describe().startsWith("rank 3 of 8 ("), r.describe());
    assertTrue(r.describe().endsWith("rendezvous at 10.0.0.5:29511"), r.describe());
  }

  @Test
  void slurmMeetsOnTheFirstNodeAtAPortFromTheJobId() {
    Rendezvous r =
        of(
            Map.of(
                "SLURM_PROCID", "5",
                "SLURM_NTASKS", "8",
                "SLURM_LOCALID", "1",
                "SLURM_JOB_NODELIST", "gpu[07-10,12],login1",
                "SLURM_JOB_ID", "123456"));
    assertEquals("gpu07", r.host());
    assertEquals(15000 + 123456 % 20000, r.port());
    assertEquals(5, r.rank());
    assertEquals(8, r.world());
    assertEquals(1, r.localRank());
    // MASTER_ADDR / MASTER_PORT win when the job script sets them.
    Rendezvous set =
        of(
            Map.of(
                "SLURM_PROCID", "0",
                "SLURM_NTASKS", "2",
                "SLURM_JOB_NODELIST", "n1",
                "SLURM_JOB_ID", "7",
                "MASTER_ADDR", "head",
                "MASTER_PORT", "4000"));
    assertEquals("head", set.host());
    assertEquals(4000, set.port());
  }

  @Test
  void mpiNeedsTheAddressExported() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> of(Map.of("OMPI_COMM_WORLD_RANK", "1", "OMPI_COMM_WORLD_SIZE", "4")));
    assertTrue(e.getMessage().contains("set MASTER_ADDR"), e.getMessage());
    assertTrue(e.getMessage().contains("mpirun -x MASTER_ADDR -x MASTER_PORT"), e.getMessage());
    Rendezvous r =
        of(
            Map.of(
                "OMPI_COMM_WORLD_RANK", "1",
                "OMPI_COMM_WORLD_SIZE", "4",
                "OMPI_COMM_WORLD_LOCAL_RANK", "1",
                "MASTER_ADDR", "h0"));
    assertEquals(Rendezvous.TORCHRUN_DEFAULT_PORT, r.port());
    assertEquals(1, r.localRank());
  }

  @Test
  void aWorldOfOneMeetsNobodyAndBadValuesAreNamed() {
    assertEquals(1, of(Map.of()).world());
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                of(
                    Map.of(
                        "RANK", "0", "WORLD_SIZE", "2", "MASTER_ADDR", "h", "MASTER_PORT", "x1")));
    assertTrue(e.getMessage().contains("MASTER_PORT=x1 is not a number"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new Rendezvous("h", 70000, 0, 2, 0, "test"));
  }

  @Test
  void theLocalRankComesFromTheLauncherThatNumberedTheRanks() {
    // srun running torchrun: SLURM named the rank, so SLURM_LOCALID is the task's local rank.
    Rendezvous r =
        of(
            Map.of(
                "SLURM_PROCID", "3",
                "SLURM_NTASKS", "4",
                "SLURM_LOCALID", "1",
                "LOCAL_RANK", "0",
                "SLURM_JOB_NODELIST", "n1",
                "SLURM_JOB_ID", "9"));
    assertEquals(1, r.localRank());
    IllegalArgumentException negative =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                of(Map.of("RANK", "1", "WORLD_SIZE", "2", "LOCAL_RANK", "-1", "MASTER_ADDR", "h")));
    assertTrue(negative.getMessage().contains("local rank is -1"), negative.getMessage());
    IllegalArgumentException job =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                of(
                    Map.of(
                        "SLURM_PROCID", "0",
                        "SLURM_NTASKS", "2",
                        "SLURM_JOB_NODELIST", "n1",
                        "SLURM_JOB_ID", "12_3")));
    assertTrue(
        job.getMessage().contains("SLURM_JOB_ID=12_3 is not a job number"), job.getMessage());
  }

  @Test
  void slurmNodeLists() {
    assertEquals("node01", SlurmNodeList.firstHost("node[01-04,07],gpu2"));
    assertEquals("gpu-7-ib", SlurmNodeList.firstHost("gpu-[7-9]-ib"));
    assertEquals("a", SlurmNodeList.firstHost("a,b"));
    assertEquals("x3", SlurmNodeList.firstHost(" x[3] "));
    for (String bad : new String[] {"", "node[", "node[]", "node[a-b]", ",n1"}) {
      assertThrows(IllegalArgumentException.class, () -> SlurmNodeList.firstHost(bad), bad);
    }
  }

  @Test
  void nodesComeFromTheLauncherAndRankZeroOnLoopbackIsRefusedAcrossNodes() {
    assertEquals(2, Rendezvous.nodes(Map.of("SLURM_NNODES", "2")));
    assertEquals(3, Rendezvous.nodes(Map.of("SLURM_JOB_NUM_NODES", "3")));
    assertEquals(2, Rendezvous.nodes(Map.of("WORLD_SIZE", "4", "LOCAL_WORLD_SIZE", "2")));
    assertEquals(1, Rendezvous.nodes(Map.of("WORLD_SIZE", "4", "LOCAL_WORLD_SIZE", "0")));
    assertEquals(1, Rendezvous.nodes(Map.of()));
    Rendezvous slurm =
        Rendezvous.fromEnvironment(
            RankWorld.resolve(
                OptionalInt.empty(),
                OptionalInt.empty(),
                Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "4")),
            Map.of(
                "SLURM_PROCID", "0", "SLURM_NTASKS", "4", "SLURM_JOB_NODELIST", "localhost,gpu2"));
    DistributedException e =
        assertThrows(DistributedException.class, () -> DataParallel.loopbackAcrossNodes(slurm, 2));
    assertTrue(e.getMessage().contains("is 127.0.0.1 (loopback) on this node"), e.getMessage());
    assertTrue(e.getMessage().contains("Set MASTER_ADDR"), e.getMessage());
    DataParallel.loopbackAcrossNodes(slurm, 1); // one node: loopback is right
  }
}
