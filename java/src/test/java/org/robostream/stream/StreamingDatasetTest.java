package org.robostream.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.robostream.dataset.EpisodeInfo;
import org.robostream.dataset.LeRobotMetadata;
import org.robostream.dataset.synth.PatternCode;
import org.robostream.dataset.synth.SyntheticValues;
import org.robostream.testing.Datasets;
import org.robostream.testing.LoaderSettings;
import org.robostream.video.FrameLayout;

/** Every decoded frame and row of the pattern datasets is the one the sample names. */
class StreamingDatasetTest {

  /** Checks a batch's rows and frames against the closed-form content; returns its samples. */
  static List<Long> check(
      Batch b, List<String> cameras, int width, int height, boolean chw, int stateDim) {
    long[] episode = b.longs("episode_index");
    long[] frame = b.longs("frame_index");
    double[] action = b.doubles("action");
    String[] tasks = b.strings("task");
    List<Long> samples = new java.util.ArrayList<>();
    for (int i = 0; i < b.size(); i++) {
      int e = (int) episode[i];
      int f = (int) frame[i];
      samples.add(Samples.of(e, f));
      for (int j = 0; j < stateDim; j++) {
        assertEquals(
            SyntheticValues.action(e, f, j),
            action[i * stateDim + j],
            0.0,
            "action of episode " + e + " frame " + f);
      }
      assertEquals(
          SyntheticValues.task(SyntheticValues.taskIndex(e, 3 == stateDim ? 2 : 3)), tasks[i]);
      for (int k = 0; k < cameras.size(); k++) {
        Batch.Frames frames = b.frames(cameras.get(k));
        ByteBuffer pixels = frames.sample(i);
        if (!frames.uint8()) {
          ByteBuffer bytes = ByteBuffer.allocate(pixels.remaining() / 4);
          for (int p = 0; p < bytes.capacity(); p++) {
            float v = pixels.order(ByteOrder.LITTLE_ENDIAN).getFloat(p * 4);
            assertTrue(v >= 0f && v <= 1f);
            bytes.put(p, (byte) Math.round(v * 255));
          }
          pixels = bytes;
        }
        PatternCode.Identity id = PatternCode.read(pixels, width, height, chw);
        assertNotNull(id, "unreadable pattern, episode " + e + " frame " + f);
        assertEquals(new PatternCode.Identity(e, f, k), id, cameras.get(k));
      }
    }
    return samples;
  }

  static int totalFrames(Path root) {
    return LeRobotMetadata.open(root, Optional.empty()).episodes().stream()
        .mapToInt(EpisodeInfo::length)
        .sum();
  }

  @Test
  void everyFrameOfAV30PatternDatasetOnceShuffledWithTwoWorkers() {
    Path root = Datasets.patternV30();
    Set<Long> seen = new HashSet<>();
    try (StreamingDataset ds = LoaderSettings.twoWorkerEpoch().build()) {
      List<String> cameras = ds.metadata().info().videoKeys();
      int expected = ds.batchesPerEpoch();
      int batches = 0;
      for (Batch b : ds) {
        try (b) {
          assertFalse(b.booleans("is_padding")[0]);
          for (long s : check(b, cameras, 64, 64, false, 4)) {
            assertTrue(seen.add(s), "twice: " + Samples.toString(s));
          }
          batches++;
        }
      }
      assertEquals(expected, batches);
      assertEquals(totalFrames(root), seen.size());
      StreamCounters.Snapshot stats = ds.stats();
      assertTrue(stats.amplification() <= 1.1, "amplification " + stats.amplification());
      assertEquals(1, ds.epoch());
      assertEquals(0, ds.outstandingBatchBytes(), "every batch closed: nothing left allocated");
      org.robostream.video.DecoderCacheStats cache = ds.decoderCacheStats();
      assertTrue(cache.misses() >= 2 * 2, "decoders opened by both workers: " + cache);
      assertTrue(cache.hits() > cache.misses(), "decoders reused across samples: " + cache);
      // As the reference counts: one lookup per delivered sample and camera, however the
      // loader groups samples into decode calls (and its GOP questions count none).
      assertEquals(
          (long) totalFrames(root) * cameras.size(), cache.hits() + cache.misses(), "" + cache);
    }
  }

