package org.robostream.codec;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.robostream.source.ByteSource;
import org.robostream.source.ContentKind;
import org.robostream.video.NotAVideoException;

/**
 * Refuses files that are not videos from their first bytes ({@link ContentKind}), so that an HTML
 * error page or a JSON answer saved in place of an MP4 gets an error that says so instead of
 * "invalid data". The error names the kind of document only, never its text: a video path may be a
 * link to a file that holds secrets. Thread-safe (stateless).
 */
final class ContentSniffer {
  private ContentSniffer() {}

  /** Throws {@link NotAVideoException} when the head of {@code source} is clearly not a video. */
  static void requireVideoLike(ByteSource source) throws IOException {
    ByteBuffer head = ByteBuffer.allocate((int) Math.min(512, source.size()));
    while (head.hasRemaining()) {
      if (source.read(head.position(), head) < 0) {
        break;
      }
    }
    ContentKind kind = ContentKind.of(head.array(), head.position());
    String problem =
        switch (kind) {
          case EMPTY -> "file is empty (0 bytes)";
          case HTML ->
              "is an HTML/XML page, not a video (often a sign of an authentication, revision"
                  + " or placeholder problem)";
          case JSON -> "is a JSON document, not a video";
          case GIT_LFS_POINTER, GIT_ANNEX_POINTER ->
              "is " + kind.description() + " file, not the" + " video it points to";
          default -> null;
        };
    if (problem != null) {
      throw new NotAVideoException(source.name(), problem);
    }
  }
}
