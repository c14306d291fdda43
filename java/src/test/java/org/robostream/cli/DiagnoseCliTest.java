package org.robostream.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.dataset.V30MetadataTestAccess;
import org.robostream.testing.Datasets;

/** diagnose: passes on a good dataset, names the placeholder a bad download leaves. */
class DiagnoseCliTest {
  @TempDir Path tmp;

  @Test
  void aGoodDatasetPassesEveryStep() {
    String out = BenchCliTest.capture(() -> assertEquals(0, Main.run("diagnose", "--root",
        Datasets.patternV30().toString())));
    assertTrue(out.contains("dav1d"), out);
    assertTrue(out.contains("an ftyp box"), out);
    assertTrue(out.contains("decoded frame 0"), out);
    assertTrue(out.contains("no NVDEC support"), "AV1 codec limits explained: " + out);
  }

  @Test
  void anHtmlPlaceholderInsteadOfTheVideoIsNamed() throws Exception {
    Path copy = tmp.resolve("ds");
    V30MetadataTestAccess.copyTree(Datasets.patternV30(), copy);
    Path video = copy.resolve("videos/observation.images.top/chunk-000/file-000.mp4");
    Files.writeString(video, "<!DOCTYPE html><html>Access denied</html>");
    String out = BenchCliTest.capture(() -> assertEquals(1, Main.run("diagnose", "--root",
        copy.toString())));
    assertTrue(out.contains("FAIL  not an MP4: HTML"), out);
  }

  @Test
  void signatures() {
    assertEquals("mp4", MediaSignature.describe(new byte[] {0, 0, 0, 32, 'f', 't', 'y', 'p'}));
    assertTrue(MediaSignature.describe("{\"error\":1}".getBytes(StandardCharsets.UTF_8))
        .startsWith("JSON"));
    assertTrue(MediaSignature.describe("version https://git-lfs.github.com/spec/v1"
        .getBytes(StandardCharsets.UTF_8)).contains("LFS"));
    assertTrue(MediaSignature.describe(new byte[0]).contains("empty"));
  }
}
