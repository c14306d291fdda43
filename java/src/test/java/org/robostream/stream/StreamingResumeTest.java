package org.robostream.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.testing.Datasets;

/** state() and resume: same world exactly, other world size exactly once, across workers. */
class StreamingResumeTest {
  static StreamingDataset.Builder base(int rank, int world, int workers) {
    return StreamingDataset.builder(Datasets.patternV30())
        .batchSize(6)
        .bufferSize(15)
        .maxNumShards(2)
        .workers(workers)
        .rank(rank, world)
        .returnUint8(true);
  }

  /** (sample, padding) per delivered batch, as strings. */
  static List<String> take(StreamingDataset ds, int limit) {
    List<String> out = new ArrayList<>();
    var it = ds.iterator();
    for (int i = 0; i < limit && it.hasNext(); i++) {
      try (Batch b = it.next()) {
        long[] e = b.longs("episode_index");
        long[] f = b.longs("frame_index");
        boolean pad = b.booleans("is_padding")[0];
        StringBuilder s = new StringBuilder(pad ? "pad:" : "");
        for (int j = 0; j < b.size(); j++) {
          s.append(e[j]).append('/').append(f[j]).append(' ');
        }
        out.add(s.toString());
      }
    }
    return out;
  }

  @Test
  void sameWorldResumeEqualsTheUninterruptedRun() {
    List<String> full;
    try (StreamingDataset ds = base(1, 2, 2).build()) {
      full = take(ds, Integer.MAX_VALUE);
    }
    for (int k : new int[] {1, 3, full.size() - 1}) {
      String state;
      List<String> head;
      try (StreamingDataset ds = base(1, 2, 2).build()) {
        head = take(ds, k);
        state = ds.state();
      }
      assertTrue(state.length() < 400, state);
      List<String> rest;
      try (StreamingDataset ds = base(1, 2, 2).resumeFrom(state).build()) {
        rest = take(ds, Integer.MAX_VALUE);
      }
      List<String> joined = new ArrayList<>(head);
      joined.addAll(rest);
      assertEquals(full, joined, "resume after " + k + " batches");
    }
  }

  @Test
  void elasticResumeFromTwoToThreeRanksDeliversTheRestExactlyOnce() {
    int k = 2;
    Set<String> seen = new HashSet<>();
    String state = null;
    for (int r = 0; r < 2; r++) {
      try (StreamingDataset ds = base(r, 2, 2).build()) {
        for (String batch : take(ds, k)) {
          addAll(seen, batch);
        }
        String s = ds.state();
        if (state != null) {
          assertEquals(state, s, "every rank of a checkpoint has the same state");
        }
        state = s;
      }
    }
    for (int r = 0; r < 3; r++) {
      try (StreamingDataset ds = base(r, 3, 1).resumeFrom(state).build()) {
        for (String batch : take(ds, Integer.MAX_VALUE)) {
          addAll(seen, batch);
        }
        assertEquals(1, ds.epoch(), "the resumed epoch ended");
      }
    }
    assertEquals(StreamingDatasetTest.totalFrames(Datasets.patternV30()), seen.size());
  }

  @Test
  void aBufferSizedToTheBudgetResumesExactlyAndUnderAnotherBudgetOnce() {
    // Per worker (2): two prefetched batches of 6 samples (2 cameras of 64x64 RGB), then room for
    // 12 packed samples (yuv420p, 12,288 B): 6 of them the batch being cut, so a buffer of 6.
    long batch = 6L * 2 * 64 * 64 * 3;
    long tight = 2 * (2 * batch + 12 * 12_288L);
    List<String> full;
    try (StreamingDataset ds = base(0, 1, 2).memoryBudgetBytes(tight).build()) {
      assertEquals(6, ds.shuffleBufferSize());
      full = take(ds, Integer.MAX_VALUE);
      assertEquals(0, ds.stats().samplesDecodedOnExit(), "every sample fit when it entered");
    }
    String state;
    List<String> head;
    try (StreamingDataset ds = base(0, 1, 2).memoryBudgetBytes(tight).build()) {
      head = take(ds, 3);
      state = ds.state();
    }
    assertTrue(state.contains("\"buffer\":6"), state);
    List<String> joined = new ArrayList<>(head);
    try (StreamingDataset ds = base(0, 1, 2).memoryBudgetBytes(tight).resumeFrom(state).build()) {
      joined.addAll(take(ds, Integer.MAX_VALUE));
    }
    assertEquals(full, joined, "same budget: the same segment, batch for batch");
    // Another budget sizes another buffer: the rest of the epoch is a new segment, each once.
    Set<String> seen = new HashSet<>();
    head.forEach(b -> addAll(seen, b));
    try (StreamingDataset ds = base(0, 1, 2).resumeFrom(state).build()) {
      assertEquals(15, ds.shuffleBufferSize());
      take(ds, Integer.MAX_VALUE).forEach(b -> addAll(seen, b));
    }
    assertEquals(StreamingDatasetTest.totalFrames(Datasets.patternV30()), seen.size());
  }

