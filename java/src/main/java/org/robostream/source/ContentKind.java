package org.robostream.source;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * What the first bytes of a file say it is: a video container, or one of the documents a failed
 * download or an unfetched checkout leaves where a file's bytes belong (an HTML error or login
 * page, a JSON API error, a Git LFS or git-annex pointer, nothing at all). The one classifier for
 * the video layer (which refuses documents as videos), the Hub client (which refuses pages sent for
 * files) and {@code diagnose}. It names a kind only: a path may be a link to a secret, so no caller
 * quotes the bytes. Stateless.
 */
public enum ContentKind {
  EMPTY("an empty file"),
  MP4("an MP4 file"),
  MATROSKA("a Matroska/WebM file"),
  HTML("an HTML/XML page"),
  JSON("a JSON document"),
  GIT_LFS_POINTER("a Git LFS pointer"),
  GIT_ANNEX_POINTER("a git-annex pointer"),
  OTHER("unknown content");

  private final String description;

  ContentKind(String description) {
    this.description = description;
  }

  /** The kind of the file whose first {@code length} bytes are {@code head}. */
  public static ContentKind of(byte[] head, int length) {
    if (length == 0) {
      return EMPTY;
    }
    if (length >= 8 && new String(head, 4, 4, StandardCharsets.ISO_8859_1).equals("ftyp")) {
      return MP4;
    }
    if (length >= 4
        && (head[0] & 0xFF) == 0x1A
        && (head[1] & 0xFF) == 0x45
        && (head[2] & 0xFF) == 0xDF
        && (head[3] & 0xFF) == 0xA3) {
      return MATROSKA;
    }
    String text =
        new String(head, 0, length, StandardCharsets.ISO_8859_1)
            .stripLeading()
            .toLowerCase(Locale.ROOT);
    if (text.startsWith("<!doctype")
        || text.startsWith("<html")
        || text.startsWith("<?xml")
        || text.startsWith("<head")
        || text.startsWith("<body")) {
      return HTML;
    }
    if (text.startsWith("{") || text.startsWith("[")) {
      return JSON;
    }
    if (text.startsWith("version https://git-lfs")) {
      return GIT_LFS_POINTER;
    }
    // An annexed file left unfetched is a link (or, on filesystems without links, a file)
    // holding its target: ../../.git/annex/objects/...
    if (text.startsWith("../") || text.contains(".git/annex/objects/")) {
      return GIT_ANNEX_POINTER;
    }
    return OTHER;
  }

  /** "an HTML/XML page", "a Git LFS pointer"...: for messages. */
  public String description() {
    return description;
  }
}
