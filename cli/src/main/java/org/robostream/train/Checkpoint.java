package org.robostream.train;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.robostream.stream.StreamingDataset;

/**
 * The layout of a training checkpoint, {@code <output>/checkpoint-<step>/}: {@code step}, and per
 * rank {@code rank<r>/dataset_state.json} and {@code rank<r>/policy.json} (each rank trains its own
 * policy: there is no gradient all-reduce), plus {@code policy.json}, rank 0's policy, as the
 * model. Every file is written under a temporary name and moved into place, so a crash never leaves
 * half a file. Stateless.
 */
public final class Checkpoint {
  private Checkpoint() {}

  /** Writes one rank's part of checkpoint {@code step}; returns the checkpoint folder. */
  public static Path write(
      Path outputDir, int step, int rank, String datasetState, LinearPolicy policy)
      throws IOException {
    Path dir = outputDir.resolve("checkpoint-" + step);
    Path rankDir = dir.resolve("rank" + rank);
    Files.createDirectories(rankDir);
    atomically(rankDir.resolve("dataset_state.json"), tmp -> Files.writeString(tmp, datasetState));
    if (policy != null) {
      atomically(rankDir.resolve("policy.json"), policy::save);
      if (rank == 0) {
        atomically(dir.resolve("policy.json"), policy::save);
      }
    }
    atomically(dir.resolve("step"), tmp -> Files.writeString(tmp, Integer.toString(step)));
    return dir;
  }

  /**
   * The checkpoint folder {@code given} names, checked before anything is read from it. A relative
   * path is resolved against the working directory (the message says so, with the absolute path it
   * became); a training output folder is not a checkpoint, and the message names its latest one
   * instead of guessing.
   *
   * @throws IllegalArgumentException naming the path and what a checkpoint folder looks like
   */
  public static Path locate(Path given) throws IOException {
    Path absolute = given.toAbsolutePath().normalize();
    String where =
        given.isAbsolute()
            ? absolute.toString()
            : given + " (relative to the working directory: " + absolute + ")";
    if (!Files.isDirectory(absolute)) {
      throw new IllegalArgumentException(
          "checkpoint "
              + where
              + " does not exist; expected a"
              + " folder <output-dir>/checkpoint-<step> written by train");
    }
    if (Files.isRegularFile(absolute.resolve("step"))) {
      return absolute;
    }
    Path latest = latestIn(absolute);
    throw new IllegalArgumentException(
        "checkpoint "
            + where
            + " is not a checkpoint folder (no"
            + " step file)"
            + (latest == null
                ? "; expected <output-dir>/checkpoint-<step>"
                : "; it holds checkpoints, the latest is " + latest));
  }

  /** The highest-step complete checkpoint directly under {@code outputDir}, or null. */
  static Path latestIn(Path outputDir) throws IOException {
    Path best = null;
    int bestStep = -1;
    try (var children = Files.list(outputDir)) {
      for (Path child : children.toList()) {
        String name = child.getFileName().toString();
        if (name.matches("checkpoint-\\d{1,9}") && Files.isRegularFile(child.resolve("step"))) {
          int step = Integer.parseInt(name.substring("checkpoint-".length()));
          if (step > bestStep) {
            bestStep = step;
            best = child;
          }
        }
      }
    }
    return best;
  }

  /** The step a checkpoint was taken at. */
  public static int step(Path checkpoint) throws IOException {
    Path file = checkpoint.resolve("step");
    if (!Files.isRegularFile(file)) {
      throw new IOException(checkpoint + " is not a checkpoint: it has no step file");
    }
    return Integer.parseInt(Files.readString(file).strip());
  }

  /**
   * Continues {@code builder} from {@code checkpoint}: the dataset state of the rank the builder
   * streams as ({@link StreamingDataset.Builder#rankWorld()}: its explicit rank, else the
   * environment's), else rank 0's. The caller never resolves its rank itself.
   *
   * @return the step the checkpoint was taken at
   */
  public static int resume(Path checkpoint, StreamingDataset.Builder builder) throws IOException {
    builder.resumeFrom(Files.readString(stateFile(checkpoint, builder.rankWorld().rank())));
    return step(checkpoint);
  }

  /**
   * This rank's dataset state, else rank 0's (every rank of a checkpoint holds the same position; a
   * resume with another world size reads rank 0's).
   */
  public static Path stateFile(Path checkpoint, int rank) throws IOException {
    return ownOrFirst(checkpoint, rank, "dataset_state.json");
  }

  /** This rank's policy, else rank 0's (a resume with more ranks than were saved). */
  public static Path policyFile(Path checkpoint, int rank) throws IOException {
    return ownOrFirst(checkpoint, rank, "policy.json");
  }

  private static Path ownOrFirst(Path checkpoint, int rank, String name) throws IOException {
    Path own = checkpoint.resolve("rank" + rank).resolve(name);
    if (Files.isRegularFile(own)) {
      return own;
    }
    Path first = checkpoint.resolve("rank0").resolve(name);
    if (!Files.isRegularFile(first)) {
      String looked = rank == 0 ? "rank0/" : "rank" + rank + "/ or rank0/";
      throw new IOException(
          "checkpoint " + checkpoint + " holds no " + name + " (looked in " + looked + ")");
    }
    return first;
  }

  private interface Writer {
    void write(Path file) throws IOException;
  }

  private static void atomically(Path target, Writer writer) throws IOException {
    Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
    writer.write(tmp);
    Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }
}
