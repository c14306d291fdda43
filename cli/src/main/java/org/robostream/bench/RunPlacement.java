package org.robostream.bench;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.OptionalInt;
import org.robostream.stream.RankWorld;

/**
 * Where a benchmark process ran, recorded in its result so that results gathered from several nodes
 * say what each one measured: the rank and world size it streamed with (world 1: it read the whole
 * dataset, as the reference's per-node benchmark does), whether the dataset was split over the
 * ranks the environment names and which variables named them, the task's own rank and world size as
 * its launcher numbered it (SLURM, torchrun, MPI: recorded split or not, so results of the tasks of
 * one job stay told apart), the node's index ({@code SLURM_NODEID}, else torchrun's {@code
 * GROUP_RANK}; null without either) and the host name. Immutable.
 */
public record RunPlacement(
    int rank,
    int worldSize,
    boolean splitByRank,
    String rankSource,
    int taskRank,
    int taskWorldSize,
    Integer node,
    String host) {
  public static RunPlacement of(RankWorld rankWorld, boolean splitByRank, Map<String, String> env) {
    // torchrun names the node by GROUP_RANK (its --node_rank): results of two nodes stay apart.
    String node = env.getOrDefault("SLURM_NODEID", env.get("GROUP_RANK"));
    Integer nodeId = null;
    if (node != null && node.strip().matches("\\d+")) {
      nodeId = Integer.valueOf(node.strip());
    }
    RankWorld task = RankWorld.resolve(OptionalInt.empty(), OptionalInt.empty(), env);
    return new RunPlacement(
        rankWorld.rank(),
        rankWorld.world(),
        splitByRank,
        splitByRank ? rankWorld.source() : "not split",
        task.rank(),
        task.world(),
        nodeId,
        hostName());
  }

  /**
   * Adds {@code rank}, {@code world_size} (as streamed), {@code split_by_rank}, {@code
   * rank_source}, {@code task_rank}, {@code task_world_size} (as launched), {@code node} and {@code
   * hostname}.
   */
  public void addTo(Map<String, Object> result) {
    result.put("rank", rank);
    result.put("world_size", worldSize);
    result.put("split_by_rank", splitByRank);
    result.put("rank_source", rankSource);
    result.put("task_rank", taskRank);
    result.put("task_world_size", taskWorldSize);
    result.put("node", node);
    result.put("hostname", host);
  }

  /**
   * What the result files' names add so that two tasks writing to one {@code --out-dir} never
   * overwrite each other: {@code _node<N>_rank<R>} when the launcher started several tasks, with
   * the host name in place of {@code node<N>} when no launcher numbered the nodes; nothing for a
   * process alone (the reference's file name).
   */
  public String fileSuffix() {
    if (taskWorldSize <= 1) {
      return "";
    }
    // The node in the name, whatever it is called: summarize totals frames/s per node from these.
    String where = host.replaceAll("[^A-Za-z0-9.-]", "");
    if (node != null) {
      where = "node" + node;
    }
    return (where.isEmpty() ? "" : "_" + where) + "_rank" + taskRank;
  }

  private static String hostName() {
    // The kernel's name first: InetAddress may wait on DNS on a compute node.
    try {
      return Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
    } catch (IOException e) {
      try {
        return InetAddress.getLocalHost().getHostName();
      } catch (IOException unknown) {
        return "";
      }
    }
  }
}
