package org.robostream.stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.FloatBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import org.robostream.dataset.LeRobotMetadata;
import org.robostream.dataset.VideoSpan;
import org.robostream.testing.FrameCompare;
import org.robostream.video.FrameLayout;

/**
 * Checks a batch's frames against the ffmpeg CLI's decode of the same pictures: each camera's shape
 * (its own height and width, windows {@code [B, T, ...]}), then every frame of every sample: uint8
 * equal (or within {@code tolerance}), float32 equal to a byte / 255. Thread-safe (the decoded
 * files are cached in a concurrent map).
 */
final class ReferenceFrames {
  /** The whole file as RGB24 HWC frames of {@code [height, width]}, by the ffmpeg CLI. */
  private final BiFunction<Path, int[], byte[]> decodeAll;

  private final Map<String, int[]> heightWidth;
  private final int tolerance;
  private final Map<Path, byte[]> cache = new ConcurrentHashMap<>();

  /**
   * @param heightWidth each camera's [height, width] in the batches
   * @param decodeAll a file's every frame at a camera's batch size, RGB24 HWC, by the ffmpeg CLI
   * @param tolerance the largest difference of a uint8 value allowed (0: equal)
   */
  ReferenceFrames(
      Map<String, int[]> heightWidth, BiFunction<Path, int[], byte[]> decodeAll, int tolerance) {
    this.heightWidth = Map.copyOf(heightWidth);
    this.decodeAll = decodeAll;
    this.tolerance = tolerance;
  }

  /**
   * Checks every camera's frames of {@code b} (windows: {@code offsets} in frames per camera, ends
   * clamped to the episode) and returns the batch's samples.
   */
  List<Long> checked(Batch b, LeRobotMetadata m, Map<String, int[]> offsets, FrameLayout layout) {
    long[] episode = b.longs("episode_index");
    long[] frame = b.longs("frame_index");
    for (var camera : heightWidth.entrySet()) {
      int[] hw = camera.getValue();
      int[] window = offsets.getOrDefault(camera.getKey(), new int[] {0});
      int[] image =
          layout == FrameLayout.HWC ? new int[] {hw[0], hw[1], 3} : new int[] {3, hw[0], hw[1]};
      int[] expectedShape =
          offsets.containsKey(camera.getKey())
              ? new int[] {b.size(), window.length, image[0], image[1], image[2]}
              : new int[] {b.size(), image[0], image[1], image[2]};
      Batch.Frames frames = b.toHost().frames(camera.getKey());
      assertArrayEquals(expectedShape, b.frameShape(camera.getKey()), camera.getKey());
      assertArrayEquals(expectedShape, frames.shape(), camera.getKey());
      int frameValues = 3 * hw[0] * hw[1];
      for (int i = 0; i < b.size(); i++) {
        int length = m.episode((int) episode[i]).length();
        ByteBuffer sample = frames.sample(i);
        for (int t = 0; t < window.length; t++) {
          int f = Math.max(0, Math.min(length - 1, (int) frame[i] + window[t]));
          byte[] want = reference(m, (int) episode[i], camera.getKey(), f);
          byte[] got = values(sample, t * frameValues, frameValues, frames.uint8());
          if (layout == FrameLayout.CHW) {
            got = FrameCompare.chwToHwc(got, hw[0], hw[1]);
          }
          String what =
              camera.getKey() + " episode " + episode[i] + " frame " + f + " (t=" + t + ")";
          if (tolerance == 0) {
            assertArrayEquals(want, got, what);
          } else {
            int diff = FrameCompare.maxAbsDiff(want, got, 0);
            assertTrue(diff <= tolerance, what + " differs by up to " + diff);
          }
        }
      }
    }
    List<Long> samples = new ArrayList<>();
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
  private byte[] reference(LeRobotMetadata m, int episode, String camera, int frame) {
    VideoSpan span = m.episode(episode).video(camera);
    int[] hw = heightWidth.get(camera);
    byte[] all = cache.computeIfAbsent(span.file(), f -> decodeAll.apply(f, hw));
    int bytes = 3 * hw[0] * hw[1];
    int at = (span.frameOffset() + frame) * bytes;
    return Arrays.copyOfRange(all, at, at + bytes);
  }
}
