package org.robostream.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.robostream.stream.RankWorld;

/**
 * Result file names of a job's tasks name the node and the rank: SLURM's node index, else
 * torchrun's node rank, else the host name; a process alone keeps the reference's name.
 */
class RunPlacementTest {
  private static final RankWorld ALONE = new RankWorld(0, 1, "default");

  @Test
  void theNodeComesFromSlurmElseTorchrun() {
    Map<String, String> slurm =
        Map.of("SLURM_PROCID", "3", "SLURM_NTASKS", "4", "SLURM_NODEID", "1", "GROUP_RANK", "0");
    RunPlacement s = RunPlacement.of(ALONE, false, slurm);
    assertEquals(1, s.node(), "SLURM_NODEID first");
    assertEquals("_node1_rank3", s.fileSuffix());
    Map<String, String> torchrun = Map.of("RANK", "2", "WORLD_SIZE", "4", "GROUP_RANK", "1");
    RunPlacement t = RunPlacement.of(ALONE, false, torchrun);
    assertEquals(1, t.node());
    assertEquals("_node1_rank2", t.fileSuffix());
  }

  @Test
  void withoutANodeNumberTheHostNamesTheNode() {
    RunPlacement mpi = new RunPlacement(0, 1, false, "not split", 5, 8, null, "gpu-17.cluster");
    assertEquals("_gpu-17.cluster_rank5", mpi.fileSuffix());
    // Only file-name-safe characters of the host; none left: the rank alone.
    assertEquals(
        "_ab_rank1", new RunPlacement(0, 1, false, "not split", 1, 2, null, "a/b").fileSuffix());
    assertEquals("_rank1", new RunPlacement(0, 1, false, "not split", 1, 2, null, "").fileSuffix());
    assertEquals("", new RunPlacement(0, 1, false, "default", 0, 1, 0, "h").fileSuffix(), "alone");
  }
}
