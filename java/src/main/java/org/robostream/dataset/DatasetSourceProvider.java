package org.robostream.dataset;

/**
 * Opens datasets at locations of one kind (the Hub's: {@code hf://...}, {@code OWNER/NAME}). Found
 * with {@link java.util.ServiceLoader} (listed in {@code
 * META-INF/services/org.robostream.dataset.DatasetSourceProvider}), so that resolving a location
 * needs no package above {@code dataset}: the loader opens a Hub dataset without knowing the Hub.
 * Implementations are stateless and thread-safe.
 */
public interface DatasetSourceProvider {
  /** Whether {@code location} is one of this provider's (checked after local folders). */
  boolean accepts(String location);

  /**
   * Opens the dataset at {@code location}.
   *
   * @throws IllegalArgumentException when {@code location} or an option cannot name a dataset here
   *     (naming it and what to write instead)
   */
  DatasetSource open(String location, SourceOptions options);
}
