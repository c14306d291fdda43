package org.robostream.stream;

import java.nio.file.Path;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.function.Function;
import org.robostream.arrow.FixedShapeTensorType;
import org.robostream.arrow.FrameColumn;
import org.robostream.dataset.DatasetSource;
import org.robostream.dataset.EpisodeRanges;
import org.robostream.dataset.LeRobotMetadata;
import org.robostream.dataset.SourceOptions;
import org.robostream.dataset.SymlinkPolicy;
import org.robostream.dataset.TimestampReport;
import org.robostream.dataset.TimestampRule;
import org.robostream.framecache.FrameCache;
import org.robostream.framecache.FrameCacheOptions;
import org.robostream.framecache.FrameCacheStats;
import org.robostream.frames.FrameSize;
import org.robostream.source.VideoSources;
import org.robostream.transform.ImageTransform;
import org.robostream.transform.ImageTransformsConfig;
import org.robostream.video.DecodeDeviceSpec;
import org.robostream.video.DecoderCacheStats;
import org.robostream.video.Device;
import org.robostream.video.FrameLayout;

/**
 * Streams a LeRobot dataset as Arrow {@link Batch}es: episodes sharded over (rank, worker),
 * shuffled, windowed, decoded on worker threads, with an exact resumable {@link #state()}. Each
 * {@link #iterator()} continues from the current position; an epoch ends after {@link
 * #batchesPerEpoch()} batches. A superseded iterator ({@link #setEpoch}, {@link #close()}, a newer
 * one) throws {@link IllegalStateException}, so it is never taken for the epoch's end.
 *
 * <p>Threading: one consumer thread; the dataset owns its {@code workers} threads. An interrupted
 * {@code next()} throws {@link IllegalStateException} caused by the {@link InterruptedException},
 * flag restored. The consumer closes each batch (valid after the dataset closes); {@link #close()}
 * frees the rest, later for a worker stuck in native code ({@link StreamMemory}).
 */
public final class StreamingDataset implements Iterable<Batch>, AutoCloseable {
  private final StreamConfig config;
  private final StreamDecoders decoders;
  private final StreamCounters counters;
  private final StreamMemory memory;
  private final EpochRun.Owner runOwner =
      new EpochRun.Owner() {
        @Override
        public void epochEnded() {
          run = null;
          epoch++;
          segments = List.of();
        }

        @Override
        public void stopRun(String why) {
          StreamingDataset.this.stopRun(why);
        }
      };

  private long epoch;
  private List<StreamState.Segment> segments;
  private EpochRun run;
  private boolean closed;

  private StreamingDataset(Builder b) {
    this.config = StreamConfig.resolve(b);
    this.counters = new StreamCounters(config.timestamps());
    this.epoch = config.startEpoch();
    this.segments = config.startSegments();
    if (!segments.isEmpty()) {
      position(); // a resumed state's segments are checked against its plans now, not at iterate
    }
    this.decoders = new StreamDecoders(config);
    this.memory = new StreamMemory(config); // native pools last, once nothing else can fail
    FixedShapeTensorType.register();
  }

  /**
   * A builder over the dataset {@code location} names (opened by {@link Builder#build()}): a local
   * folder, {@code hf://datasets/OWNER/NAME[@REVISION]} or {@code OWNER/NAME[@REVISION]} on the Hub
   * (see {@link DatasetSource#open}); for a Hub dataset, {@link Builder#dataFilesRoot} may name a
   * bucket ({@code hf://buckets/OWNER/NAME}) holding its data/ and videos/.
   */
  public static Builder builder(String location) {
    return new Builder(options -> DatasetSource.open(location, options), false);
  }

  /** A builder over the local dataset at {@code root}, whatever its name looks like. */
  public static Builder builder(Path root) {
    return new Builder(options -> DatasetSource.local(root, options), false);
  }

  /**
   * A builder over a dataset already opened (its metadata read, a Hub dataset's files mirrored):
   * its episodes, cameras, data-files root and link policy were fixed when it was opened.
   */
  public static Builder builder(DatasetSource source) {
    return new Builder(options -> source, true);
  }

  public LeRobotMetadata metadata() {
    return config.metadata();
  }

  public RankWorld rankWorld() {
    return config.rankWorld();
  }

