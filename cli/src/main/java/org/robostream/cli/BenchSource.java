package org.robostream.cli;

import java.util.List;

/**
 * The {@code --source} of a bench run and the checks that depend on it, decided from the dataset
 * flags alone, before a dataset is generated or a byte is fetched: a mistake costs an instant exit
 * 2, not a measurement. The reference's three sources say where the bytes come from over the
 * network, and here they also decide it: {@code hub} reads data and videos from the dataset
 * repository, {@code bucket} from {@code hf://buckets/...} (--data-files-root; metadata still from
 * the repository), {@code warmed_bucket} from the same bucket after a warm pass that read every
 * file the run touches once (timed and counted apart from the run). All three read videos by range
 * requests, never from a local copy. {@code local_mirror} reads the videos from the node-local
 * mirror that {@code robostream prewarm} filled (the local file system, not the network); {@code
 * local} is a dataset on disk (--root). Stateless.
 */
final class BenchSource {
  static final List<String> LABELS =
      List.of("local", "hub", "bucket", "warmed_bucket", "local_mirror");

  private BenchSource() {}

  /**
   * The label for this run: {@code requested} when given and consistent with the flags, else what
   * the flags say (local, or hub / bucket for a Hub dataset by where its files are).
   *
   * @param remote whether the dataset streams from the Hub (--repo-id without --root)
   * @throws IllegalArgumentException naming the conflict
   */
  static String resolve(String requested, boolean remote, String dataFilesRoot) {
    boolean bucketFiles = dataFilesRoot != null && dataFilesRoot.startsWith("hf://buckets/");
    if (requested == null) {
      return !remote ? "local" : bucketFiles ? "bucket" : "hub";
    }
    if (!LABELS.contains(requested)) {
      throw new IllegalArgumentException(
          "--source must be one of "
              + String.join(", ", LABELS)
              + " (where the data comes from), got "
              + requested);
    }
    if (!remote) {
      return requested; // a local copy may be labelled by where it came from, as the reference does
    }
    if (requested.equals("local")) {
      throw new IllegalArgumentException(
          "--source local needs a local dataset (--root); with"
              + " --repo-id alone the dataset streams from the Hub: --source hub, bucket,"
              + " warmed_bucket or local_mirror");
    }
    boolean needsBucket = requested.equals("bucket") || requested.equals("warmed_bucket");
    if (needsBucket && !bucketFiles) {
      throw new IllegalArgumentException(
          "--source "
              + requested
              + " reads data/ and videos/ from a bucket:"
              + " add --data-files-root hf://buckets/OWNER/NAME");
    }
    if (requested.equals("hub") && bucketFiles) {
      throw new IllegalArgumentException(
          "--data-files-root "
              + dataFilesRoot
              + " is a bucket:"
              + " use --source bucket or warmed_bucket");
    }
    return requested;
  }

  /**
   * Checks {@code --baseline}: only {@code ffmpeg}, and only where the ffmpeg CLI can read the
   * video files (local, or the prewarmed mirror of local_mirror) and is installed.
   *
   * @throws IllegalArgumentException naming the problem
   */
  static void checkBaseline(String baseline, String source, boolean remote) {
    if (baseline == null) {
      return;
    }
    if (!baseline.equals("ffmpeg")) {
      throw new IllegalArgumentException(
          "--baseline must be ffmpeg (the ffmpeg CLI's decode rate"
              + " of the same videos), got "
              + baseline);
    }
    if (remote && !source.equals("local_mirror")) {
      throw new IllegalArgumentException(
          "--baseline ffmpeg needs the video files on disk, but"
              + " --source "
              + source
              + " reads them by range requests: use --root, or --source"
              + " local_mirror after robostream prewarm");
    }
    String missing = org.robostream.bench.FfmpegCliBaseline.unavailableCause();
    if (missing != null) {
      throw new IllegalArgumentException("--baseline ffmpeg cannot run: " + missing);
    }
  }
}
