package org.robostream.train;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.robostream.FileException;
import org.robostream.JsonFields;
import org.robostream.stream.StreamState;
import org.robostream.stream.StreamingDataset;
import org.robostream.torch.policy.PolicyTrainer;

/**
 * The layout of a training checkpoint, {@code <output>/checkpoint-<step>/}:
 *
 * <ul>
 *   <li>per rank, {@code rank<r>/}: {@code dataset_state.json} (the loader's position), {@code
 *       trainer_state.json} ({@link TrainerState}: step, optimizer steps, seed) and, unless the run
 *       was {@code --dummy}, {@code policy/} (the {@link PolicyTrainer}'s configuration, weights
 *       and Adam state): the rank's replica of the one model all ranks train (gradients are
 *       averaged every step, so the replicas are byte-identical);
 *   <li>{@code model/}: rank 0's replica as the run's model ({@code policy.json} and {@code
 *       model.safetensors}, which {@code safetensors.torch.load_file} reads in Python);
 *   <li>{@code step}, written last.
 * </ul>
 *
 * Every file is written under a temporary name and moved into place, so a crash never leaves half a
 * file. Stateless.
 */
public final class Checkpoint {
  public static final String POLICY = "policy";
  public static final String MODEL = "model";

  private Checkpoint() {}

  /**
   * Writes one rank's part of checkpoint {@code step} and marks the checkpoint complete; returns
   * the checkpoint folder. For a rank alone; ranks of a group write their parts ({@link
   * #writeRank}), meet, and rank 0 marks it ({@link #markComplete}), so a checkpoint is never
   * complete before every rank's part is on disk.
   */
  public static Path write(
      Path outputDir, int rank, String datasetState, TrainerState state, PolicyTrainer policy)
      throws IOException {
    Path dir = writeRank(outputDir, rank, datasetState, state, policy);
    markComplete(outputDir, state.step());
    return dir;
  }

  /** Writes one rank's part of checkpoint {@code step}, not its {@code step} file. */
  public static Path writeRank(
      Path outputDir, int rank, String datasetState, TrainerState state, PolicyTrainer policy)
      throws IOException {
    Path dir = outputDir.resolve("checkpoint-" + state.step());
    Path rankDir = dir.resolve("rank" + rank);
    Files.createDirectories(rankDir);
    atomically(rankDir.resolve("dataset_state.json"), tmp -> Files.writeString(tmp, datasetState));
    atomically(rankDir.resolve("trainer_state.json"), state::save);
    if (policy != null) {
      policy.save(rankDir.resolve(POLICY));
      if (rank == 0) {
        policy.saveModel(dir.resolve(MODEL));
      }
    }
    return dir;
  }

  /** Writes checkpoint {@code step}'s {@code step} file, last: the checkpoint is complete. */
  public static void markComplete(Path outputDir, int step) throws IOException {
    Path dir = outputDir.resolve("checkpoint-" + step);
    atomically(dir.resolve("step"), tmp -> Files.writeString(tmp, Integer.toString(step)));
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
    String text = Files.readString(file).strip();
    if (!text.matches("\\d{1,9}")) {
      throw new IOException(file + " does not hold a step number");
    }
    return Integer.parseInt(text);
  }

  /**
   * Continues {@code builder} from {@code checkpoint}: the dataset state of the rank the builder
   * streams as ({@link StreamingDataset.Builder#rankWorld()}: its explicit rank, else the
   * environment's), else rank 0's. The caller never resolves its rank itself.
   *
   * @return the step the checkpoint was taken at
   */
  public static int resume(Path checkpoint, StreamingDataset.Builder builder) throws IOException {
    builder.resumeFrom(readState(stateFile(checkpoint, builder.rankWorld().rank())));
    return step(checkpoint);
  }

  /** A dataset state holds thousands of segments at most: far under this. */
  static final long MAX_STATE_BYTES = 4L << 20;

  /**
   * The dataset state in {@code file}, checked field by field before anything uses it.
   *
   * @throws FileException naming the file and the field that is wrong
   */
  static String readState(Path file) {
    String text = JsonFields.read(file, MAX_STATE_BYTES).toString();
    try {
      StreamState.fromJson(text);
    } catch (IllegalArgumentException e) {
      throw new FileException(file.toString(), "is not a dataset state: " + e.getMessage(), e);
    }
    return text;
  }

  /**
   * This rank's dataset state, else rank 0's (every rank of a checkpoint holds the same position; a
   * resume with another world size reads rank 0's).
   */
  public static Path stateFile(Path checkpoint, int rank) throws IOException {
    return ownOrFirst(checkpoint, rank, "dataset_state.json");
  }

  /** This rank's trainer state, else rank 0's. */
  public static Path trainerStateFile(Path checkpoint, int rank) throws IOException {
    return ownOrFirst(checkpoint, rank, "trainer_state.json");
  }

  /**
   * Whether {@code rank}'s own folder belongs to the run that wrote this checkpoint: rank 0's
   * trainer state names how many ranks it had, and a folder past them is left over from an earlier
   * run that wrote the same step into the same output folder with more ranks.
   */
  private static boolean ownIsCurrent(Path checkpoint, int rank) {
    Path first = checkpoint.resolve("rank0").resolve("trainer_state.json");
    if (rank == 0 || !Files.isRegularFile(first)) {
      return true;
    }
    int world = TrainerState.load(first).worldSize();
    return world == 0 || rank < world;
  }

  /**
   * This rank's policy folder, else rank 0's (a resume with more ranks than were saved, or a folder
   * left from an earlier run with more ranks).
   */
  public static Path policyDir(Path checkpoint, int rank) throws IOException {
    Path own = checkpoint.resolve("rank" + rank).resolve(POLICY);
    if (Files.isDirectory(own) && ownIsCurrent(checkpoint, rank)) {
      return own;
    }
    Path first = checkpoint.resolve("rank0").resolve(POLICY);
    if (!Files.isDirectory(first)) {
      throw new IOException(
          "checkpoint "
              + checkpoint
              + " holds no policy (looked in rank"
              + rank
              + "/policy and rank0/policy): was it written by a --dummy run?");
    }
    return first;
  }

  private static Path ownOrFirst(Path checkpoint, int rank, String name) throws IOException {
    Path own = checkpoint.resolve("rank" + rank).resolve(name);
    if (Files.isRegularFile(own) && ownIsCurrent(checkpoint, rank)) {
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
