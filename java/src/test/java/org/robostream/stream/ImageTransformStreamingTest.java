package org.robostream.stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.robostream.arrow.DType;
import org.robostream.dataset.synth.CameraFormat;
import org.robostream.framecache.FrameCacheOptions;
import org.robostream.testing.Datasets;
import org.robostream.transform.ImageTransformsConfig;
import org.robostream.transform.ImageTransformsConfig.Entry;
import org.robostream.transform.ImageTransformsConfig.Kind;
import org.robostream.video.FrameLayout;

/**
 * Image transforms in the loader: every sample is transformed by its own draw (the same in every
 * run, worker count and resume), the operations do what they say on the frames the batch holds,
 * both paths (packed YUV before conversion, RGB after) agree, a user transform sees and changes the
 * sample's frames, and what cannot be transformed is left alone or refused.
 */
class ImageTransformStreamingTest {
  private static final String TOP = "observation.images.top";

  private static StreamingDataset.Builder stream(Path root, int workers) {
    return StreamingDataset.builder(root)
        .batchSize(4)
        .workers(workers)
        .bufferSize(16)
        .seed(9)
        .returnUint8(true);
  }

  /** Every delivered sample's frames of every camera, by sample index, for {@code epochs}. */
  private static Map<String, byte[]> frames(StreamingDataset ds, int epochs) {
    Map<String, byte[]> out = new HashMap<>();
    for (int e = 0; e < epochs; e++) {
      collect(ds, ds.iterator(), Integer.MAX_VALUE, out);
    }
    return out;
  }

  private static int collect(
      StreamingDataset ds, Iterator<Batch> it, int batches, Map<String, byte[]> out) {
    int n = 0;
    while (n < batches && it.hasNext()) {
      try (Batch b = it.next()) {
        n++;
        if (b.booleans("is_padding")[0]) {
          continue;
        }
        long[] index = b.longs("index");
        for (String camera : b.cameras()) {
          Batch.Frames f = b.frames(camera);
          for (int i = 0; i < b.size(); i++) {
            ByteBuffer s = f.sample(i);
            byte[] bytes = new byte[s.remaining()];
            s.get(bytes);
            out.put(b.epoch() + "/" + index[i] + "/" + camera, bytes);
          }
        }
      }
    }
    return n;
  }

  @Test
  void eachSampleHasItsOwnDrawTheSameWhateverTheWorkersAndAfterAResume() {
    Path root = Datasets.patternV30();
    ImageTransformsConfig defaults = ImageTransformsConfig.lerobotDefaults();
    Map<String, byte[]> plain;
    Map<String, byte[]> twoWorkers;
    Map<String, byte[]> oneWorker;
    try (StreamingDataset ds = stream(root, 2).build()) {
      plain = frames(ds, 2);
    }
    try (StreamingDataset ds = stream(root, 2).imageTransforms(defaults).build()) {
      twoWorkers = frames(ds, 2);
    }
    try (StreamingDataset ds = stream(root, 1).imageTransforms(defaults).build()) {
      oneWorker = frames(ds, 2);
    }
    assertEquals(plain.keySet(), twoWorkers.keySet());
    int changed = 0;
    int epochsDiffer = 0;
    for (String key : plain.keySet()) {
      assertArrayEquals(twoWorkers.get(key), oneWorker.get(key), key + ": the same draw");
      changed += java.util.Arrays.equals(plain.get(key), twoWorkers.get(key)) ? 0 : 1;
      if (key.startsWith("0/")) {
        String next = "1/" + key.substring(2);
        epochsDiffer += java.util.Arrays.equals(twoWorkers.get(key), twoWorkers.get(next)) ? 0 : 1;
      }
    }
    // The pattern is grey: a draw of only saturation, hue and factors near 1 can leave a frame
    // as it was; nearly every frame changes.
    assertTrue(changed >= 0.95 * plain.size(), changed + " of " + plain.size() + " changed");
    assertTrue(
        epochsDiffer >= 0.95 * plain.size() / 2, "the next epoch draws anew: " + epochsDiffer);
    // A resume after 3 batches delivers the rest of the epoch as the uninterrupted run did.
    Map<String, byte[]> resumed = new HashMap<>();
    String state;
    try (StreamingDataset ds = stream(root, 2).imageTransforms(defaults).build()) {
      collect(ds, ds.iterator(), 3, resumed);
      state = ds.state();
    }
    try (StreamingDataset ds =
        stream(root, 2).imageTransforms(defaults).resumeFrom(state).build()) {
      collect(ds, ds.iterator(), Integer.MAX_VALUE, resumed);
    }
    int compared = 0;
    for (Map.Entry<String, byte[]> e : resumed.entrySet()) {
      assertArrayEquals(twoWorkers.get(e.getKey()), e.getValue(), e.getKey());
      compared++;
    }
    assertEquals(plain.size() / 2, compared, "the whole epoch, once");
  }

