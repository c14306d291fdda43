package org.robostream.hub;

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
 * Keeps the Hub mirror ({@link HubFileCache#MIRROR_DIR}) under its size limit by deleting least
 * recently used files first. "Used" is the modification time: every use touches the file, so files
 * of runs going on now are newest. Partial downloads ({@code .part}) count too. Files this process
 * uses are never deleted.
 *
 * <p>Only robostream's files are counted or deleted: the walk stays in the mirror (never the user's
 * datasets in {@code HF_LEROBOT_HOME}), follows no links, and takes a file only with its {@link
 * CacheSidecar} beside it.
 *
 * <p>Stateless, thread-safe; processes may evict at once (a file deleted twice is gone).
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
