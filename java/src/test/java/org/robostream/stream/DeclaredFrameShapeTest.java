package org.robostream.stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.robostream.dataset.DatasetException;
import org.robostream.dataset.V30MetadataTestAccess;
import org.robostream.testing.Datasets;
import org.robostream.testing.FfmpegReference;
import org.robostream.testing.FrameCompare;
import org.robostream.testing.MetadataEdit;
import org.robostream.video.FrameLayout;

/**
 * A camera's declared shape read as LeRobot reads it: a channels-first declaration ({@code [3, 48,
 * 64]}, names channels/height/width) streams the same frames as the original {@code [48, 64, 3]},
 * each the ffmpeg CLI's; a declared size that the videos do not have is refused by {@code build()}
 * naming the file, the camera and both sizes, before any frame is decoded.
 */
class DeclaredFrameShapeTest {
  private static final int HEIGHT = 48;
  private static final int WIDTH = 64;

  @TempDir Path tmp;

  @Test
  void aChannelsFirstDeclarationStreamsEveryFrameAsTheFfmpegCliDecodesIt() throws Exception {
    Path root = copyWithCameras(camera -> declare(camera, "[3,48,64]", "channels,height,width"));
    Map<Path, byte[]> references = new HashMap<>();
    int frameBytes = HEIGHT * WIDTH * 3;
    int samples = 0;
    try (StreamingDataset ds =
        StreamingDataset.builder(root)
            .batchSize(4)
            .shuffle(false)
            .returnUint8(true)
            .layout(FrameLayout.HWC)
            .build()) {
      for (Batch b : ds) {
        try (b) {
          long[] episode = b.longs("episode_index");
          long[] frame = b.longs("frame_index");
          for (String camera : b.cameras()) {
            assertArrayEquals(new int[] {b.size(), HEIGHT, WIDTH, 3}, b.frames(camera).shape());
            for (int i = 0; i < b.size(); i++) {
              Path video = ds.metadata().videoFile((int) episode[i], camera);
              byte[] reference = references.computeIfAbsent(video, FfmpegReference::allFramesRgb);
              byte[] got = bytes(b.frames(camera).sample(i));
              double diff = FrameCompare.meanAbsDiff(got, reference, (int) frame[i] * frameBytes);
              assertTrue(
                  diff <= 1.5,
                  camera + " episode " + episode[i] + " frame " + frame[i] + ": mean diff " + diff);
            }
          }
          samples += b.size();
        }
      }
    }
    assertEquals(30, samples, "3 episodes of 10 frames, each once");
  }

  /**
   * The channels-first declaration through both batch paths (the device path's frames held on a
   * host pool here) and across a resume: every sample once, each frame the ffmpeg CLI's.
   */
  @ParameterizedTest(name = "deviceBatches {0}")
  @ValueSource(booleans = {false, true})
  void aChannelsFirstDatasetResumesOnBothBatchPathsEverySampleOnce(boolean deviceBatches)
      throws Exception {
    Path root = copyWithCameras(camera -> declare(camera, "[3,48,64]", "channels,height,width"));
    Map<Path, byte[]> references = new HashMap<>();
    Set<String> seen = new HashSet<>();
    String state;
    try (StreamingDataset ds = channelsFirst(root, deviceBatches).build()) {
      Iterator<Batch> it = ds.iterator();
      for (int i = 0; i < 2; i++) {
        try (Batch b = it.next()) {
          checkFrames(b, ds, references, seen);
        }
      }
      state = ds.state();
    }
    try (StreamingDataset ds = channelsFirst(root, deviceBatches).resumeFrom(state).build()) {
      for (Batch b : ds) {
        try (b) {
          checkFrames(b, ds, references, seen);
        }
      }
    }
    assertEquals(30, seen.size(), "3 episodes of 10 frames, each once");
  }

  private static StreamingDataset.Builder channelsFirst(Path root, boolean deviceBatches) {
    return StreamingDataset.builder(root)
        .batchSize(4)
        .seed(3)
        .returnUint8(true)
        .layout(FrameLayout.HWC)
        .deviceBatches(deviceBatches);
  }

  private static void checkFrames(
      Batch b, StreamingDataset ds, Map<Path, byte[]> references, Set<String> seen) {
    long[] episode = b.longs("episode_index");
    long[] frame = b.longs("frame_index");
    for (int i = 0; i < b.size(); i++) {
      assertTrue(seen.add(episode[i] + "/" + frame[i]), "sample delivered twice");
      for (String camera : b.cameras()) {
        assertArrayEquals(new int[] {b.size(), HEIGHT, WIDTH, 3}, b.frames(camera).shape());
        Path video = ds.metadata().videoFile((int) episode[i], camera);
        byte[] reference = references.computeIfAbsent(video, FfmpegReference::allFramesRgb);
        double diff =
            FrameCompare.meanAbsDiff(
                bytes(b.frames(camera).sample(i)), reference, (int) frame[i] * HEIGHT * WIDTH * 3);
        assertTrue(diff <= 1.5, camera + " " + episode[i] + "/" + frame[i] + ": diff " + diff);
      }
    }
  }

  @Test
  void aDeclaredSizeTheVideosDoNotHaveIsRefusedByBuildNamingFileCameraAndBothSizes()
      throws Exception {
    // Height and width swapped, and info's video.height/video.width with them: consistent in
    // info.json, wrong for the videos (64 wide, 48 high).
    Path root =
        copyWithCameras(
            camera -> {
              declare(camera, "[64,48,3]", "height,width,channel");
              ObjectNode info = (ObjectNode) camera.get("info");
              info.put("video.height", 64);
              info.put("video.width", 48);
            });
    DatasetException.BadMetadata e =
        assertThrows(
            DatasetException.BadMetadata.class,
            () -> StreamingDataset.builder(root).batchSize(4).build().close());
    String message = e.getMessage();
    for (String word :
        new String[] {"observation.images.", "episode_000000.mp4", "64x48", "48x64", "info.json"}) {
      assertTrue(message.contains(word), "'" + word + "' missing from: " + message);
    }
  }

  /**
   * A copy of the tiny v2.1 dataset (2 cameras 64x48) whose camera features {@code edit} changes.
   */
  private Path copyWithCameras(Consumer<ObjectNode> edit) throws Exception {
    Path root = tmp.resolve("ds");
    V30MetadataTestAccess.copyTree(Datasets.tinyPatternV21(), root);
    MetadataEdit.info(
        root,
        info ->
            info.get("features")
                .forEach(
                    f -> {
                      if (f.path("dtype").asText().equals("video")) {
                        edit.accept((ObjectNode) f);
                      }
                    }));
    return root;
  }

  private static void declare(ObjectNode feature, String shape, String names) {
    ArrayNode s = feature.putArray("shape");
    for (String n : shape.replaceAll("[\\[\\]]", "").split(",")) {
      s.add(Integer.parseInt(n));
    }
    ArrayNode n = feature.putArray("names");
    for (String name : names.split(",")) {
      n.add(name);
    }
  }

  private static byte[] bytes(ByteBuffer b) {
    byte[] out = new byte[b.remaining()];
    b.duplicate().get(out);
    return out;
  }
}
