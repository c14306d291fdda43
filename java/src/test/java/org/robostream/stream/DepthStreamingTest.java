package org.robostream.stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.robostream.arrow.DType;
import org.robostream.dataset.DatasetException;
import org.robostream.dataset.EpisodeInfo;
import org.robostream.testing.Datasets;
import org.robostream.testing.FfmpegReference;
import org.robostream.testing.Fixtures;
import org.robostream.testing.MetadataEdit;
import org.robostream.testing.PixelFormatVideos;
import org.robostream.testing.PixelFormatVideos.DepthKind;
import org.robostream.video.FrameLayout;

/**
 * A dataset with a depth camera (video.is_depth_map, shape [H, W, 1], HEVC gray12le) next to an RGB
 * one streams through the host path and the device path (held frames on a host pool), with resume:
 * the depth column is one channel of the file's 12-bit sample values, uint16 when uint8 is asked
 * (never squashed to 8 bits) and the same values as float32 otherwise.
 */
class DepthStreamingTest {
  private static final String DEPTH = "observation.images.wrist";
  private static final String RGB = "observation.images.top";
  private static final int SIDE = 64;

  static Path dataset() {
    return Fixtures.derivedDataset(
        "tiny-pattern-v30-depth",
        Datasets.tinyPatternV30(),
        root -> {
          try (Stream<Path> files = Files.walk(root.resolve("videos").resolve(DEPTH))) {
            for (Path file : files.filter(p -> p.toString().endsWith(".mp4")).toList()) {
              PixelFormatVideos.reencode(file, DepthKind.HEVC_GRAY12LE);
            }
          }
          MetadataEdit.info(root, info -> declareDepth(info, 1));
        });
  }

  private static void declareDepth(ObjectNode info, int channels) {
    ObjectNode camera = (ObjectNode) info.get("features").get(DEPTH);
    camera.putArray("shape").add(SIDE).add(SIDE).add(channels);
    ObjectNode video = (ObjectNode) camera.get("info");
    video.put("video.codec", "hevc");
    video.put("video.pix_fmt", "gray12le");
    video.put("video.is_depth_map", true);
    video.put("video.channels", channels);
  }

  private static StreamingDataset.Builder stream(UnaryOperator<StreamingDataset.Builder> options) {
    return options.apply(
        StreamingDataset.builder(dataset()).batchSize(4).workers(2).bufferSize(8).seed(5));
  }

  @ParameterizedTest(name = "uint8 asked: {0}, layout {1}, device path: {2}")
  @CsvSource({"true, HWC, false", "true, CHW, true", "false, CHW, false", "false, HWC, true"})
  void depthFramesAreTheDecodedTwelveBitValues(
      boolean uint8, FrameLayout layout, boolean devicePath) {
    Map<Path, ByteBuffer> samples = new HashMap<>();
    int seen = 0;
    try (StreamingDataset ds =
        stream(b -> b.returnUint8(uint8).layout(layout).deviceBatches(devicePath)).build()) {
      for (Batch b : ds) {
        try (b) {
          Batch.Frames depth = b.frames(DEPTH);
          assertEquals(uint8 ? DType.UINT16 : DType.FLOAT32, depth.dtype());
          int[] one =
              layout == FrameLayout.CHW ? new int[] {1, SIDE, SIDE} : new int[] {SIDE, SIDE, 1};
          assertArrayEquals(
              new int[] {b.size(), one[0], one[1], one[2]}, b.frameShape(DEPTH), "one channel");
          assertEquals(uint8 ? DType.UINT8 : DType.FLOAT32, b.frames(RGB).dtype());
          for (int i = 0; i < b.size(); i++) {
            EpisodeInfo e = ds.metadata().episode((int) b.longs("episode_index")[i]);
            Path file = e.video(DEPTH).file();
            ByteBuffer all =
                samples.computeIfAbsent(
                    file,
                    f ->
                        ByteBuffer.wrap(FfmpegReference.allFramesRaw(f, "gray12le"))
                            .order(ByteOrder.LITTLE_ENDIAN));
            int frame = (int) (e.video(DEPTH).frameOffset() + b.longs("frame_index")[i]);
            ByteBuffer got = depth.sample(i).order(ByteOrder.LITTLE_ENDIAN);
            for (int p = 0; p < SIDE * SIDE; p++) {
              int want = all.getShort(2 * (frame * SIDE * SIDE + p)) & 0xffff;
              double value = uint8 ? got.getShort(2 * p) & 0xffff : got.getFloat(4 * p);
              if (value != want) {
                throw new AssertionError(
                    "sample "
                        + i
                        + " of batch "
                        + b.index()
                        + " pixel "
                        + p
                        + ": "
                        + value
                        + " instead of "
                        + want);
              }
            }
            seen++;
          }
        }
      }
    }
    assertEquals(Datasets.totalFrames(dataset()), seen, "an epoch, each sample once");
  }

