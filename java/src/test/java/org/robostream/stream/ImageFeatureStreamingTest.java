package org.robostream.stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.robostream.dataset.DatasetException;
import org.robostream.dataset.EpisodeImages;
import org.robostream.dataset.LeRobotMetadata;
import org.robostream.dataset.synth.CameraFormat;
import org.robostream.dataset.synth.PatternCode;
import org.robostream.testing.Datasets;
import org.robostream.testing.FfmpegReference;
import org.robostream.testing.FrameCompare;
import org.robostream.video.CorruptImageException;
import org.robostream.video.FrameLayout;

/**
 * Cameras stored as image features (PNG or JPEG bytes inside the data Parquet) stream like video
 * cameras: every frame once, PNG pixel-exact against what the writer painted, JPEG within 1 of the
 * ffmpeg CLI's decode of the same bytes, windows with padding, the device path, resume, and typed
 * errors for images that do not decode or do not have the declared size.
 */
class ImageFeatureStreamingTest {
  private static final List<String> CAMERAS =
      List.of("observation.images.top", "observation.images.wrist");

  private static StreamingDataset.Builder builder(Path root) {
    return StreamingDataset.builder(root)
        .batchSize(8)
        .workers(2)
        .bufferSize(20)
        .maxNumShards(3)
        .seed(11)
        .returnUint8(true)
        .layout(FrameLayout.HWC);
  }

  /** The RGB24 (HWC) image the writer painted for (episode, frame, camera). */
  private static byte[] painted(int episode, int frame, int camera, int width, int height) {
    byte[] rgb = new byte[width * height * 3];
    PatternCode.paint(rgb, width, height, episode, frame, camera);
    return rgb;
  }

  private static void streamAll(Path root) {
    try (StreamingDataset ds = builder(root).build()) {
      for (Batch b : ds) {
        b.close();
      }
    }
  }

  private static byte[] bytes(ByteBuffer b) {
    byte[] out = new byte[b.remaining()];
    b.duplicate().get(out);
    return out;
  }

  @Test
  void pngImageFeaturesStreamEveryFrameOncePixelExact() {
    Path root = Datasets.imagesV30(CameraFormat.PNG);
    try (StreamingDataset ds = builder(root).build()) {
      assertEquals(CAMERAS, ds.metadata().info().cameraKeys());
      assertEquals(StreamingDatasetTest.totalFrames(root), pixelExactEpoch(ds), "every frame once");
    }
  }

  /** Image features declared channels first ([3, H, W]) are read at their real size. */
  @Test
  void channelsFirstImageFeaturesStreamEveryFrameOncePixelExact() {
    Path root = ImageFixtures.channelsFirst(Datasets.imagesV30(CameraFormat.PNG));
    try (StreamingDataset ds = builder(root).build()) {
      assertEquals(StreamingDatasetTest.totalFrames(root), pixelExactEpoch(ds), "every frame once");
    }
  }

  @Test
  void aTightBudgetDropsKeptImagesAndDecodesAtDeliveryWithoutLosingAFrame() {
    Path root = Datasets.imagesV30(CameraFormat.PNG);
    // Per worker (2): two prefetched batches of 8 samples, then room for one sample (2 cameras
    // of 64x64 RGB); the encoded images a worker keeps count against that room too.
    long sample = 2 * 64 * 64 * 3;
    try (StreamingDataset ds =
        builder(root).memoryBudgetBytes(2 * (2 * 8 * sample + sample)).build()) {
      assertEquals(StreamingDatasetTest.totalFrames(root), pixelExactEpoch(ds), "every frame once");
      assertTrue(ds.stats().samplesDecodedOnExit() > 0, "the budget forced delivery-time decoding");
    }
  }