  private static ImageTransformsConfig just(Kind kind, double min, double max, double t) {
    return ImageTransformsConfig.of(List.of(new Entry(kind, 1, min, max, t)), 1);
  }

  /** Mean |a - b| over the values of two uint8 frames. */
  private static double meanAbs(byte[] a, byte[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      s += Math.abs((a[i] & 0xFF) - (b[i] & 0xFF));
    }
    return s / a.length;
  }

  @ParameterizedTest(name = "device path: {0}")
  @ValueSource(booleans = {false, true})
  void brightnessScalesTheColourOnEitherPath(boolean devicePath) {
    Path root = Datasets.tinyPatternV30();
    Map<String, byte[]> plain;
    Map<String, byte[]> bright;
    try (StreamingDataset ds = stream(root, 1).deviceBatches(devicePath).build()) {
      plain = frames(ds, 1);
    }
    try (StreamingDataset ds =
        stream(root, 1)
            .deviceBatches(devicePath)
            .imageTransforms(just(Kind.BRIGHTNESS, 1.25, 1.25, 0))
            .build()) {
      bright = frames(ds, 1);
    }
    for (String key : plain.keySet()) {
      byte[] a = plain.get(key);
      byte[] b = bright.get(key);
      double worst = 0;
      for (int i = 0; i < a.length; i++) {
        double want = Math.min(255, (a[i] & 0xFF) * 1.25);
        worst = Math.max(worst, Math.abs((b[i] & 0xFF) - want));
      }
      // The YUV path scales before the conversion: its rounding, not a different operation.
      assertTrue(worst <= (devicePath ? 1 : 4), key + ": off by " + worst);
    }
  }

  @Test
  void theYuvAndRgbPathsAgreeForEveryBuiltIn() {
    Path root = Datasets.tinyPatternV30();
    for (Kind kind : Kind.values()) {
      ImageTransformsConfig c =
          switch (kind) {
            case HUE -> just(kind, 0.04, 0.04, 0);
            case AFFINE -> just(kind, 4, 4, 0.05);
            default -> just(kind, 1.3, 1.3, 0);
          };
      Map<String, byte[]> host;
      Map<String, byte[]> device;
      try (StreamingDataset ds = stream(root, 1).imageTransforms(c).build()) {
        host = frames(ds, 1);
      }
      try (StreamingDataset ds = stream(root, 1).deviceBatches(true).imageTransforms(c).build()) {
        device = frames(ds, 1);
      }
      double sum = 0;
      for (String key : host.keySet()) {
        sum += meanAbs(host.get(key), device.get(key));
      }
      double mean = sum / host.size();
      // Sharpness filters luma on the YUV path, every channel on the RGB path; the affine warps
      // 4:2:0 chroma at its own resolution: those differ a little more near edges.
      double bound = kind == Kind.SHARPNESS || kind == Kind.AFFINE ? 4 : 1.5;
      assertTrue(mean <= bound, kind + ": the paths differ by " + mean + " on average");
    }
  }

