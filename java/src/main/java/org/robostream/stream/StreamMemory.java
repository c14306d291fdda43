package org.robostream.stream;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.robostream.arrow.BatchMemoryPool;
import org.robostream.fetch.CachedFetch;
import org.robostream.fetch.VideoFacts;
import org.robostream.framecache.FrameCache;
import org.robostream.frames.FrameDevice;
import org.robostream.frames.FrameMemory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The memory of a dataset's batches and held frames: the Arrow allocator of the table columns, the
 * batch pool (host or the decoding GPU's), the host pool (host copies of GPU frames), and one
 * {@link FrameMemory} per worker index, kept across epochs. Also counts open batches' bytes.
 *
 * <p>Closed by the last of its holders ({@link SharedResources}): a worker held in native code can
 * outlive the dataset's {@code close()} and keeps writing until it returns. {@link #newFramePath},
 * {@link #allocator}, {@link #hold}, {@link #letGo} and {@link #outstandingBatchBytes} are
 * thread-safe; {@link #store} and {@link #replaceStore} belong to the consumer thread.
 */
final class StreamMemory {
  // The dataset's logger: a user configures logging by the public class.
  private static final Logger LOG = LoggerFactory.getLogger(StreamingDataset.class);

  private final StreamContext ctx;
  private final BufferAllocator allocator = new RootAllocator();
  private final SharedResources shared = new SharedResources();
  private final BatchMemoryPool batchPool;
  private final BatchMemoryPool hostPool;
  // CUDA: frames held converted in the batch pool; CPU: packed in host memory. The one place the
  // loader chooses its FrameDevice.
  private final FrameDevice.Kind frameDevice;
  // Frame bytes of the batches not closed yet (frames are pooled native memory, not the
  // allocator's); each batch adds its own and takes them off when it closes.
  private final AtomicLong openFrameBytes = new AtomicLong();
  private final List<FrameMemory> stores = new ArrayList<>(); // one per worker index
  private final FrameCache frameCache; // null: none
  private final CachedPositions cachedPositions; // null without a frame cache

  /**
   * Allocates the pools and the workers' stores. Closed in the reverse order: the stores (which
   * return blocks to the held pool) before the pools, the allocator last.
   */
  StreamMemory(StreamConfig config) {
    this.ctx = config.context();
    // First: a folder that cannot be used fails here, before any native pool exists; added first,
    // closed last.
    this.frameCache =
        config.frameCache() == null ? null : shared.add(FrameCache.open(config.frameCache()));
    this.cachedPositions = frameCache == null ? null : CachedPositions.of(config.metadata());
    shared.add(this::closeAllocator);
    this.hostPool = shared.add(BatchMemoryPool.host());
    this.batchPool = config.gpu() >= 0 ? shared.add(BatchMemoryPool.cuda(config.gpu())) : hostPool;
    this.frameDevice = FrameDevice.Kind.of(config.deviceBatches());
    for (int w = 0; w < config.workers(); w++) {
      stores.add(newFrameMemory());
    }
  }

  BufferAllocator allocator() {
    return allocator;
  }

  /** The store of worker index {@code worker}: where its decoded frames wait for their batch. */
  FrameMemory store(int worker) {
    return stores.get(worker);
  }

  /**
   * Gives worker index {@code worker} a new store, for a worker thread that did not stop: a store
   * is never shared with a thread that may still run. The old one stays open (with the pools) until
   * that thread lets go.
   */
  void replaceStore(int worker) {
    stores.set(worker, newFrameMemory());
  }

  /** Where frames wait between decoding and their batch: packed on the host, or the pool's. */
  private FrameMemory newFrameMemory() {
    return shared.add(frameDevice.memory(batchPool, ctx.storeBytes()));
  }

  /**
   * How a worker's frames get into its batches: through the CPU device (pictures held packed), or
   * the CUDA device (frames held converted in the batch pool; {@code deviceBatches}).
   */
  FramePath newFramePath() {
    return new FramePath(
        ctx, frameDevice.open(batchPool), allocator, batchPool, hostPool, openFrameBytes);
  }

  /** The dataset's frame cache, or null. */
  FrameCache frameCache() {
    return frameCache;
  }

  /**
   * A worker's way through the frame cache (it closes it), or null without one; the cache is told
   * which positions of a file the kept episodes read as the file's identity is first asked.
   */
  CachedFetch newCachedFetch(
      StreamCounters counters,
      Function<Path, String> identities,
      Function<String, VideoFacts> known) {
    return frameCache == null
        ? null
        : new CachedFetch(
            frameCache,
            counters.fetched,
            cachedPositions.tellingWhatIsRead(frameCache, identities),
            known);
  }

  /** One more holder: a worker thread about to start. */
  void hold() {
    shared.hold();
  }

  /**
   * Drops one holder (the dataset when it closes, a worker thread when it ends); the last closes
   * everything. Exported batches keep the native pools alive until they are released.
   */
  void letGo() {
    shared.letGo();
  }

  /** Bytes of batches created and not closed yet: table columns and frames. */
  long outstandingBatchBytes() {
    return allocator.getAllocatedMemory() + openFrameBytes.get();
  }

  private void closeAllocator() {
    if (allocator.getAllocatedMemory() == 0) {
      allocator.close();
    } else {
      LOG.warn(
          "{} bytes of batches are still open; they stay valid until closed",
          allocator.getAllocatedMemory());
    }
  }
}
