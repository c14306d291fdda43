package org.robostream.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
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

  @Test
  void resumeGivesTheBuilderTheStateOfTheRankItStreamsAs() throws IOException {
    String[] states = new String[2];
    for (int rank = 0; rank < 2; rank++) {
      try (StreamingDataset ds = pattern(Map.of()).rank(rank, 2).build()) {
        Iterator<Batch> batches = ds.iterator();
        for (int i = 0; i <= rank; i++) { // the ranks' states differ: 1 and 2 batches consumed
          batches.next().close();
        }
        states[rank] = ds.state();
        Checkpoint.write(tmp, rank, states[rank], new TrainerState(9, 9, 42, 2), null);
      }
    }
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
}
