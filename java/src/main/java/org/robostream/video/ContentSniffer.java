package org.robostream.video;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.robostream.source.ByteSource;

/**
 * Recognises files that are not videos from their first bytes, so that an HTML error page or a
 * JSON answer saved in place of an MP4 gets an error that says so instead of "invalid data".
 * The error names the kind of document only, never its text: a video path may be a link to a
 * file that holds secrets. Thread-safe (stateless).
 */
final class ContentSniffer {
  private ContentSniffer() {}

  /** Throws {@link NotAVideoException} when the head of {@code source} is clearly not a video. */
  static void requireVideoLike(ByteSource source) throws IOException {
    long size = source.size();
    if (size == 0) {
      throw new NotAVideoException(source.name(), "file is empty (0 bytes)");
    }
    ByteBuffer head = ByteBuffer.allocate((int) Math.min(512, size));
    while (head.hasRemaining()) {
      if (source.read(head.position(), head) < 0) {
        break;
      }
    }
    String text = new String(head.array(), 0, head.position(), StandardCharsets.ISO_8859_1)
        .stripLeading();
    String lower = text.toLowerCase(java.util.Locale.ROOT);
    if (lower.startsWith("<!doctype html") || lower.startsWith("<html") || lower.startsWith("<?xml")
        || lower.startsWith("<head") || lower.startsWith("<body")) {
      throw new NotAVideoException(source.name(),
          "is an HTML/XML page, not a video (often a sign of an authentication, revision or"
              + " placeholder problem)");
    }
    if (lower.startsWith("{") || lower.startsWith("[")) {
      throw new NotAVideoException(source.name(), "is a JSON document, not a video");
    }
    if (lower.startsWith("version https://git-lfs")) {
      throw new NotAVideoException(source.name(),
          "is a Git LFS pointer file, not the video it points to");
    }
  }
}