  /** Streams an epoch checking every frame against the painted one; the samples seen, once each. */
  private static int pixelExactEpoch(StreamingDataset ds) {
    Set<Long> seen = new HashSet<>();
    for (Batch b : ds) {
      try (b) {
        long[] episode = b.longs("episode_index");
        long[] frame = b.longs("frame_index");
        for (int k = 0; k < CAMERAS.size(); k++) {
          Batch.Frames frames = b.frames(CAMERAS.get(k));
          assertArrayEquals(new int[] {b.size(), 64, 64, 3}, frames.shape());
          for (int i = 0; i < b.size(); i++) {
            assertArrayEquals(
                painted((int) episode[i], (int) frame[i], k, 64, 64),
                bytes(frames.sample(i)),
                CAMERAS.get(k) + " episode " + episode[i] + " frame " + frame[i]);
          }
        }
        for (int i = 0; i < b.size(); i++) {
          assertTrue(seen.add(Samples.of((int) episode[i], (int) frame[i])), "delivered twice");
        }
      }
    }
    return seen.size();
  }

  @Test
  void jpegImageFeaturesMatchTheFfmpegCliWithinOne() throws Exception {
    Path root = Datasets.imagesV21(CameraFormat.JPEG);
    LeRobotMetadata meta = LeRobotMetadata.open(root, Optional.empty());
    String camera = "observation.images.top";
    Map<Integer, EpisodeImages> images = new HashMap<>();
    Path tmp = Files.createTempFile("robostream-image", ".jpg");
    int checked = 0;
    try (BufferAllocator allocator = new RootAllocator();
        StreamingDataset ds = builder(root).build()) {
      for (Batch b : ds) {
        try (b) {
          long[] episode = b.longs("episode_index");
          long[] frame = b.longs("frame_index");
          Batch.Frames frames = b.frames(camera);
          for (int i = 0; i < b.size(); i++) {
            int e = (int) episode[i];
            EpisodeImages encoded =
                images.computeIfAbsent(
                    e,
                    x ->
                        EpisodeImages.read(
                            allocator, meta.episode(x), meta.info().features().get(camera)));
            Files.write(tmp, encoded.image((int) frame[i]));
            byte[] want = FfmpegReference.imageRgb(tmp);
            byte[] got = bytes(frames.sample(i));
            assertEquals(want.length, got.length);
            assertTrue(
                FrameCompare.maxAbsDiff(want, got, 0) <= 1,
                "episode "
                    + e
                    + " frame "
                    + frame[i]
                    + " differs from ffmpeg's decode by "
                    + FrameCompare.maxAbsDiff(want, got, 0));
            checked++;
          }
        }
      }
    } finally {
      Files.deleteIfExists(tmp);
    }
    assertEquals(StreamingDatasetTest.totalFrames(root), checked);
  }

  @Test
  void windowsOnAnImageCameraPadAndClampLikeVideo() {
    Path root = Datasets.imagesV30(CameraFormat.PNG);
    String top = CAMERAS.get(0);
    double[] deltas = {-0.1, 0, 0.05, 2.5}; // -2, 0, +1, +50 frames at 20 fps
    int[] offsets = {-2, 0, 1, 50};
    LeRobotMetadata meta = LeRobotMetadata.open(root, Optional.empty());
    int padded = 0;
    try (StreamingDataset ds =
        builder(root)
            .returnUint8(false)
            .layout(FrameLayout.CHW)
            .deltaTimestamps(Map.of(top, deltas))
            .build()) {
      for (Batch b : ds) {
        try (b) {
          long[] episode = b.longs("episode_index");
          long[] frame = b.longs("frame_index");
          boolean[] pad = b.booleans(top + "_is_pad");
          Batch.Frames frames = b.frames(top);
          assertArrayEquals(new int[] {b.size(), 4, 3, 64, 64}, frames.shape());
          for (int i = 0; i < b.size(); i++) {
            int length = meta.episode((int) episode[i]).length();
            ByteBuffer sample = frames.sample(i).order(ByteOrder.nativeOrder());
            for (int t = 0; t < offsets.length; t++) {
              int f = (int) frame[i] + offsets[t];
              boolean isPad = f < 0 || f >= length;
              assertEquals(isPad, pad[i * offsets.length + t], "pad of position " + t);
              padded += isPad ? 1 : 0;
              int clamped = Math.max(0, Math.min(length - 1, f));
              ByteBuffer position = ByteBuffer.allocate(3 * 64 * 64);
              for (int p = 0; p < position.capacity(); p++) {
                float v = sample.getFloat((t * position.capacity() + p) * 4);
                position.put(p, (byte) Math.round(v * 255));
              }
              assertEquals(
                  new PatternCode.Identity((int) episode[i], clamped, 0),
                  PatternCode.read(position, 64, 64, true),
                  "window position " + t + " of episode " + episode[i] + " frame " + frame[i]);
            }
          }
        }
      }
    }
    assertTrue(padded > 0, "windows reached past the episode ends");
  }

