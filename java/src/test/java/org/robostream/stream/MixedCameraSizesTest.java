package org.robostream.stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.FloatBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.robostream.dataset.LeRobotMetadata;
import org.robostream.dataset.VideoSpan;
import org.robostream.nativecore.NativeResources;
import org.robostream.testing.Datasets;
import org.robostream.testing.FfmpegReference;
import org.robostream.testing.FrameCompare;
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
  private static final Map<Path, byte[]> REFERENCE = new ConcurrentHashMap<>();

  private static StreamingDataset.Builder builder(UnaryOperator<StreamingDataset.Builder> options) {
    return options.apply(
        StreamingDataset.builder(Datasets.mixedSizesV30())
            .batchSize(4)
            .workers(2)
            .bufferSize(16)
            .maxNumShards(3)
            .seed(11));
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
          seen.addAll(checked(b, ds.metadata(), Map.of(), FrameLayout.HWC));
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
          seen.addAll(checked(b, ds.metadata(), offsets, FrameLayout.CHW));
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
          for (long s : checked(b, ds.metadata(), Map.of(), FrameLayout.HWC)) {
            assertTrue(seen.add(s), "sample delivered twice");
          }
        }
      }
      state = ds.state();
    }
    try (StreamingDataset ds = builder(options).resumeFrom(state).build()) {
      for (Batch b : ds) {
        try (b) {
          for (long s : checked(b, ds.metadata(), Map.of(), FrameLayout.HWC)) {
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

  /**
   * Checks every camera's frames of {@code b} against the ffmpeg CLI (shape, then pixels: uint8
   * equal, float32 equal to value / 255) and returns the batch's samples.
   */
  private static List<Long> checked(
      Batch b, LeRobotMetadata m, Map<String, int[]> offsets, FrameLayout layout) {
    long[] episode = b.longs("episode_index");
    long[] frame = b.longs("frame_index");
    for (String camera : List.of(TOP, WRIST, SIDE)) {
      int[] hw = HEIGHT_WIDTH.get(camera);
      int[] window = offsets.getOrDefault(camera, new int[] {0});
      int[] image =
          layout == FrameLayout.HWC ? new int[] {hw[0], hw[1], 3} : new int[] {3, hw[0], hw[1]};
      int[] expectedShape =
          offsets.containsKey(camera)
              ? new int[] {b.size(), window.length, image[0], image[1], image[2]}
              : new int[] {b.size(), image[0], image[1], image[2]};
      Batch.Frames frames = b.toHost().frames(camera);
      assertArrayEquals(expectedShape, b.frameShape(camera), camera);
      assertArrayEquals(expectedShape, frames.shape(), camera);
      int frameValues = 3 * hw[0] * hw[1];
      for (int i = 0; i < b.size(); i++) {
        int length = m.episode((int) episode[i]).length();
        ByteBuffer sample = frames.sample(i);
        for (int t = 0; t < window.length; t++) {
          int f = Math.max(0, Math.min(length - 1, (int) frame[i] + window[t]));
          byte[] want = reference(m, (int) episode[i], camera, f);
          byte[] got = values(sample, t * frameValues, frameValues, frames.uint8());
          if (layout == FrameLayout.CHW) {
            got = FrameCompare.chwToHwc(got, hw[0], hw[1]);
          }
          assertArrayEquals(
              want,
              got,
              camera + " episode " + episode[i] + " frame " + f + " (position " + t + ")");
        }
      }
    }
    List<Long> samples = new java.util.ArrayList<>();
    for (int i = 0; i < b.size(); i++) {
      samples.add(Samples.of((int) episode[i], (int) frame[i]));
    }
    return samples;
  }

  /**
   * {@code n} frame values from value {@code from}: uint8 as they are; float32 checked to be an
   * exact byte / 255 and turned back into that byte.
   */
  private static byte[] values(ByteBuffer sample, int from, int n, boolean uint8) {
    byte[] out = new byte[n];
    if (uint8) {
      sample.slice(from, n).get(out);
      return out;
    }
    FloatBuffer floats = sample.asFloatBuffer();
    for (int k = 0; k < n; k++) {
      float v = floats.get(from + k);
      int value = Math.round(v * 255);
      assertEquals(value / 255.0f, v, "float32 value " + v + " is not a byte / 255");
      out[k] = (byte) value;
    }
    return out;
  }

  /** Frame {@code frame} of {@code episode}'s {@code camera} as the ffmpeg CLI decodes it (HWC). */
  private static byte[] reference(LeRobotMetadata m, int episode, String camera, int frame) {
    VideoSpan span = m.episode(episode).video(camera);
    byte[] all = REFERENCE.computeIfAbsent(span.file(), FfmpegReference::allFramesRgb);
    int[] hw = HEIGHT_WIDTH.get(camera);
    int bytes = 3 * hw[0] * hw[1];
    int at = (span.frameOffset() + frame) * bytes;
    return Arrays.copyOfRange(all, at, at + bytes);
  }
}
