package org.robostream.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.FileException;
import org.robostream.stream.Batch;
import org.robostream.stream.StreamingDataset;
import org.robostream.testing.Datasets;

/** Where a resume reads from, and what a wrong --resume-from path says. */
class CheckpointTest {
  @TempDir Path tmp;

  @Test
  void aWrittenCheckpointIsLocatedAndReadBack() throws IOException {
    Path dir = Checkpoint.write(tmp, 0, "{\"epoch\":0}", new TrainerState(40, 38, 42, 1), null);
    assertEquals(dir.toAbsolutePath(), Checkpoint.locate(dir));
    assertEquals(40, Checkpoint.step(dir));
    assertEquals(
        new TrainerState(40, 38, 42, 1), TrainerState.load(Checkpoint.trainerStateFile(dir, 3)));
    IOException noPolicy = assertThrows(IOException.class, () -> Checkpoint.policyDir(dir, 0));
    assertTrue(noPolicy.getMessage().contains("--dummy"), noPolicy.getMessage());
    assertEquals(
        "{\"epoch\":0}",
        Files.readString(Checkpoint.stateFile(dir, 3)),
        "another rank reads rank 0's state");
  }

  /**
   * --dummy ranks write their parts in place: a second save of one step replaces each part whole
   * (both its files from that save), leaves no staging or replaced folder, and keeps the other
   * rank's part as it was.
   */
  @Test
  void dummyRanksReplaceTheirPartWhole() throws IOException {
    Checkpoint.writeRankInPlace(tmp, 0, "{\"save\":1}", new TrainerState(5, 5, 42, 2));
    Checkpoint.writeRankInPlace(tmp, 1, "{\"save\":1}", new TrainerState(5, 5, 42, 2));
    Checkpoint.writeRankInPlace(tmp, 0, "{\"save\":2}", new TrainerState(5, 4, 42, 2));
    Path dir = tmp.resolve("checkpoint-5");
    assertEquals("{\"save\":2}", Files.readString(dir.resolve("rank0/dataset_state.json")));
    assertEquals(
        new TrainerState(5, 4, 42, 2), TrainerState.load(dir.resolve("rank0/trainer_state.json")));
    assertEquals("{\"save\":1}", Files.readString(dir.resolve("rank1/dataset_state.json")));
    assertEquals(5, Checkpoint.step(dir));
    try (var names = Files.list(dir)) {
      assertEquals(
          List.of("rank0", "rank1", "step"),
          names.map(p -> p.getFileName().toString()).sorted().toList());
    }
  }

