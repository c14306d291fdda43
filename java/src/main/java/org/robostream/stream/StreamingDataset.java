package org.robostream.stream;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.OptionalInt;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.robostream.arrow.BatchMemoryPool;
import org.robostream.arrow.FixedShapeTensorType;
import org.robostream.dataset.DatasetException;
import org.robostream.dataset.DatasetSource;
import org.robostream.dataset.EpisodeInfo;
import org.robostream.dataset.LeRobotMetadata;
import org.robostream.dataset.SourceOptions;
import org.robostream.dataset.SymlinkPolicy;
import org.robostream.source.VideoSources;
import org.robostream.video.DecodeDeviceSpec;
import org.robostream.video.DecoderCache;
import org.robostream.video.DecoderCacheCounters;
import org.robostream.video.DecoderCacheStats;
import org.robostream.video.Device;
import org.robostream.video.FrameLayout;
import org.robostream.video.VideoDecoderOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Streams a LeRobot dataset as Arrow {@link Batch}es: episodes sharded over (rank, worker),
 * shuffled with live episode streams and a reservoir buffer, windows with padding masks, frames
 * decoded on worker threads, and an exact resumable {@link #state()}.
 *
 * <p>Iteration: each {@link #iterator()} continues from the current position; when an epoch's
 * batches are all delivered the epoch advances, so {@code for (epoch...) for (Batch b : ds)}
 * walks epochs. Every rank yields {@link #batchesPerEpoch()} batches per epoch. An iterator
 * that was superseded (a newer iterator, {@link #setEpoch}, {@link #close()}) throws
 * {@link IllegalStateException} instead of ending quietly.
 *
 * <p>Threading: the dataset and its iterator are used from one consumer thread; decoding runs on
 * {@code workers} threads it owns. A consumer interrupted while {@code next()} waits for a batch
 * gets an {@link IllegalStateException} caused by the {@link InterruptedException}, its interrupt
 * flag set again; {@link #close()} still stops the workers. Ownership: batches belong to the
 * consumer, who closes each (also after the dataset is closed: they stay valid until then);
 * {@link #close()} stops the workers and frees everything else — at once, or, for a worker that
 * does not stop within 10 s (held in native code, such as a wait for an NVDEC session), when
 * that worker ends ({@link SharedResources}).
 */
public final class StreamingDataset implements Iterable<Batch>, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(StreamingDataset.class);

  private final LeRobotMetadata metadata;
  private final PlanParameters params;
  private final RankWorld rankWorld;
  private final int workers;
  private final StreamContext ctx;
  private final List<EpisodePiece> episodes;
  private final long fingerprint;
  private final BufferAllocator allocator = new RootAllocator();
  // The pools, stores and allocator, freed when neither this dataset nor a worker needs them.
  private final SharedResources shared = new SharedResources();
  private final DecoderCacheCounters cacheCounters = new DecoderCacheCounters();
  private final StreamCounters counters = new StreamCounters();
  private final long memoryBudget;
  private final DecodeDeviceSpec.Resolution deviceResolution;
  private final VideoSources videos;
  private final int wholeDeviceFallbacks; // files on the CPU because the GPU is unusable
  private final java.util.Set<String> perFileFallbacks = ConcurrentHashMap.newKeySet();
  private final BatchMemoryPool batchPool; // every batch's frames: the decoding GPU's, or the host's
  private final BatchMemoryPool hostPool; // host copies of GPU frames; batchPool on the host
  private final BatchMemoryPool heldPool; // the device path's held frames (the batch pool)
  // Frame bytes of the batches not closed yet (frames are pooled native memory, not the
  // allocator's); each batch adds its own and takes them off when it closes.
  private final java.util.concurrent.atomic.AtomicLong openFrameBytes =
      new java.util.concurrent.atomic.AtomicLong();
  private final List<FrameMemory> stores = new ArrayList<>(); // one per worker index
  private final java.util.concurrent.ConcurrentHashMap<String, org.robostream.video.FrameTable>
      frameTables = new java.util.concurrent.ConcurrentHashMap<>();

  private long epoch;
  private List<StreamState.Segment> segments = List.of();
  private Run run;
  private boolean closed;

  private StreamingDataset(Builder b) {
    DatasetSource source = b.openSource();
    this.metadata = source.metadata();
    metadata.checkDataFiles(); // every disagreement with the data rows before the first batch
    this.videos = b.videos != null ? b.videos : source.videos();
    this.params = new PlanParameters(b.seed, b.shuffle, b.bufferSize, b.maxNumShards,
        b.batchSize, b.dropLast, b.rankBalance);
    this.rankWorld = b.rankWorld();
    this.workers = b.workers;
    // Decided before any worker starts: `cuda` without a usable GPU fails here, naming the
    // cause; `cuda-or-cpu` decodes on the CPU and says why, once.
    this.deviceResolution = b.device.resolve();
    if (deviceResolution.fellBack()) {
      LOG.warn("decodeDevice {}: decoding on the CPU instead: {}", b.device,
          deviceResolution.fallbackReason());
    }
    this.wholeDeviceFallbacks = deviceResolution.fellBack() ? metadata.videoFiles().size() : 0;
    boolean onGpu = deviceResolution.effective() == Device.CUDA;
    VideoDecoderOptions decoderOptions = VideoDecoderOptions.defaults()
        .withTolerance(b.toleranceSeconds).withCudaDevice(onGpu ? b.device.index() : -1);
    if (workers < 1) {
      throw new IllegalArgumentException("workers must be >= 1");
    }
    Windows windows = b.preset != null ? Windows.preset(b.preset, metadata.info())
        : Windows.fromDeltaTimestamps(b.deltaTimestamps, metadata.info());
    List<String> cameras = metadata.info().videoKeys();
    Map<String, StreamContext.FrameSize> frameSizes = new java.util.HashMap<>();
    int height = 0;
    int width = 0;
    for (String c : cameras) {
      int[] shape = metadata.info().features().get(c).shape(); // [H, W, C], checked by info
      if (height != 0 && (height != shape[0] || width != shape[1])) {
        throw new DatasetException.Unsupported(metadata.root().resolve("meta/info.json")
            .toString(), "cameras of different sizes are not supported yet (" + c + " is "
            + shape[1] + "x" + shape[0] + ", " + cameras.get(0) + " " + width + "x" + height
            + ")");
      }
      height = shape[0];
      width = shape[1];
      frameSizes.put(c, new StreamContext.FrameSize(height, width));
    }
    this.memoryBudget = b.memoryBudgetBytes;
    int prefetch = 2;
    StreamContext probe = new StreamContext(metadata, windows, cameras, b.returnUint8, b.layout,
        deviceResolution.effective(), decoderOptions, 1, prefetch, 1, frameSizes);
    long sampleBytes = Math.max(1, probe.sampleFrameBytes()); // RGB; held packed (YUV) is less
    long batchBytes = sampleBytes * b.batchSize * (b.returnUint8 ? 1 : 4);
    // Per worker: prefetched batches, then packed pictures waiting in the shuffle buffer.
    long perWorker = memoryBudget / workers - prefetch * batchBytes;
    if (perWorker < sampleBytes) {
      throw new IllegalArgumentException("memoryBudgetBytes (" + memoryBudget + " bytes) is too"
          + " small for " + workers + " workers x " + prefetch + " prefetched batches of "
          + batchBytes + " bytes; raise memoryBudgetBytes or lower batchSize or the workers");
    }
    int cacheSize = decoderCacheCapacity(b, cameras.size());
    this.ctx = new StreamContext(metadata, windows, cameras, b.returnUint8, b.layout,
        deviceResolution.effective(),
        decoderOptions, perWorker, prefetch, cacheSize, frameSizes);
    List<EpisodePiece> pieces = new ArrayList<>();
    for (EpisodeInfo e : metadata.episodes()) {
      pieces.add(EpisodePiece.whole(e.index(), e.length()));
    }
    this.episodes = List.copyOf(pieces);
    this.fingerprint = StreamState.fingerprint(episodes);
    if (b.resumeState != null) {
      restore(StreamState.fromJson(b.resumeState));
    } else {
      this.epoch = b.epoch;
    }
    // Native pools last, once nothing else can fail. Closed in the reverse order: the stores
    // (which return blocks to the held pool) before the pools, the allocator last.
    shared.add(this::closeAllocator);
    this.hostPool = shared.add(BatchMemoryPool.host());
    this.batchPool = onGpu ? shared.add(BatchMemoryPool.cuda(b.device.index())) : hostPool;
    this.heldPool = onGpu || b.deviceBatches ? batchPool : null;
    for (int w = 0; w < workers; w++) {
      stores.add(newFrameMemory());
    }
    FixedShapeTensorType.register();
  }

  /**
   * A builder over the dataset {@code location} names (opened by {@link Builder#build()}): a
   * local folder, {@code hf://datasets/OWNER/NAME[@REVISION]} or {@code OWNER/NAME[@REVISION]}
   * on the Hub (see {@link DatasetSource#open}); for a Hub dataset, {@link Builder#dataFilesRoot}
   * may name a bucket ({@code hf://buckets/OWNER/NAME}) holding its data/ and videos/.
   */
  public static Builder builder(String location) {
    return new Builder(options -> DatasetSource.open(location, options), false);
  }

  /** A builder over the local dataset at {@code root}, whatever its name looks like. */
  public static Builder builder(Path root) {
    return new Builder(options -> DatasetSource.local(root, options), false);
  }

  /**
   * A builder over a dataset already opened (its metadata read, a Hub dataset's files
   * mirrored): its episodes, data-files root and link policy were fixed when it was opened.
   */
  public static Builder builder(DatasetSource source) {
    return new Builder(options -> source, true);
  }

  private void restore(StreamState s) {
    if (s.episodesFingerprint() != fingerprint) {
      throw new IllegalArgumentException("the state was saved for another dataset view"
          + " (different episodes or lengths)");
    }
    if (!s.params().equals(params)) {
      throw new IllegalArgumentException("the state was saved with " + s.params()
          + " but this stream has " + params);
    }
    this.epoch = s.epoch();
    this.segments = s.segments();
  }

  public LeRobotMetadata metadata() {
    return metadata;
  }

  public RankWorld rankWorld() {
    return rankWorld;
  }

  public long epoch() {
    return epoch;
  }

  /**
   * Moves to the start of {@code epoch}; a running iterator is stopped (using it afterwards is
   * an {@link IllegalStateException}).
   */
  public void setEpoch(long epoch) {
    stopRun("setEpoch(" + epoch + ") moved the dataset");
    this.epoch = epoch;
    this.segments = List.of();
  }

  /** Batches this rank yields in the current epoch (all of it, consumed or not). */
  public int batchesPerEpoch() {
    return position().plan().batchesPerRank();
  }

  private ResumePlanner.Position position() {
    return ResumePlanner.resolve(episodes, params, epoch, segments, rankWorld.world(), workers);
  }

  /**
   * The position as small JSON: which batches of this epoch every rank has consumed. Resume with
   * {@link Builder#resumeFrom}; all ranks of one checkpoint return the same state.
   */
  public String state() {
    List<StreamState.Segment> s = new ArrayList<>(segments);
    if (run != null) {
      s = new ArrayList<>(run.position.prior());
      s.add(new StreamState.Segment(rankWorld.world(), workers, run.next));
    }
    return new StreamState(epoch, s, params, fingerprint).toJson();
  }

  /**
   * Open decoders each worker keeps: the builder's {@code decoderCacheSize}, else the
   * environment's {@link DecoderCache#ENV} / {@link DecoderCache#LEROBOT_ENV} (checked here, so a
   * bad value fails the build naming the variable), else enough for every live stream's cameras
   * plus one episode's worth ((max_num_shards + 1) x cameras + cameras).
   */
  private static int decoderCacheCapacity(Builder b, int cameras) {
    int perEpisode = Math.max(1, cameras);
    return b.decoderCacheSize.isPresent()
        ? DecoderCache.parseCapacity(Integer.toString(b.decoderCacheSize.getAsInt()),
            "decoderCacheSize")
        : DecoderCache.configuredCapacity(b.environment)
            .orElse((b.maxNumShards + 1) * perEpisode + perEpisode);
  }

  /** Decoder-cache counters summed over every worker. */
  public DecoderCacheStats decoderCacheStats() {
    return cacheCounters.snapshot();
  }

  /** Where frames decode, and why on the CPU when a GPU was asked for. */
  public DecodeDeviceSpec.Resolution decodeDevice() {
    return deviceResolution;
  }

  /**
   * Video files decoded on the CPU although GPU decoding was requested: every file when the GPU
   * is unusable ({@code cuda-or-cpu}), else the files opened so far that NVDEC cannot decode
   * (each also logged once by its decoder).
   */
  public int cpuFallbacks() {
    return wholeDeviceFallbacks + perFileFallbacks.size();
  }

  /**
   * Whether frames take the device path: held as RGB in pooled memory of the batch device until
   * their batch is built (always when decoding on a GPU; on the CPU with
   * {@link Builder#deviceBatches}); else they are held packed on the host.
   */
  public boolean deviceBatches() {
    return heldPool != null;
  }

  /** Where frames wait between decoding and their batch: packed on the host, or the pool's. */
  private FrameMemory newFrameMemory() {
    return shared.add(heldPool == null ? new FrameStore(ctx.storeBytes())
        : new PoolFrameMemory(heldPool, ctx.storeBytes()));
  }

  private FramePath newFramePath() {
    BatchMaker maker = new BatchMaker(ctx, allocator, batchPool, hostPool, openFrameBytes);
    return heldPool == null ? new HostFramePath(maker, batchPool)
        : new DeviceFramePath(ctx, maker, heldPool);
  }

  /** Decode and delivery counters summed over every worker. */
  public StreamCounters.Snapshot stats() {
    return counters.snapshot();
  }

  /**
   * Bytes of batches created and not closed yet (including prefetched ones, and what consumers
   * of an export have not released): table columns and frames, also after {@link #close()}.
   * While a batch is open, host frames it shared through {@link Batch#exportTo} count twice.
   */
  public long outstandingBatchBytes() {
    return allocator.getAllocatedMemory() + openFrameBytes.get();
  }

  /** The memory budget for decoded frames held by the workers, in bytes. */
  public long memoryBudgetBytes() {
    return memoryBudget;
  }

  /**
   * The rest of the current epoch, from the dataset's position. The iterator it replaces, if
   * any, is stopped where it was: its {@code hasNext()} and {@code next()} then throw
   * {@link IllegalStateException} (as after {@link #setEpoch}, {@link #close()} or a failed
   * {@code next()}) rather than look like the end of an epoch. An iterator whose epoch ended
   * returns false.
   */
  @Override
  public Iterator<Batch> iterator() {
    if (closed) {
      throw new IllegalStateException("stream is closed");
    }
    stopRun("a newer iterator of this dataset took over");
    run = new Run(position());
    return run;
  }

  /** Stops the running iterator where it is, remembering its position and why it stopped. */
  private void stopRun(String why) {
    if (run != null) {
      Run r = run;
      segments = new ArrayList<>(r.position.prior());
      segments.add(new StreamState.Segment(rankWorld.world(), workers, r.next));
      r.stoppedBecause = why;
      r.stop();
      run = null;
    }
  }

  /**
   * Opens a decoder, reusing a frame table that any worker built for the file: every live
   * stream of a shared v3.0 file has its own decoder, but the file's packets are scanned once.
   */
  private org.robostream.video.VideoDecoder openSharingTables(String file,
      org.robostream.video.VideoDecoder sibling) {
    org.robostream.video.FrameTable known = frameTables.get(file);
    org.robostream.video.VideoDecoder d = known != null
        ? org.robostream.video.VideoDecoder.open(videos.open(Path.of(file)),
            ctx.decoderOptions(), known)
        : org.robostream.video.VideoDecoder.open(videos.open(Path.of(file)),
            ctx.decoderOptions(), sibling);
    frameTables.putIfAbsent(file, d.frameTable());
    if (d.cpuFallbackReason() != null) {
      perFileFallbacks.add(file);
    }
    return d;
  }

  /** One pass over the rest of the current epoch. */
  private final class Run implements Iterator<Batch> {
    final ResumePlanner.Position position;
    final RankSchedule schedule;
    final List<BlockingQueue<StreamWorker.Output>> queues = new ArrayList<>();
    final List<StreamWorker> tasks = new ArrayList<>();
    final List<Thread> threads = new ArrayList<>();
    volatile boolean stopped;
    String stoppedBecause; // why the dataset stopped this iterator before its epoch ended
    int next;

    Run(ResumePlanner.Position position) {
      this.position = position;
      this.schedule = position.plan().schedule(rankWorld.rank());
      this.next = position.consumedBatches();
      for (int w = 0; w < workers; w++) {
        BlockingQueue<StreamWorker.Output> q = new ArrayBlockingQueue<>(ctx.prefetch() + 1);
        queues.add(q);
        DecoderCache cache = new DecoderCache(OptionalInt.of(ctx.decoderCacheSize()),
            (file, device, sibling) -> openSharingTables(file, sibling), cacheCounters);
        StreamWorker task = new StreamWorker(ctx, position.plan(), schedule, rankWorld.rank(), w,
            next, epoch, q, allocator, cache, counters, StreamingDataset.this::newFramePath,
            stores.get(w));
        tasks.add(task);
        Thread t = new Thread(() -> runAndLetGo(task, q),
            "robostream-worker-" + rankWorld.rank() + "-" + w);
        t.setDaemon(true);
        threads.add(t);
      }
      if (next < schedule.size()) {
        for (Thread t : threads) {
          shared.hold();
          t.start();
        }
      }
    }

    /**
     * Runs one worker thread; when it ends, closes what it queued after its run was stopped
     * (nobody will take it) and lets go of the shared resources it used.
     */
    private void runAndLetGo(StreamWorker task, BlockingQueue<StreamWorker.Output> queue) {
      try {
        task.run();
      } finally {
        if (stopped) {
          closeQueued(queue);
        }
        shared.letGo();
      }
    }

    @Override
    public boolean hasNext() {
      if (stoppedBecause != null) {
        throw new IllegalStateException("this iterator was stopped at batch " + next + " of "
            + schedule.size() + ": " + stoppedBecause + "; iterate again (for (Batch b : ds))"
            + " to continue from the dataset's position");
      }
      if (run != this) {
        return false; // its epoch ended
      }
      if (next >= schedule.size()) {
        finishEpoch();
        return false;
      }
      return true;
    }

    @Override
    public Batch next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      int w = schedule.batches().get(next).worker();
      StreamWorker.Output out;
      try {
        out = queues.get(w).take();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for a batch", e);
      }
      if (out instanceof StreamWorker.Failed f) {
        stopRun("its next() failed: " + f.error());
        throw f.error();
      }
      if (!(out instanceof StreamWorker.Built built) || built.position() != next) {
        stopRun("its next() failed: worker " + w + " delivered " + out + " for batch " + next);
        throw new IllegalStateException("worker " + w + " delivered " + out + " for batch "
            + next);
      }
      next++;
      return built.batch();
    }

    private void finishEpoch() {
      stop();
      run = null;
      epoch++;
      segments = List.of();
    }

    void stop() {
      stopped = true;
      tasks.forEach(StreamWorker::stop);
      threads.forEach(Thread::interrupt);
      for (int w = 0; w < threads.size(); w++) {
        Thread t = threads.get(w);
        try {
          t.join(10_000);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        if (t.isAlive()) {
          // Never share a store with a thread that may still run: give the index a new one.
          // The old one stays open (with the pools) until that thread ends: SharedResources.
          LOG.warn("worker {} did not stop within 10 s (held in native code?); it keeps its"
              + " frame store and the pools until it ends", w);
          stores.set(w, newFrameMemory());
        }
      }
      queues.forEach(Run::closeQueued);
    }

    private static void closeQueued(BlockingQueue<StreamWorker.Output> queue) {
      for (StreamWorker.Output o = queue.poll(); o != null; o = queue.poll()) {
        if (o instanceof StreamWorker.Built b) {
          b.batch().close();
        }
      }
    }
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    stopRun("the dataset was closed");
    closed = true;
    shared.letGo(); // exported batches keep the native pools alive until released
  }

  private void closeAllocator() {
    if (allocator.getAllocatedMemory() == 0) {
      allocator.close();
    } else {
      LOG.warn("{} bytes of batches are still open; they stay valid until closed",
          allocator.getAllocatedMemory());
    }
  }

  /** Configures a {@link StreamingDataset}; defaults are the reference's. Not thread-safe. */
  public static final class Builder {
    private final Function<SourceOptions, DatasetSource> opener;
    private final boolean opened;
    private String dataFilesRoot;
    private SymlinkPolicy symlinks = SymlinkPolicy.CONFINED;
    private Map<String, double[]> deltaTimestamps = Map.of();
    private Windows.Preset preset;
    private double toleranceSeconds = 1e-4;
    private int bufferSize = 1000;
    private int maxNumShards = 16;
    private long seed = 42;
    private boolean shuffle = true;
    private boolean returnUint8;
    private FrameLayout layout = FrameLayout.CHW;
    private OptionalInt rank = OptionalInt.empty();
    private OptionalInt world = OptionalInt.empty();
    private int workers = 1;
    private int batchSize = 1;
    private boolean dropLast;
    private PlanParameters.RankBalance rankBalance = PlanParameters.RankBalance.PAD;
    private DecodeDeviceSpec device = DecodeDeviceSpec.CPU;
    private OptionalInt decoderCacheSize = OptionalInt.empty();
    private Map<String, String> environment = System.getenv();
    private Collection<Integer> episodes;
    private long memoryBudgetBytes = 1L << 30;
    private boolean deviceBatches;
    private String resumeState;
    private long epoch;
    private VideoSources videos;

    private Builder(Function<SourceOptions, DatasetSource> opener, boolean opened) {
      this.opener = opener;
      this.opened = opened;
    }

    /** Second root for data/ and videos/ (metadata still from the first). */
    public Builder dataFilesRoot(Path p) {
      return dataFilesRoot(p.toString());
    }

    /**
     * Where data/ and videos/ are: a local folder for a local dataset; for a Hub dataset
     * {@code hf://buckets/OWNER/NAME[/PATH]} or another {@code hf://datasets/...} (metadata
     * still from the dataset's own location).
     */
    public Builder dataFilesRoot(String location) {
      this.dataFilesRoot = location;
      return this;
    }

    /**
     * Whether the dataset's files may resolve, through symbolic links, outside its roots
     * (default {@link SymlinkPolicy#CONFINED}; a Hub dataset's mirror holds no links).
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
     * {@code LEROBOT_VIDEO_DECODER_CACHE_SIZE}) when set, else a size for every live stream.
     * {@code -1} is unbounded.
     */
    public Builder decoderCacheSize(int n) {
      this.decoderCacheSize = OptionalInt.of(n);
      return this;
    }

    /**
     * The variables rank/world, the decoder-cache size and a Hub dataset's settings
     * ({@code HF_ENDPOINT}, {@code HF_TOKEN}, ...) are read from (default: this process's
     * environment); for tests and for embedding several configurations in one process.
     */
    public Builder environment(Map<String, String> env) {
      this.environment = Map.copyOf(env);
      return this;
    }

    public Builder episodes(Collection<Integer> e) {
      this.episodes = List.copyOf(e);
      return this;
    }

    /**
     * Frames take the device path even when decoding on the CPU: converted to RGB when decoded
     * and held in a host pool, then copied into the batch, as NVDEC's frames are on a GPU (where
     * this path is always taken). The batches are the same either way (device_type CPU); this
     * runs the GPU path's logic on machines without a GPU.
     */
    public Builder deviceBatches(boolean d) {
      this.deviceBatches = d;
      return this;
    }

    /**
     * Bytes of decoded frames the workers may hold (default 1 GiB): packed pictures in host
     * memory, or RGB frames in the batch device's memory for device batches.
     */
    public Builder memoryBudgetBytes(long b) {
      this.memoryBudgetBytes = b;
      return this;
    }

    /** Continue from a {@link StreamingDataset#state()}. */
    public Builder resumeFrom(String stateJson) {
      this.resumeState = stateJson;
      return this;
    }

    /** Start at {@code e} (ignored when resuming). */
    public Builder epoch(long e) {
      this.epoch = e;
      return this;
    }

    /**
     * Where the video bytes come from (default: the dataset source's). For tests that need
     * control over reads, e.g. a read that holds a worker as native code would.
     */
    Builder videoSources(VideoSources sources) {
      this.videos = sources;
      return this;
    }

    public StreamingDataset build() {
      return new StreamingDataset(this);
    }

    /**
     * The rank and world size the dataset will stream as: {@link #rank(int, int)} when given,
     * else the environment's ({@link RankWorld#resolve}). For finding this rank's part of a
     * checkpoint before {@link #build()}.
     */
    public RankWorld rankWorld() {
      return RankWorld.resolve(rank, world, environment);
    }

    /** The dataset this builder streams, opened with its options. */
    private DatasetSource openSource() {
      if (opened && (dataFilesRoot != null || episodes != null
          || symlinks != SymlinkPolicy.CONFINED)) {
        throw new IllegalArgumentException("episodes, dataFilesRoot and symlinks of a dataset"
            + " given to builder(DatasetSource) were fixed when it was opened (SourceOptions)");
      }
      SourceOptions options = SourceOptions.defaults().withDataFilesRoot(dataFilesRoot)
          .withSymlinks(symlinks).withEnvironment(environment);
      return opener.apply(episodes == null ? options : options.withEpisodes(episodes));
    }
  }
}
