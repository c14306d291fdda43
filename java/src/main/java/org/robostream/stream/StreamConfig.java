package org.robostream.stream;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.robostream.dataset.DatasetSource;
import org.robostream.dataset.EpisodeInfo;
import org.robostream.dataset.FrameShape;
import org.robostream.dataset.LeRobotMetadata;
import org.robostream.dataset.SourceOptions;
import org.robostream.dataset.SymlinkPolicy;
import org.robostream.framecache.FrameCacheOptions;
import org.robostream.source.VideoSources;
import org.robostream.video.DecodeDeviceSpec;
import org.robostream.video.DecoderCache;
import org.robostream.video.Device;
import org.robostream.video.VideoDecoderOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything a {@link StreamingDataset.Builder}'s settings decide, checked: the opened dataset (its
 * data files checked against the metadata), the resolved decode device, windows, camera sizes, the
 * memory budget's share per worker, the decoder cache size, the episodes with their fingerprint,
 * and the position to start from (a resumed state checked against this dataset). Every problem with
 * the settings or the dataset is raised here, before a native pool is allocated or a worker
 * started; nothing after the build re-derives any of it.
 *
 * <p>Immutable and thread-safe (the metadata is immutable and thread-safe).
 */
final class StreamConfig {
  // The dataset's logger: a user configures logging by the public class.
  private static final Logger LOG = LoggerFactory.getLogger(StreamingDataset.class);
  // Batches a worker may have built ahead of the consumer.
  private static final int PREFETCH = 2;

  private final LeRobotMetadata metadata;
  private final VideoSources videos;
  private final PlanParameters params;
  private final RankWorld rankWorld;
  private final int workers;
  private final DecodeDeviceSpec.Resolution deviceResolution;
  private final int gpu;
  private final boolean deviceBatches;
  private final long memoryBudget;
  private final FrameCacheOptions frameCache;
  private final StreamContext context;
  private final List<EpisodePiece> episodes;
  private final long fingerprint;
  private final long startEpoch;
  private final List<StreamState.Segment> startSegments;

  /** The order of the checks is the order errors are reported in; keep it. */
  private StreamConfig(StreamingDataset.Builder b) {
    DatasetSource source = openSource(b);
    this.metadata = source.metadata();
    metadata.checkDataFiles(); // every disagreement with the data rows before the first batch
    this.videos = b.videos != null ? b.videos : source.videos();
    this.params =
        new PlanParameters(
            b.seed,
            b.shuffle,
            b.bufferSize,
            b.maxNumShards,
            b.batchSize,
            b.dropLast,
            b.rankBalance);
    this.rankWorld = b.rankWorld();
    this.workers = b.workers;
    // Decided before any worker starts: `cuda` without a usable GPU fails here, naming the
    // cause; `cuda-or-cpu` decodes on the CPU and says why, once.
    this.deviceResolution = b.device.resolve();
    if (deviceResolution.fellBack()) {
      LOG.warn(
          "decodeDevice {}: decoding on the CPU instead: {}",
          b.device,
          deviceResolution.fallbackReason());
    }
    boolean onGpu = deviceResolution.effective() == Device.CUDA;
    this.gpu = onGpu ? b.device.index() : -1;
    this.deviceBatches = onGpu || b.deviceBatches;
    VideoDecoderOptions decoderOptions =
        VideoDecoderOptions.defaults().withTolerance(b.toleranceSeconds).withCudaDevice(gpu);
    if (workers < 1) {
      throw new IllegalArgumentException("workers must be >= 1");
    }
    Windows windows =
        b.preset != null
            ? Windows.preset(b.preset, metadata.info())
            : Windows.fromDeltaTimestamps(b.deltaTimestamps, metadata.info());
    List<String> cameras = metadata.cameras();
    if (b.preset == null) {
      refuseWindowsOfCamerasLeftOut(b.deltaTimestamps.keySet(), metadata);
    }
    DeclaredFrameSizes.check(metadata, metadata.videoCameras(), videos);
    Map<String, StreamContext.FrameSize> fileSizes = frameSizes(metadata, cameras);
    Map<String, StreamContext.FrameSize> frameSizes =
        BatchFrameSizes.resolve(
            fileSizes, cameras, Set.copyOf(metadata.depthCameras()), b.resizeAll, b.resizeCameras);
    this.memoryBudget = b.memoryBudgetBytes;
    this.frameCache = b.frameCache;
    StreamContext probe =
        new StreamContext(
            metadata,
            windows,
            cameras,
            b.returnUint8,
            b.layout,
            deviceResolution.effective(),
            decoderOptions,
            1,
            PREFETCH,
            1,
            frameSizes,
            fileSizes,
            SampleTransforms.NONE);
    long storeBytes = storeBytes(probe, b.batchSize);
    int cacheSize = decoderCacheCapacity(b, cameras.size());
    this.context =
        new StreamContext(
            metadata,
            windows,
            cameras,
            b.returnUint8,
            b.layout,
            deviceResolution.effective(),
            decoderOptions,
            storeBytes,
            PREFETCH,
            cacheSize,
            frameSizes,
            fileSizes,
            transforms(b, onGpu));
    List<EpisodePiece> pieces = new ArrayList<>();
    for (EpisodeInfo e : metadata.episodes()) {
      pieces.add(EpisodePiece.whole(e.index(), e.length()));
    }
    this.episodes = List.copyOf(pieces);
    this.fingerprint = StreamState.fingerprint(episodes);
    if (b.resumeState != null) {
      StreamState state = checkedState(StreamState.fromJson(b.resumeState));
      this.startEpoch = state.epoch();
      this.startSegments = state.segments();
    } else {
      this.startEpoch = b.epoch;
      this.startSegments = List.of();
    }
  }

