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
}
