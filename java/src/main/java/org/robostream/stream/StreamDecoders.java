package org.robostream.stream;

import java.nio.file.Path;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.robostream.codec.Decoder;
import org.robostream.codec.DecoderCache;
import org.robostream.codec.DecoderCacheCounters;
import org.robostream.codec.FrameTables;
import org.robostream.fetch.FramePlacement;
import org.robostream.fetch.VideoFacts;
import org.robostream.source.VideoSources;
import org.robostream.video.DecoderCacheStats;
import org.robostream.video.VideoDecoderOptions;

/**
 * Opens the decoders of a dataset's workers: a {@link DecoderCache} of the configured size per
 * worker run, each decoder over the dataset's video sources and reusing the frame table any worker
 * built for its file ({@link FrameTables}: every live stream of a shared v3.0 file has a decoder of
 * its own, but the file's packets are scanned once). Counts what the caches do and the files that
 * decode on the CPU although a GPU was asked for. Depth maps always decode on the CPU (NVDEC's
 * colour kernel writes RGB only); they are not fallbacks.
 *
 * <p>Threading: thread-safe; every worker thread opens decoders through its own cache at once, and
 * the counts are exact while they run. Ownership: a cache and its decoders belong to the worker
 * given it, which clears it when it ends; this class keeps only tables and counts.
 */
final class StreamDecoders {
  private final VideoSources videos;
  private final VideoDecoderOptions options;
  private final Set<String> depthFiles = new java.util.HashSet<>(); // the depth cameras' files
  private final int cacheSize;
  private final FrameTables tables;
  private final FramePlacement placement;
  private final DecoderCacheCounters cacheCounters = new DecoderCacheCounters();
  private final int wholeDeviceFallbacks; // files on the CPU because the GPU is unusable
  private final Set<String> perFileFallbacks = ConcurrentHashMap.newKeySet();
  private final Map<String, VideoFacts> facts = new ConcurrentHashMap<>(); // by file

  StreamDecoders(StreamConfig config) {
    this.videos = config.videos();
    this.options = config.context().decoderOptions();
    this.cacheSize = config.context().decoderCacheSize();
    this.tables = config.frameTables();
    this.placement = config.placement();
    for (String camera : config.metadata().depthCameras()) {
      config.metadata().videoFiles(camera).forEach(f -> depthFiles.add(f.toString()));
    }
    this.wholeDeviceFallbacks =
        config.deviceResolution().fellBack() ? config.metadata().videoFiles().size() : 0;
  }

  /**
   * A cache for one worker. The sibling a cache offers on a miss is not needed: every decoder of
   * the dataset is opened here, so the sibling's table is in {@link #tables} already.
   */
  DecoderCache newCache() {
    return new DecoderCache(
        OptionalInt.of(cacheSize), (file, device, sibling) -> open(file), cacheCounters);
  }

  private Decoder open(String file) {
    VideoDecoderOptions chosen = depthFiles.contains(file) ? options.withCudaDevice(-1) : options;
    Decoder decoder = tables.open(videos.open(Path.of(file)), chosen);
    facts.putIfAbsent(file, VideoFacts.of(decoder));
    if (decoder.cpuFallbackReason() != null) {
      perFileFallbacks.add(file);
    }
    return decoder;
  }

  /** Which frame each row gets, shared by every worker. */
  FramePlacement placement() {
    return placement;
  }

  /** What the first decoder of {@code file} told about it, or null before one opened it. */
  VideoFacts facts(String file) {
    return facts.get(file);
  }

  /** The identity of {@code file}'s bytes for the frame cache (null: not cached). */
  String identity(Path file) {
    return videos.identity(file);
  }

  /** Decoder-cache counters summed over every worker. */
  DecoderCacheStats cacheStats() {
    return cacheCounters.snapshot();
  }

  /**
   * Video files decoded on the CPU although GPU decoding was requested: every file when the GPU is
   * unusable ({@code cuda-or-cpu}), else the files opened so far that NVDEC cannot decode.
   */
  int cpuFallbacks() {
    return wholeDeviceFallbacks + perFileFallbacks.size();
  }
}
