package org.robostream.source;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.concurrent.TimeUnit;

/**
 * Opens the bytes of a dataset's video files: local files, or (for a Hub dataset mirrored locally
 * without its videos) HTTP range reads of the remote copy. Thread-safe implementations: every
 * worker opens its own sources through one instance.
 */
@FunctionalInterface
public interface VideoSources {
  /** The bytes of the video at {@code file} (a path under the dataset's data root). */
  ByteSource open(Path file);

  /**
   * What identifies the bytes of {@code file} for a cache of its decoded frames: equal identities
   * must mean equal bytes. Default: the local file's real path, size and modification time ({@link
   * #localIdentity}); a remote source names the pinned URL and the server's version. Null when it
   * cannot be told (then nothing of the file is cached).
   */
  default String identity(Path file) {
    return localIdentity(file);
  }

  /**
   * Whether {@code file}'s bytes are on this machine, so that reading its index costs a local read
   * rather than requests to a server: such files are checked when the dataset is opened, the others
   * when their first episode is read. Default: yes.
   */
  default boolean onThisMachine(Path file) {
    return true;
  }

  /** A local file's real path, size and modification time (ns), or null when it cannot be read. */
  static String localIdentity(Path file) {
    try {
      Path real = file.toRealPath();
      BasicFileAttributes a = Files.readAttributes(real, BasicFileAttributes.class);
      return "file:" + real + "|" + a.size() + "|" + a.lastModifiedTime().to(TimeUnit.NANOSECONDS);
    } catch (IOException e) {
      return null;
    }
  }

  /** Local files. */
  static VideoSources local() {
    return LocalFileByteSource::open;
  }
}
