package org.robostream.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.robostream.bench.ProgressBar;
import org.robostream.dataset.EpisodeInfo;
import org.robostream.dataset.EpisodeRanges;
import org.robostream.dataset.LeRobotMetadata;
import org.robostream.dataset.SourceOptions;
import org.robostream.hub.HubDataset;

/**
 * Opening a Hub dataset for the CLI commands, with progress on a terminal and a line saying what
 * was prepared, and prewarming its videos. Stateless.
 */
final class Prewarm {
  private Prewarm() {}

  /**
   * Opens the Hub dataset at {@code location} (an hf:// URL): revision pinned, meta/ and the kept
   * episodes' Parquet files mirrored (see {@link HubDataset#open}), cached under {@code $SCRATCH}
   * when nothing else says where ({@link HubCacheDefault}).
   */
  static HubDataset open(String location, SourceOptions options) {
    options = options.withEnvironment(HubCacheDefault.apply(options.environment()));
    AtomicInteger files = new AtomicInteger();
    ProgressBar bar = new ProgressBar(0, "files");
    // The Hub's own entry point, not DatasetSource.open: a local folder that happens to be named
    // like the repository is never opened instead (and nothing needs a cast).
    HubDataset hub =
        HubDataset.open(
            location, options.withProgress(f -> bar.update(files.incrementAndGet(), f)));
    System.err.printf(
        "hub: %s at %s, files from %s, %d metadata/Parquet files in %s%n",
        hub.repo().id(), hub.revision().describe(), hub.files(), files.get(), hub.metadataRoot());
    return hub;
  }

  /** Downloads the prepared episodes' videos into the mirror (files already there are kept). */
  static void videos(HubDataset hub) {
    ProgressBar bar = new ProgressBar(hub.metadata().videoFiles().size(), "videos");
    AtomicInteger done = new AtomicInteger();
    hub.prewarmVideos(f -> bar.update(done.incrementAndGet(), f));
    System.err.printf(
        "hub: %d videos in the cache (%d bytes fetched in all)%n",
        done.get(), hub.http().bytesFetched());
  }

  /**
   * Null when every video of the prepared episodes is complete in the mirror; else why not, with
   * the prewarm command that fills it (same revision and files root, so the same mirror).
   */
  static String notPrewarmed(HubDataset hub, String dataFilesRoot) {
    List<Path> missing = hub.videosNotInMirror();
    if (missing.isEmpty()) {
      return null;
    }
    return missing.size()
        + " of "
        + hub.metadata().videoFiles().size()
        + " videos are not in"
        + " the prewarmed mirror "
        + hub.dataRoot()
        + " (first: "
        + hub.dataRoot().relativize(missing.get(0))
        + "); prewarm them first: robostream prewarm"
        + " --repo-id "
        + hub.repo().id()
        + " --revision "
        + hub.revision().name()
        + (dataFilesRoot == null ? "" : " --data-files-root " + dataFilesRoot)
        + selectionFlags(hub.metadata());
  }

  /**
   * The {@code --cameras} / {@code --episodes} that select what {@code metadata} keeps, when it
   * keeps less than the whole dataset: prewarm then fetches the same files (and is not refused for
   * the files the selection leaves out).
   */
  private static String selectionFlags(LeRobotMetadata metadata) {
    String flags = "";
    if (metadata.cameras().size() < metadata.info().cameraKeys().size()) {
      flags += " --cameras " + String.join(",", metadata.cameras());
    }
    if (metadata.episodes().size() < metadata.info().totalEpisodes()) {
      flags +=
          " --episodes "
              + EpisodeRanges.format(metadata.episodes().stream().map(EpisodeInfo::index).toList());
    }
    return flags;
  }
}