  /** Guards the test above: the depth values need more than 8 bits. */
  @Test
  void aDepthCameraMarkedAsLeRobotMarksItNowStreamsTheSameValues() throws Exception {
    // LeRobot now writes info.is_depth_map and drops the legacy video.is_depth_map.
    Path marked =
        Fixtures.derivedDataset(
            "tiny-pattern-v30-depth-is-depth-map",
            dataset(),
            root ->
                MetadataEdit.info(
                    root,
                    info -> {
                      ObjectNode video = (ObjectNode) info.get("features").get(DEPTH).get("info");
                      video.remove("video.is_depth_map");
                      video.put("is_depth_map", true);
                    }));
    Map<Long, float[]> legacy = depthByIndex(dataset());
    Map<Long, float[]> current = depthByIndex(marked);
    assertEquals(legacy.keySet(), current.keySet());
    legacy.forEach(
        (index, values) -> assertArrayEquals(values, current.get(index), "row " + index));
  }

  private static Map<Long, float[]> depthByIndex(Path root) {
    Map<Long, float[]> out = new HashMap<>();
    try (StreamingDataset ds =
        StreamingDataset.builder(root).batchSize(4).workers(1).bufferSize(8).build()) {
      for (Batch b : ds) {
        try (b) {
          assertEquals(DType.FLOAT32, b.tensor(DEPTH).dtype());
          long[] index = b.longs("index");
          int per = SIDE * SIDE;
          java.nio.FloatBuffer all = b.tensor(DEPTH).data().asFloatBuffer();
          for (int i = 0; i < index.length; i++) {
            float[] values = new float[per];
            all.position(i * per);
            all.get(values);
            out.put(index[i], values);
          }
        }
      }
    }
    return out;
  }

  @Test
  void theDepthValuesExceed255() {
    Path file = LeRobotFiles.firstVideo(dataset(), DEPTH);
    ByteBuffer all =
        ByteBuffer.wrap(FfmpegReference.allFramesRaw(file, "gray12le"))
            .order(ByteOrder.LITTLE_ENDIAN);
    int max = 0;
    for (int i = 0; i < all.capacity() / 2; i++) {
      max = Math.max(max, all.getShort(2 * i) & 0xffff);
    }
    assertTrue(max > 255 && max < 4096, "max " + max);
  }

  @Test
  void deviceAndHostPathsAgreeWithWindowsAcrossAResume() {
    UnaryOperator<StreamingDataset.Builder> windows =
        b -> b.returnUint8(true).deltaTimestamps(Map.of(DEPTH, new double[] {-0.1, 0}));
    DevicePathResume.matchesTheHostPath(
        () -> stream(windows),
        () -> stream(b -> windows.apply(b).deviceBatches(true)),
        List.of(DEPTH));
  }

  /** A depth camera declared with 3 channels is refused when the dataset is opened. */
  @Test
  void aDepthMapDeclaredWithThreeChannelsIsRefused() throws Exception {
    Path root = Files.createTempDirectory("depth-3ch");
    try {
      org.robostream.dataset.V30MetadataTestAccess.copyTree(dataset(), root);
      MetadataEdit.info(root, info -> declareDepth(info, 3));
      DatasetException e =
          assertThrows(DatasetException.class, () -> StreamingDataset.builder(root).build());
      assertTrue(e.getMessage().contains("info.json"), e.getMessage());
      assertTrue(
          e.getMessage().contains(DEPTH + ".shape must be [H, W, C] with 1 channel"),
          e.getMessage());
      assertTrue(e.getMessage().contains("video.is_depth_map"), e.getMessage());
    } finally {
      Fixtures.deleteTree(root);
    }
  }

  /**
   * resize(...) never interpolates a depth map: one for every camera is refused naming the depth
   * camera, while a resize of the colour camera alone streams with the depth column at its size.
   */
  @Test
  void aResizeThatWouldChangeTheDepthCameraIsRefused() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> stream(b -> b.resize(32, 32)).build());
    assertTrue(e.getMessage().contains("depth camera " + DEPTH), e.getMessage());
    try (StreamingDataset ds = stream(b -> b.resize(RGB, 32, 32).returnUint8(true)).build()) {
      Batch b = ds.iterator().next();
      try (b) {
        assertArrayEquals(new long[] {b.size(), 3, 32, 32}, b.tensor(RGB).shape());
        assertArrayEquals(new long[] {b.size(), 1, SIDE, SIDE}, b.tensor(DEPTH).shape());
        assertEquals(DType.UINT16, b.tensor(DEPTH).dtype());
      }
    }
  }

  /** The dataset's files. */
  private static final class LeRobotFiles {
    static Path firstVideo(Path root, String camera) {
      try (Stream<Path> files = Files.walk(root.resolve("videos").resolve(camera))) {
        return files.filter(p -> p.toString().endsWith(".mp4")).sorted().findFirst().orElseThrow();
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
  }
}
