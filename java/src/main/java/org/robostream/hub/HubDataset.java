package org.robostream.hub;

import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.robostream.dataset.DatasetException;
import org.robostream.dataset.DatasetRoots;
import org.robostream.dataset.DatasetSource;
import org.robostream.dataset.LeRobotMetadata;
import org.robostream.dataset.SelectedFiles;
import org.robostream.dataset.SourceOptions;
import org.robostream.dataset.SymlinkPolicy;
import org.robostream.source.ByteSource;
import org.robostream.source.VideoSources;

/**
 * A LeRobot v3.0 Hub dataset ready to stream ({@link DatasetSource}), every file read at one pinned
 * commit ({@link RevisionResolver}). Thread-safe once prepared.
 *
 * @param repo the repository at its pinned commit
 * @param revision what that commit was chosen as (a tag, a branch) and the commit
 * @param files where data/ and videos/ are read (the repository, or a bucket)
 * @param metadataRoot local directory holding meta/
 * @param dataRoot local directory mirroring data/ and videos/ of {@code files}
 * @param metadata the opened metadata (episode filter applied)
 * @param http the client (counters: bytes fetched, requests, retries)
 */
public record HubDataset(
    HubLocation repo,
    RevisionResolver.Pinned revision,
    HubLocation files,
    Path metadataRoot,
    Path dataRoot,
    LeRobotMetadata metadata,
    HubHttp http)
    implements DatasetSource {

  /**
   * Opens the Hub dataset {@code location} names, {@code hf://datasets/OWNER/NAME[@REVISION]} or
   * {@code OWNER/NAME[@REVISION]}, or a whole dataset in a bucket, {@code hf://buckets/OWNER/NAME}
   * (its meta/, data/ and videos/, as LeRobot's {@code repo_type="bucket"} streams it;
   * unversioned), with a client configured from {@link SourceOptions#environment()} ({@link
   * HubConfig#fromEnvironment(java.util.Map)}): the revision pinned, meta/ and the kept episodes'
   * Parquet files mirrored, as {@link #prepare}.
   *
   * @throws IllegalArgumentException for a path inside a repository or a bucket, naming what to
   *     write instead
   */
  public static HubDataset open(String location, SourceOptions options) {
    HubLocation l =
        HubLocation.isHubUrl(location)
            ? HubLocation.parse(location)
            : HubLocation.parse("hf://datasets/" + location);
    if (!l.prefix().isEmpty()) {
      throw new IllegalArgumentException(
          location
              + " is a path inside a "
              + (l.kind() == HubLocation.Kind.BUCKET ? "bucket" : "repository")
              + ": a dataset is its root, "
              + (l.kind() == HubLocation.Kind.BUCKET
                  ? "hf://buckets/" + l.id()
                  : HubLocation.dataset(l.id(), l.revision()).toString())
              + ", not a path inside it");
    }
    HubHttp http = new HubHttp(HubConfig.fromEnvironment(options.environment()));
    if (l.kind() == HubLocation.Kind.BUCKET) {
      return mirror(
          http,
          l,
          RevisionResolver.Pinned.UNVERSIONED,
          options.dataFilesRoot(),
          options.episodes(),
          options.cameras(),
          options.progress());
    }
    return prepare(
        http,
        l.id(),
        l.revision(),
        options.dataFilesRoot(),
        options.episodes(),
        options.cameras(),
        options.progress());
  }

  /**
   * Resolves the revision, mirrors meta/ and the Parquet files of {@code episodes} (all when
   * empty), keeping {@code cameras} (all when empty); {@code progress} hears of each file fetched.
   */
  public static HubDataset prepare(
      HubHttp http,
      String repoId,
      String revision,
      String dataFilesRoot,
      Optional<? extends Collection<Integer>> episodes,
      Optional<? extends Collection<String>> cameras,
      Consumer<String> progress) {
    HubLocation unresolved = HubLocation.dataset(repoId, null);
    RevisionResolver.Pinned pinned = RevisionResolver.resolve(http, unresolved, revision);
    return mirror(
        http,
        unresolved.withRevision(pinned.commit()),
        pinned,
        dataFilesRoot,
        episodes,
        cameras,
        progress);
  }

  /**
   * Mirrors meta/ of {@code repo} (a repository at its pinned commit, or a bucket) and the Parquet
   * files of {@code episodes}, and opens the metadata.
   */
  private static HubDataset mirror(
      HubHttp http,
      HubLocation repo,
      RevisionResolver.Pinned pinned,
      String dataFilesRoot,
      Optional<? extends Collection<Integer>> episodes,
      Optional<? extends Collection<String>> cameras,
      Consumer<String> progress) {
    HubFileCache cache = new HubFileCache(http);
    cache.fetchAll(
        repo,
        HubTree.files(http, repo, "meta").stream().map(HubTree.Entry::path).toList(),
        progress);
    HubLocation files = filesLocation(http, repo, dataFilesRoot);
    Path metadataRoot = cache.mirrorOf(repo);
    Path dataRoot =
        files.prefix().isEmpty()
            ? cache.mirrorOf(files)
            : cache.mirrorOf(files).resolve(files.prefix());
    LeRobotMetadata metadata =
        LeRobotMetadata.open(
            DatasetRoots.of(metadataRoot, dataRoot, SymlinkPolicy.CONFINED),
            episodes,
            cameras,
            m -> requireFiles(http, files, dataRoot, m));
    Set<Path> parquet = new LinkedHashSet<>();
    metadata.episodes().forEach(e -> parquet.add(e.dataFile()));
    cache.fetchAll(files, relativeTo(dataRoot, parquet), progress);
    metadata = metadata.withDefaultFeatures(); // the data files are here now
    return new HubDataset(repo, pinned, files, metadataRoot, dataRoot, metadata, http);
  }

  /**
   * Every data and video file of the kept episodes and cameras must be in {@code files}' tree
   * listing, checked before anything is fetched: else one error naming the location, the absent
   * files and the selection of what is there ({@link SelectedFiles}).
   */
  private static void requireFiles(
      HubHttp http, HubLocation files, Path dataRoot, LeRobotMetadata metadata) {
    try {
      SelectedFiles.requirePresent(
          metadata,
          HubListing.of(http, files, dataRoot, SelectedFiles.needed(metadata)),
          (root, kind) -> "huggingface-cli download " + files.id() + " --repo-type dataset");
    } catch (DatasetException.MissingFile e) {
      throw new DatasetException.MissingFile(files.toString(), e.problem());
    }
  }

  private static HubLocation filesLocation(HubHttp http, HubLocation repo, String dataFilesRoot) {
    if (dataFilesRoot == null) {
      return repo;
    }
    HubLocation l = HubLocation.parse(dataFilesRoot);
    if (l.kind() == HubLocation.Kind.BUCKET) {
      return l; // unversioned
    }
    if (l.revision() == null && l.id().equals(repo.id())) {
      return l.withRevision(repo.revision());
    }
    return l.withRevision(RevisionResolver.resolve(http, l, l.revision()).commit());
  }

  /** The repository's id, {@code OWNER/NAME}. */
  @Override
  public String name() {
    return repo.id();
  }

  /** The kept episodes' videos that are not complete in the mirror (prewarm fills them). */
  public List<Path> videosNotInMirror() {
    return metadata.videoFiles().stream().filter(f -> !HubFileCache.isComplete(f)).toList();
  }

  /** The URL of a file under {@link #dataRoot()} in {@link #files()}. */
  public String urlOf(Path local) {
    return files.resolveUrl(http.config().endpoint(), relativeOf(dataRoot, local));
  }

  /** Videos: the mirror's copy when prewarmed (complete, with its sidecar), else range reads. */
  @Override
  public VideoSources videos() {
    return videoSources(true);
  }

  /**
   * This dataset with its videos always read by range requests, never from the mirror even where
   * {@code robostream prewarm} put them: a benchmark of the network then measures the network.
   * Metadata and Parquet stay the local files that opening fetched.
   */
  public DatasetSource overNetwork() {
    VideoSources remote = videoSources(false);
    HubDataset self = this;
    return new DatasetSource() {
      @Override
      public LeRobotMetadata metadata() {
        return self.metadata();
      }

      @Override
      public VideoSources videos() {
        return remote;
      }

      @Override
      public String name() {
        return self.name();
      }
    };
  }

  /** Range reads, or the mirror's complete copy when {@code mirror} allows it. */
  private VideoSources videoSources(boolean mirror) {
    return new VideoSources() {
      @Override
      public ByteSource open(Path file) {
        if (mirror && HubFileCache.isComplete(file)) {
          return MirrorByteSource.open(file, http.traffic());
        }
        return HttpRangeByteSource.open(http, urlOf(file), "an MP4 video");
      }

      @Override
      public String identity(Path file) {
        return remoteIdentity(file);
      }

      @Override
      public boolean onThisMachine(Path file) {
        return mirror && HubFileCache.isComplete(file);
      }
    };
  }

  /**
   * A video's identity for the frame cache, the same whether it is read remotely or from the
   * mirror: its URL (which names the pinned commit in a repository), size and the server's version
   * (ETag, else Last-Modified). Null for a file of an unversioned bucket whose server names no
   * version (its bytes could change under the same URL).
   */
  String remoteIdentity(Path file) {
    String url = urlOf(file);
    long size;
    String version;
    CacheSidecar copy = HubFileCache.isComplete(file) ? CacheSidecar.read(file) : null;
    if (copy != null) {
      size = copy.size();
      version = copy.version();
    } else {
      HttpRangeByteSource remote = HttpRangeByteSource.open(http, url, "an MP4 video");
      size = remote.size();
      version = remote.version();
    }
    if (version == null && files.kind() == HubLocation.Kind.BUCKET) {
      return null;
    }
    return "hf:" + url + "|" + size + "|" + (version == null ? "" : version);
  }

  /**
   * Downloads every video of the prepared episodes into the mirror; kept files stay, and an
   * interrupted download resumes where it stopped.
   *
   * @throws CacheLimitException before downloading when they do not fit the cache limit
   */
  public void prewarmVideos(Consumer<String> progress) {
    new HubFileCache(http).fetchAll(files, relativeTo(dataRoot, metadata.videoFiles()), progress);
  }

  private static List<String> relativeTo(Path root, Collection<Path> files) {
    return files.stream().map(p -> relativeOf(root, p)).toList();
  }

  private static String relativeOf(Path root, Path file) {
    return root.relativize(file).toString().replace('\\', '/');
  }
}
