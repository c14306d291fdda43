package org.robostream.cli;

import java.util.concurrent.Callable;
import org.robostream.dataset.SourceOptions;
import org.robostream.hub.HubDataset;
import org.robostream.hub.HubLocation;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code robostream prewarm}: fills the local cache (HF_LEROBOT_HOME/.robostream-hub) with a Hub
 * dataset's metadata, Parquet files and videos ahead of training; files already cached (same size
 * and ETag) are kept, so an interrupted run resumes where it stopped.
 */
@Command(
    name = "prewarm",
    mixinStandardHelpOptions = true,
    description = "Download a Hub dataset (metadata, Parquet, videos) into the local cache.")
final class PrewarmCommand implements Callable<Integer> {
  @Option(
      names = {"--repo-id", "--repo_id"},
      required = true)
  String repoId;

  @Option(names = "--revision")
  String revision;

  @Option(
      names = {"--data-files-root", "--data_files_root"},
      description = "hf://buckets/... or hf://datasets/... holding data/ and videos/")
  String dataFilesRoot;

  @Mixin SelectionOptions selection;

  @Option(names = "--metadata-only", description = "skip the videos")
  boolean metadataOnly;

  @Override
  public Integer call() {
    HubDataset hub =
        Prewarm.open(
            HubLocation.dataset(repoId, revision).toString(),
            selection.applyTo(SourceOptions.defaults().withDataFilesRoot(dataFilesRoot)));
    if (!metadataOnly) {
      Prewarm.videos(hub);
    }
    System.out.println(hub.dataRoot());
    return 0;
  }
}
