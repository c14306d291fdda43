package org.robostream.stream;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.robostream.codec.DecoderCache;
import org.robostream.codec.FrameTables;
import org.robostream.codec.VideoHeader;
import org.robostream.dataset.DatasetSource;
import org.robostream.dataset.EpisodeInfo;
import org.robostream.dataset.FrameShape;
import org.robostream.dataset.LeRobotMetadata;
import org.robostream.dataset.SourceOptions;
import org.robostream.dataset.SymlinkPolicy;
import org.robostream.dataset.TimestampReport;
import org.robostream.fetch.FramePlacement;
import org.robostream.framecache.FrameCacheOptions;
import org.robostream.frames.FrameDevice;
import org.robostream.frames.FrameSize;
import org.robostream.source.VideoSources;
import org.robostream.video.DecodeDeviceSpec;
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

  /**
   * The default budget for the frames the workers hold in their shuffle buffers, on top of the
   * batches they build ahead (see {@link StreamingDataset.Builder#memoryBudgetBytes}).
   */
  static final long DEFAULT_HELD_FRAMES_BYTES = 2L << 30;

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
  private final long datasetFingerprint;
  private final long startEpoch;
  private final List<StreamState.Segment> startSegments;
  private final TimestampReport timestamps;
  private final FramePlacement placement;
  private final FrameTables frameTables = new FrameTables();
  private final ShuffleBufferSizing bufferSizing;

  /**
   * The order of the checks is the order errors are reported in, the order a user fixes things:
   * files missing (when the source opens), the metadata against itself (also there), then against
   * the data files and the videos (here). Keep it.
   */
  private StreamConfig(StreamingDataset.Builder b) {
    // The settings' own mistakes first, before any file is read.
    this.params =
        new PlanParameters(
            b.seed,
            b.shuffle,
            b.bufferSize,
            b.maxNumShards,
            b.batchSize,
            b.dropLast,
            b.rankBalance);
    this.workers = b.workers;
    if (workers < 1 || workers > StreamState.MAX_WORKERS) {
      throw new IllegalArgumentException(
          "workers must be from 1 to " + StreamState.MAX_WORKERS + ", got " + workers);
    }
    this.rankWorld = b.rankWorld();
    if (!(b.toleranceSeconds > 0) || Double.isInfinite(b.toleranceSeconds)) {
      throw new IllegalArgumentException(
          "toleranceSeconds must be a positive number of seconds, got " + b.toleranceSeconds);
    }
    DatasetSource source = openSource(b);
    this.metadata = source.metadata();
    this.videos = b.videos != null ? b.videos : source.videos();
    // Settings against the metadata alone, before the data files and videos are read.
    Windows windows =
        b.preset != null
            ? Windows.preset(b.preset, metadata.info())
            : Windows.fromDeltaTimestamps(b.deltaTimestamps, metadata.info());
    List<String> cameras = metadata.cameras();
    if (b.preset == null) {
      refuseWindowsOfCamerasLeftOut(b.deltaTimestamps.keySet(), metadata);
    }
    Map<String, FrameSize> fileSizes = frameSizes(metadata, cameras);
    Map<String, FrameSize> frameSizes =
        BatchFrameSizes.resolve(
            fileSizes, cameras, Set.copyOf(metadata.depthCameras()), b.resizeAll, b.resizeCameras);
    // Every disagreement with the data rows before the first batch.
    this.timestamps = metadata.checkDataFiles(b.timestampRule, b.toleranceSeconds);
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
    Map<String, VideoHeader> headers =
        DeclaredFrameSizes.check(metadata, metadata.videoCameras(), videos);
    this.placement =
        new FramePlacement(metadata.info(), b.toleranceSeconds, timestamps, b.timestampRule);
    VideoChecks.atOpen(metadata, videos, placement, frameTables);
    // Said once per dataset, after the videos' checks: where the rule's frames are not LeRobot's.
    for (String warning : timestamps.warnings()) {
      LOG.warn("{}: {}", metadata.root(), warning);
    }
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
            SampleTransforms.NONE,
            null);
    long batchBytes = probe.sampleBatchBytes() * b.batchSize;
    this.memoryBudget =
        b.memoryBudgetBytes > 0
            ? b.memoryBudgetBytes
            : (long) workers * PREFETCH * batchBytes + DEFAULT_HELD_FRAMES_BYTES;
    long storeBytes = storeBytes(probe, b.batchSize);
    // Sized from what the builder asked, never from what this machine resolved: every rank of a
    // job must plan with the same buffer (a saved state records one buffer for all of them), and
    // a cuda-or-cpu rank that fell back to the CPU must not plan another one than its peers.
    boolean askedGpu = b.device.device() == Device.CUDA;
    int maxRun = FrameDevice.longestRun(askedGpu);
    long sampleBytes =
        askedGpu || b.deviceBatches ? probe.heldSampleBytes() : packedSampleBytes(probe, headers);
    // Image cameras keep their encoded images in the same budget, up to half of it (ImageFrames).
    long framesStore = metadata.imageCameras().isEmpty() ? storeBytes : storeBytes / 2;
    this.bufferSizing =
        ShuffleBufferSizing.of(
            b.shuffle ? b.bufferSize : 1,
            framesStore,
            sampleBytes,
            b.batchSize,
            b.shuffle ? b.maxNumShards : 1,
            maxRun,
            !askedGpu);
    if (b.shuffle && bufferSizing.reduced(b.bufferSize)) {
      long needed =
          (long) workers
                  * (PREFETCH * batchBytes
                      + (metadata.imageCameras().isEmpty() ? 1 : 2)
                          * ShuffleBufferSizing.bytesFor(
                              b.bufferSize, sampleBytes, b.batchSize, b.maxNumShards, maxRun))
              + (1L << 20);
      LOG.warn(
          "shuffle buffer: {} samples asked per worker, but the memory budget ({} for {}"
              + " workers) holds {}. The sample order follows the smaller buffer (resume"
              + " included) rather than decoding the samples that do not fit in random order,"
              + " which on long-GOP video decodes up to a GOP per sample. For the whole buffer:"
              + " memoryBudgetBytes({}) / --memory-budget-mb {}",
          b.bufferSize,
          String.format(java.util.Locale.ROOT, "%,d B", memoryBudget),
          workers,
          bufferSizing,
          needed,
          (needed + (1 << 20) - 1) >> 20);
    }
    int cacheSize = decoderCacheCapacity(b, cameras.size());
    this.context = probe.sized(storeBytes, cacheSize, transforms(b, onGpu), bufferSizing);
    List<EpisodePiece> pieces = new ArrayList<>();
    for (EpisodeInfo e : metadata.episodes()) {
      pieces.add(EpisodePiece.whole(e.index(), e.length()));
    }
    this.episodes = List.copyOf(pieces);
    this.fingerprint = StreamState.fingerprint(episodes);
    this.datasetFingerprint = DatasetIdentity.of(metadata);
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
  private static Map<String, FrameSize> frameSizes(LeRobotMetadata metadata, List<String> cameras) {
    Map<String, FrameSize> sizes = new HashMap<>();
    for (String c : cameras) {
      FrameShape shape = metadata.info().features().get(c).frameShape(); // axes as names say
      sizes.put(c, new FrameSize(shape.height(), shape.width()));
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
   * Bytes a worker holds for one sample on the CPU frame device: each camera's pictures packed as
   * its files' pixel format decodes them (YUV 4:2:0 at 1.5 bytes a pixel, 10-bit twice that), at
   * the files' size, once per window position; RGB where the format is not known (and for image
   * cameras: PNG decodes to RGB).
   */
  private static long packedSampleBytes(StreamContext probe, Map<String, VideoHeader> headers) {
    long sum = 0;
    for (String camera : probe.cameras()) {
      FrameSize size = probe.fileSize(camera);
      VideoHeader header = headers.get(camera);
      int format =
          header == null
              ? -1
              : org.bytedeco.ffmpeg.global.avutil.av_get_pix_fmt(header.pixelFormat());
      // Unknown: RGB (image cameras: PNG decodes to RGB24), a depth map 16 bits a pixel.
      long bytes =
          format < 0
              ? (probe.samples(camera).channels() == 1 ? 2L : 3L) * size.height() * size.width()
              : org.robostream.codec.PicturePacker.packedBytes(size.width(), size.height(), format);
      sum += probe.positions(camera) * bytes;
    }
    return sum;
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
    if (s.datasetFingerprint() != 0 && s.datasetFingerprint() != datasetFingerprint) {
      throw new IllegalArgumentException(
          "the state was saved for another dataset: its episodes have the same lengths, but its"
              + " tasks, statistics, frame rate or robot differ from this one's");
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

  /** What the kept episodes' timestamp columns say. */
  TimestampReport timestamps() {
    return timestamps;
  }

  /** Which frame each row gets; local videos were checked against it when the dataset opened. */
  FramePlacement placement() {
    return placement;
  }

  /** The frame tables of the videos scanned when the dataset opened, for the workers' decoders. */
  FrameTables frameTables() {
    return frameTables;
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

  /** Each worker's shuffle buffer and decode runs, sized to the budget. */
  ShuffleBufferSizing bufferSizing() {
    return bufferSizing;
  }

  /** Samples each worker's reservoir holds in a new segment: the requested size or fewer. */
  int shuffleBufferSize() {
    return params.shuffle() ? bufferSizing.bufferSize() : params.bufferSize();
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

  /** Identifies the dataset in a saved state ({@link DatasetIdentity}). */
  long datasetFingerprint() {
    return datasetFingerprint;
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
