package org.robostream.cli;

import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.robostream.bench.ProgressBar;
import org.robostream.source.hub.HubConfig;
import org.robostream.source.hub.HubDataset;
import org.robostream.source.hub.HubFileCache;
import org.robostream.source.hub.HubHttp;

/** Preparing a Hub dataset for the CLI commands, with progress on a terminal. Stateless. */
final class Prewarm {
  private Prewarm() {}

  /** Pins the revision and mirrors meta/ and the Parquet files (see HubDataset.prepare). */
  static HubDataset prepare(String repoId, String revision, String dataFilesRoot,
      Optional<? extends Collection<Integer>> episodes) {
    HubHttp http = new HubHttp(HubConfig.fromEnvironment());
    AtomicInteger files = new AtomicInteger();
    ProgressBar bar = new ProgressBar(0, "files");
    HubDataset hub = HubDataset.prepare(http, repoId, revision, dataFilesRoot, episodes,
        f -> bar.update(files.incrementAndGet(), f));
    System.err.printf("hub: %s at %s, files from %s, %d metadata/Parquet files in %s%n",
        hub.repo().id(), hub.revision().describe(), hub.files(), files.get(),
        hub.metadataRoot());
    return hub;
  }

  /** Downloads the prepared episodes' videos into the mirror (files already there are kept). */
  static void videos(HubDataset hub) {
    ProgressBar bar = new ProgressBar(videoFiles(hub).size(), "videos");
    AtomicInteger done = new AtomicInteger();
    hub.prewarmVideos(f -> bar.update(done.incrementAndGet(), f));
    System.err.printf("hub: %d videos in the cache (%d bytes fetched in all)%n", done.get(),
        hub.http().bytesFetched());
  }

  /** The distinct video files of the prepared episodes (local paths in the mirror). */
  static List<Path> videoFiles(HubDataset hub) {
    return hub.metadata().episodes().stream().flatMap(e -> e.videos().values().stream())
        .map(v -> v.file()).distinct().toList();
  }

  /**
   * Null when every video of the prepared episodes is complete in the mirror; else why not, with
   * the prewarm command that fills it (same revision and files root, so the same mirror).
   */
  static String notPrewarmed(HubDataset hub, String dataFilesRoot) {
    List<Path> all = videoFiles(hub);
    List<Path> missing = all.stream().filter(f -> !HubFileCache.isComplete(f)).toList();
    if (missing.isEmpty()) {
      return null;
    }
    return missing.size() + " of " + all.size() + " videos are not in the prewarmed mirror "
        + hub.dataRoot() + " (first: " + hub.dataRoot().relativize(missing.get(0)) + ");"
        + " prewarm them first: robostream prewarm --repo-id " + hub.repo().id() + " --revision "
        + hub.revision().name() + (dataFilesRoot == null ? "" : " --data-files-root "
        + dataFilesRoot);
  }
}
