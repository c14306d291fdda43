package org.robostream.stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

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
import org.junit.jupiter.params.provider.ValueSource;
import org.robostream.dataset.EpisodeInfo;
import org.robostream.dataset.LeRobotMetadata;
import org.robostream.testing.Datasets;
import org.robostream.testing.FfmpegReference;
import org.robostream.testing.Fixtures;
import org.robostream.testing.MetadataEdit;
import org.robostream.testing.PixelFormatVideos;
import org.robostream.testing.PixelFormatVideos.Kind;
import org.robostream.video.FrameLayout;

/**
 * A dataset whose cameras are AV1 yuv444p10le (dav1d, 10-bit) and H.264 yuv444p (FFmpeg, 8-bit
 * 4:4:4) streams through the host path and the device path (frames held on a host pool), float32
 * and uint8, with resume: every frame equals the ffmpeg CLI's conversion of the frame the sample
 * names (float32: its {@code gbrpf32le} for the 10-bit camera, converted from the 10-bit samples,
 * its uint8 frame / 255 for the 8-bit one; uint8: its {@code rgb24}).
 */
class PixelFormatStreamingTest {
  private static final String TOP = "observation.images.top";
  private static final String WRIST = "observation.images.wrist";
  private static final Map<String, Kind> KINDS =
      Map.of(TOP, Kind.AV1_YUV444P10LE, WRIST, Kind.H264_YUV444P);
  private static final int SIDE = 64;
  private static final int VALUES = 3 * SIDE * SIDE;

  /** The tiny v3.0 pattern dataset with each camera's videos re-encoded (see {@link #KINDS}). */
  static Path dataset() {
    return Fixtures.derivedDataset(
        "tiny-pattern-v30-deep-colour",
        Datasets.tinyPatternV30(),
        root -> {
          for (Map.Entry<String, Kind> camera : KINDS.entrySet()) {
            try (Stream<Path> files = Files.walk(root.resolve("videos").resolve(camera.getKey()))) {
              for (Path file : files.filter(p -> p.toString().endsWith(".mp4")).toList()) {
                PixelFormatVideos.reencode(file, camera.getValue());
              }
            }
          }
          MetadataEdit.info(root, PixelFormatStreamingTest::declareFormats);
        });
  }

  private static void declareFormats(ObjectNode info) {
    KINDS.forEach(
        (camera, kind) -> {
          ObjectNode video = (ObjectNode) info.get("features").get(camera).get("info");
          video.put("video.codec", kind.codec());
          video.put("video.pix_fmt", kind.pixelFormat());
        });
  }

  private static StreamingDataset.Builder stream(UnaryOperator<StreamingDataset.Builder> options) {
    return options.apply(
        StreamingDataset.builder(dataset()).batchSize(4).workers(2).bufferSize(8).seed(11));
  }

  @ParameterizedTest(name = "device path: {0}")
  @ValueSource(booleans = {false, true})
  void float32FramesAreTheCliConversionOfTheFullPrecisionSamples(boolean devicePath) {
    References references = new References();
    int samples = 0;
    try (StreamingDataset ds =
        stream(b -> b.layout(FrameLayout.CHW).deviceBatches(devicePath)).build()) {
      for (Batch b : ds) {
        try (b) {
          samples += b.size();
          for (String camera : KINDS.keySet()) {
            assertEquals(4, b.tensor(camera).dtype().bytes(), "float32 frames");
            for (int i = 0; i < b.size(); i++) {
              float[] got = floats(b.frames(camera).sample(i));
              float[] want = references.floats(ds.metadata(), b, i, camera);
              assertArrayEquals(want, got, camera + " sample " + i + " of batch " + b.index());
            }
          }
        }
      }
      assertEquals(Datasets.totalFrames(dataset()), samples, "an epoch, each sample once");
    }
  }

  @ParameterizedTest(name = "device path: {0}")
  @ValueSource(booleans = {false, true})
  void uint8FramesAreTheCliRgb24(boolean devicePath) {
    References references = new References();
    try (StreamingDataset ds =
        stream(b -> b.returnUint8(true).layout(FrameLayout.HWC).deviceBatches(devicePath))
            .build()) {
      for (Batch b : ds) {
        try (b) {
          for (String camera : KINDS.keySet()) {
            for (int i = 0; i < b.size(); i++) {
              ByteBuffer got = b.frames(camera).sample(i);
              byte[] bytes = new byte[got.remaining()];
              got.get(bytes);
              assertArrayEquals(
                  references.rgb(ds.metadata(), b, i, camera),
                  bytes,
                  camera + " sample " + i + " of batch " + b.index());
            }
          }
        }
      }
    }
  }

  /** Windows with padding and a resume: the device path gives the host path's float frames. */
  @Test
  void deviceAndHostPathsAgreeWithWindowsAcrossAResume() {
    UnaryOperator<StreamingDataset.Builder> windows =
        b ->
            b.layout(FrameLayout.HWC)
                .deltaTimestamps(Map.of(TOP, new double[] {-0.1, 0}, WRIST, new double[] {0}));
    DevicePathResume.matchesTheHostPath(
        () -> stream(windows),
        () -> stream(b -> windows.apply(b).deviceBatches(true)),
        List.of(TOP, WRIST));
  }

  /** The CLI's frames of each video file, decoded once per test. */
  private static final class References {
    private final Map<Path, float[]> floats = new HashMap<>();
    private final Map<Path, byte[]> rgb = new HashMap<>();

    float[] floats(LeRobotMetadata meta, Batch b, int sample, String camera) {
      int frame = fileFrame(meta, b, sample, camera);
      float[] all =
          floats.computeIfAbsent(
              file(meta, b, sample, camera),
              f -> KINDS.get(camera).deep() ? cliFloats(f) : cliUint8AsFloats(f));
      float[] out = new float[VALUES];
      System.arraycopy(all, frame * VALUES, out, 0, VALUES);
      return out;
    }

    private static float[] cliFloats(Path file) {
      return FfmpegReference.allFramesUnitFloats(file, SIDE, SIDE);
    }

    /** 8-bit sources: the uint8 frame / 255, as for 4:2:0 (so 4:4:4 changes nothing there). */
    private static float[] cliUint8AsFloats(Path file) {
      byte[] chw = FfmpegReference.allFramesPlanarRgb(file, SIDE, SIDE);
      float[] out = new float[chw.length];
      for (int i = 0; i < out.length; i++) {
        out[i] = (chw[i] & 0xff) / 255f;
      }
      return out;
    }

    byte[] rgb(LeRobotMetadata meta, Batch b, int sample, String camera) {
      int frame = fileFrame(meta, b, sample, camera);
      byte[] all =
          rgb.computeIfAbsent(file(meta, b, sample, camera), FfmpegReference::allFramesRgb);
      byte[] out = new byte[VALUES];
      System.arraycopy(all, frame * VALUES, out, 0, VALUES);
      return out;
    }

    private static Path file(LeRobotMetadata meta, Batch b, int sample, String camera) {
      return episode(meta, b, sample).video(camera).file();
    }

    private static int fileFrame(LeRobotMetadata meta, Batch b, int sample, String camera) {
      EpisodeInfo e = episode(meta, b, sample);
      return (int) (e.video(camera).frameOffset() + b.longs("frame_index")[sample]);
    }

    private static EpisodeInfo episode(LeRobotMetadata meta, Batch b, int sample) {
      return meta.episode((int) b.longs("episode_index")[sample]);
    }
  }

  private static float[] floats(ByteBuffer frame) {
    float[] out = new float[frame.remaining() / Float.BYTES];
    frame.order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(out);
    return out;
  }
}
