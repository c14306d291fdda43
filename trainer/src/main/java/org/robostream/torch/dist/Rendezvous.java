package org.robostream.torch.dist;

import java.util.Map;
import org.robostream.stream.RankWorld;

/**
 * Where and how the ranks of one run meet: rank 0's host and port (its c10d {@code TCPStore}), this
 * process's rank, the world size and its rank on the node (its GPU). Read from the environment of
 * torchrun ({@code MASTER_ADDR}, {@code MASTER_PORT}, {@code RANK}, {@code WORLD_SIZE}, {@code
 * LOCAL_RANK}), SLURM ({@code SLURM_PROCID}, ...; host: the first of {@code SLURM_JOB_NODELIST},
 * port {@code 15000 + SLURM_JOB_ID % 20000} so jobs sharing a node do not collide) or Open MPI
 * ({@code OMPI_COMM_WORLD_*}; MPI names no host, so {@code MASTER_ADDR} and {@code MASTER_PORT}
 * must be exported).
 *
 * <p>Rank and world follow {@link RankWorld}'s precedence, so the data a rank streams and the
 * replica it trains agree. Immutable.
 */
public record Rendezvous(String host, int port, int rank, int world, int localRank, String source) {
  /** The port torchrun uses when none is given. */
  public static final int TORCHRUN_DEFAULT_PORT = 29500;

  public Rendezvous {
    if (world < 1 || rank < 0 || rank >= world) {
      throw new IllegalArgumentException("rank " + rank + " is outside world size " + world);
    }
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("port " + port + " is outside 1-65535");
    }
  }

  /** A world of one: nothing to meet. */
  public static Rendezvous single() {
    return new Rendezvous("127.0.0.1", TORCHRUN_DEFAULT_PORT, 0, 1, 0, "default");
  }

  /**
   * The rendezvous of {@code ranks} (the loader's rank and world) from {@code env}.
   *
   * @throws IllegalArgumentException when a world of several ranks has no address to meet at, or a
   *     variable is not a number: the message names the variables to set
   */
  public static Rendezvous fromEnvironment(RankWorld ranks, Map<String, String> env) {
    if (ranks.world() == 1) {
      return new Rendezvous("127.0.0.1", TORCHRUN_DEFAULT_PORT, 0, 1, 0, ranks.source());
    }
    String source = ranks.source();
    // From the launcher that named the rank (the loader's precedence): under `srun torchrun`, say,
    // SLURM numbers the tasks and LOCAL_RANK is torchrun's own.
    int localRank =
        source.startsWith("SLURM")
            ? firstInt(env, 0, "SLURM_LOCALID")
            : source.startsWith("OMPI")
                ? firstInt(env, 0, "OMPI_COMM_WORLD_LOCAL_RANK")
                : firstInt(env, 0, "LOCAL_RANK", "SLURM_LOCALID", "OMPI_COMM_WORLD_LOCAL_RANK");
    if (localRank < 0) {
      throw new IllegalArgumentException("the local rank is " + localRank + ": not a rank");
    }
    String host = env.get("MASTER_ADDR");
    if (host == null || host.isBlank()) {
      String nodes = env.getOrDefault("SLURM_JOB_NODELIST", env.get("SLURM_NODELIST"));
      if (source.startsWith("SLURM") && nodes != null) {
        host = SlurmNodeList.firstHost(nodes);
      } else {
        throw new IllegalArgumentException(
            "rank "
                + ranks.rank()
                + " of "
                + ranks.world()
                + " ("
                + source
                + ") does not know where rank 0 listens: set MASTER_ADDR (and MASTER_PORT) as"
                + " torchrun does"
                + (source.startsWith("OMPI") ? " (mpirun -x MASTER_ADDR -x MASTER_PORT)" : ""));
      }
    }
    int port;
    if (env.get("MASTER_PORT") != null) {
      port = parse(env, "MASTER_PORT");
    } else if (source.startsWith("SLURM") && env.get("SLURM_JOB_ID") != null) {
      String job = env.get("SLURM_JOB_ID").strip();
      if (!job.matches("\\d{1,18}")) {
        throw new IllegalArgumentException(
            "SLURM_JOB_ID=" + job + " is not a job number: set MASTER_PORT");
      }
      port = 15000 + (int) (Long.parseLong(job) % 20000);
    } else {
      port = TORCHRUN_DEFAULT_PORT;
    }
    return new Rendezvous(host.strip(), port, ranks.rank(), ranks.world(), localRank, source);
  }

  /**
   * How many nodes the job spans, as its launcher says ({@code SLURM_NNODES}, {@code
   * SLURM_JOB_NUM_NODES}; torchrun: {@code WORLD_SIZE / LOCAL_WORLD_SIZE}), or 1 when none says.
   */
  public static int nodes(Map<String, String> env) {
    for (String name : new String[] {"SLURM_NNODES", "SLURM_JOB_NUM_NODES"}) {
      String v = env.get(name);
      if (v != null && v.strip().matches("\\d{1,9}")) {
        return Math.max(1, Integer.parseInt(v.strip()));
      }
    }
    String world = env.get("WORLD_SIZE");
    String local = env.get("LOCAL_WORLD_SIZE");
    if (world != null
        && local != null
        && world.strip().matches("\\d{1,9}")
        && local.strip().matches("[1-9]\\d{0,8}")) {
      return Math.max(1, Integer.parseInt(world.strip()) / Integer.parseInt(local.strip()));
    }
    return 1;
  }

  private static int firstInt(Map<String, String> env, int otherwise, String... names) {
    for (String name : names) {
      if (env.get(name) != null) {
        return parse(env, name);
      }
    }
    return otherwise;
  }

  private static int parse(Map<String, String> env, String name) {
    try {
      return Integer.parseInt(env.get(name).strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + "=" + env.get(name) + " is not a number", e);
    }
  }

  /** "rank 1 of 2 (RANK/WORLD_SIZE), rendezvous at host:port". */
  public String describe() {
    return "rank "
        + rank
        + " of "
        + world
        + " ("
        + source
        + "), rendezvous at "
        + host
        + ":"
        + port;
  }
}
