package org.robostream.stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.robostream.arrow.BatchMemoryPool;
import org.robostream.arrow.FrameBatch;
import org.robostream.dataset.EpisodeInfo;
import org.robostream.dataset.LeRobotMetadata;
import org.robostream.nativecore.NativeResources;
import org.robostream.testing.Datasets;
import org.robostream.testing.GpuTests;
import org.robostream.video.DecodeDeviceSpec;
import org.robostream.video.FrameLayout;

/**
 * The loader's device path (frames held on the batch device, copied into Arrow C Device batches):
 * with a host pool it runs on every machine and must give exactly the host path's batches; on a GPU
 * (tagged {@code cuda}) NVDEC batches must match the CPU path's.
 */
class DeviceBatchStreamingTest {

  private static StreamingDataset.Builder pattern(
      Path root, UnaryOperator<StreamingDataset.Builder> options) {
    return options.apply(
        StreamingDataset.builder(root)
            .batchSize(8)
            .workers(2)
            .bufferSize(20)
            .maxNumShards(3)
            .seed(7));
  }

  /**
   * Runs the same stream twice, host batches vs device batches, and compares batch for batch (uint8
   * frames: byte for byte with tolerance 0, else by mean absolute difference).
   */
  static void sameAsHostBatches(
      Path root,
      UnaryOperator<StreamingDataset.Builder> options,
      UnaryOperator<StreamingDataset.Builder> device,
      double tolerance) {
    long objectsBefore = NativeResources.liveObjects();
    int batches = 0;
    try (StreamingDataset host = pattern(root, options).build();
        StreamingDataset onDevice = device.apply(pattern(root, options)).build()) {
      assertTrue(onDevice.deviceBatches());
      List<String> cameras = host.metadata().info().videoKeys();
      Iterator<Batch> expected = host.iterator();
      for (Batch b : onDevice) {
        try (b;
            Batch e = expected.next()) {
          assertNotNull(b.deviceFrames());
          assertEquals(e.size(), b.size());
          assertArrayEquals(e.longs("index"), b.longs("index"), "same samples in the same order");
          assertArrayEquals(e.doubles("action"), b.doubles("action"));
          assertFalse(b.columnNames().containsAll(cameras), "frames are not host columns");
          for (String camera : cameras) {
            assertArrayEquals(e.frameShape(camera), b.frameShape(camera));
            ByteBuffer want = e.frames(camera).data();
            ByteBuffer got = b.toHost().frames(camera).data(); // GPU frames: copied here
            assertEquals(want.remaining(), got.remaining());
            if (tolerance == 0) {
              assertEquals(want, got, camera + " frames of batch " + b.index());
            } else {
              assertTrue(
                  meanAbsDiff(want, got) <= tolerance,
                  camera
                      + " frames of batch "
                      + b.index()
                      + " differ by "
                      + meanAbsDiff(want, got));
            }
          }
          batches++;
        }
      }
      assertFalse(expected.hasNext());
      assertEquals(host.batchesPerEpoch(), batches);
    }
    assertEquals(objectsBefore, NativeResources.liveObjects(), "native objects left after close");
  }

  private static double meanAbsDiff(ByteBuffer a, ByteBuffer b) {
    long sum = 0;
    for (int i = 0; i < a.remaining(); i++) {
      sum += Math.abs((a.get(a.position() + i) & 0xFF) - (b.get(b.position() + i) & 0xFF));
    }
    return sum / (double) a.remaining();
  }

  @Test
  void hostDeviceBatchesEqualHostBatchesUint8() {
    sameAsHostBatches(
        Datasets.patternV30(),
        b -> b.returnUint8(true).layout(FrameLayout.HWC),
        b -> b.deviceBatches(true),
        0);
  }

  @Test
  void hostDeviceBatchesEqualHostBatchesFloat32WithWindowsAndPadding() {
    // Windows reach past both episode ends, so frames repeat (clamped) and are copied on device.
    sameAsHostBatches(
        Datasets.patternV30(),
        b ->
            b.layout(FrameLayout.CHW)
                .deltaTimestamps(
                    Map.of(
                        "observation.images.top", new double[] {-0.1, 0, 0.05, 2.5},
                        "action", new double[] {0, 0.05})),
        b -> b.deviceBatches(true),
        0);
  }

