package org.robostream.framecache;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a frame cache's folder within its byte budget, for every process that shares it: before a
 * new file is created, the files' sizes are added up (a stat each), and only when the new one would
 * pass the budget are their headers read and the least recently used removed whole (by the last use
 * each process writes into a header; files of ours in an older layout first). Only regular files of
 * this user are looked into ({@link CacheFolder}: a FIFO is never opened, a link never followed);
 * files without this cache's header are never removed; temporary files of creators that died (older
 * than 10 minutes, with our header) are. Threading: called under its {@link FrameCache}'s lock; the
 * eviction count is readable from any thread.
 */
final class FolderBudget {
  private static final Logger LOG = LoggerFactory.getLogger(FrameCache.class);

  /** A temporary file older than this was left by a writer that died while creating it. */
  private static final long STALE_TMP_MILLIS = 10 * 60_000;

  /** How the cache names its files: 32 hex digits of the identity's SHA-256 and the suffix. */
  private static final Pattern CACHE_FILE_NAME =
      Pattern.compile("[0-9a-f]{32}" + Pattern.quote(CacheFile.SUFFIX));

  private final Path dir;
  private final long maxBytes;
  private final int uid;
  private final AtomicLong evictions = new AtomicLong();

  FolderBudget(Path dir, long maxBytes, int uid) {
    this.dir = dir;
    this.maxBytes = maxBytes;
    this.uid = uid;
  }

  /** Files removed to stay within the budget (by this process). */
  long evictions() {
    return evictions.get();
  }

  /**
   * Removes least recently used files (by the last use every process records in their headers)
   * until {@code need} more bytes fit the budget, telling {@code evicted} of each; returns the
   * bytes the cache's files take. Only files with this cache's header are removed; a process that
   * has one open notices (its name no longer holds it) and lets go of it.
   */
  long makeRoom(long need, Consumer<Path> evicted) throws IOException {
    List<SizedFile> files = new ArrayList<>();
    long total = 0;
    long now = System.currentTimeMillis();
    // Sizes first (a stat each): the headers are read only when something must go. Reading every
    // header at every new file was quadratic: 22,500 header reads for the default dataset's 150
    // files.
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
      for (Path p : ds) {
        String name = p.getFileName().toString();
        if (!CacheFolder.isOwnRegularFile(p, uid)) {
          continue; // a link, a FIFO, a folder, another user's file: never opened or counted
        }
        try {
          if (name.contains(CacheFile.SUFFIX + ".tmp-")) {
            removeStaleTemporary(p, now);
          } else if (CACHE_FILE_NAME.matcher(name).matches()) {
            long bytes = Files.size(p);
            files.add(new SizedFile(p, bytes));
            total += bytes;
          }
        } catch (IOException goneOrUnreadable) {
          // removed by another process while we looked, or not ours to read: never counted
        }
      }
    }
    return total + need > maxBytes ? evictOldest(files, total, need, evicted) : total;
  }

  /** A file named as this cache names its files, and its size. */
  private record SizedFile(Path path, long bytes) {}

  /**
   * Removes files with this cache's header, oldest last use first (by what every process records in
   * the headers), until {@code need} more bytes fit; returns the bytes the named files take after
   * (a file with another header is never removed, and counted, to be safe).
   */
  private long evictOldest(List<SizedFile> files, long total, long need, Consumer<Path> evicted)
      throws IOException {
    record Aged(SizedFile file, long lastUsed) {}
    List<Aged> ours = new ArrayList<>();
    for (SizedFile f : files) {
      try {
        CacheFileHeader h = CacheFileHeader.read(f.path(), uid);
        if (h != null) {
          ours.add(new Aged(f, h.lastUsedMillis()));
        } else if (CacheFileHeader.isOlderVersionOfOurs(f.path(), uid)) {
          ours.add(new Aged(f, Long.MIN_VALUE)); // an older robostream's: no use to this one
        } else {
          total -= f.bytes(); // named like ours, but not ours: never counted, never removed
        }
      } catch (IOException goneOrUnreadable) { // removed meanwhile, or not ours to read
        total -= f.bytes();
      }
    }
    ours.sort(Comparator.comparingLong(Aged::lastUsed));
    for (Aged a : ours) {
      if (total + need <= maxBytes) {
        break;
      }
      if (Files.deleteIfExists(a.file().path())) {
        evictions.incrementAndGet();
        LOG.debug("frame cache: evicted {} ({} bytes)", a.file().path(), a.file().bytes());
      }
      total -= a.file().bytes();
      evicted.accept(a.file().path());
    }
    return total;
  }

  private void removeStaleTemporary(Path p, long now) throws IOException {
    if (now - Files.getLastModifiedTime(p).toMillis() > STALE_TMP_MILLIS
        && (CacheFileHeader.read(p, uid) != null || CacheFileHeader.isOlderVersionOfOurs(p, uid))) {
      Files.deleteIfExists(p);
    }
  }
}