  @Test
  void anAffineTranslationMovesThePicture() {
    Path root = Datasets.tinyPatternV30();
    Map<String, byte[]> plain;
    Map<String, byte[]> moved;
    // 0.125 of 64 pixels = 8 pixels to the right and down; no rotation.
    ImageTransformsConfig shift =
        ImageTransformsConfig.of(List.of(new Entry(Kind.AFFINE, 1, 0, 0, 0.125)), 1);
    try (StreamingDataset ds = stream(root, 1).build()) {
      plain = frames(ds, 1);
    }
    try (StreamingDataset ds = stream(root, 1).imageTransforms(shift).build()) {
      moved = frames(ds, 1);
    }
    int matched = 0;
    for (String key : plain.keySet()) {
      byte[] a = plain.get(key);
      byte[] b = moved.get(key);
      // The translation is drawn per sample within +-8 pixels; find it, and it must explain the
      // frame (CHW, 64x64) with black where nothing maps.
      double best = Double.MAX_VALUE;
      for (int dy = -8; dy <= 8; dy++) {
        for (int dx = -8; dx <= 8; dx++) {
          double err = 0;
          int n = 0;
          for (int c = 0; c < 3; c++) {
            for (int y = 8; y < 56; y++) {
              for (int x = 8; x < 56; x++) {
                int from = c * 4096 + (y - dy) * 64 + (x - dx);
                err += Math.abs((b[c * 4096 + y * 64 + x] & 0xFF) - (a[from] & 0xFF));
                n++;
              }
            }
          }
          best = Math.min(best, err / n);
        }
      }
      assertTrue(best < 3, key + ": no translation explains the frame (" + best + ")");
      matched++;
    }
    assertTrue(matched > 0);
  }

  @Test
  void aUserTransformSeesTheSamplesFramesAndChangesThem() {
    Path root = Datasets.tinyPatternV30();
    Map<String, long[]> seen = new ConcurrentHashMap<>();
    try (StreamingDataset ds =
        stream(root, 2)
            .deltaTimestamps(Map.of(TOP, new double[] {-0.05, 0}))
            .imageTransform(
                f -> {
                  seen.put(f.index() + "/" + f.camera(), f.shape());
                  assertEquals(DType.UINT8, f.dtype());
                  assertEquals(FrameLayout.CHW, f.layout());
                  ByteBuffer data = f.data();
                  assertEquals(f.byteSize(), data.capacity());
                  data.put(0, (byte) (f.index() & 0x7F)); // mark the first value
                  data.put(data.capacity() - 1, (byte) f.random().nextInt(256));
                })
            .build()) {
      for (Batch b : ds) {
        try (b) {
          long[] index = b.longs("index");
          for (String camera : b.cameras()) {
            Batch.Frames frames = b.frames(camera);
            for (int i = 0; i < b.size(); i++) {
              assertEquals(index[i] & 0x7F, frames.sample(i).get(0), camera + " " + index[i]);
            }
          }
        }
      }
    }
    int total = Datasets.totalFrames(root);
    assertEquals(2 * total, seen.size(), "every sample, every camera");
    long[] topShape = seen.get("0/" + TOP);
    assertNotNull(topShape);
    assertArrayEquals(new long[] {2, 3, 64, 64}, topShape, "the window's two frames at once");
    assertArrayEquals(
        new long[] {1, 3, 64, 64}, seen.get("0/observation.images.wrist"), "one frame");
  }

  @Test
  void aFailingUserTransformNamesTheEpisodeAndCamera() {
    try (StreamingDataset ds =
        stream(Datasets.tinyPatternV30(), 1)
            .imageTransform(
                f -> {
                  throw new IllegalStateException("no good");
                })
            .build()) {
      SampleException e = assertThrows(SampleException.class, () -> ds.iterator().next());
      assertTrue(e.getMessage().contains("the image transform failed"), e.getMessage());
      assertTrue(e.getMessage().contains("no good"), e.getMessage());
      assertNotNull(e.camera());
    }
  }