  @Test
  void resumeGivesTheBuilderTheStateOfTheRankItStreamsAs() throws IOException {
    String[] states = new String[2];
    Checkpoint.stage(tmp, 9); // as a group saves: rank 0 stages, each writes, rank 0 publishes
    for (int rank = 0; rank < 2; rank++) {
      try (StreamingDataset ds = pattern(Map.of()).rank(rank, 2).build()) {
        Iterator<Batch> batches = ds.iterator();
        for (int i = 0; i <= rank; i++) { // the ranks' states differ: 1 and 2 batches consumed
          batches.next().close();
        }
        states[rank] = ds.state();
        Checkpoint.writeRank(tmp, rank, states[rank], new TrainerState(9, 9, 42, 2), null);
      }
    }
    Checkpoint.publish(tmp, 9, 2);
    Path checkpoint = tmp.resolve("checkpoint-9");
    for (Map<String, String> env :
        List.of(
            Map.of("RANK", "1", "WORLD_SIZE", "2"),
            Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "2"))) {
      StreamingDataset.Builder builder = pattern(env);
      assertEquals(9, Checkpoint.resume(checkpoint, builder));
      try (StreamingDataset ds = builder.build()) {
        assertEquals(states[ds.rankWorld().rank()], ds.state(), env.toString());
      }
    }
    // The same step written again by a run of one rank into the same folder: rank1/ is left from
    // the 2-rank run, and rank 1 of a later 2-rank resume reads rank 0's state, not that one.
    Checkpoint.write(tmp, 0, states[0], new TrainerState(9, 9, 42, 1), null);
    StreamingDataset.Builder builder = pattern(Map.of("RANK", "1", "WORLD_SIZE", "2"));
    Checkpoint.resume(checkpoint, builder);
    try (StreamingDataset ds = builder.build()) {
      assertEquals(1, ds.rankWorld().rank());
      assertEquals(states[0], ds.state(), "a folder past the writing run's ranks is not read");
    }
    assertEquals(
        checkpoint.resolve("rank0").resolve("trainer_state.json"),
        Checkpoint.trainerStateFile(checkpoint, 1));
  }

  static StreamingDataset.Builder pattern(Map<String, String> env) {
    return StreamingDataset.builder(Datasets.patternV30())
        .batchSize(8)
        .bufferSize(8)
        .maxNumShards(2)
        .returnUint8(true)
        .environment(env);
  }

  @Test
  void aMissingRelativePathSaysWhatItWasResolvedAgainst() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> Checkpoint.locate(Path.of("outputs/no-such-run/checkpoint-7")));
    String cwd = Path.of("").toAbsolutePath().toString();
    assertTrue(
        e.getMessage().contains("relative to the working directory: " + cwd), e.getMessage());
    assertTrue(e.getMessage().contains("does not exist"), e.getMessage());
    assertTrue(e.getMessage().contains("checkpoint-<step>"), e.getMessage());
  }

  @Test
  void anOutputFolderIsRefusedNamingItsLatestCheckpoint() throws IOException {
    Checkpoint.write(tmp, 0, "{}", new TrainerState(5, 5, 42, 1), null);
    Checkpoint.write(tmp, 0, "{}", new TrainerState(20, 20, 42, 1), null);
    Checkpoint.write(tmp, 0, "{}", new TrainerState(10, 10, 42, 1), null);
    Files.createDirectories(tmp.resolve("checkpoint-30")); // interrupted: no step file
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Checkpoint.locate(tmp));
    assertTrue(
        e.getMessage().contains("the latest is " + tmp.resolve("checkpoint-20")), e.getMessage());
  }

  @Test
  void aCheckpointWithoutRankStateNamesTheFolderOnce() throws IOException {
    Path dir = tmp.resolve("checkpoint-3");
    Files.createDirectories(dir);
    Files.writeString(dir.resolve("step"), "3");
    IOException rank0 = assertThrows(IOException.class, () -> Checkpoint.stateFile(dir, 0));
    assertTrue(rank0.getMessage().endsWith("(looked in rank0/)"), rank0.getMessage());
    IOException rank2 = assertThrows(IOException.class, () -> Checkpoint.stateFile(dir, 2));
    assertTrue(rank2.getMessage().endsWith("(looked in rank2/ or rank0/)"), rank2.getMessage());
  }

  /** An output folder another user may write: links there would redirect the run's writes. */
  @Test
  void anOutputFolderOthersMayWriteIsRefusedAndAMissingOneIsMadePrivate() throws IOException {
    Path shared = Files.createDirectories(tmp.resolve("shared"));
    Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Checkpoint.outputFolder(shared));
    assertTrue(
        e.getMessage().contains("cannot hold checkpoints: group or others may write it"),
        e.getMessage());
    assertTrue(e.getMessage().contains("mkdir -m 700"), e.getMessage());
    if ("root".equals(System.getProperty("user.name"))) { // another account's folder
      Path theirs = Files.createDirectories(tmp.resolve("theirs"));
      Files.setAttribute(theirs, "unix:uid", 65534);
      e = assertThrows(IllegalArgumentException.class, () -> Checkpoint.outputFolder(theirs));
      assertTrue(e.getMessage().contains("belongs to user 65534"), e.getMessage());
    }
    Path made = Checkpoint.outputFolder(tmp.resolve("new/run"));
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(made)));
    // A folder that cannot be made names why, not only the path.
    Files.writeString(tmp.resolve("file"), "x");
    e =
        assertThrows(
            IllegalArgumentException.class, () -> Checkpoint.outputFolder(tmp.resolve("file/run")));
    assertTrue(e.getMessage().contains("cannot be made: java.nio.file"), e.getMessage());
  }

  /**
   * Names a killed save left, or anyone put, in the output folder: a link as the staging folder, a
   * link at a file's old fixed temporary name. Nothing is written through them, nothing they point
   * to is removed.
   */
  @Test
  void linksInTheOutputFolderAreNeverFollowed() throws IOException {
    Path victim = Files.createDirectories(tmp.resolve("victim"));
    Files.writeString(victim.resolve("precious"), "mine");
    Path out = Checkpoint.outputFolder(tmp.resolve("out"));
    Files.createSymbolicLink(out.resolve(".checkpoint-7.incomplete"), victim);
    Files.createDirectories(out.resolve("checkpoint-7"));
    Files.createSymbolicLink(out.resolve("checkpoint-7/step.tmp"), victim.resolve("precious"));
    Path dir = Checkpoint.write(out, 0, "{}", new TrainerState(7, 7, 42, 1), null);
    assertEquals(7, Checkpoint.step(dir));
    assertEquals("mine", Files.readString(victim.resolve("precious")));
    assertEquals(List.of("precious"), names(victim));
    assertEquals(List.of("checkpoint-7"), names(out));
  }

  /**
   * A kill while a run rewrites a step it had saved before: the old checkpoint whole, or the new.
   */
  @Test
  void aKillDuringTheRewriteOfACheckpointLeavesTheOldOneOrTheNewNeverAMix() throws IOException {
    Path out = Checkpoint.outputFolder(tmp.resolve("out"));
    Checkpoint.write(out, 0, "{\"old\":1}", new TrainerState(9, 8, 42, 1), null);
    Checkpoint.stage(out, 9);
    Checkpoint.writeRank(out, 0, "{\"new\":1}", new TrainerState(9, 9, 42, 1), null);
    // killed here: the checkpoint is the old one, all of it
    Path dir = out.resolve("checkpoint-9");
    assertEquals("{\"old\":1}", Files.readString(Checkpoint.stateFile(dir, 0)));
    assertEquals(8, TrainerState.load(Checkpoint.trainerStateFile(dir, 0)).optimizerSteps());
    assertEquals(dir, Checkpoint.latestIn(out));
    // the next save of the step: the new one, all of it, and nothing left beside it
    Checkpoint.write(out, 0, "{\"new\":1}", new TrainerState(9, 9, 42, 1), null);
    assertEquals("{\"new\":1}", Files.readString(Checkpoint.stateFile(dir, 0)));
    assertEquals(9, TrainerState.load(Checkpoint.trainerStateFile(dir, 0)).optimizerSteps());
    assertEquals(List.of("checkpoint-9"), names(out));
  }

  /**
   * Two nodes whose --output-dir is each node's own folder (not shared): rank 1 finds no staging
   * folder and says why, and rank 0 publishes nothing without rank 1's part (before: exit 0, a
   * checkpoint of rank 0's parts only, rank 1's left in its node's staging folder).
   */
  @Test
  void aCheckpointIsNeverPublishedWithoutEveryRanksPart() throws IOException {
    Path node0 = Checkpoint.outputFolder(tmp.resolve("node0"));
    Path node1 = Checkpoint.outputFolder(tmp.resolve("node1"));
    Checkpoint.stage(node0, 5);
    Checkpoint.writeRank(node0, 0, "{}", new TrainerState(5, 5, 42, 2), null);
    IOException rank1 =
        assertThrows(
            IOException.class,
            () -> Checkpoint.writeRank(node1, 1, "{}", new TrainerState(5, 5, 42, 2), null));
    assertTrue(rank1.getMessage().contains("rank 0's staging folder"), rank1.getMessage());
    assertTrue(rank1.getMessage().contains("a folder they all share"), rank1.getMessage());
    assertEquals(List.of(), names(node1));
    IOException rank0 = assertThrows(IOException.class, () -> Checkpoint.publish(node0, 5, 2));
    assertTrue(
        rank0.getMessage().startsWith("--output-dir: checkpoint 5: rank 1's part "),
        rank0.getMessage());
    assertFalse(Files.exists(node0.resolve("checkpoint-5")));
  }

  @Test
  void aStepFileThatDisagreesWithTheTrainerStateIsRefused() throws IOException {
    String state;
    try (StreamingDataset ds = pattern(Map.of()).build()) {
      ds.iterator().next().close();
      state = ds.state();
    }
    Path dir = Checkpoint.write(tmp, 0, state, new TrainerState(9, 9, 42, 1), null);
    Files.writeString(dir.resolve("step"), "999999999");
    FileException e =
        assertThrows(FileException.class, () -> Checkpoint.resume(dir, pattern(Map.of())));
    assertTrue(e.getMessage().contains("trainer_state.json"), e.getMessage());
    assertTrue(
        e.getMessage().contains("says step 9, but the checkpoint's step file says 999999999"),
        e.getMessage());
    Files.writeString(dir.resolve("step"), "9".repeat(40));
    IOException big = assertThrows(IOException.class, () -> Checkpoint.step(dir));
    assertTrue(big.getMessage().contains("does not hold a step number"), big.getMessage());
  }

  private static List<String> names(Path dir) throws IOException {
    try (var files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }
}
