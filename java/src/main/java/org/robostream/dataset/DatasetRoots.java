package org.robostream.dataset;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The folders a dataset's files come from ({@code meta/} under the metadata root, {@code data/} and
 * {@code videos/} under the data root) and the {@link SymlinkPolicy} that keeps reads inside them.
 * Roots are made absolute and normalised, so {@code .} and other relative roots work; file paths
 * built on them stay the way the user wrote the root (messages show them), while confinement
 * compares real paths. Thread-safe.
 */
public final class DatasetRoots {
  private final Path metaRoot;
  private final Path dataRoot;
  private final SymlinkPolicy links;
  private final Map<Path, Path> realFolders = new ConcurrentHashMap<>();

  private DatasetRoots(Path metaRoot, Path dataRoot, SymlinkPolicy links) {
    this.metaRoot = metaRoot.toAbsolutePath().normalize();
    this.dataRoot = dataRoot.toAbsolutePath().normalize();
    this.links = links;
  }

  /**
   * {@code meta/} under {@code metaRoot}; {@code data/} and {@code videos/} under {@code dataRoot}.
   */
  public static DatasetRoots of(Path metaRoot, Path dataRoot, SymlinkPolicy links) {
    return new DatasetRoots(metaRoot, dataRoot, links);
  }

  public Path metaRoot() {
    return metaRoot;
  }

  public Path dataRoot() {
    return dataRoot;
  }

  /** {@code meta/<relative>}, refused when it resolves outside the metadata root. */
  public Path metaFile(String relative) {
    Path file = metaRoot.resolve("meta").resolve(relative);
    confine(file, metaRoot);
    return file;
  }

  /**
   * Refuses {@code file} (found under {@code meta/}) when it resolves outside the metadata root.
   */
  void confineMeta(Path file) {
    confine(file, metaRoot);
  }

  /** Refuses a data or video file that resolves outside the data root. */
  void confineData(Path file) {
    confine(file, dataRoot);
  }

  /**
   * A file that does not exist passes: reading it reports it missing. Folders are resolved once (a
   * v2.1 dataset has thousands of files in a few folders); the file itself only when it is a link.
   */
  private void confine(Path file, Path root) {
    if (links == SymlinkPolicy.FOLLOW || !Files.exists(file)) {
      return;
    }
    Path realRoot = real(root);
    Path real =
        Files.isSymbolicLink(file)
            ? realPath(file)
            : real(file.getParent()).resolve(file.getFileName());
    if (!real.startsWith(realRoot)) {
      throw new DatasetException.OutsideRoot(
          file.toString(),
          "resolves through a symbolic link"
              + " to "
              + real
              + ", outside the dataset root "
              + root
              + "; files are read only inside"
              + " the dataset's roots unless links outside them are allowed"
              + " (symlinks(SymlinkPolicy.FOLLOW))");
    }
  }

  private Path real(Path folder) {
    return realFolders.computeIfAbsent(folder, DatasetRoots::realPath);
  }

  private static Path realPath(Path p) {
    try {
      return p.toRealPath();
    } catch (IOException e) {
      throw new DatasetException.MissingFile(
          p.toString(), "cannot be resolved to a real path (" + e.getClass().getSimpleName() + ")");
    }
  }
}
