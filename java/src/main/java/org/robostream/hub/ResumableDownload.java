package org.robostream.hub;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ConcurrentHashMap;
import org.robostream.RobostreamException;

/**
 * Downloads one remote file into the cache so that an interruption costs only what was not yet
 * written: ranged chunks (one read-ahead block each, each retried alone) are appended to {@code
 * <file>.part}, whose sidecar records the server's size and version. A failed or killed run leaves
 * the part behind; the next one continues it with a Range request from where it ends when the
 * server still has that version (else the part is discarded and the download starts over).
 * Complete, the part is moved into place atomically and its sidecar follows.
 *
 * <p>Thread-safe: downloads of one file wait for each other, through a lock per file in this
 * process and a file lock on {@code <file>.lock} across processes; whoever comes second finds the
 * file complete and downloads nothing.
 */
final class ResumableDownload {
  private static final ConcurrentHashMap<Path, Object> LOCKS = new ConcurrentHashMap<>();

  private ResumableDownload() {}

  static Path partOf(Path target) {
    return target.resolveSibling(target.getFileName() + CacheLru.PART);
  }

  /** Whether {@code target} is a complete copy of what {@code head} describes. */
  static boolean isCurrent(Path target, HubHttp.RangeResult head) {
    CacheSidecar known = CacheSidecar.read(target);
    try {
      return known != null
          && known.matches(head)
          && Files.isRegularFile(target)
          && Files.size(target) == head.totalSize();
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Makes {@code target} a complete copy of {@code url}, whose size and version {@code head}
   * reported; {@code what} names the expected content for errors.
   */
  static void run(HubHttp http, String url, Path target, HubHttp.RangeResult head, String what) {
    synchronized (LOCKS.computeIfAbsent(target, t -> new Object())) {
      try {
        Files.createDirectories(target.getParent());
        Path lockFile = target.resolveSibling(target.getFileName() + CacheLru.LOCK);
        try (FileChannel lockChannel =
                FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock = lockChannel.lock()) {
          if (!isCurrent(target, head)) {
            download(http, url, target, head, what);
          }
        }
      } catch (IOException e) {
        throw new RobostreamException(
            "cannot write the cache file " + target + ": " + e.getMessage(), e);
      }
    }
  }

  private static void download(
      HubHttp http, String url, Path target, HubHttp.RangeResult head, String what)
      throws IOException {
    Path part = partOf(target);
    CacheSidecar started = CacheSidecar.read(part);
    if (started == null
        || !started.sameVersion(head)
        || !Files.isRegularFile(part)
        || Files.size(part) > head.totalSize()) {
      Files.deleteIfExists(part);
      new CacheSidecar(head.totalSize(), head.version()).write(part);
    }
    int chunk = http.config().blockBytes();
    // Never through a link: the part is ours alone.
    try (FileChannel out =
        FileChannel.open(
            part, StandardOpenOption.CREATE, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
      long at = out.size();
      while (at < head.totalSize()) {
        int n = (int) Math.min(chunk, head.totalSize() - at);
        HubHttp.RangeResult got = http.getRange(url, at, n, what);
        if (got.version() != null
            && head.version() != null
            && !got.version().equals(head.version())) {
          out.close();
          Files.deleteIfExists(part); // half of one version, half of another
          throw new HubException.Changed(url, head.version(), got.version());
        }
        if (got.bytes().length != n) {
          throw new HubException.Changed(
              url, head.totalSize() + " bytes", got.totalSize() + " bytes");
        }
        ByteBuffer buffer = ByteBuffer.wrap(got.bytes());
        while (buffer.hasRemaining()) {
          out.write(buffer, at + buffer.position());
        }
        at += n;
      }
    }
    HubFileCache.move(part, target);
    HubFileCache.move(CacheSidecar.of(part), CacheSidecar.of(target));
  }
}
