package org.robostream.dataset;

import java.nio.file.Path;

/**
 * Says what stands where a dataset file should be, without reading the file: a stat (and, for a
 * small file, its first bytes) on disk ({@link LocalFileLookup}), or a tree listing fetched once
 * for a remote dataset. Implementations are thread-safe.
 */
@FunctionalInterface
public interface FileLookup {
  /** What stands at {@code file} (a path under the dataset's data root). */
  FileState lookup(Path file);

  /**
   * Where a file missing at {@code file} may be instead, as the path {@code root} would have it
   * under another top-level folder ({@code video/...} for {@code videos/...}), or null: a hint for
   * the missing-files error, found without reading anything but a few folder entries. Default:
   * none.
   */
  default Path elsewhere(Path root, Path file) {
    return null;
  }
}