  @Test
  void devicePathBatchesEqualHostPathBatchesAndResumeContinues() {
    Path root = Datasets.imagesV30(CameraFormat.PNG);
    try (StreamingDataset host = builder(root).build();
        StreamingDataset device = builder(root).deviceBatches(true).build()) {
      assertTrue(device.deviceBatches());
      Iterator<Batch> expected = host.iterator();
      for (Batch b : device) {
        try (b;
            Batch e = expected.next()) {
          assertArrayEquals(e.longs("index"), b.longs("index"));
          for (String camera : CAMERAS) {
            assertEquals(e.frames(camera).data(), b.toHost().frames(camera).data(), camera);
          }
        }
      }
      assertTrue(!expected.hasNext(), "as many batches");
    }
    String state;
    List<byte[]> rest = new ArrayList<>();
    try (StreamingDataset ds = builder(root).deviceBatches(true).build()) {
      Iterator<Batch> it = ds.iterator();
      it.next().close();
      it.next().close();
      state = ds.state();
      while (it.hasNext()) {
        try (Batch b = it.next()) {
          rest.add(bytes(b.toHost().frames(CAMERAS.get(1)).data()));
        }
      }
    }
    try (StreamingDataset resumed = builder(root).deviceBatches(true).resumeFrom(state).build()) {
      int i = 0;
      for (Batch b : resumed) {
        try (b) {
          assertArrayEquals(rest.get(i++), bytes(b.toHost().frames(CAMERAS.get(1)).data()));
        }
      }
      assertEquals(rest.size(), i, "the resumed stream delivers the rest of the epoch");
    }
  }

  /**
   * A 16-bit PNG delivered as float32 keeps its precision on both frame devices: the CPU device
   * converts the held picture from its own samples, the CUDA device (over a host pool) holds it
   * converted from them (not as a uint8 frame expanded by 1/255), so their batches are equal.
   */
  @Test
  void aSixteenBitImageKeepsItsPrecisionAsFloat32OnBothFrameDevices() {
    Path root = ImageFixtures.withSixteenBitImage(Datasets.imagesV21(CameraFormat.PNG), 1, 3);
    boolean[] seen = {false};
    try (StreamingDataset host = builder(root).returnUint8(false).build();
        StreamingDataset device = builder(root).returnUint8(false).deviceBatches(true).build()) {
      Iterator<Batch> expected = host.iterator();
      for (Batch b : device) {
        try (b;
            Batch e = expected.next()) {
          long[] episodes = e.longs("episode_index");
          long[] frames = e.longs("frame_index");
          ByteBuffer want = e.frames(CAMERAS.get(0)).data();
          ByteBuffer got = b.toHost().frames(CAMERAS.get(0)).data();
          assertEquals(want, got, "the batches of both devices");
          for (int i = 0; i < episodes.length; i++) {
            if (episodes[i] == 1 && frames[i] == 3) {
              seen[0] = true;
              float v = want.order(ByteOrder.nativeOrder()).getFloat(i * 64 * 48 * 3 * 4 + 4 * 3);
              // Pixel (1, 0): 16-bit value 48, 0.00073; as 8 bits it would be 0 (48 / 65535 is
              // under half of 1 / 255).
              assertTrue(v > 0.0004f && v < 0.0011f, "pixel (1, 0) from its 16 bits: " + v);
            }
          }
        }
      }
    }
    assertTrue(seen[0], "episode 1 frame 3 was delivered");
  }