  @Test
  void stopIteratingEndsTheWorkersAndKeepsThePosition() throws Exception {
    Path root = Datasets.patternV30();
    Set<Long> seen = new HashSet<>();
    try (StreamingDataset ds =
        StreamingDataset.builder(root).batchSize(8).workers(2).bufferSize(20).build()) {
      java.util.Iterator<Batch> first = ds.iterator();
      for (int i = 0; i < 2; i++) {
        try (Batch b = first.next()) {
          for (long index : b.longs("index")) {
            assertTrue(seen.add(index));
          }
        }
      }
      assertTrue(workerThreads() > 0, "the workers run while iterating");
      ds.stopIterating();
      long deadline = System.nanoTime() + 10_000_000_000L;
      while (workerThreads() > 0 && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertEquals(0, workerThreads(), "the workers end when the iteration is stopped");
      org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class, first::hasNext);
      // The next iterator continues after the two batches handed out: every sample once.
      for (Batch b : ds) {
        try (b) {
          for (long index : b.longs("index")) {
            assertTrue(seen.add(index), "twice: " + index);
          }
        }
      }
      assertEquals(totalFrames(root), seen.size());
    }
  }

  private static long workerThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().startsWith("robostream-worker-"))
        .count();
  }

  @Test
  void cudaDecodingFailsAtCreationOrFallsBackWithTheReason() {
    org.junit.jupiter.api.Assumptions.assumeFalse(
        org.robostream.nativecore.Cuda.isAvailable(), "a GPU is present");
    Path root = Datasets.patternV30();
    org.robostream.GpuUnavailableException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            org.robostream.GpuUnavailableException.class,
            () ->
                StreamingDataset.builder(root)
                    .decodeDevice(org.robostream.video.DecodeDeviceSpec.parse("cuda"))
                    .build());
    assertTrue(
        e.getMessage().contains(org.robostream.nativecore.Cuda.unavailabilityCause()),
        e.getMessage());
    try (StreamingDataset ds =
        StreamingDataset.builder(root)
            .batchSize(8)
            .returnUint8(true)
            .layout(FrameLayout.HWC)
            .decodeDevice(org.robostream.video.DecodeDeviceSpec.parse("cuda-or-cpu"))
            .build()) {
      assertEquals(org.robostream.video.Device.CPU, ds.decodeDevice().effective());
      assertEquals(
          org.robostream.nativecore.Cuda.unavailabilityCause(), ds.decodeDevice().fallbackReason());
      assertEquals(6, ds.cpuFallbacks(), "every video file (3 per camera) decodes on the CPU");
      try (Batch b = ds.iterator().next()) {
        check(b, ds.metadata().info().videoKeys(), 64, 64, false, 4);
      }
    }
  }

  @Test
  void dataAndVideosFromASecondRoot(@org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
    Path root = Datasets.patternV30();
    Path metaOnly = tmp.resolve("meta-only");
    org.robostream.dataset.V30MetadataTestAccess.copyTree(
        root.resolve("meta"), metaOnly.resolve("meta"));
    Set<Long> seen = new HashSet<>();
    try (StreamingDataset ds =
        StreamingDataset.builder(metaOnly)
            .dataFilesRoot(root)
            .batchSize(16)
            .returnUint8(true)
            .layout(FrameLayout.HWC)
            .build()) {
      for (Batch b : ds) {
        try (b) {
          seen.addAll(check(b, ds.metadata().info().videoKeys(), 64, 64, false, 4));
        }
      }
    }
    assertEquals(totalFrames(root), seen.size());
  }

  @Test
  void batchesExportThroughTheArrowCDataInterface() {
    try (StreamingDataset ds =
            StreamingDataset.builder(Datasets.patternV30())
                .batchSize(6)
                .returnUint8(true)
                .deltaTimestamps(java.util.Map.of("action", new double[] {0, 0.05}))
                .build();
        org.apache.arrow.memory.BufferAllocator consumer =
            new org.apache.arrow.memory.RootAllocator()) {
      Batch b = ds.iterator().next();
      long[] index = b.longs("index");
      byte[] top = new byte[b.frames("observation.images.top").data().remaining()];
      b.frames("observation.images.top").data().get(top);
      try (org.apache.arrow.c.ArrowArray array =
              org.apache.arrow.c.ArrowArray.allocateNew(consumer);
          org.apache.arrow.c.ArrowSchema schema =
              org.apache.arrow.c.ArrowSchema.allocateNew(consumer)) {
        b.exportTo(array, schema);
        b.close(); // the export keeps the buffers alive until the consumer releases them
        try (org.apache.arrow.vector.VectorSchemaRoot root =
            org.apache.arrow.c.Data.importVectorSchemaRoot(consumer, array, schema, null)) {
          assertEquals(6, root.getRowCount());
          org.apache.arrow.vector.BigIntVector imported =
              (org.apache.arrow.vector.BigIntVector) root.getVector("index");
          for (int i = 0; i < 6; i++) {
            assertEquals(index[i], imported.get(i));
          }
          var frames =
              (org.robostream.arrow.FixedShapeTensorVector)
                  root.getVector("observation.images.top");
          assertEquals("[3, 64, 64]", java.util.Arrays.toString(frames.tensorType().shape()));
          byte[] got = new byte[top.length];
          frames.getUnderlyingVector().getDataVector().getDataBuffer().getBytes(0, got);
          org.junit.jupiter.api.Assertions.assertArrayEquals(top, got);
          assertTrue(root.getVector("action_is_pad") != null);
        }
      }
      assertEquals(0, consumer.getAllocatedMemory());
      ds.setEpoch(0); // stops the run: prefetched batches are freed
      assertEquals(
          0, ds.outstandingBatchBytes(), "the exported batch was released by the" + " consumer");
    }
  }

  @Test
  void aSmallMemoryBudgetBoundsHeldFramesAndStillDeliversTheRightFrames() {
    Path root = Datasets.patternV30();
    long budget = 600_000; // a few dozen packed 64x64 pictures per worker
    Set<Long> seen = new HashSet<>();
    try (StreamingDataset ds =
        StreamingDataset.builder(root)
            .batchSize(4)
            .workers(2)
            .bufferSize(50)
            .returnUint8(true)
            .layout(FrameLayout.HWC)
            .memoryBudgetBytes(budget)
            .build()) {
      for (Batch b : ds) {
        try (b) {
          seen.addAll(check(b, ds.metadata().info().videoKeys(), 64, 64, false, 4));
        }
      }
      StreamCounters.Snapshot stats = ds.stats();
      assertTrue(
          stats.peakHeldFrameBytes() <= budget / 2,
          "held " + stats.peakHeldFrameBytes() + " of a per-worker share of " + budget / 2);
      // The buffer is sized to what the budget holds: every sample decoded in stream order.
      assertTrue(ds.shuffleBufferSize() < 50, "buffer " + ds.shuffleBufferSize());
      assertEquals(0, stats.samplesDecodedOnExit(), "nothing decoded in random order");
      assertEquals(totalFrames(root), stats.samplesDecodedOnEntry());
    }
    assertEquals(totalFrames(root), seen.size());
    org.junit.jupiter.api.Assertions.assertThrows(
        IllegalArgumentException.class,
        () -> StreamingDataset.builder(root).batchSize(64).memoryBudgetBytes(1000).build());
  }

  @Test
  void rankAndWorldResolveFromArgumentsThenSlurmThenTorchThenOpenMpi() {
    java.util.Map<String, String> env = new java.util.HashMap<>();
    assertEquals(
        new RankWorld(0, 1, "default"),
        RankWorld.resolve(java.util.OptionalInt.empty(), java.util.OptionalInt.empty(), env));
    env.put("OMPI_COMM_WORLD_RANK", "1");
    env.put("OMPI_COMM_WORLD_SIZE", "2");
    assertEquals(
        1,
        RankWorld.resolve(java.util.OptionalInt.empty(), java.util.OptionalInt.empty(), env)
            .rank());
    env.put("RANK", "2");
    env.put("WORLD_SIZE", "4");
    assertEquals(
        2,
        RankWorld.resolve(java.util.OptionalInt.empty(), java.util.OptionalInt.empty(), env)
            .rank());
    env.put("SLURM_PROCID", "3");
    env.put("SLURM_NTASKS", "8");
    RankWorld slurm =
        RankWorld.resolve(java.util.OptionalInt.empty(), java.util.OptionalInt.empty(), env);
    assertEquals(new RankWorld(3, 8, "SLURM_PROCID/SLURM_NTASKS"), slurm);
    assertEquals(
        5,
        RankWorld.resolve(java.util.OptionalInt.of(5), java.util.OptionalInt.of(6), env).rank(),
        "explicit arguments win");
    env.put("SLURM_PROCID", "9");
    org.junit.jupiter.api.Assertions.assertThrows(
        IllegalArgumentException.class,
        () -> RankWorld.resolve(java.util.OptionalInt.empty(), java.util.OptionalInt.empty(), env));
  }

  @Test
  void everyFrameOfAV21PatternDatasetInNaturalOrderAsFloat() {
    Path root = Datasets.patternV21();
    List<Long> order = new java.util.ArrayList<>();
    try (StreamingDataset ds = StreamingDataset.builder(root).batchSize(5).shuffle(false).build()) {
      for (Batch b : ds) {
        try (b) {
          order.addAll(check(b, ds.metadata().info().videoKeys(), 64, 48, true, 3));
        }
      }
    }
    assertEquals(totalFrames(root), order.size());
    for (int i = 1; i < order.size(); i++) {
      assertTrue(order.get(i) > order.get(i - 1), "natural order");
    }
  }
}
