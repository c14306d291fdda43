package org.robostream.cli;

import java.io.IOException;
import java.nio.file.Path;
import org.robostream.bench.DefaultDataset;
import org.robostream.dataset.DatasetSource;
import org.robostream.dataset.SourceOptions;
import org.robostream.dataset.SymlinkPolicy;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The dataset flags of {@code bench}, {@code train} and {@code diagnose} (a picocli mixin): a local
 * root, or a Hub dataset (--repo-id, --revision, --data-files-root, or an hf:// --root), else the
 * built-in default dataset; which of its episodes and cameras ({@link SelectionOptions}). The flags
 * only say where; the library opens it ({@link DatasetSource}). Not thread-safe (filled by picocli,
 * read once).
 */
final class DatasetOptions {
  @Option(
      names = {"--repo-id", "--repo_id"},
      description =
          "Hub dataset (owner/name) streamed" + " from HF_ENDPOINT; with --root only a label")
  String repoId;

  @Option(
      names = "--revision",
      description = "Hub revision (default: the v3.0 tag, else the" + " highest v3.x tag)")
  String revision;

  @Option(
      names = "--root",
      description =
          "local dataset root (default: the built-in dataset,"
              + " generated once into the user's cache), or a Hub dataset as"
              + " hf://datasets/OWNER/NAME[@REVISION] (the same as --repo-id and --revision)")
  String rootArgument;

  @Option(
      names = "--allow-symlinks-outside-root",
      description =
          "follow symbolic links that"
              + " lead outside the dataset's roots (by default such files are refused, so a dataset"
              + " cannot make the loader read files elsewhere; the Hugging Face cache's snapshot folders"
              + " link to its blobs and need this)")
  boolean allowSymlinksOutsideRoot;

  @Option(
      names = {"--data-files-root", "--data_files_root"},
      description =
          "where data/ and videos/ are: a local directory, or hf://buckets/... or"
              + " hf://datasets/... with --repo-id")
  String dataFilesRoot;

  @Mixin SelectionOptions selection;

  /** The Hub location the flags name, or null for a local (or the default) dataset. */
  String hubLocation() {
    return HubRoot.location(rootArgument, repoId, revision);
  }

  /** Whether the dataset streams from the Hub (a --repo-id or an hf:// --root). */
  boolean remote() {
    return hubLocation() != null;
  }

  /**
   * The local folder the flags name, else the default dataset of {@code defaultEpisodes} x {@code
   * defaultFrames} (generated once, under a lock); null for a Hub dataset. A --root that is not an
   * hf:// URL is always a local folder.
   */
  Path localRoot(int defaultEpisodes, int defaultFrames) throws IOException {
    if (remote()) {
      return null;
    }
    return rootArgument != null
        ? Path.of(rootArgument)
        : DefaultDataset.ensure(defaultEpisodes, defaultFrames);
  }

  /**
   * Opens the dataset: on the Hub (metadata and Parquet mirrored, with progress), else {@link
   * #localRoot}.
   */
  DatasetSource open(int defaultEpisodes, int defaultFrames) throws IOException {
    SourceOptions options =
        selection.applyTo(
            SourceOptions.defaults()
                .withDataFilesRoot(dataFilesRoot)
                .withSymlinks(
                    allowSymlinksOutsideRoot ? SymlinkPolicy.FOLLOW : SymlinkPolicy.CONFINED));
    String hub = hubLocation();
    if (hub != null) {
      return Prewarm.open(hub, options);
    }
    return DatasetSource.local(localRoot(defaultEpisodes, defaultFrames), options);
  }

  /** The dataset's name for results: --repo-id when given (a label with --root), else its own. */
  String name(DatasetSource source) {
    return repoId != null ? repoId : source.name();
  }
}