  @Test
  void pngImageFeaturesAreTransformedInRgb() {
    Path root = Datasets.imagesV30(CameraFormat.PNG);
    Map<String, byte[]> plain;
    Map<String, byte[]> grey;
    try (StreamingDataset ds = stream(root, 1).build()) {
      plain = frames(ds, 1);
    }
    try (StreamingDataset ds =
        stream(root, 1).imageTransforms(just(Kind.SATURATION, 0, 0, 0)).build()) {
      grey = frames(ds, 1);
    }
    for (String key : plain.keySet()) {
      byte[] g = grey.get(key);
      byte[] a = plain.get(key);
      int n = g.length / 3;
      for (int i = 0; i < n; i++) {
        int r = g[i] & 0xFF;
        assertEquals(r, g[n + i] & 0xFF, 1, key + " pixel " + i + " is grey");
        assertEquals(r, g[2 * n + i] & 0xFF, 1, key + " pixel " + i + " is grey");
        double luma =
            0.299 * (a[i] & 0xFF) + 0.587 * (a[n + i] & 0xFF) + 0.114 * (a[2 * n + i] & 0xFF);
        assertEquals(luma, r, 1.0, key + " pixel " + i + " keeps its luma");
      }
    }
  }

  @Test
  void depthCamerasGetNoBuiltInTransform() {
    Path root = DepthStreamingTest.dataset();
    UnaryOperator<StreamingDataset.Builder> base = b -> b;
    Map<String, byte[]> plain;
    Map<String, byte[]> transformed;
    try (StreamingDataset ds = base.apply(stream(root, 1)).build()) {
      plain = frames(ds, 1);
    }
    try (StreamingDataset ds =
        stream(root, 1).imageTransforms(ImageTransformsConfig.lerobotDefaults()).build()) {
      transformed = frames(ds, 1);
    }
    boolean rgbChanged = false;
    for (String key : plain.keySet()) {
      if (key.endsWith("wrist")) {
        assertArrayEquals(plain.get(key), transformed.get(key), key + ": depth is left alone");
      } else {
        rgbChanged |= !java.util.Arrays.equals(plain.get(key), transformed.get(key));
      }
    }
    assertTrue(rgbChanged, "the RGB camera is transformed");
  }

  @Test
  void framesFromTheFrameCacheAreTransformedAsDecodedOnes() {
    Path root = Datasets.tinyPatternV30();
    ImageTransformsConfig defaults = ImageTransformsConfig.lerobotDefaults();
    Map<String, byte[]> decoded;
    Map<String, byte[]> cached;
    try (StreamingDataset ds = stream(root, 2).imageTransforms(defaults).build()) {
      decoded = frames(ds, 3);
    }
    try (StreamingDataset ds =
        stream(root, 2)
            .imageTransforms(defaults)
            .frameCache(FrameCacheOptions.memory(64L << 20))
            .build()) {
      cached = frames(ds, 3);
      assertTrue(ds.stats().framesFromCache() > 0, "epochs 2 and 3 came from the cache");
    }
    assertEquals(decoded.keySet(), cached.keySet());
    for (String key : decoded.keySet()) {
      assertArrayEquals(decoded.get(key), cached.get(key), key);
    }
    assertFalse(decoded.isEmpty());
  }

  @Test
  void floatFramesAreTransformedLikeUint8Ones() {
    Path root = Datasets.tinyPatternV30();
    ImageTransformsConfig defaults = ImageTransformsConfig.lerobotDefaults();
    Map<String, byte[]> bytes;
    Map<String, byte[]> floats;
    try (StreamingDataset ds = stream(root, 1).imageTransforms(defaults).build()) {
      bytes = frames(ds, 1);
    }
    try (StreamingDataset ds =
        stream(root, 1).returnUint8(false).imageTransforms(defaults).build()) {
      floats = frames(ds, 1);
    }
    for (String key : bytes.keySet()) {
      byte[] u = bytes.get(key);
      java.nio.FloatBuffer f =
          ByteBuffer.wrap(floats.get(key)).order(java.nio.ByteOrder.nativeOrder()).asFloatBuffer();
      for (int i = 0; i < u.length; i++) {
        assertEquals((u[i] & 0xFF) / 255f, f.get(i), 1e-6, key + " value " + i);
      }
    }
  }
}
