package org.robostream.dataset;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.ServiceLoader;

/**
 * Resolves a location to its {@link DatasetSource}: a folder on disk is local; otherwise the first
 * {@link DatasetSourceProvider} that accepts it opens it; otherwise it is a local folder that does
 * not exist, which opening reports. Thread-safe (providers are loaded once).
 */
final class DatasetLocations {
  private static final List<DatasetSourceProvider> PROVIDERS =
      ServiceLoader.load(DatasetSourceProvider.class, DatasetSourceProvider.class.getClassLoader())
          .stream()
          .map(ServiceLoader.Provider::get)
          .toList();

  private DatasetLocations() {}

  static DatasetSource open(String location, SourceOptions options) {
    Path local = localPath(location);
    if (local != null && Files.exists(local)) {
      return LocalDataset.open(local, options);
    }
    for (DatasetSourceProvider provider : PROVIDERS) {
      if (provider.accepts(location)) {
        return provider.open(location, options);
      }
    }
    if (local == null) {
      throw new IllegalArgumentException(
          location
              + ": no dataset source reads this location"
              + " (known: a local folder, hf://datasets/OWNER/NAME[@REVISION], OWNER/NAME;"
              + " providers found: "
              + PROVIDERS.size()
              + ")");
    }
    return LocalDataset.open(local, options);
  }

  /** The folder {@code location} names, or null for a URL ({@code scheme://...}). */
  private static Path localPath(String location) {
    if (location.contains("://")) {
      return null;
    }
    try {
      return Path.of(location);
    } catch (InvalidPathException e) {
      return null;
    }
  }
}
