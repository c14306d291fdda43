package org.robostream.stream;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.function.Supplier;
import org.apache.arrow.memory.BufferAllocator;
import org.robostream.codec.DecoderCache;
import org.robostream.codec.DecoderSlot;
import org.robostream.codec.HeldFrame;
import org.robostream.dataset.DatasetException;
import org.robostream.dataset.EpisodeInfo;
import org.robostream.fetch.CachedFetch;
import org.robostream.fetch.DecodeRuns;
import org.robostream.fetch.FetchException;
import org.robostream.fetch.FrameFetcher;
import org.robostream.fetch.FramePlacement;
import org.robostream.fetch.ImageFrames;
import org.robostream.frames.FrameMemory;

/**
 * One worker thread of a rank: replays its slot's {@link SlotSampler}, decodes each sample's frames
 * when its episode stream produces it (stream order, so a decoder per live stream just moves
 * forward: decode amplification about 1) into its {@link FrameMemory} through its {@link FramePath}
 * (on the CPU or the CUDA frame device), and when the sampler delivers a batch's samples assembles
 * the batch and queues it. Samples the store has no room for, samples produced while skipping
 * already-consumed batches after a resume, and padding samples are decoded when the batch is built
 * instead. Failures travel through the queue to the consumer. Runs on its own thread; owns its
 * decoders, rows and store.
 */
final class StreamWorker implements Runnable {
  /** Queue element: a batch, the end of this worker's batches, or its failure. */
  sealed interface Output permits Built, Done, Failed {}

  record Built(int position, Batch batch) implements Output {}

  record Done() implements Output {}

  record Failed(RuntimeException error) implements Output {}

  /**
   * Which part of an epoch a worker streams: its rank's schedule of {@code plan}, its slot ({@code
   * worker}), and how many of the rank's batches were consumed before it starts ({@code consumed},
   * a resume's). Immutable.
   */
  record Assignment(
      SegmentPlan plan, RankSchedule schedule, int rank, int worker, int consumed, long epoch) {}

  /**
   * What a worker decodes and holds with: the dataset's allocator, counters, frame paths and
   * placement rules, its store (kept across epochs), and what is made for this worker alone — its
   * decoder cache, and its way through the frame cache ({@code cached}, null without one), which it
   * closes when it ends.
   */
  record Resources(
      BufferAllocator allocator,
      DecoderCache decoders,
      StreamCounters counters,
      Supplier<FramePath> framePaths,
      FrameMemory store,
      CachedFetch cached,
      FramePlacement placement) {}

  private final StreamContext ctx;
  private final SegmentPlan plan;
  private final int rank;
  private final int worker;
  private final List<Integer> positions; // schedule position of each of this worker's jobs
  private final List<RankSchedule.Batch> jobs;
  private final int consumed;
  private final long epoch;
  private final BlockingQueue<Output> out;
  private final BufferAllocator allocator;
  private final DecoderCache decoders;
  private final StreamCounters counters;
  private final Supplier<FramePath> framePaths;
  private final FrameMemory store; // the dataset's store for this worker index, kept across epochs
  private final CachedFetch cached; // this worker's, closed when it ends; null: no frame cache
  private final FramePlacement placement;
  private final Map<Integer, int[]> pieceFrames = new HashMap<>();
  private long estimatedSampleBytes; // packed bytes of a sample, learned from the first ones
  private volatile boolean stopped;

  /** A worker for {@code job} with {@code with}; its batches and its end go to {@code out}. */
  StreamWorker(StreamContext ctx, Assignment job, Resources with, BlockingQueue<Output> out) {
    this.ctx = ctx;
    this.plan = job.plan();
    this.rank = job.rank();
    this.worker = job.worker();
    this.consumed = job.consumed();
    this.epoch = job.epoch();
    this.out = out;
    this.allocator = with.allocator();
    this.decoders = with.decoders();
    this.counters = with.counters();
    this.framePaths = with.framePaths();
    this.store = with.store();
    this.cached = with.cached();
    this.placement = with.placement();
    RankSchedule schedule = job.schedule();
    this.estimatedSampleBytes = ctx.sizing().sampleBytes(); // as sized, until one is measured
    for (EpisodePiece p : plan.piecesOf(rank, worker)) {
      pieceFrames.put(p.episode(), p.frames());
    }
    this.jobs = new ArrayList<>();
    this.positions = new ArrayList<>();
    for (int p = 0; p < schedule.size(); p++) {
      if (schedule.batches().get(p).worker() == worker) {
        jobs.add(schedule.batches().get(p));
        positions.add(p);
      }
    }
  }

  void stop() {
    stopped = true;
  }