  @Test
  void aCorruptImageIsATypedErrorNamingFileEpisodeFrameAndFeature() {
    Path root = ImageFixtures.withCorruptImage(Datasets.imagesV21(CameraFormat.PNG), 2, 5);
    SampleException e = assertThrows(SampleException.class, () -> streamAll(root));
    assertInstanceOf(CorruptImageException.class, e.getCause());
    assertEquals(2, e.episode());
    assertEquals("observation.images.top", e.camera());
    assertTrue(e.file().endsWith("episode_000002.parquet"), e.file());
    // Refused before FFmpeg (which would conceal the damage): the chunk no longer matches its CRC.
    assertTrue(e.getMessage().contains("frame 5: chunk "), e.getMessage());
    assertTrue(e.getMessage().contains("does not match its CRC-32"), e.getMessage());
  }

  @Test
  void imagesOfAnotherSizeThanDeclaredAreRefusedWhenTheDatasetIsOpened() {
    Path root = ImageFixtures.declaredAs(Datasets.imagesV21(CameraFormat.PNG), 48, 32);
    DatasetException.BadMetadata e =
        assertThrows(DatasetException.BadMetadata.class, () -> builder(root).build().close());
    assertTrue(e.file().endsWith("episode_000000.parquet"), e.file());
    assertTrue(
        e.getMessage()
            .contains(
                "episode 0 frame 0 of observation.images.top is a 64x48 PNG but info.json"
                    + " declares observation.images.top as 48x32 (shape [32, 48, 3])"),
        e.getMessage());
  }

  /** The open-time size check looks at the kept cameras only: a camera left out is not read. */
  @Test
  void aCameraLeftOutIsNotCheckedWhenTheDatasetIsOpened() {
    Path root = ImageFixtures.declaredAs(Datasets.imagesV30(CameraFormat.PNG), 48, 32);
    assertThrows(DatasetException.BadMetadata.class, () -> builder(root).build().close());
    try (StreamingDataset ds = builder(root).cameras("observation.images.wrist").build()) {
      assertEquals(List.of("observation.images.wrist"), ds.metadata().imageCameras());
      int frames = 0;
      for (Batch b : ds) {
        try (b) {
          frames += b.size();
        }
      }
      assertEquals(StreamingDatasetTest.totalFrames(root), frames);
    }
  }

  @Test
  void anImageOfAnotherSizeLaterInTheEpisodeIsATypedErrorBeforeItIsDecoded() {
    Path root = ImageFixtures.withImageOf96x64(Datasets.imagesV21(CameraFormat.PNG), 1, 4);
    SampleException e = assertThrows(SampleException.class, () -> streamAll(root));
    assertInstanceOf(DatasetException.BadMetadata.class, e.getCause());
    assertEquals(1, e.episode());
    assertTrue(
        e.getMessage()
            .contains(
                "episode 1, camera observation.images.top: frame 4 is a 96x64 PNG but info.json"
                    + " declares observation.images.top as 64x48"),
        e.getMessage());
  }

  @Test
  void anImageStoredOnlyAsAPathIsRefusedNamingTheRowAndWhy() {
    Path root = ImageFixtures.withPathOnlyImage(Datasets.imagesV21(CameraFormat.PNG), 1, 3);
    SampleException e = assertThrows(SampleException.class, () -> streamAll(root));
    assertInstanceOf(DatasetException.BadMetadata.class, e.getCause());
    assertEquals(1, e.episode());
    assertTrue(e.file().endsWith("episode_000001.parquet"), e.file());
    assertTrue(
        e.getMessage()
            .contains(
                "episode 1 frame 3, image feature observation.images.top has no image bytes"
                    + " (only the path frame_000003.png)"),
        e.getMessage());
  }

  @Test
  void aColumnThatIsNoImageStructIsRefusedWhenTheDatasetIsOpened() {
    Path root = ImageFixtures.actionDeclaredAsImage(Datasets.imagesV21(CameraFormat.PNG));
    DatasetException.BadMetadata e =
        assertThrows(DatasetException.BadMetadata.class, () -> builder(root).build().close());
    assertTrue(
        e.getMessage().contains("column action is List<element: FloatingPoint(SINGLE)>")
            && e.getMessage()
                .contains(
                    "but info.json declares an image feature, stored as a"
                        + " struct {bytes: binary, path: string}"),
        e.getMessage());
  }
}