  /**
   * The builder's image transforms. They run on host memory in the workers, so frames that stay on
   * a GPU (decodeDevice cuda with a usable GPU) cannot take them: refused here, before anything is
   * decoded, rather than delivered untransformed.
   */
  private static SampleTransforms transforms(StreamingDataset.Builder b, boolean onGpu) {
    SampleTransforms t = new SampleTransforms(b.seed, b.imageTransforms, b.imageTransform);
    if (!t.any()) {
      return SampleTransforms.NONE;
    }
    if (onGpu) {
      throw new IllegalArgumentException(
          "imageTransforms run on host frames in the workers, and decodeDevice "
              + b.device
              + " keeps the frames on the GPU: decode on the CPU (decodeDevice cpu) to transform"
              + " them, or transform the batch on the GPU in the trainer");
    }
    return t;
  }

  /** Where decoded frames are kept between epochs and processes, or null (no frame cache). */
  FrameCacheOptions frameCache() {
    return frameCache;
  }

  /** Resolves and checks {@code builder}'s settings. */
  static StreamConfig resolve(StreamingDataset.Builder builder) {
    return new StreamConfig(builder);
  }

  /** The dataset the builder streams, opened with its options. */
  private static DatasetSource openSource(StreamingDataset.Builder b) {
    if (b.opened
        && (b.dataFilesRoot != null
            || b.episodes != null
            || b.cameras != null
            || b.symlinks != SymlinkPolicy.CONFINED)) {
      throw new IllegalArgumentException(
          "episodes, cameras, dataFilesRoot and symlinks of a dataset"
              + " given to builder(DatasetSource) were fixed when it was opened (SourceOptions)");
    }
    SourceOptions options =
        SourceOptions.defaults()
            .withDataFilesRoot(b.dataFilesRoot)
            .withSymlinks(b.symlinks)
            .withEnvironment(b.environment);
    options = b.episodes == null ? options : options.withEpisodes(b.episodes);
    return b.opener.apply(b.cameras == null ? options : options.withCameras(b.cameras));
  }

  /**
   * A window asked for a camera the selection leaves out would be ignored: no frame of it is read.
   * (A preset's windows cover every camera the dataset has; only the kept ones are read.)
   */
  private static void refuseWindowsOfCamerasLeftOut(
      java.util.Set<String> windowed, LeRobotMetadata metadata) {
    for (String key : windowed) {
      if (metadata.info().cameraKeys().contains(key) && !metadata.cameras().contains(key)) {
        throw new IllegalArgumentException(
            "deltaTimestamps has a window for "
                + key
                + ", a camera the cameras(...) selection leaves out; kept cameras: "
                + metadata.cameras());
      }
    }
  }