  @Override
  public void run() {
    try (EpisodeRowSource rows = new EpisodeRowSource(allocator, ctx.metadata().info(), 256);
        FramePath path = framePaths.get();
        FrameMemory scratch = path.newScratch();
        ImageFrames images =
            new ImageFrames(
                allocator,
                ctx.metadata().info(),
                ctx.decoderCacheSize(),
                counters.fetched,
                store)) {
      FrameFetcher fetcher =
          new FrameFetcher(
              decoders,
              ctx.device(),
              ctx.metadata().info(),
              counters.fetched,
              images,
              cached,
              placement,
              ctx::positions);
      SlotSampler sampler = plan.sampler(rank, worker);
      Map<Long, HeldFrame[]> decoded = new HashMap<>();
      for (int j = 0; j < jobs.size() && !stopped; j++) {
        RankSchedule.Batch job = jobs.get(j);
        boolean skip = positions.get(j) < consumed;
        if (!job.padding()) {
          long[] want = job.samples();
          int got = 0;
          while (got < want.length) {
            if (!sampler.advance()) {
              throw new IllegalStateException(
                  "sampler of rank "
                      + rank
                      + " worker "
                      + worker
                      + " ended before its batch "
                      + positions.get(j));
            }
            long entered = sampler.entered();
            if (entered >= 0 && !skip && !decoded.containsKey(entered)) {
              decodeAhead(entered, decoded, store, fetcher, path);
            }
            long emitted = sampler.emitted();
            if (emitted >= 0) {
              if (emitted != want[got]) {
                throw new IllegalStateException(
                    "sampler diverged from the plan at rank "
                        + rank
                        + " worker "
                        + worker
                        + ": "
                        + Samples.toString(emitted)
                        + " instead of "
                        + Samples.toString(want[got]));
              }
              got++;
            }
          }
        }
        if (skip) {
          for (long s : job.samples()) {
            HeldFrame[] frames = decoded.remove(s);
            if (frames != null) {
              release(store, frames);
            }
          }
          continue;
        }
        Batch batch = build(job, decoded, store, scratch, fetcher, path, rows, positions.get(j));
        try {
          out.put(new Built(positions.get(j), batch));
        } catch (InterruptedException e) {
          batch.close();
          Thread.currentThread().interrupt();
          return;
        }
      }
      out.put(new Done());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (FetchException e) {
      fail(SampleException.of(e)); // what users catch: the fetch layer cannot throw it itself
    } catch (RuntimeException e) {
      fail(e);
    } catch (Error e) {
      fail(new IllegalStateException("worker " + worker + " failed: " + e, e));
    } finally {
      store.releaseAll();
      decoders.clear();
      if (cached != null) {
        cached.close();
      }
    }
  }

  private void fail(RuntimeException e) {
    try {
      out.put(new Failed(e));
    } catch (InterruptedException ie) {
      Thread.currentThread().interrupt();
    }
  }

  private static void release(FrameMemory store, HeldFrame[] frames) {
    for (HeldFrame f : frames) {
      if (f != null) {
        store.release(f.address(), f.bytes());
      }
    }
  }

  /**
   * Assembles a batch: samples decoded on entry come from the store; the others (no room at entry,
   * produced while skipping, padding) are decoded now into the scratch store.
   */
  private Batch build(
      RankSchedule.Batch job,
      Map<Long, HeldFrame[]> decoded,
      FrameMemory store,
      FrameMemory scratch,
      FrameFetcher fetcher,
      FramePath path,
      EpisodeRowSource rows,
      int position) {
    List<HeldSample> items = new ArrayList<>();
    List<HeldFrame[]> fromStore = new ArrayList<>();
    List<HeldFrame[]> fromScratch = new ArrayList<>();
    try {
      long[] samples = job.samples();
      HeldFrame[][] frames = new HeldFrame[samples.length][];
      // Samples without decoded pictures: planned over the batch, one decode call per episode
      // and camera (sorted, de-duplicated, one pass per GOP inside the file).
      Map<Integer, List<Integer>> missing = new java.util.TreeMap<>();
      for (int i = 0; i < samples.length; i++) {
        frames[i] = job.padding() ? null : decoded.remove(samples[i]);
        if (frames[i] != null) {
          fromStore.add(frames[i]);
        } else {
          missing.computeIfAbsent(Samples.episode(samples[i]), e -> new ArrayList<>()).add(i);
        }
      }
      for (List<Integer> group : missing.values()) {
        long[] wanted = group.stream().mapToLong(i -> samples[i]).toArray();
        List<HeldFrame[]> got = decodeInto(wanted, scratch, fetcher, path, -1);
        for (int g = 0; g < group.size(); g++) {
          frames[group.get(g)] = got.get(g);
          fromScratch.add(got.get(g));
        }
        counters.decodedOnExit.addAndGet(group.size());
      }
      for (int i = 0; i < samples.length; i++) {
        EpisodeInfo e = ctx.metadata().episode(Samples.episode(samples[i]));
        items.add(new HeldSample(samples[i], e, rowsOf(rows, e), frames[i]));
      }
      return path.assemble(items, job::flagged, epoch, position);
    } finally {
      fromStore.forEach(f -> release(store, f));
      fromScratch.forEach(f -> release(scratch, f));
    }
  }

  /**
   * Decodes {@code entered} and the next frames of its stream (a run of the path's length, as the
   * budget allows) in one call per camera: a stream's frames enter in order, so decoding a run
   * keeps one decoder hot instead of switching between every live stream per frame.
   */
  private void decodeAhead(
      long entered,
      Map<Long, HeldFrame[]> decoded,
      FrameMemory store,
      FrameFetcher fetcher,
      FramePath path) {
    int episode = Samples.episode(entered);
    EpisodeInfo info = ctx.metadata().episode(episode);
    int[] frames = pieceFrames.get(episode);
    int at = java.util.Arrays.binarySearch(frames, Samples.frame(entered));
    int length =
        DecodeRuns.length(
            frames,
            at,
            Math.min(path.minRun(), ctx.sizing().run()),
            Math.min(path.maxRun(), ctx.sizing().run()),
            n ->
                !decoded.containsKey(Samples.of(episode, frames[at + n]))
                    && store.canHold((n + 1) * estimatedSampleBytes),
            frame ->
                !ctx.cameras().isEmpty()
                    && fetcher.startsGop(
                        info, ctx.cameras().get(0), frame, DecoderSlot.of(episode, 0)));
    if (length == 0) {
      return; // over budget: decoded when delivered
    }
    long[] samples = new long[length];
    for (int i = 0; i < length; i++) {
      samples[i] = Samples.of(episode, frames[at + i]);
    }
    List<HeldFrame[]> result = decodeInto(samples, store, fetcher, path, episode);
    long bytes = 0;
    for (int i = 0; i < samples.length; i++) {
      decoded.put(samples[i], result.get(i));
      for (HeldFrame f : result.get(i)) {
        bytes += f.bytes();
      }
    }
    estimatedSampleBytes = Math.max(1, bytes / samples.length);
    counters.decodedOnEntry.addAndGet(samples.length);
    counters.held(store.heldBytes());
  }

  private EpisodeRows rowsOf(EpisodeRowSource rows, EpisodeInfo e) {
    try {
      return rows.rows(e);
    } catch (DatasetException ex) {
      throw new SampleException(ex.file(), e.index(), null, ex.getMessage(), ex);
    }
  }

  /**
   * Decodes every camera and window position of {@code samples} (all of one episode) into packed
   * blocks of {@code store}, one decode call per camera; per sample, frames ordered camera by
   * camera, window position by position. {@code stream} picks the decoders: the episode's own
   * stream's (its index, one decoder per camera), or -1 for the shared ones of out-of-order
   * (delivery-time) decoding.
   */
  private List<HeldFrame[]> decodeInto(
      long[] samples, FrameMemory store, FrameFetcher fetcher, FramePath path, int stream) {
    EpisodeInfo e = ctx.metadata().episode(Samples.episode(samples[0]));
    int perSample = 0;
    for (String camera : ctx.cameras()) {
      perSample += ctx.positions(camera);
    }
    List<HeldFrame[]> out = new ArrayList<>();
    for (int i = 0; i < samples.length; i++) {
      out.add(new HeldFrame[perSample]);
    }
    fetcher.prefetch(e, ctx.cameras(), Samples.frame(samples[0])); // all cameras' bytes at once
    int base = 0;
    try {
      for (int k = 0; k < ctx.cameras().size(); k++) {
        String camera = ctx.cameras().get(k);
        int[] offsets = ctx.windows().offsets(camera);
        int n = offsets == null ? 1 : offsets.length;
        int[] frames = new int[n * samples.length];
        for (int i = 0; i < samples.length; i++) {
          int frame = Samples.frame(samples[i]);
          for (int t = 0; t < n; t++) {
            frames[i * n + t] =
                offsets == null ? frame : Windows.clampedFrame(frame, offsets[t], e.length());
          }
        }
        HeldFrame[] held =
            path.decode(
                fetcher,
                e,
                camera,
                frames,
                store,
                stream == -1 ? DecoderSlot.SHARED : DecoderSlot.of(stream, k));
        for (int request = 0; request < held.length; request++) {
          out.get(request / n)[base + request % n] = held[request];
        }
        base += n;
      }
    } catch (RuntimeException ex) {
      out.forEach(f -> release(store, f));
      throw ex;
    }
    return out;
  }
}