  /**
   * What every batch's frame column of {@code camera} holds per row (window positions, size after
   * any resize, layout, element type, channels), known before the first batch: for sizing a model.
   *
   * @throws IllegalArgumentException for a camera this dataset does not stream, naming those it
   *     does
   */
  public FrameColumn frameColumn(String camera) {
    if (!config.context().cameras().contains(camera)) {
      throw new IllegalArgumentException(
          camera + " is not a camera of this dataset; cameras: " + config.context().cameras());
    }
    return config.context().frameColumn(camera);
  }

  public long epoch() {
    return epoch;
  }

  /**
   * Moves to the start of {@code epoch}; a running iterator is stopped (using it afterwards is an
   * {@link IllegalStateException}).
   *
   * @throws IllegalArgumentException when {@code epoch} is outside 0..{@link StreamState#MAX_EPOCH}
   */
  public void setEpoch(long epoch) {
    StreamState.checkEpoch(epoch);
    stopRun("setEpoch(" + epoch + ") moved the dataset");
    this.epoch = epoch;
    this.segments = List.of();
  }

  /** Batches this rank yields in the current epoch (all of it, consumed or not). */
  public int batchesPerEpoch() {
    return position().plan().batchesPerRank();
  }

  private ResumePlanner.Position position() {
    return ResumePlanner.resolve(
        config.episodes(),
        config.params(),
        epoch,
        segments,
        config.rankWorld().world(),
        config.workers(),
        config.shuffleBufferSize());
  }

  /**
   * The position as small JSON: which batches of this epoch every rank has consumed. Resume with
   * {@link Builder#resumeFrom}; all ranks of one checkpoint return the same state.
   */
  public String state() {
    List<StreamState.Segment> s = run != null ? run.segments() : segments;
    return new StreamState(
            epoch, s, config.params(), config.fingerprint(), config.datasetFingerprint())
        .toJson();
  }

  /** Decoder-cache counters summed over every worker. */
  public DecoderCacheStats decoderCacheStats() {
    return decoders.cacheStats();
  }

  /** Where frames decode, and why on the CPU when a GPU was asked for. */
  public DecodeDeviceSpec.Resolution decodeDevice() {
    return config.deviceResolution();
  }

  /**
   * Video files decoded on the CPU although GPU decoding was requested: every file when the GPU is
   * unusable ({@code cuda-or-cpu}), else the files opened so far that NVDEC cannot decode (each
   * also logged once by its decoder).
   */
  public int cpuFallbacks() {
    return decoders.cpuFallbacks();
  }

  /**
   * Whether frames are held by the CUDA frame device: as RGB in pooled memory of the batch device
   * until their batch is built (always when decoding on a GPU; on the CPU with {@link
   * Builder#deviceBatches}); else they are held packed on the host.
   */
  public boolean deviceBatches() {
    return config.deviceBatches();
  }

  /**
   * Decode and delivery counters summed over every worker, with what the timestamps said when the
   * dataset was opened ({@link StreamCounters.Snapshot#timestamps()}).
   */
  public StreamCounters.Snapshot stats() {
    return counters.snapshot();
  }

  /** What the kept episodes' timestamp columns say, read when the dataset was built. */
  public TimestampReport timestamps() {
    return config.timestamps();
  }

  /** What the frame cache did in this process ({@link FrameCacheStats#NONE} without one). */
  public FrameCacheStats frameCacheStats() {
    FrameCache cache = memory.frameCache();
    return cache == null ? FrameCacheStats.NONE : cache.stats();
  }

  /**
   * Bytes of batches created and not closed yet (including prefetched ones, and what consumers of
   * an export have not released): table columns and frames, also after {@link #close()}. While a
   * batch is open, host frames it shared through {@link Batch#exportTo} count twice.
   */
  public long outstandingBatchBytes() {
    return memory.outstandingBatchBytes();
  }

  /**
   * The memory budget of the workers in bytes (prefetched batches and held frames): the builder's,
   * or the default resolved for this dataset.
   */
  public long memoryBudgetBytes() {
    return config.memoryBudget();
  }

  /**
   * Samples each worker's shuffle buffer holds: the builder's {@code bufferSize}, or fewer when
   * their frames would not fit the memory budget (said once, when built).
   */
  public int shuffleBufferSize() {
    return config.shuffleBufferSize();
  }

