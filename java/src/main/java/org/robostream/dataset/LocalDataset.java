package org.robostream.dataset;

import java.nio.file.Path;
import org.robostream.source.VideoSources;

/**
 * A dataset in local folders: {@code meta/} under its root, {@code data/} and {@code videos/} under
 * the data-files root (the root itself by default), read inside them as the {@link SymlinkPolicy}
 * allows. Opening it checks that every file of the kept episodes and cameras is there ({@link
 * SelectedFiles}, a stat per file). Immutable, thread-safe.
 *
 * @param metadata the opened metadata
 * @param name the root folder's name
 */
record LocalDataset(LeRobotMetadata metadata, String name) implements DatasetSource {
  /**
   * Opens the dataset at {@code root} (relative roots such as {@code .} name the folder they
   * resolve to).
   *
   * @throws IllegalArgumentException when {@code options} name a remote data-files root
   * @throws DatasetException.MissingFile when a file of the kept episodes and cameras is absent or
   *     a placeholder, naming them and the selection of what is present
   */
  public static LocalDataset open(Path root, SourceOptions options) {
    Path absolute = root.toAbsolutePath().normalize();
    String files = options.dataFilesRoot();
    if (files != null && files.contains("://")) {
      throw new IllegalArgumentException(
          "dataFilesRoot "
              + files
              + " is remote, but the"
              + " dataset "
              + absolute
              + " is a local folder: a remote data root goes with a"
              + " dataset on the Hub");
    }
    LeRobotMetadata metadata =
        LeRobotMetadata.open(
            DatasetRoots.of(
                absolute, files == null ? absolute : Path.of(files), options.symlinks()),
            options.episodes(),
            options.cameras(),
            m ->
                SelectedFiles.requirePresent(
                    m, new LocalFileLookup(), LocalFileLookup::fetchCommand));
    metadata = metadata.withDefaultFeatures(); // its data files are there: checked above
    return new LocalDataset(
        metadata,
        absolute.getFileName() == null ? absolute.toString() : absolute.getFileName().toString());
  }

  @Override
  public VideoSources videos() {
    return VideoSources.local();
  }
}
