package org.robostream.hub;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The local mirror of Hub files (metadata, Parquet, prewarmed videos) in {@link #MIRROR_DIR}, apart
 * from LeRobot's own datasets, which it never touches. Repository paths pass {@link ServerPath}. A
 * file is reused while the server reports the same size and version, else fetched by {@link
 * ResumableDownload}.
 *
 * <p>Size limit ({@code ROBOSTREAM_HUB_CACHE_GB}): a process's fetched files stay in use until it
 * exits. {@link #fetchAll} throws {@link CacheLimitException} before downloading if it would keep
 * more; else {@link CacheLru} evicts unused files. Across processes only downloads are locked, so
 * give concurrent runs their own directory or a limit that holds them all. Thread-safe.
 */
final class HubFileCache {
  /**
   * robostream's directory in {@code HF_LEROBOT_HOME}: the only one it writes to and evicts from. A
   * leading dot, which no Hub owner name has, keeps it apart from LeRobot's {@code <owner>/<name>}
   * datasets.
   */
  public static final String MIRROR_DIR = ".robostream-hub";

  /** Files in use per cache directory, for the life of the process. */
  private static final ConcurrentHashMap<Path, Set<Path>> IN_USE = new ConcurrentHashMap<>();

  private final HubHttp http;
  private final Path root;
  private final Set<Path> inUse;

  public HubFileCache(HubHttp http) {
    this.http = http;
    this.root = http.config().cacheRoot().toAbsolutePath().normalize().resolve(MIRROR_DIR);
    this.inUse = IN_USE.computeIfAbsent(root, r -> ConcurrentHashMap.newKeySet());
  }

  /** The local mirror directory of {@code location} (its revision must be resolved). */
  public Path mirrorOf(HubLocation location) {
    Path base =
        root.resolve(location.kind() == HubLocation.Kind.BUCKET ? "buckets" : "datasets")
            .resolve(location.id());
    if (location.kind() == HubLocation.Kind.BUCKET) {
      return base.resolve("bucket");
    }
    String revision = HubLocation.encodeAll(location.revision());
    if (revision.equals(".") || revision.equals("..")) {
      throw new IllegalArgumentException(
          "revision \"" + revision + "\" of " + location.id() + " is not a directory name");
    }
    return base.resolve(revision);
  }

  /** The local copy of {@code relative} (a path inside {@code location}); see {@link #fetchAll}. */
  public Path fetch(HubLocation location, String relative) {
    return fetchAll(location, List.of(relative), f -> {}).get(0);
  }

  /**
   * Local copies of {@code relatives} (paths inside {@code location}), downloaded when missing or
   * changed; {@code progress} hears of each file when it is ready.
   *
   * @throws CacheLimitException when the files in use by this process and these would exceed the
   *     limit (nothing downloaded then)
   */
  public List<Path> fetchAll(
      HubLocation location, List<String> relatives, Consumer<String> progress) {
    List<Path> targets = new ArrayList<>();
    List<String> urls = new ArrayList<>();
    List<HubHttp.RangeResult> heads = new ArrayList<>();
    Set<Path> added = new java.util.HashSet<>();
    long adding = 0;
    String endpoint = http.config().endpoint();
    String server = HubHttp.authority(java.net.URI.create(endpoint));
    for (String relative : relatives) {
      String url = location.resolveUrl(endpoint, relative);
      Path target =
          ServerPath.resolveInside(mirrorOf(location), location.pathOf(relative), url, server);
      // One byte tells the current size and version (and catches a web page served instead).
      HubHttp.RangeResult head = http.getRange(url, 0, 1, whatOf(relative));
      targets.add(target);
      urls.add(url);
      heads.add(head);
      if (!inUse.contains(target) && added.add(target)) {
        // Sizes are the server's word: add without overflowing past the limit check.
        adding = saturatedSum(adding, head.totalSize());
      }
    }
    long limit = http.config().cacheLimitBytes();
    long kept = inUse.stream().mapToLong(HubFileCache::sizeOf).sum();
    if (saturatedSum(kept, adding) > limit) {
      throw new CacheLimitException(root.toString(), kept, adding, relatives.size(), limit);
    }
    inUse.addAll(targets);
    for (int i = 0; i < targets.size(); i++) {
      Path target = targets.get(i);
      if (ResumableDownload.isCurrent(target, heads.get(i))) {
        touch(target);
      } else {
        long partial = sizeOf(ResumableDownload.partOf(target));
        CacheLru.evict(root, limit, Math.max(0, heads.get(i).totalSize() - partial), inUse);
        ResumableDownload.run(http, urls.get(i), target, heads.get(i), whatOf(relatives.get(i)));
      }
      progress.accept(relatives.get(i));
    }
    CacheLru.evict(root, limit, 0, inUse);
    return targets;
  }

  /** Whether {@code file} is a complete cached copy (moved into place with its sidecar). */
  public static boolean isComplete(Path file) {
    return Files.isRegularFile(file) && Files.isRegularFile(CacheSidecar.of(file));
  }

  /** Bytes in the cache, partial downloads included. */
  public long sizeBytes() {
    return CacheLru.sizeBytes(root);
  }

  /** What a file should be, by its name, for the error when the server sends a page instead. */
  static String whatOf(String path) {
    return path.endsWith(".json")
        ? "a JSON file"
        : path.endsWith(".jsonl")
            ? "a JSON lines file"
            : path.endsWith(".parquet")
                ? "a Parquet file"
                : path.endsWith(".mp4") ? "an MP4 video" : "a data file";
  }

  static void move(Path from, Path to) throws IOException {
    try {
      Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  private static long saturatedSum(long a, long b) {
    long sum = a + b;
    return sum < 0 ? Long.MAX_VALUE : sum;
  }

  private static long sizeOf(Path p) {
    try {
      return Files.size(p);
    } catch (IOException e) {
      return 0;
    }
  }

  /** Marks a use: eviction goes by this time, least recent first. */
  private static void touch(Path p) {
    try {
      Files.setLastModifiedTime(p, FileTime.fromMillis(System.currentTimeMillis()));
    } catch (IOException ignored) {
      // best effort: only the eviction order depends on it
    }
  }
}
