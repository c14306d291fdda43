package org.robostream.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where a resume reads from, and what a wrong --resume-from path says. */
class CheckpointTest {
  @TempDir Path tmp;

  @Test
  void aWrittenCheckpointIsLocatedAndReadBack() throws IOException {
    Path dir = Checkpoint.write(tmp, 40, 0, "{\"epoch\":0}", null);
    assertEquals(dir.toAbsolutePath(), Checkpoint.locate(dir));
    assertEquals(40, Checkpoint.step(dir));
    assertEquals("{\"epoch\":0}", Files.readString(Checkpoint.stateFile(dir, 3)),
        "another rank reads rank 0's state");
  }

  @Test
  void aMissingRelativePathSaysWhatItWasResolvedAgainst() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Checkpoint.locate(Path.of("outputs/no-such-run/checkpoint-7")));
    String cwd = Path.of("").toAbsolutePath().toString();
    assertTrue(e.getMessage().contains("relative to the working directory: " + cwd),
        e.getMessage());
    assertTrue(e.getMessage().contains("does not exist"), e.getMessage());
    assertTrue(e.getMessage().contains("checkpoint-<step>"), e.getMessage());
  }

  @Test
  void anOutputFolderIsRefusedNamingItsLatestCheckpoint() throws IOException {
    Checkpoint.write(tmp, 5, 0, "{}", null);
    Checkpoint.write(tmp, 20, 0, "{}", null);
    Checkpoint.write(tmp, 10, 0, "{}", null);
    Files.createDirectories(tmp.resolve("checkpoint-30")); // interrupted: no step file
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Checkpoint.locate(tmp));
    assertTrue(e.getMessage().contains("the latest is " + tmp.resolve("checkpoint-20")),
        e.getMessage());
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
