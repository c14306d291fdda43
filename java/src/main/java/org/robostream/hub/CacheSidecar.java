package org.robostream.hub;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What a cached or partly downloaded file is a copy of: the server's size and version (ETag, else
 * Last-Modified) when the download started. Stored beside the file as {@code
 * <file>.robostream-meta}, written atomically. Immutable.
 */
record CacheSidecar(long size, String version) {
  static final String SUFFIX = ".robostream-meta";

  static Path of(Path file) {
    return file.resolveSibling(file.getFileName() + SUFFIX);
  }

  static boolean isSidecar(Path p) {
    return p.getFileName().toString().endsWith(SUFFIX);
  }

  /** Whether the server still has this copy's size and version (an unknown version passes). */
  boolean matches(HubHttp.RangeResult head) {
    return size == head.totalSize()
        && (version == null || head.version() == null || version.equals(head.version()));
  }

  /** Whether appending to this copy is safe: same size and a known, equal version. */
  boolean sameVersion(HubHttp.RangeResult head) {
    return size == head.totalSize() && version != null && version.equals(head.version());
  }

  /** The sidecar of {@code file}, or null when it is missing or unreadable. */
  static CacheSidecar read(Path file) {
    Path p = of(file);
    try {
      if (!Files.isRegularFile(p)) {
        return null;
      }
      String[] lines = Files.readString(p, StandardCharsets.UTF_8).split("\n", -1);
      return new CacheSidecar(
          Long.parseLong(lines[0].trim()),
          lines.length > 1 && !lines[1].isBlank() ? lines[1].trim() : null);
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  void write(Path file) throws IOException {
    Path p = of(file);
    Path tmp = p.resolveSibling(p.getFileName() + ".tmp");
    Files.writeString(
        tmp, size + "\n" + (version == null ? "" : version) + "\n", StandardCharsets.UTF_8);
    HubFileCache.move(tmp, p);
  }
}
