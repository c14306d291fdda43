package org.robostream.train;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.robostream.FileException;
import org.robostream.JsonFields;
import org.robostream.framecache.CacheFolder;
import org.robostream.stream.StreamState;
import org.robostream.stream.StreamingDataset;
import org.robostream.torch.dist.DataParallel;
import org.robostream.torch.policy.PolicyTrainer;

/**
 * The layout of a training checkpoint, {@code <output>/checkpoint-<step>/}: per rank {@code
 * rank<r>/} with {@code dataset_state.json}, {@code trainer_state.json} ({@link TrainerState}) and,
 * unless {@code --dummy}, {@code policy/} ({@link PolicyTrainer} state); {@code model/}, rank 0's
 * replica (the replicas are byte-identical), readable by {@code safetensors.torch.load_file};
 * {@code step}, written last.
 *
 * <p>Made in {@code .checkpoint-<step>.incomplete/} and renamed, so a kill leaves the old
 * checkpoint or the new one, never a mix. Files are created {@code O_EXCL} under random names,
 * never through a planted link, in an output folder only this user can change ({@link
 * #outputFolder}). Stateless.
 */
public final class Checkpoint {
  public static final String POLICY = "policy";
  public static final String MODEL = "model";

  private Checkpoint() {}

  /**
   * The output folder {@code dir} names, made (0700) when missing, as its real path.
   *
   * @throws IllegalArgumentException when another user could change what is in it (its links would
   *     redirect the run's writes, its files replace its checkpoints), or it cannot be made
   */
  public static Path outputFolder(Path dir) {
    CacheFolder.Checked checked;
    try {
      checked = CacheFolder.prepare(dir);
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "--output-dir " + dir.toAbsolutePath() + " cannot be made: " + e, e);
    }
    if (checked.distrust() != null) {
      throw new IllegalArgumentException(
          "--output-dir "
              + dir.toAbsolutePath()
              + " cannot hold checkpoints: "
              + checked.distrust()
              + "; another user could plant links there that redirect the run's writes, or"
              + " replace its checkpoints. Use a folder only you can write, e.g. mkdir -m 700 a"
              + " folder of yours inside it");
    }
    return checked.real();
  }

  /**
   * Writes checkpoint {@code step} of a rank alone ({@link #stage}, {@link #writeRank}, {@link
   * #publish}); returns the checkpoint folder. Ranks of a group: rank 0 stages, they meet, each
   * writes its part, they meet, rank 0 publishes, so a checkpoint is never complete before every
   * rank's part is on disk.
   */
  public static Path write(
      Path outputDir, int rank, String datasetState, TrainerState state, PolicyTrainer policy)
      throws IOException {
    stage(outputDir, state.step());
    writeRank(outputDir, rank, datasetState, state, policy);
    return publish(outputDir, state.step(), 1);
  }

  /** Rank 0, before any rank writes: an empty staging folder for checkpoint {@code step}. */
  public static void stage(Path outputDir, int step) throws IOException {
    Path staging = staging(outputDir, step);
    removeTree(staging); // a killed save's leftovers (ours: nobody else can write the folder)
    Files.createDirectory(staging);
  }

  /**
   * Writes one rank's part of checkpoint {@code step} into the staging folder rank 0 made.
   *
   * @throws IOException when that folder is not here: this rank's {@code --output-dir} is not the
   *     one rank 0 writes (a folder that is not shared by every node)
   */
  public static Path writeRank(
      Path outputDir, int rank, String datasetState, TrainerState state, PolicyTrainer policy)
      throws IOException {
    Path dir = staging(outputDir, state.step());
    if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
      throw new IOException(notShared(outputDir, state.step(), "rank 0's staging folder " + dir));
    }
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

  /**
   * Rank 0, once every rank's part is on disk: checks that each of the {@code world} ranks' parts
   * is here, writes the {@code step} file and renames the staging folder to {@code
   * checkpoint-<step>}. A checkpoint already there (a resumed run writing the same step again) is
   * moved aside first and removed after.
   *
   * @throws IOException when a rank's part is missing: it wrote another folder (not shared)
   */
  public static Path publish(Path outputDir, int step, int world) throws IOException {
    Path staging = staging(outputDir, step);
    for (int r = 0; r < world; r++) {
      Path part = staging.resolve("rank" + r).resolve("trainer_state.json");
      if (!Files.isRegularFile(part, LinkOption.NOFOLLOW_LINKS)) {
        throw new IOException(notShared(outputDir, step, "rank " + r + "'s part " + part));
      }
    }
    atomically(staging.resolve("step"), tmp -> Files.writeString(tmp, Integer.toString(step)));
    Path target = outputDir.resolve("checkpoint-" + step);
    Path replaced = outputDir.resolve(".checkpoint-" + step + ".replaced");
    boolean replacing = Files.exists(target, LinkOption.NOFOLLOW_LINKS);
    if (replacing) {
      removeTree(replaced);
      Files.move(target, replaced, StandardCopyOption.ATOMIC_MOVE);
    }
    Files.move(staging, target, StandardCopyOption.ATOMIC_MOVE);
    if (replacing) {
      removeTree(replaced);
    }
    return target;
  }

  /**
   * --dummy ranks of several (they meet nobody): each writes its part into {@code
   * checkpoint-<step>} itself, then the {@code step} file. The part's two files go into a fresh
   * folder that replaces the old part whole, so a kill never leaves one file of each save; between
   * the two renames the part is missing, which a resume names.
   */
  public static void writeRankInPlace(
      Path outputDir, int rank, String datasetState, TrainerState state) throws IOException {
    Path dir = outputDir.resolve("checkpoint-" + state.step());
    Files.createDirectories(dir);
    Path staging = dir.resolve(".rank" + rank + ".staging");
    removeTree(staging); // a killed save's leftovers (ours: nobody else can write the folder)
    Files.createDirectory(staging);
    atomically(staging.resolve("dataset_state.json"), tmp -> Files.writeString(tmp, datasetState));
    atomically(staging.resolve("trainer_state.json"), state::save);
    Path part = dir.resolve("rank" + rank);
    Path replaced = dir.resolve(".rank" + rank + ".replaced");
    if (Files.exists(part, LinkOption.NOFOLLOW_LINKS)) {
      removeTree(replaced);
      Files.move(part, replaced, StandardCopyOption.ATOMIC_MOVE);
    }
    Files.move(staging, part, StandardCopyOption.ATOMIC_MOVE);
    removeTree(replaced);
    atomically(dir.resolve("step"), tmp -> Files.writeString(tmp, Integer.toString(state.step())));
  }

  /**
   * Before a group's first step: every rank must see rank 0's output folder (one folder that every
   * node shares), or the checkpoints would miss the parts of ranks that wrote elsewhere. Rank 0
   * makes a file of a random name there, each rank looks for it, and they count who saw it: all
   * ranks stop at once, naming the folder, when one did not.
   *
   * @throws IOException on every rank when a rank does not see the file
   */
  public static void checkShared(Path outputDir, DataParallel group) throws IOException {
    long token =
        group.broadcastLong(
            group.rank() == 0 ? new java.security.SecureRandom().nextLong() >>> 11 : 0);
    Path probe = outputDir.resolve(".shared-check-" + token);
    if (group.rank() == 0) {
      Files.createFile(probe);
    }
    int saw;
    try {
      group.barrier("the output folder's check");
      saw =
          group.ranksWhere(
              Files.isRegularFile(probe, LinkOption.NOFOLLOW_LINKS), "the output folder's check");
    } finally {
      if (group.rank() == 0) {
        Files.deleteIfExists(probe);
      }
    }
    if (saw < group.world()) {
      throw new IOException(
          notShared(
              outputDir,
              (group.world() - saw) + " of " + group.world() + " ranks do not see rank 0's file",
              probe.getFileName().toString()));
    }
  }

  /** Why checkpoint {@code step} cannot be made: {@code what} is missing from the output folder. */
  private static String notShared(Path outputDir, int step, String what) {
    return notShared(outputDir, "checkpoint " + step + ": " + what + " is not there", null);
  }

  private static String notShared(Path outputDir, String problem, String file) {
    return "--output-dir: "
        + problem
        + (file == null ? "" : " " + file)
        + ". Every rank must write the same --output-dir: on several nodes, a folder they all"
        + " share (a network file system), not a node-local path ("
        + outputDir
        + " here)";
  }

  private static Path staging(Path outputDir, int step) {
    return outputDir.resolve(".checkpoint-" + step + ".incomplete");
  }

  /** Removes {@code root} and what is in it, links as links (never followed). */
  private static void removeTree(Path root) throws IOException {
    if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    Files.walkFileTree(
        root,
        new java.nio.file.SimpleFileVisitor<>() {
          @Override
          public java.nio.file.FileVisitResult visitFile(
              Path file, java.nio.file.attribute.BasicFileAttributes attrs) throws IOException {
            Files.delete(file);
            return java.nio.file.FileVisitResult.CONTINUE;
          }

          @Override
          public java.nio.file.FileVisitResult postVisitDirectory(Path dir, IOException e)
              throws IOException {
            if (e != null) {
              throw e;
            }
            Files.delete(dir);
            return java.nio.file.FileVisitResult.CONTINUE;
          }
        });
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
    if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
      throw new IOException(checkpoint + " is not a checkpoint: it has no step file");
    }
    if (Files.size(file) > 32) {
      throw new IOException(file + " does not hold a step number (" + Files.size(file) + " bytes)");
    }
    // Bytes as Latin-1: any byte is a character, so garbage is "not a step number", not a decoder
    // error that names no file.
    String text =
        new String(Files.readAllBytes(file), java.nio.charset.StandardCharsets.ISO_8859_1).strip();
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
    int rank = builder.rankWorld().rank();
    builder.resumeFrom(readState(stateFile(checkpoint, rank)));
    int step = step(checkpoint);
    Path trainer = trainerStateFile(checkpoint, rank);
    int saved = TrainerState.load(trainer).step();
    if (saved != step) {
      throw new FileException(
          trainer.toString(),
          "says step "
              + saved
              + ", but the checkpoint's step file says "
              + step
              + ": the parts are of different saves (the checkpoint was altered)");
    }
    return step;
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

  /**
   * Writes {@code target} through a new file of a random name beside it ({@code O_EXCL}, 0600:
   * never a file or link someone else put there), moved into place.
   */
  private static void atomically(Path target, Writer writer) throws IOException {
    Path tmp = Files.createTempFile(target.getParent(), "." + target.getFileName() + ".", ".tmp");
    try {
      writer.write(tmp);
      Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }
}
