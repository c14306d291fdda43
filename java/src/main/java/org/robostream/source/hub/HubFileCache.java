package org.robostream.source.hub;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.robostream.RobostreamException;

/**
 * The local copy of a Hub dataset's metadata and Parquet files, mirroring the repository layout
 * under {@code <cache root>/<datasets|buckets>/<owner>/<name>/<revision>/}. Files are fetched
 * whole in ranged chunks (each retried alone), written to a temporary file and moved into place
 * atomically, with a sidecar recording size and ETag; a cached file is reused when the server
 * still reports that size and ETag. Above the size limit the least recently used files go, never
 * one this process is using. Thread-safe (per-file locking through the file system's atomic moves;
 * the pin set is concurrent).
 */
public final class HubFileCache {
  private static final int CHUNK = 8 << 20;
  private static final String SIDECAR = ".robostream-meta";

  private final HubHttp http;
  private final Set<Path> pinned = ConcurrentHashMap.newKeySet();

  public HubFileCache(HubHttp http) {
    this.http = http;
  }

  /** The local mirror directory of {@code location} (its revision must be resolved). */
  public Path mirrorOf(HubLocation location) {
    Path base = http.config().cacheRoot().resolve(location.kind() == HubLocation.Kind.BUCKET
        ? "buckets" : "datasets").resolve(location.id());
    return location.kind() == HubLocation.Kind.BUCKET ? base.resolve("bucket")
        : base.resolve(HubLocation.encodeAll(location.revision()));
  }

  /**
   * The local copy of {@code relative} (a path inside {@code location}), downloaded when missing
   * or changed. {@code what} names the expected content for errors ("a Parquet file").
   */
  public Path fetch(HubLocation location, String relative, String what) {
    Path target = mirrorOf(location).resolve(location.pathOf(relative));
    String url = location.resolveUrl(http.config().endpoint(), relative);
    pinned.add(target);
    // One byte tells the current size and ETag (and catches a web page served instead).
    HubHttp.RangeResult head = http.getRange(url, 0, 1, what);
    Sidecar known = Sidecar.read(sidecarOf(target));
    if (Files.isRegularFile(target) && known != null && known.matches(head)
        && sizeOf(target) == head.totalSize()) {
      touch(target);
      return target;
    }
    download(url, target, head, what);
    evictOverLimit();
    return target;
  }

  /** Whether {@code file} is a complete cached copy (moved into place with its sidecar). */
  public static boolean isComplete(Path file) {
    return Files.isRegularFile(file) && Files.isRegularFile(sidecarOf(file));
  }

  /** Bytes currently in the cache. */
  public long sizeBytes() {
    return files().stream().mapToLong(HubFileCache::sizeOf).sum();
  }

  private void download(String url, Path target, HubHttp.RangeResult first, String what) {
    try {
      Files.createDirectories(target.getParent());
      Path tmp = Files.createTempFile(target.getParent(), target.getFileName().toString(), ".part");
      try {
        try (OutputStream out = Files.newOutputStream(tmp)) {
          long at = 0;
          while (at < first.totalSize()) {
            int n = (int) Math.min(CHUNK, first.totalSize() - at);
            HubHttp.RangeResult chunk = http.getRange(url, at, n, what);
            if (chunk.bytes().length != n || !same(chunk.etag(), first.etag())) {
              throw new HubException(url, 206, "the file changed while being downloaded");
            }
            out.write(chunk.bytes());
            at += n;
          }
        }
        move(tmp, target);
        new Sidecar(first.totalSize(), first.etag()).write(sidecarOf(target));
      } finally {
        Files.deleteIfExists(tmp);
      }
    } catch (IOException e) {
      throw new RobostreamException("cannot write the cache file " + target + ": "
          + e.getMessage(), e);
    }
  }

  private void evictOverLimit() {
    long limit = http.config().cacheLimitBytes();
    List<Path> files = new ArrayList<>(files());
    long total = files.stream().mapToLong(HubFileCache::sizeOf).sum();
    if (total <= limit) {
      return;
    }
    files.sort(Comparator.comparing(HubFileCache::lastUse));
    for (Path f : files) {
      if (total <= limit) {
        break;
      }
      if (pinned.contains(f)) {
        continue;
      }
      total -= sizeOf(f);
      try {
        Files.deleteIfExists(f);
        Files.deleteIfExists(sidecarOf(f));
      } catch (IOException ignored) {
        // another process may be evicting it too
      }
    }
  }

  private List<Path> files() {
    Path root = http.config().cacheRoot();
    if (!Files.isDirectory(root)) {
      return List.of();
    }
    try (Stream<Path> s = Files.walk(root)) {
      return s.filter(Files::isRegularFile)
          .filter(p -> !p.getFileName().toString().endsWith(SIDECAR))
          .filter(p -> !p.getFileName().toString().endsWith(".part")).toList();
    } catch (IOException e) {
      return List.of();
    }
  }

  private static void move(Path tmp, Path target) throws IOException {
    try {
      Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  private static boolean same(String a, String b) {
    return a == null || b == null || a.equals(b);
  }

  private static Path sidecarOf(Path file) {
    return file.resolveSibling(file.getFileName() + SIDECAR);
  }

  private static long sizeOf(Path p) {
    try {
      return Files.size(p);
    } catch (IOException e) {
      return 0;
    }
  }

  private static FileTime lastUse(Path p) {
    try {
      return Files.getLastModifiedTime(sidecarOf(p));
    } catch (IOException e) {
      return FileTime.fromMillis(0);
    }
  }

  private static void touch(Path p) {
    try {
      Files.setLastModifiedTime(sidecarOf(p), FileTime.fromMillis(System.currentTimeMillis()));
    } catch (IOException ignored) {
      // best effort: only the eviction order depends on it
    }
  }

  /** What was downloaded: the server's size and ETag at the time. */
  private record Sidecar(long size, String etag) {
    boolean matches(HubHttp.RangeResult head) {
      return size == head.totalSize() && same(etag, head.etag());
    }

    static Sidecar read(Path p) {
      try {
        if (!Files.isRegularFile(p)) {
          return null;
        }
        String[] lines = Files.readString(p, StandardCharsets.UTF_8).split("\n", -1);
        return new Sidecar(Long.parseLong(lines[0].trim()),
            lines.length > 1 && !lines[1].isBlank() ? lines[1].trim() : null);
      } catch (IOException | RuntimeException e) {
        return null;
      }
    }

    void write(Path p) throws IOException {
      Path tmp = p.resolveSibling(p.getFileName() + ".tmp");
      Files.writeString(tmp, size + "\n" + (etag == null ? "" : etag) + "\n",
          StandardCharsets.UTF_8);
      move(tmp, p);
    }
  }
}
