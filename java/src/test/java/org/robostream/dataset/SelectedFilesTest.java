package org.robostream.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.testing.Datasets;
import org.robostream.testing.Fixtures;

/**
 * Opening a local dataset checks every file of the kept episodes and cameras up front: absent files
 * and placeholders are one error naming them, the command that fetches placeholders' real files and
 * the selection of what is there; unselected cameras' files are not looked at.
 */
class SelectedFilesTest {
  static final String TOP = "observation.images.top";
  static final String WRIST = "observation.images.wrist";
  static final String LFS_POINTER =
      "version https://git-lfs.github.com/spec/v1\n"
          + "oid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\n"
          + "size 12345\n";

  @TempDir Path tmp;

  @Test
  void aCameraWithoutFilesIsNamedWithTheCamerasThatAreThereAndCanBeLeftOut() throws Exception {
    Path root = copy();
    Fixtures.deleteTree(root.resolve("videos/" + WRIST));
    String m = missing(root, SourceOptions.defaults());
    assertTrue(m.contains("no file of " + WRIST + " is here"), m);
    assertTrue(m.contains("select what is here with cameras(\"" + TOP + "\")"), m);
    assertTrue(m.contains("videos/" + WRIST + "/chunk-000/file-000.mp4"), m);
    LeRobotMetadata top =
        DatasetSource.local(root, SourceOptions.defaults().withCameras(List.of(TOP))).metadata();
    assertEquals(List.of(TOP), top.cameras());
    assertTrue(top.videoFiles().stream().allMatch(f -> f.toString().contains(TOP)));
    assertEquals(List.of(TOP), List.copyOf(top.episodes().get(0).videos().keySet()));
  }

  @Test
  void aGitLfsPointerIsNamedWithTheCommandThatFetchesTheRealFile() throws Exception {
    Path root = copy();
    LeRobotMetadata m = LeRobotMetadata.open(root, Optional.empty());
    Path data = m.dataFile(3);
    Files.writeString(data, LFS_POINTER);
    List<Integer> others =
        m.episodes().stream()
            .filter(e -> !e.dataFile().equals(data))
            .map(EpisodeInfo::index)
            .toList();
    String message = missing(root, SourceOptions.defaults());
    String name = root.relativize(data).toString();
    assertTrue(message.contains("1 of the "), message);
    assertTrue(message.contains(name + " is a Git LFS pointer"), message);
    assertTrue(
        message.contains(
            "huggingface-cli download OWNER/NAME --repo-type dataset --local-dir " + root),
        message);
    assertTrue(message.contains("episodes(\"" + EpisodeRanges.format(others) + "\")"), message);
    // In a git checkout, the pointer is fetched by git.
    Files.createDirectory(root.resolve(".git"));
    message = missing(root, SourceOptions.defaults());
    assertTrue(message.contains("git -C " + root + " lfs pull"), message);
  }

  @Test
  void anHtmlPageWhereAVideoShouldBeIsNamedAsSuchWithoutQuotingIt() throws Exception {
    Path root = copy();
    Path video = LeRobotMetadata.open(root, Optional.empty()).videoFile(0, TOP);
    Files.writeString(video, "<!DOCTYPE html><html><body>secret-login-page</body></html>");
    String m = missing(root, SourceOptions.defaults());
    assertTrue(m.contains(root.relativize(video) + " is an HTML/XML page"), m);
    assertTrue(!m.contains("secret-login-page"), m);
  }

  @Test
  void aCameraTheDatasetDoesNotDeclareIsAnOptionErrorNamingItsCameras() throws Exception {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                DatasetSource.local(
                    Datasets.patternV30(),
                    SourceOptions.defaults().withCameras(List.of("observation.images.side"))));
    assertTrue(
        e.getMessage()
            .startsWith(
                "cameras(\"observation.images.side\"): observation.images.side is not a camera"),
        e.getMessage());
    assertTrue(e.getMessage().contains(TOP) && e.getMessage().contains(WRIST), e.getMessage());
  }

  private Path copy() throws Exception {
    Path root = tmp.resolve("ds");
    V30MetadataTest.copyTree(Datasets.patternV30(), root);
    return root;
  }

  private static String missing(Path root, SourceOptions options) {
    return assertThrows(
            DatasetException.MissingFile.class, () -> DatasetSource.local(root, options))
        .getMessage();
  }
}
