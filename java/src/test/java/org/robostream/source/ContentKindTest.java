package org.robostream.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.codec.Decoder;
import org.robostream.testing.Fixtures;
import org.robostream.video.NotAVideoException;

/** One classifier of first bytes for the decoder, the Hub client and diagnose. */
class ContentKindTest {
  @TempDir Path tmp;

  static ContentKind of(String text) {
    byte[] b = text.getBytes(StandardCharsets.UTF_8);
    return ContentKind.of(b, b.length);
  }

  @Test
  void documentsAndContainersAreToldApart() throws Exception {
    byte[] mp4 = Files.readAllBytes(Fixtures.video("h264_g30.mp4"));
    assertEquals(ContentKind.MP4, ContentKind.of(mp4, 64));
    byte[] webm = Files.readAllBytes(Fixtures.video("vp9_g30.webm"));
    assertEquals(ContentKind.MATROSKA, ContentKind.of(webm, 64));
    assertEquals(ContentKind.EMPTY, ContentKind.of(new byte[8], 0));
    assertEquals(ContentKind.HTML, of("\n  <!DOCTYPE html><html>Access denied</html>"));
    assertEquals(ContentKind.HTML, of("<?xml version=\"1.0\"?><Error>AccessDenied</Error>"));
    assertEquals(ContentKind.JSON, of("{\"error\":\"Repository not found\"}"));
    assertEquals(ContentKind.JSON, of("[]"));
    assertEquals(
        ContentKind.GIT_LFS_POINTER,
        of("version https://git-lfs.github.com/spec/v1\n" + "oid sha256:4d7a2146\nsize 12345\n"));
    assertEquals(
        ContentKind.GIT_ANNEX_POINTER,
        of("../../.git/annex/objects/Xk/3f/SHA256E-s1--a.mp4/SHA256E-s1--a.mp4"));
    assertEquals(ContentKind.OTHER, of("PAR1 and some column chunks"));
  }

  @Test
  void aGitAnnexPointerInPlaceOfAVideoIsNamedAsSuch() throws Exception {
    Path video = tmp.resolve("episode.mp4");
    Files.writeString(video, "../../.git/annex/objects/Xk/3f/SHA256E-s9--e.mp4/SHA256E-s9--e.mp4");
    NotAVideoException e = assertThrows(NotAVideoException.class, () -> Decoder.open(video));
    assertTrue(
        e.getMessage().contains("is a git-annex pointer file, not the video it points to"),
        e.getMessage());
    assertEquals(video.toString(), e.file());
  }
}
