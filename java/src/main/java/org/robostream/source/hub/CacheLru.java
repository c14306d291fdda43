package org.robostream.source.hub;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Keeps robostream's Hub mirror ({@link HubFileCache#MIRROR_DIR}) under its size limit by deleting
 * the least recently used files first. "Used" is the file's modification time: a download ends with
 * it, and every later use (a run that validates the copy) touches it, so the files of the run going
 * on now — in this process or another — are always the most recent. Partial downloads ({@code
 * .part}) count and age like the others. Files this process uses, and their partial downloads, are
 * never deleted.
 *
 * <p>Only files robostream wrote are counted or deleted: the walk never leaves the mirror directory
 * (it refuses any other root, so {@code HF_LEROBOT_HOME} itself — where LeRobot keeps the user's
 * own datasets — is never walked), does not follow links, and takes a file only when its sidecar
 * ({@link CacheSidecar}, written by every download) lies beside it; anything else found there is
 * left alone.
 *
 * <p>Stateless and thread-safe; processes sharing the directory may evict at the same time (a file
 * deleted twice is simply gone).
 */
final class CacheLru {
  static final String PART = ".part";
  static final String LOCK = ".lock";

  private CacheLru() {}

  private record Entry(Path file, long size, long lastUse) {}

  /** Bytes of robostream's cached files and partial downloads under {@code root}. */
  static long sizeBytes(Path root) {
    return entries(root).stream().mapToLong(Entry::size).sum();
  }

  /**
   * Deletes the least recently used files not in {@code inUse} until the directory plus {@code
   * reserveBytes} (a download about to start) fits {@code limitBytes}, or nothing more can go.
   */
  static void evict(Path root, long limitBytes, long reserveBytes, Set<Path> inUse) {
    if (!root.getFileName().toString().equals(HubFileCache.MIRROR_DIR)) {
      throw new IllegalArgumentException(
          "evicts only from robostream's own "
              + HubFileCache.MIRROR_DIR
              + " directory, not from "
              + root);
    }
    List<Entry> entries = new ArrayList<>(entries(root));
    long total = entries.stream().mapToLong(Entry::size).sum() + reserveBytes;
    entries.sort(Comparator.comparingLong(Entry::lastUse));
    for (Entry e : entries) {
      if (total <= limitBytes) {
        return;
      }
      if (inUse.contains(ownerOf(e.file()))) {
        continue;
      }
      total -= e.size();
      try {
        Files.deleteIfExists(e.file());
        Files.deleteIfExists(CacheSidecar.of(e.file()));
      } catch (IOException ignored) {
        // another process evicted it first
      }
    }
  }

  /** The cached file a partial download will become (the file itself otherwise). */
  private static Path ownerOf(Path file) {
    String name = file.getFileName().toString();
    return name.endsWith(PART)
        ? file.resolveSibling(name.substring(0, name.length() - PART.length()))
        : file;
  }

  private static List<Entry> entries(Path root) {
    if (!Files.isDirectory(root)) {
      return List.of();
    }
    List<Entry> out = new ArrayList<>();
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : s.toList()) {
        String name = p.getFileName().toString();
        if (CacheSidecar.isSidecar(p) || name.endsWith(LOCK) || name.endsWith(".tmp")) {
          continue;
        }
        try {
          BasicFileAttributes a =
              Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
          if (a.isRegularFile()
              && Files.isRegularFile(CacheSidecar.of(p), LinkOption.NOFOLLOW_LINKS)) {
            out.add(
                new Entry(
                    p.toAbsolutePath().normalize(), a.size(), a.lastModifiedTime().toMillis()));
          }
        } catch (IOException gone) {
          // deleted meanwhile (another process evicting)
        }
      }
    } catch (IOException | java.io.UncheckedIOException e) {
      return out;
    }
    return out;
  }
}