  @Test
  void hostDeviceBatchesSurviveATightBudgetAndAResume() {
    // Over budget, samples are decoded when their batch is built (the scratch memory path).
    String state;
    List<long[]> rest = new ArrayList<>();
    Path root = Datasets.patternV30();
    // Per worker (2): two prefetched batches of 8 samples, then room for 3 held samples; a
    // sample is 2 cameras of 64x64 RGB.
    long sample = 2 * 64 * 64 * 3;
    UnaryOperator<StreamingDataset.Builder> tight =
        b ->
            b.returnUint8(true)
                .deviceBatches(true)
                .memoryBudgetBytes(2 * (2 * 8 * sample + 3 * sample));
    try (StreamingDataset ds = tight.apply(pattern(root, UnaryOperator.identity())).build()) {
      Iterator<Batch> it = ds.iterator();
      for (int i = 0; i < 2; i++) {
        it.next().close();
      }
      state = ds.state();
      while (it.hasNext()) {
        try (Batch b = it.next()) {
          rest.add(b.longs("index"));
        }
      }
      assertTrue(ds.stats().samplesDecodedOnExit() > 0, "the budget forced delivery-time decoding");
    }
    try (StreamingDataset resumed =
        tight.apply(pattern(root, UnaryOperator.identity())).resumeFrom(state).build()) {
      int i = 0;
      for (Batch b : resumed) {
        try (b) {
          assertArrayEquals(rest.get(i++), b.longs("index"));
          StreamingDatasetTest.check(b, resumed.metadata().info().videoKeys(), 64, 64, true, 4);
        }
      }
      assertEquals(rest.size(), i);
    }
  }

  @ParameterizedTest(name = "device path: {0}")
  @ValueSource(booleans = {false, true})
  void deviceFramesCarryEachFramesPtsAndPositionInItsFile(boolean devicePath) {
    Path root = Datasets.patternV30();
    LeRobotMetadata meta = LeRobotMetadata.open(root, java.util.Optional.empty());
    String camera = meta.info().videoKeys().get(0);
    try (StreamingDataset ds =
            pattern(root, b -> b.returnUint8(true).deviceBatches(devicePath)).build();
        BatchMemoryPool host = BatchMemoryPool.host();
        BufferAllocator allocator = new RootAllocator()) {
      try (Batch b = ds.iterator().next()) {
        FrameBatch frames = b.deviceFrames();
        assertEquals(BatchMemoryPool.DEVICE_CPU, frames.deviceType());
        assertEquals(0, frames.syncEvent(), "host batches are complete: no event");
        assertEquals(meta.info().videoKeys(), frames.frameColumns());
        assertEquals(b.size(), frames.rows());
        long[] episode = b.longs("episode_index");
        long[] frame = b.longs("frame_index");
        try (FrameBatch copy = frames.toHost(host);
            VectorSchemaRoot root2 = copy.toVectorSchemaRoot(allocator)) {
          BigIntVector index = (BigIntVector) root2.getVector(camera + ".frame_index");
          Float8Vector pts = (Float8Vector) root2.getVector(camera + ".pts");
          for (int i = 0; i < b.size(); i++) {
            EpisodeInfo e = meta.episode((int) episode[i]);
            assertEquals(e.video(camera).frameOffset() + frame[i], index.get(i));
            // Within half a frame: concatenated v3.0 files drift by ~0.33 ms per episode.
            assertEquals(
                e.video(camera).fromTimestamp() + frame[i] / (double) meta.info().fps(),
                pts.get(i),
                0.5 / meta.info().fps(),
                "pts of sample " + i);
          }
        }
      }
    }
  }