  private static void addAll(Set<String> seen, String batch) {
    if (batch.startsWith("pad:")) {
      return;
    }
    for (String s : batch.strip().split(" ")) {
      assertTrue(seen.add(s), "delivered twice: " + s);
    }
  }

  @Test
  void aStateForOtherParametersIsRefused() {
    String state;
    try (StreamingDataset ds = base(0, 1, 1).build()) {
      take(ds, 1);
      state = ds.state();
    }
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> base(0, 1, 1).seed(7).resumeFrom(state).build());
    assertTrue(e.getMessage().contains("seed"), e.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> base(0, 1, 1).episodes(List.of(0, 1)).resumeFrom(state).build());
    assertThrows(
        IllegalArgumentException.class,
        () -> base(0, 1, 1).resumeFrom("{\"format\":\"other\"}").build());
  }

  @Test
  void aStateOfAnotherDatasetOrAlteredIsRefusedAndAMovedCopyResumes(@TempDir Path tmp)
      throws IOException {
    String state;
    List<String> rest;
    try (StreamingDataset ds = base(0, 1, 1).build()) {
      take(ds, 2);
      state = ds.state();
      rest = take(ds, 1000);
    }
    // The same dataset elsewhere, or read with fewer cameras: the same samples, so it resumes.
    Path moved = copy(Datasets.patternV30(), tmp.resolve("moved"));
    try (StreamingDataset ds = builder(moved).resumeFrom(state).build()) {
      assertEquals(rest, take(ds, 1000));
    }
    try (StreamingDataset ds =
        builder(moved).cameras("observation.images.top").resumeFrom(state).build()) {
      assertEquals(rest, take(ds, 1000));
    }
    // Another dataset whose episodes have the same lengths: other statistics (another recording).
    Path other = copy(Datasets.patternV30(), tmp.resolve("other"));
    Path stats = other.resolve("meta/stats.json");
    String recorded = Files.readString(stats);
    Files.writeString(stats, recorded.replaceFirst("\"min\" : \\[ 0\\.0", "\"min\" : [ 0.5"));
    assertFalse(recorded.equals(Files.readString(stats)), "the copy's statistics differ");
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> builder(other).resumeFrom(state).build());
    assertTrue(e.getMessage().contains("another dataset"), e.getMessage());
    // More batches than the segment had: no run made it (it would end the epoch empty).
    String oversized = state.replaceFirst("\"batches\":2", "\"batches\":1000000");
    e =
        assertThrows(
            IllegalArgumentException.class, () -> base(0, 1, 1).resumeFrom(oversized).build());
    assertTrue(e.getMessage().contains("segments[0].batches is 1000000"), e.getMessage());
    // Epochs: 0..2^53-1, so the next one never wraps.
    String last = state.replaceFirst("\"epoch\":0", "\"epoch\":" + Long.MAX_VALUE);
    e = assertThrows(IllegalArgumentException.class, () -> base(0, 1, 1).resumeFrom(last).build());
    assertTrue(e.getMessage().contains("epoch"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> base(0, 1, 1).epoch(-1));
    try (StreamingDataset ds = base(0, 1, 1).build()) {
      assertThrows(IllegalArgumentException.class, () -> ds.setEpoch(StreamState.MAX_EPOCH + 1));
    }
  }

  private static StreamingDataset.Builder builder(Path root) {
    return StreamingDataset.builder(root)
        .batchSize(6)
        .bufferSize(15)
        .maxNumShards(2)
        .workers(1)
        .rank(0, 1)
        .returnUint8(true);
  }

  private static Path copy(Path from, Path to) throws IOException {
    try (var files = Files.walk(from)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        Path target = to.resolve(from.relativize(f).toString());
        if (Files.isDirectory(f)) {
          Files.createDirectories(target);
        } else {
          Files.copy(f, target);
        }
      }
    }
    return to;
  }

  @Test
  void epochsAdvanceAndShuffleDiffersPerEpoch() {
    try (StreamingDataset ds = base(0, 1, 1).build()) {
      List<String> first = take(ds, Integer.MAX_VALUE);
      assertEquals(1, ds.epoch());
      List<String> second = take(ds, Integer.MAX_VALUE);
      assertEquals(2, ds.epoch());
      assertFalse(first.equals(second));
    }
  }
}