  /**
   * Each camera's frame size as info.json declares it: cameras of different sizes share a batch.
   */
  private static Map<String, StreamContext.FrameSize> frameSizes(
      LeRobotMetadata metadata, List<String> cameras) {
    Map<String, StreamContext.FrameSize> sizes = new HashMap<>();
    for (String c : cameras) {
      FrameShape shape = metadata.info().features().get(c).frameShape(); // axes as names say
      sizes.put(c, new StreamContext.FrameSize(shape.height(), shape.width()));
    }
    return sizes;
  }

  /**
   * A worker's share of the memory budget for decoded frames waiting in its shuffle buffer: what is
   * left of its share once its prefetched batches (at the batch sizes) are counted; at least one
   * held sample (at the files' sizes: a resized batch does not shrink what is held before it).
   */
  private long storeBytes(StreamContext probe, int batchSize) {
    long heldBytes = Math.max(1, probe.heldSampleBytes());
    long batchBytes = probe.sampleBatchBytes() * batchSize;
    long perWorker = memoryBudget / workers - PREFETCH * batchBytes;
    if (perWorker < heldBytes) {
      throw new IllegalArgumentException(
          "memoryBudgetBytes ("
              + memoryBudget
              + " bytes) is too"
              + " small for "
              + workers
              + " workers x "
              + PREFETCH
              + " prefetched batches of "
              + batchBytes
              + " bytes and one held sample of "
              + heldBytes
              + " bytes; raise memoryBudgetBytes or lower batchSize or the workers");
    }
    return perWorker;
  }

  /**
   * Open decoders each worker keeps: the builder's {@code decoderCacheSize}, else the environment's
   * {@link DecoderCache#ENV} / {@link DecoderCache#LEROBOT_ENV} (checked here, so a bad value fails
   * the build naming the variable), else enough for every live stream's cameras plus one episode's
   * worth ((max_num_shards + 1) x cameras + cameras).
   */
  private static int decoderCacheCapacity(StreamingDataset.Builder b, int cameras) {
    int perEpisode = Math.max(1, cameras);
    return b.decoderCacheSize.isPresent()
        ? DecoderCache.parseCapacity(
            Integer.toString(b.decoderCacheSize.getAsInt()), "decoderCacheSize")
        : DecoderCache.configuredCapacity(b.environment)
            .orElse((b.maxNumShards + 1) * perEpisode + perEpisode);
  }

  /** {@code s}, when it was saved by a stream over these episodes with these parameters. */
  private StreamState checkedState(StreamState s) {
    if (s.episodesFingerprint() != fingerprint) {
      throw new IllegalArgumentException(
          "the state was saved for another dataset view" + " (different episodes or lengths)");
    }
    if (!s.params().equals(params)) {
      throw new IllegalArgumentException(
          "the state was saved with " + s.params() + " but this stream has " + params);
    }
    return s;
  }

  LeRobotMetadata metadata() {
    return metadata;
  }

  /** Where the video bytes come from: the builder's sources, else the dataset source's. */
  VideoSources videos() {
    return videos;
  }

  PlanParameters params() {
    return params;
  }

  RankWorld rankWorld() {
    return rankWorld;
  }

  int workers() {
    return workers;
  }

  /** Where frames decode, and why on the CPU when a GPU was asked for. */
  DecodeDeviceSpec.Resolution deviceResolution() {
    return deviceResolution;
  }

  /** The GPU whose NVDEC decodes and whose memory holds the batches' frames; -1: the CPU. */
  int gpu() {
    return gpu;
  }

  /**
   * Whether frames are held as RGB in pooled memory of the batch device until their batch is built
   * (always on a GPU; on the CPU when the builder asked), rather than packed on the host.
   */
  boolean deviceBatches() {
    return deviceBatches;
  }

  long memoryBudget() {
    return memoryBudget;
  }

  /** What every worker shares: metadata, windows, output format, limits. */
  StreamContext context() {
    return context;
  }

  /** The kept episodes, whole: the pool every epoch's plan is made from. */
  List<EpisodePiece> episodes() {
    return episodes;
  }

  /** Identifies {@link #episodes()} in a saved state. */
  long fingerprint() {
    return fingerprint;
  }

  /** The epoch to start in: the builder's, or the resumed state's. */
  long startEpoch() {
    return startEpoch;
  }

  /** What the ranks consumed of {@link #startEpoch()} before a resume; empty otherwise. */
  List<StreamState.Segment> startSegments() {
    return startSegments;
  }
}