  @Test
  @Tag("cuda")
  void nvdecBatchesMatchTheCpuPathsFrames() {
    GpuTests.requireNvdec();
    // H.264 (every NVDEC decodes it); the GPU kernel and swscale round differently.
    sameAsHostBatches(
        Datasets.patternV21(),
        b -> b.returnUint8(true).layout(FrameLayout.CHW),
        b -> b.decodeDevice(DecodeDeviceSpec.parse("cuda")),
        1.5);
  }

  @Test
  @Tag("cuda")
  void framesOnTheGpuAreReadOnTheHostOnlyAfterToHost() {
    GpuTests.requireNvdec();
    try (StreamingDataset ds =
            pattern(Datasets.patternV21(), b -> b.returnUint8(true))
                .decodeDevice(DecodeDeviceSpec.parse("cuda"))
                .build();
        Batch b = ds.iterator().next()) {
      String camera = ds.metadata().info().videoKeys().get(0);
      assertEquals(BatchMemoryPool.DEVICE_CUDA, b.deviceFrames().deviceType());
      org.robostream.arrow.Tensor onGpu = b.tensor(camera);
      assertTrue(onGpu.onCuda());
      IllegalStateException e =
          org.junit.jupiter.api.Assertions.assertThrows(
              IllegalStateException.class, () -> b.frames(camera));
      assertTrue(e.getMessage().contains("toHost()"), e.getMessage());
      org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class, onGpu::data);
      assertEquals(BatchMemoryPool.DEVICE_CPU, b.toHost().deviceFrames().deviceType());
      assertEquals(b.frameShape(camera)[0] * 3 * 64 * 48, b.frames(camera).data().remaining());
    }
  }

  @Test
  @Tag("cuda")
  void moreLiveStreamsThanNvdecSessionsStillStream() {
    GpuTests.requireNvdec();
    // 12 episodes x 2 cameras, all live at once in one worker: 24 open decoders, more than the
    // 8 NVDEC sessions; decoders give their session back after every call, so none waits.
    Path root =
        org.robostream.testing.Fixtures.dataset(
            "pattern-h264-v30",
            new org.robostream.dataset.synth.SyntheticDatasetSpec(
                Path.of("unused"),
                12,
                30,
                0.33,
                2,
                64,
                64,
                20,
                org.robostream.dataset.synth.VideoCodecChoice.H264,
                4,
                -1,
                org.robostream.dataset.synth.SyntheticDatasetSpec.Layout.V30,
                0.005,
                0.012,
                org.robostream.dataset.synth.SyntheticDatasetSpec.Content.PATTERN,
                4,
                3));
    sameAsHostBatches(
        root,
        b -> b.returnUint8(true).workers(1).maxNumShards(16).bufferSize(64),
        b -> b.decodeDevice(DecodeDeviceSpec.parse("cuda")),
        1.5);
  }

  @Test
  @Tag("cuda")
  void av1OnAGpuWithoutAv1NvdecFallsBackPerFileAndCountsIt() {
    GpuTests.requireNvdec();
    try (StreamingDataset ds =
        pattern(Datasets.patternV30(), b -> b.returnUint8(true))
            .decodeDevice(DecodeDeviceSpec.parse("cuda"))
            .build()) {
      int batches = 0;
      for (Batch b : ds) {
        try (b) {
          StreamingDatasetTest.check(b, ds.metadata().info().videoKeys(), 64, 64, true, 4);
          batches++;
        }
      }
      assertEquals(ds.batchesPerEpoch(), batches);
      // Hopper/A100 cannot decode AV1: every file falls back and is counted; GA10x+ decodes it.
      java.util.Set<Path> files = new java.util.HashSet<>();
      ds.metadata()
          .episodes()
          .forEach(
              e -> ds.metadata().info().videoKeys().forEach(c -> files.add(e.video(c).file())));
      boolean av1OnNvdec =
          org.robostream.nativecore.NvdecSession.unsupportedReason(
                  0, org.robostream.nativecore.NvdecSession.AV1, 8, 64, 64)
              == null;
      assertEquals(av1OnNvdec ? 0 : files.size(), ds.cpuFallbacks());
    }
  }
}
