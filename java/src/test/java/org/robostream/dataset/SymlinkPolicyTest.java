package org.robostream.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.RobostreamException;
import org.robostream.dataset.synth.PatternCode;
import org.robostream.stream.Batch;
import org.robostream.stream.StreamingDataset;
import org.robostream.testing.Datasets;
import org.robostream.video.FrameLayout;

/**
 * Symbolic links: files may not resolve outside the dataset's roots unless the user allows it, and
 * no error ever quotes the content of a file that is not what it should be.
 */
class SymlinkPolicyTest {
  private static final String SECRET = "hf_SeCrEtToKeN1234567890";
  private static final String VIDEO = "videos/chunk-000/observation.images.top/episode_000001.mp4";

  @TempDir Path tmp;

  private Path dataset() throws Exception {
    Path copy = tmp.resolve("ds");
    V30MetadataTest.copyTree(Datasets.tinyPatternV21(), copy);
    return copy;
  }

  /** A file outside the dataset holding a secret. */
  private Path secret(String name, String text) throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("home"));
    return Files.writeString(dir.resolve(name), text);
  }

  private static void replaceByLink(Path file, Path target) throws Exception {
    Files.delete(file);
    Files.createSymbolicLink(file, target);
  }

  private static int streamAll(StreamingDataset.Builder builder) {
    int samples = 0;
    try (StreamingDataset ds = builder.batchSize(8).shuffle(false).returnUint8(true).build()) {
      for (Batch b : ds) {
        try (b) {
          samples += b.size();
        }
      }
    }
    return samples;
  }

  private static void assertQuotesNothingOf(RuntimeException e, String text) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      String m = String.valueOf(t.getMessage());
      assertFalse(m.contains(SECRET) || m.contains(text.substring(0, 8)), "quotes the file: " + m);
    }
  }

  @Test
  void aVideoLinkedToASecretOutsideTheRootIsRefusedWithoutReadingIt() throws Exception {
    Path root = dataset();
    String json = "{\"token\": \"" + SECRET + "\", \"user\": \"me\"}\n";
    replaceByLink(root.resolve(VIDEO), secret("secret.json", json));
    RobostreamException e =
        assertThrows(
            DatasetException.OutsideRoot.class, () -> streamAll(StreamingDataset.builder(root)));
    assertTrue(
        e.getMessage().contains(VIDEO) && e.getMessage().contains("outside"), e.getMessage());
    assertQuotesNothingOf(e, json);
    // Allowed, the link is followed: the file is refused as a JSON document where a video should
    // be when the dataset is opened, still unquoted.
    e =
        assertThrows(
            DatasetException.MissingFile.class,
            () -> streamAll(StreamingDataset.builder(root).symlinks(SymlinkPolicy.FOLLOW)));
    assertTrue(e.getMessage().contains(VIDEO + " is a JSON document"), e.getMessage());
    assertQuotesNothingOf(e, json);
  }

  @Test
  void infoJsonLinkedToASecretOutsideTheRootIsRefused() throws Exception {
    Path root = dataset();
    String text = "token = " + SECRET + "\n";
    replaceByLink(root.resolve("meta/info.json"), secret("credentials", text));
    RobostreamException e =
        assertThrows(
            DatasetException.OutsideRoot.class, () -> LeRobotMetadata.open(root, Optional.empty()));
    assertTrue(
        e.getMessage().contains("info.json") && e.getMessage().contains("outside"), e.getMessage());
    assertQuotesNothingOf(e, text);
    e = refusedFollowingLinks(root);
    assertTrue(e.getMessage().contains("not valid JSON at line 1, column"), e.getMessage());
    assertQuotesNothingOf(e, text);
  }

  @Test
  void aLinkToADeviceIsNeverReadAsMetadata() throws Exception {
    Path root = dataset();
    replaceByLink(root.resolve("meta/info.json"), Path.of("/dev/zero"));
    assertThrows(
        DatasetException.OutsideRoot.class, () -> LeRobotMetadata.open(root, Optional.empty()));
    RobostreamException e = refusedFollowingLinks(root);
    assertTrue(e.getMessage().contains("not a regular file"), e.getMessage());
  }

  @Test
  void jsonErrorsNameLineAndColumnButNeverQuoteTheText() throws Exception {
    Path root = dataset();
    String text = "token = " + SECRET + "\n";
    Files.writeString(root.resolve("meta/info.json"), text);
    RobostreamException e =
        assertThrows(
            DatasetException.BadMetadata.class, () -> LeRobotMetadata.open(root, Optional.empty()));
    assertTrue(e.getMessage().contains("line 1, column"), e.getMessage());
    assertQuotesNothingOf(e, text);
    Path root2 = tmp.resolve("ds2");
    V30MetadataTest.copyTree(Datasets.tinyPatternV21(), root2);
    Path episodes = root2.resolve("meta/episodes.jsonl");
    String line = "{\"episode_index\": 3, \"note\": " + SECRET + "}\n";
    Files.writeString(episodes, Files.readString(episodes) + line);
    e =
        assertThrows(
            DatasetException.BadMetadata.class,
            () -> LeRobotMetadata.open(root2, Optional.empty()));
    assertTrue(e.getMessage().contains("line 4, column"), e.getMessage());
    assertQuotesNothingOf(e, line);
  }

  @Test
  void linksInsideTheRootAndALinkedRootStreamAsUsual() throws Exception {
    Path root = dataset();
    Path store = root.resolve("store");
    Files.createDirectories(store);
    Files.move(root.resolve("videos"), store.resolve("videos"));
    Files.createSymbolicLink(root.resolve("videos"), Path.of("store/videos"));
    assertEquals(30, streamAll(StreamingDataset.builder(root)));
    Path linkedRoot = Files.createSymbolicLink(tmp.resolve("linked-root"), root);
    assertEquals(30, streamAll(StreamingDataset.builder(linkedRoot)));
  }

  @Test
  void videosOnAStoreOutsideTheRootNeedTheOptInAndThenStreamExactly() throws Exception {
    Path root = dataset();
    Path store = Files.createDirectories(tmp.resolve("store"));
    Files.move(root.resolve("videos"), store.resolve("videos"));
    Files.createSymbolicLink(root.resolve("videos"), store.resolve("videos"));
    DatasetException.OutsideRoot e =
        assertThrows(
            DatasetException.OutsideRoot.class, () -> streamAll(StreamingDataset.builder(root)));
    assertTrue(
        e.getMessage().contains(store.toString())
            && e.getMessage().contains("symlinks(SymlinkPolicy.FOLLOW)"),
        e.getMessage());
    java.util.Set<Long> seen = new java.util.HashSet<>();
    try (StreamingDataset ds =
        StreamingDataset.builder(root)
            .symlinks(SymlinkPolicy.FOLLOW)
            .batchSize(8)
            .shuffle(false)
            .returnUint8(true)
            .layout(FrameLayout.HWC)
            .build()) {
      for (Batch b : ds) {
        try (b) {
          long[] episode = b.longs("episode_index");
          long[] frame = b.longs("frame_index");
          for (int i = 0; i < b.size(); i++) {
            for (int k = 0; k < 2; k++) {
              String camera = ds.metadata().info().videoKeys().get(k);
              assertEquals(
                  new PatternCode.Identity((int) episode[i], (int) frame[i], k),
                  PatternCode.read(b.frames(camera).sample(i), 64, 48, false));
            }
            seen.add(episode[i] << 32 | frame[i]);
          }
        }
      }
    }
    assertEquals(30, seen.size());
  }

  /** Opening {@code root} with links followed: refused as bad metadata, the error returned. */
  private static RobostreamException refusedFollowingLinks(Path root) {
    return assertThrows(
        DatasetException.BadMetadata.class,
        () ->
            LeRobotMetadata.open(
                DatasetRoots.of(root, root, SymlinkPolicy.FOLLOW),
                Optional.empty(),
                Optional.empty()));
  }
}
