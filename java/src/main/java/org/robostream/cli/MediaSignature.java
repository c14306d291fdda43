package org.robostream.cli;

import java.nio.charset.StandardCharsets;

/**
 * Names what the first bytes of a "video" really are: an MP4 (an {@code ftyp} box at offset 4)
 * or the usual placeholders a failed download leaves (HTML error page, JSON error, Git LFS or
 * git-annex pointer, empty file). Stateless.
 */
final class MediaSignature {
  private MediaSignature() {}

  static String describe(byte[] head) {
    if (head.length == 0) {
      return "an empty file (truncated download?)";
    }
    if (head.length >= 8 && new String(head, 4, 4, StandardCharsets.ISO_8859_1).equals("ftyp")) {
      return "mp4";
    }
    String text = new String(head, StandardCharsets.ISO_8859_1).stripLeading();
    if (text.startsWith("<")) {
      return "HTML (an error or login page instead of the file: check the token, revision or"
          + " URL)";
    }
    if (text.startsWith("{") || text.startsWith("[")) {
      return "JSON (an API error instead of the file: check the token, revision or URL)";
    }
    if (text.startsWith("version https://git-lfs")) {
      return "a Git LFS pointer (the file was never fetched: git lfs pull)";
    }
    if (text.startsWith("../") || text.contains(".git/annex")) {
      return "a git-annex pointer (the file was never fetched: git annex get)";
    }
    if (head.length >= 4 && (head[0] & 0xFF) == 0x1A && (head[1] & 0xFF) == 0x45) {
      return "Matroska/WebM, not MP4 (LeRobot writes MP4)";
    }
    return "unknown content (neither MP4 nor a known placeholder)";
  }
}
