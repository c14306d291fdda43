package org.robostream.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import org.robostream.bench.DefaultDataset;
import org.robostream.dataset.DatasetInfo;
import org.robostream.dataset.DatasetRoots;
import org.robostream.dataset.SymlinkPolicy;
import org.robostream.source.hub.HubDataset;
import org.robostream.stream.StreamingDataset;
import picocli.CommandLine.Option;

/**
 * The dataset flags of {@code bench} and {@code train} (a picocli mixin): a local root, or a Hub
 * dataset (--repo-id, --revision, --data-files-root), else the built-in default dataset. Not
 * thread-safe (filled by picocli, read once).
 */
final class DatasetOptions {
  @Option(names = {"--repo-id", "--repo_id"}, description = "Hub dataset (owner/name) streamed"
      + " from HF_ENDPOINT; with --root only a label")
  String repoId;

  @Option(names = "--revision", description = "Hub revision (default: the v3.0 tag, else the"
      + " highest v3.x tag)")
  String revision;

  @Option(names = "--root", description = "local dataset root (default: the built-in dataset,"
      + " generated once into the user's cache), or a Hub dataset as"
      + " hf://datasets/OWNER/NAME[@REVISION] (the same as --repo-id and --revision)")
  String rootArgument;

  /** Folds an hf:// --root into --repo-id/--revision (idempotent); the local root or null. */
  private Path localRoot() {
    org.robostream.source.hub.HubLocation hub = HubRoot.of(rootArgument, repoId, revision);
    if (hub != null) {
      repoId = hub.id();
      revision = hub.revision();
      rootArgument = null;
    }
    return HubRoot.local(rootArgument);
  }

  @Option(names = "--allow-symlinks-outside-root", description = "follow symbolic links that"
      + " lead outside the dataset's roots (by default such files are refused, so a dataset"
      + " cannot make the loader read files elsewhere; the Hugging Face cache's snapshot folders"
      + " link to its blobs and need this)")
  boolean allowSymlinksOutsideRoot;

  @Option(names = {"--data-files-root", "--data_files_root"},
      description = "where data/ and videos/ are: a local directory, or hf://buckets/... or"
          + " hf://datasets/... with --repo-id")
  String dataFilesRoot;

  /** Whether the dataset streams from the Hub (a --repo-id or an hf:// --root). */
  boolean remote() {
    Path local = localRoot(); // first: an hf:// --root becomes --repo-id here
    return repoId != null && local == null;
  }

  /**
   * The chosen dataset.
   *
   * @param builder a stream builder over it
   * @param hub the prepared Hub dataset, or null for a local one
   * @param name the repo id, else the local folder's name
   * @param info its info.json
   */
  record Selected(StreamingDataset.Builder builder, HubDataset hub, String name,
      DatasetInfo info) {}

  /**
   * Prepares the Hub dataset (metadata and Parquet mirrored), or the local root, or generates the
   * default dataset of {@code defaultEpisodes} x {@code defaultFrames} (once, under a lock).
   */
  Selected select(int defaultEpisodes, int defaultFrames) throws IOException {
    if (remote()) {
      HubDataset hub = Prewarm.prepare(repoId, revision, dataFilesRoot, Optional.empty());
      return new Selected(StreamingDataset.builder(hub), hub, repoId, hub.metadata().info());
    }
    Path root = localRoot();
    // Absolute first: "--root ." must name the folder, and paths under it must stay under it.
    Path dataset = (root != null ? root : DefaultDataset.ensure(defaultEpisodes, defaultFrames))
        .toAbsolutePath().normalize();
    SymlinkPolicy links = allowSymlinksOutsideRoot ? SymlinkPolicy.FOLLOW
        : SymlinkPolicy.CONFINED;
    StreamingDataset.Builder builder = StreamingDataset.builder(dataset).symlinks(links);
    if (dataFilesRoot != null) {
      builder.dataFilesRoot(Path.of(dataFilesRoot));
    }
    Path info = DatasetRoots.of(dataset, dataset, links).metaFile("info.json");
    return new Selected(builder, null, repoId != null ? repoId
        : dataset.getFileName() == null ? dataset.toString() : dataset.getFileName().toString(),
        DatasetInfo.read(info));
  }
}