  /**
   * The rest of the current epoch, from the dataset's position. The iterator it replaces, if any,
   * is stopped where it was: its {@code hasNext()} and {@code next()} then throw {@link
   * IllegalStateException} (as after {@link #setEpoch}, {@link #close()} or a failed {@code
   * next()}) rather than look like the end of an epoch. An iterator whose epoch ended returns
   * false.
   */
  @Override
  public Iterator<Batch> iterator() {
    if (closed) {
      throw new IllegalStateException("stream is closed");
    }
    stopRun("a newer iterator of this dataset took over");
    run = new EpochRun(config, position(), epoch, memory, decoders, counters, runOwner);
    return run;
  }

  /**
   * Stops the running iterator, if any, where it is: its decoding threads end, and the dataset
   * keeps the position of the batches it handed out ({@link #state()} and the next {@link
   * #iterator()} continue from there). For consumers that drop an iterator before its epoch ends,
   * such as a Python generator that is garbage-collected; using that iterator afterwards is an
   * {@link IllegalStateException}.
   */
  public void stopIterating() {
    stopRun("stopIterating() stopped it");
  }

  /** Stops the running iterator where it is, remembering its position and why it stopped. */
  private void stopRun(String why) {
    if (run != null) {
      EpochRun r = run;
      segments = r.segments();
      r.stop(why);
      run = null;
    }
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    stopRun("the dataset was closed");
    closed = true;
    memory.letGo(); // exported batches keep the native pools alive until released
  }

  /** Configures a {@link StreamingDataset}; defaults are the reference's. Not thread-safe. */
  public static final class Builder {
    // Package-private: StreamConfig reads them when the dataset is built.
    final Function<SourceOptions, DatasetSource> opener;
    final boolean opened;
    String dataFilesRoot;
    SymlinkPolicy symlinks = SymlinkPolicy.CONFINED;
    Map<String, double[]> deltaTimestamps = Map.of();
    Windows.Preset preset;
    double toleranceSeconds = 1e-4;
    TimestampRule timestampRule = TimestampRule.POSITION;
    int bufferSize = 1000;
    int maxNumShards = 16;
    long seed = 42;
    boolean shuffle = true;
    boolean returnUint8;
    FrameLayout layout = FrameLayout.CHW;
    OptionalInt rank = OptionalInt.empty();
    OptionalInt world = OptionalInt.empty();
    int workers = 1;
    int batchSize = 1;
    boolean dropLast;
    PlanParameters.RankBalance rankBalance = PlanParameters.RankBalance.PAD;
    DecodeDeviceSpec device = DecodeDeviceSpec.CPU;
    OptionalInt decoderCacheSize = OptionalInt.empty();
    Map<String, String> environment = System.getenv();
    Collection<Integer> episodes;
    List<String> cameras;
    long memoryBudgetBytes = -1; // auto: the prefetched batches + 2 GiB of held frames
    boolean deviceBatches;
    FrameCacheOptions frameCache;
    ImageTransformsConfig imageTransforms;
    ImageTransform imageTransform;
    FrameSize resizeAll;
    final Map<String, FrameSize> resizeCameras = new LinkedHashMap<>();
    String resumeState;
    long epoch;
    VideoSources videos;

    private Builder(Function<SourceOptions, DatasetSource> opener, boolean opened) {
      this.opener = opener;
      this.opened = opened;
    }

    /** Second root for data/ and videos/ (metadata still from the first). */
    public Builder dataFilesRoot(Path p) {
      return dataFilesRoot(p.toString());
    }

    /**
     * Where data/ and videos/ are: a local folder for a local dataset; for a Hub dataset {@code
     * hf://buckets/OWNER/NAME[/PATH]} or another {@code hf://datasets/...} (metadata still from the
     * dataset's own location).
     */
    public Builder dataFilesRoot(String location) {
      this.dataFilesRoot = location;
      return this;
    }

    /**
     * Whether the dataset's files may resolve, through symbolic links, outside its roots (default
     * {@link SymlinkPolicy#CONFINED}; a Hub dataset's mirror holds no links).
     */
    public Builder symlinks(SymlinkPolicy policy) {
      this.symlinks = policy;
      return this;
    }

    /** Windows per key in seconds (LeRobot's delta_timestamps). */
    public Builder deltaTimestamps(Map<String, double[]> d) {
      this.deltaTimestamps = Map.copyOf(d);
      this.preset = null;
      return this;
    }

