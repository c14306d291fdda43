package org.robostream.dataset;

import java.nio.file.Path;
import org.robostream.source.VideoSources;

/**
 * Where a dataset comes from, opened: its metadata (checked, episode filter applied) and the bytes
 * of its videos. The loader streams any source the same way; where the files live — local folders
 * ({@link LocalDataset}), the Hub or a bucket ({@code hub.HubDataset}, found through {@link
 * DatasetSourceProvider}) — is the source's business alone.
 *
 * <p>Threading: implementations are immutable once opened and thread-safe; every worker opens its
 * own video sources through {@link #videos()}.
 */
public interface DatasetSource {
  /** The opened metadata: every kept episode with its data file and video spans. */
  LeRobotMetadata metadata();

  /** Opens the bytes of the videos {@link #metadata()} names (paths under its data root). */
  VideoSources videos();

  /** A short name for messages and results: the Hub repository id, else the folder's name. */
  String name();

  /**
   * Opens the dataset {@code location} names: a local folder (relative to the working directory, or
   * absolute); {@code hf://datasets/OWNER/NAME[@REVISION]} or {@code OWNER/NAME[@REVISION]} on the
   * Hub ({@code HF_ENDPOINT}, {@code HF_TOKEN} from {@link SourceOptions#environment()}). A
   * location that exists on disk is local, also when it reads like {@code OWNER/NAME}.
   *
   * @throws IllegalArgumentException for a location nothing handles (naming it and what is)
   */
  static DatasetSource open(String location, SourceOptions options) {
    return DatasetLocations.open(location, options);
  }

  /** Opens the local dataset at {@code root}, whatever its name looks like. */
  static DatasetSource local(Path root, SourceOptions options) {
    return LocalDataset.open(root, options);
  }
}
