package org.robostream.stream;

import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * This process's rank and the world size: explicit values, else {@code SLURM_PROCID} / {@code
 * SLURM_NTASKS}, else {@code RANK} / {@code WORLD_SIZE}, else {@code OMPI_COMM_WORLD_RANK} / {@code
 * OMPI_COMM_WORLD_SIZE}, else (0, 1). Immutable.
 */
public record RankWorld(int rank, int world, String source) {
  public RankWorld {
    if (world < 1 || rank < 0 || rank >= world) {
      throw new IllegalArgumentException(
          "rank " + rank + " is outside world size " + world + " (from " + source + ")");
    }
  }

  public static RankWorld resolve(OptionalInt rank, OptionalInt world, Map<String, String> env) {
    if (rank.isPresent() || world.isPresent()) {
      if (rank.isEmpty() || world.isEmpty()) {
        throw new IllegalArgumentException("give both rank and world size, or neither");
      }
      return new RankWorld(rank.getAsInt(), world.getAsInt(), "arguments");
    }
    for (List<String> pair :
        List.of(
            List.of("SLURM_PROCID", "SLURM_NTASKS"),
            List.of("RANK", "WORLD_SIZE"),
            List.of("OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"))) {
      String r = env.get(pair.get(0));
      String w = env.get(pair.get(1));
      if (r != null && w != null) {
        try {
          return new RankWorld(
              Integer.parseInt(r.strip()),
              Integer.parseInt(w.strip()),
              pair.get(0) + "/" + pair.get(1));
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException(
              pair.get(0) + "=" + r + " / " + pair.get(1) + "=" + w + " are not integers", e);
        }
      }
    }
    return new RankWorld(0, 1, "default");
  }
}