    public Builder preset(Windows.Preset p) {
      this.preset = p;
      return this;
    }

    /**
     * How far a frame may be from the time it is looked up for, in seconds (LeRobot's {@code
     * tolerance_s}; default 1e-4): frames read by time, and the rows {@link TimestampRule#STRICT}
     * and {@link TimestampRule#LEROBOT} check. Must be positive.
     */
    public Builder toleranceSeconds(double s) {
      this.toleranceSeconds = s;
      return this;
    }

    public Builder bufferSize(int n) {
      this.bufferSize = n;
      return this;
    }

    public Builder maxNumShards(int n) {
      this.maxNumShards = n;
      return this;
    }

    public Builder seed(long s) {
      this.seed = s;
      return this;
    }

    public Builder shuffle(boolean s) {
      this.shuffle = s;
      return this;
    }

    /** uint8 frames (0..255) instead of float32 in [0, 1]. */
    public Builder returnUint8(boolean u) {
      this.returnUint8 = u;
      return this;
    }

    public Builder layout(FrameLayout l) {
      this.layout = l;
      return this;
    }

    public Builder rank(int r, int worldSize) {
      this.rank = OptionalInt.of(r);
      this.world = OptionalInt.of(worldSize);
      return this;
    }

    public Builder workers(int n) {
      this.workers = n;
      return this;
    }

    public Builder batchSize(int n) {
      this.batchSize = n;
      return this;
    }

    public Builder dropLast(boolean d) {
      this.dropLast = d;
      return this;
    }

    public Builder rankBalance(PlanParameters.RankBalance b) {
      this.rankBalance = b;
      return this;
    }

    public Builder decodeDevice(Device d) {
      this.device = new DecodeDeviceSpec(d, 0, false);
      return this;
    }

    /** {@code cpu}, {@code cuda[:N]} or {@code cuda-or-cpu[:N]}; see {@link DecodeDeviceSpec}. */
    public Builder decodeDevice(DecodeDeviceSpec spec) {
      this.device = spec;
      return this;
    }

    /**
     * Open decoders kept per worker; without it, {@code ROBOSTREAM_VIDEO_DECODER_CACHE_SIZE} (or
     * {@code LEROBOT_VIDEO_DECODER_CACHE_SIZE}) when set, else a size for every live stream. {@code
     * -1} is unbounded.
     */
    public Builder decoderCacheSize(int n) {
      this.decoderCacheSize = OptionalInt.of(n);
      return this;
    }

    /**
     * The variables rank/world, the decoder-cache size and a Hub dataset's settings ({@code
     * HF_ENDPOINT}, {@code HF_TOKEN}, ...) are read from (default: this process's environment); for
     * tests and for embedding several configurations in one process.
     */
    public Builder environment(Map<String, String> env) {
      this.environment = Map.copyOf(env);
      return this;
    }

    /**
     * The episodes to stream (default: all). Opening the dataset checks that their files, and the
     * kept cameras' videos, are all there: one {@link
     * org.robostream.dataset.DatasetException.MissingFile} otherwise.
     */
    public Builder episodes(Collection<Integer> e) {
      this.episodes = List.copyOf(e);
      return this;
    }

    /** The episodes {@code ranges} names, such as {@code "0-9,12"} ({@link EpisodeRanges}). */
    public Builder episodes(String ranges) {
      return episodes(EpisodeRanges.parse(ranges));
    }

    /**
     * The cameras to decode (default: all), by feature key; the others' files are neither checked
     * nor read, and batches have no column for them.
     */
    public Builder cameras(String... keys) {
      this.cameras = List.of(keys);
      return this;
    }

    /**
     * Which frame a row gets ({@link TimestampRule}): {@link TimestampRule#POSITION}, the default,
     * shows row k frame k of its episode, with one warning where LeRobot would show other frames
     * ({@link TimestampReport#warnings()}); {@link TimestampRule#STRICT} refuses, when built, a row
     * whose timestamp is not {@code frame_index / fps} within {@link #toleranceSeconds}; {@link
     * TimestampRule#LEROBOT} shows the frame nearest each row's timestamp, as LeRobot does, and
     * refuses, when built, a row with no frame within {@link #toleranceSeconds}.
     */
    public Builder timestamps(TimestampRule rule) {
      this.timestampRule = java.util.Objects.requireNonNull(rule, "rule");
      return this;
    }

