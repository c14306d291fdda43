package org.robostream.source;

import java.nio.file.Path;

/**
 * Opens the bytes of a dataset's video files: local files, or (for a Hub dataset mirrored locally
 * without its videos) HTTP range reads of the remote copy. Thread-safe implementations: every
 * worker opens its own sources through one instance.
 */
@FunctionalInterface
public interface VideoSources {
  /** The bytes of the video at {@code file} (a path under the dataset's data root). */
  ByteSource open(Path file);

  /** Local files. */
  static VideoSources local() {
    return LocalFileByteSource::open;
  }
}
