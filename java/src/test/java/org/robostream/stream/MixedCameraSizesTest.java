package org.robostream.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.robostream.nativecore.NativeResources;
import org.robostream.testing.Datasets;
import org.robostream.testing.FfmpegReference;
import org.robostream.video.FrameLayout;

/**
 * Cameras of three sizes in one dataset ({@link Datasets#mixedSizesV30}: 320x240, 160x120, 96x96)
 * stream through host and device-path batches, uint8 and float32, HWC and CHW, with windows and
 * resume: each camera's frames have its own shape, every frame equals the ffmpeg CLI's decode of
 * the same picture, and every sample is delivered exactly once.
 */
class MixedCameraSizesTest {
  private static final String TOP = "observation.images.top";
  private static final String WRIST = "observation.images.wrist";
  private static final String SIDE = "observation.images.side";
  private static final Map<String, int[]> HEIGHT_WIDTH =
      Map.of(TOP, new int[] {240, 320}, WRIST, new int[] {120, 160}, SIDE, new int[] {96, 96});
  private static final ReferenceFrames FFMPEG =
      new ReferenceFrames(HEIGHT_WIDTH, (file, hw) -> FfmpegReference.allFramesRgb(file), 0);

  /** ResizeTest's loader over the mixed-sizes dataset, with a seed of this test's. */
  private static StreamingDataset.Builder builder(UnaryOperator<StreamingDataset.Builder> options) {
    return ResizeTest.builder(b -> options.apply(b.seed(11)));
  }

  @ParameterizedTest(name = "deviceBatches {0}")
  @ValueSource(booleans = {false, true})
  void uint8HwcBatchesCarryEachCameraAtItsOwnSizeEveryFrameOnce(boolean deviceBatches) {
    long objectsBefore = NativeResources.liveObjects();
    Set<Long> seen = new HashSet<>();
    try (StreamingDataset ds =
        builder(b -> b.returnUint8(true).layout(FrameLayout.HWC).deviceBatches(deviceBatches))
            .build()) {
      for (Batch b : ds) {
        try (b) {
          seen.addAll(FFMPEG.checked(b, ds.metadata(), Map.of(), FrameLayout.HWC));
        }
      }
      assertEquals(Datasets.totalFrames(Datasets.mixedSizesV30()), seen.size());
    }
    assertEquals(objectsBefore, NativeResources.liveObjects(), "native objects left after close");
  }

  @ParameterizedTest(name = "deviceBatches {0}")
  @ValueSource(booleans = {false, true})
  void float32ChwWindowsHoldEachCameraAtItsOwnSize(boolean deviceBatches) {
    // 10 fps: one frame back, this one, two ahead; the ends of episodes repeat their first or
    // last frame (and set <camera>_is_pad).
    Map<String, int[]> offsets = Map.of(TOP, new int[] {-1, 0, 2}, WRIST, new int[] {-1, 0, 2});
    Set<Long> seen = new HashSet<>();
    try (StreamingDataset ds =
        builder(
                b ->
                    b.layout(FrameLayout.CHW)
                        .deviceBatches(deviceBatches)
                        .deltaTimestamps(
                            Map.of(
                                TOP,
                                new double[] {-0.1, 0, 0.2},
                                WRIST,
                                new double[] {-0.1, 0, 0.2})))
            .build()) {
      for (Batch b : ds) {
        try (b) {
          seen.addAll(FFMPEG.checked(b, ds.metadata(), offsets, FrameLayout.CHW));
        }
      }
      assertEquals(Datasets.totalFrames(Datasets.mixedSizesV30()), seen.size());
    }
  }

  @ParameterizedTest(name = "deviceBatches {0}")
  @ValueSource(booleans = {false, true})
  void aResumedStreamDeliversTheRestExactlyOnce(boolean deviceBatches) {
    UnaryOperator<StreamingDataset.Builder> options =
        b -> b.returnUint8(true).layout(FrameLayout.HWC).deviceBatches(deviceBatches);
    Set<Long> seen = new HashSet<>();
    String state;
    try (StreamingDataset ds = builder(options).build()) {
      Iterator<Batch> it = ds.iterator();
      for (int i = 0; i < 3; i++) {
        try (Batch b = it.next()) {
          for (long s : FFMPEG.checked(b, ds.metadata(), Map.of(), FrameLayout.HWC)) {
            assertTrue(seen.add(s), "sample delivered twice");
          }
        }
      }
      state = ds.state();
    }
    try (StreamingDataset ds = builder(options).resumeFrom(state).build()) {
      for (Batch b : ds) {
        try (b) {
          for (long s : FFMPEG.checked(b, ds.metadata(), Map.of(), FrameLayout.HWC)) {
            assertTrue(seen.add(s), "sample delivered again after the resume");
          }
        }
      }
    }
    assertEquals(Datasets.totalFrames(Datasets.mixedSizesV30()), seen.size());
  }

  @Test
  void theMemoryBudgetCountsEachCameraAtItsOwnSize() {
    // Two prefetched batches of 4 samples of 320x240 + 160x120 + 96x96 RGB per worker.
    long sample = 3L * (320 * 240 + 160 * 120 + 96 * 96);
    long batch = 4 * sample;
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                builder(b -> b.returnUint8(true).memoryBudgetBytes(2 * (2 * batch) + sample - 1))
                    .build()
                    .close());
    assertTrue(e.getMessage().contains("batches of " + batch + " bytes"), e.getMessage());
    builder(b -> b.returnUint8(true).memoryBudgetBytes(2 * (2 * batch + sample))).build().close();
  }
}