    /**
     * Frames are held by the CUDA frame device even when decoding on the CPU: converted to RGB when
     * decoded and held in a host pool, then copied into the batch, as NVDEC's frames are on a GPU
     * (where that device is always used). The batches are the same either way (device_type CPU);
     * this runs the GPU path's logic on machines without a GPU.
     */
    public Builder deviceBatches(boolean d) {
      this.deviceBatches = d;
      return this;
    }

    /**
     * Bytes the workers may hold: the batches each builds ahead of the consumer (2 a worker) and
     * the decoded frames of their shuffle buffers (packed pictures in host memory, or RGB frames in
     * the batch device's memory for device batches). Default: the prefetched batches plus 2 GiB for
     * the frames. A shuffle buffer whose frames do not fit its worker's share is made smaller, with
     * a warning naming the budget that holds it whole (decoding the rest at delivery, in random
     * order, would decode up to a GOP per sample on long-GOP video).
     */
    public Builder memoryBudgetBytes(long b) {
      if (b <= 0) {
        throw new IllegalArgumentException("memoryBudgetBytes must be > 0, got " + b);
      }
      this.memoryBudgetBytes = b;
      return this;
    }

    /**
     * Every camera's frames at {@code height} x {@code width} in the batches, scaled (bilinear)
     * inside the conversion to RGB, never as an extra pass: swscale's call on the CPU (both frame
     * devices' CPU decoders), NVDEC's colour kernel with {@code decodeDevice cuda}. Cameras given
     * their own size by {@link #resize(String, int, int)} keep it; depth cameras are never resized.
     */
    public Builder resize(int height, int width) {
      this.resizeAll = new FrameSize(height, width);
      return this;
    }

    /** {@code camera}'s frames at {@code height} x {@code width}, as {@link #resize(int, int)}. */
    public Builder resize(String camera, int height, int width) {
      resizeCameras.put(camera, new FrameSize(height, width));
      return this;
    }

    /** Continue from a {@link StreamingDataset#state()}. */
    public Builder resumeFrom(String stateJson) {
      this.resumeState = stateJson;
      return this;
    }

    /**
     * Keeps decoded frames for later epochs, and for the other processes of the node that name the
     * same folder ({@link FrameCacheOptions}): the first epoch decodes and stores, later ones read
     * (bit-identical batches). Off by default (null).
     */
    public Builder frameCache(FrameCacheOptions options) {
      this.frameCache = options;
      return this;
    }

    /**
     * The built-in image transforms every sample's frames get in the workers before batching (the
     * reference's {@code image_transforms}; {@link ImageTransformsConfig#lerobotDefaults()} is
     * LeRobot's default config), drawn per sample, camera and epoch from the seed, so resumes stay
     * exact. Off by default (null). Frames the frame cache serves are transformed too (the cache
     * keeps them as decoded); depth cameras are left alone.
     */
    public Builder imageTransforms(ImageTransformsConfig config) {
      this.imageTransforms = config;
      return this;
    }

    /**
     * A transform of one sample's frames of one camera, run in the workers after the built-in ones
     * ({@link ImageTransform}: thread-safe, its random numbers from {@link
     * org.robostream.transform.SampleFrames#random()}). Off by default (null).
     */
    public Builder imageTransform(ImageTransform transform) {
      this.imageTransform = transform;
      return this;
    }

    /** Start at epoch {@code e}, 0..{@link StreamState#MAX_EPOCH} (ignored when resuming). */
    public Builder epoch(long e) {
      this.epoch = StreamState.checkEpoch(e);
      return this;
    }

    /**
     * Where the video bytes come from (default: the dataset source's). For tests that need control
     * over reads, e.g. a read that holds a worker as native code would.
     */
    Builder videoSources(VideoSources sources) {
      this.videos = sources;
      return this;
    }

    public StreamingDataset build() {
      return new StreamingDataset(this);
    }

    /**
     * The rank and world size the dataset will stream as: {@link #rank(int, int)} when given, else
     * the environment's ({@link RankWorld#resolve}). For finding this rank's part of a checkpoint
     * before {@link #build()}.
     */
    public RankWorld rankWorld() {
      return RankWorld.resolve(rank, world, environment);
    }
  }
}
