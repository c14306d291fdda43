package org.robostream.stream;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import org.apache.arrow.memory.BufferAllocator;
import org.robostream.dataset.DatasetException;
import org.robostream.dataset.EpisodeInfo;
import org.robostream.video.DecoderCache;

/**
 * One worker thread of a rank: replays its slot's {@link SlotSampler}, decodes each sample's
 * frames when its episode stream produces it (stream order, so a decoder per live stream just
 * moves forward: decode amplification about 1) into the {@link FrameStore}, and when the sampler
 * delivers a batch's samples assembles the batch and queues it. Samples the store has no room
 * for, samples produced while skipping already-consumed batches after a resume, and padding
 * samples are decoded when the batch is built instead. Failures travel through the queue to
 * the consumer. Runs on its own thread; owns its decoders, rows and store.
 */
final class StreamWorker implements Runnable {
  /** Queue element: a batch, the end of this worker's batches, or its failure. */
  sealed interface Output permits Built, Done, Failed {}

  record Built(int position, Batch batch) implements Output {}

  record Done() implements Output {}

  record Failed(RuntimeException error) implements Output {}

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
  private volatile boolean stopped;

  StreamWorker(StreamContext ctx, SegmentPlan plan, RankSchedule schedule, int rank, int worker,
      int consumed, long epoch, BlockingQueue<Output> out, BufferAllocator allocator,
      DecoderCache decoders, StreamCounters counters) {
    this.ctx = ctx;
    this.plan = plan;
    this.rank = rank;
    this.worker = worker;
    this.consumed = consumed;
    this.epoch = epoch;
    this.out = out;
    this.allocator = allocator;
    this.decoders = decoders;
    this.counters = counters;
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
    try (EpisodeRowSource rows = new EpisodeRowSource(allocator, ctx.metadata().info(),
        256)) {
      FrameFetcher fetcher = new FrameFetcher(decoders, ctx.device(),
          ctx.metadata().info().fps(), ctx.decoderOptions().toleranceSeconds(), ctx.layout(),
          counters);
      FrameStore store = new FrameStore(ctx.sampleFrameBytes(), ctx.storeSlots());
      BatchAssembler assembler = new BatchAssembler(ctx, allocator);
      SlotSampler sampler = plan.sampler(rank, worker);
      Map<Long, Integer> decoded = new HashMap<>();
      for (int j = 0; j < jobs.size() && !stopped; j++) {
        RankSchedule.Batch job = jobs.get(j);
        boolean skip = positions.get(j) < consumed;
        if (!job.padding()) {
          long[] want = job.samples();
          int got = 0;
          while (got < want.length) {
            if (!sampler.advance()) {
              throw new IllegalStateException("sampler of rank " + rank + " worker " + worker
                  + " ended before its batch " + positions.get(j));
            }
            long entered = sampler.entered();
            if (entered >= 0 && !skip) {
              int slot = store.take();
              if (slot >= 0) {
                decodeInto(entered, store.address(slot), fetcher, rows, Samples.episode(entered));
                decoded.put(entered, slot);
                counters.decodedOnEntry.incrementAndGet();
                counters.held(store.allocatedBytes());
              }
            }
            long emitted = sampler.emitted();
            if (emitted >= 0) {
              if (emitted != want[got]) {
                throw new IllegalStateException("sampler diverged from the plan at rank " + rank
                    + " worker " + worker + ": " + Samples.toString(emitted) + " instead of "
                    + Samples.toString(want[got]));
              }
              got++;
            }
          }
        }
        if (skip) {
          for (long s : job.samples()) {
            Integer slot = decoded.remove(s);
            if (slot != null) {
              store.release(slot);
            }
          }
          continue;
        }
        Batch batch = build(job, decoded, store, fetcher, rows, assembler, positions.get(j));
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
    } catch (RuntimeException e) {
      fail(e);
    } catch (Error e) {
      fail(new IllegalStateException("worker " + worker + " failed: " + e, e));
    } finally {
      decoders.clear();
    }
  }

  private void fail(RuntimeException e) {
    try {
      out.put(new Failed(e));
    } catch (InterruptedException ie) {
      Thread.currentThread().interrupt();
    }
  }

  private Batch build(RankSchedule.Batch job, Map<Long, Integer> decoded, FrameStore store,
      FrameFetcher fetcher, EpisodeRowSource rows, BatchAssembler assembler, int position) {
    List<BatchAssembler.Item> items = new ArrayList<>();
    List<Integer> borrowed = new ArrayList<>();
    try {
      for (long s : job.samples()) {
        EpisodeInfo e = ctx.metadata().episode(Samples.episode(s));
        Integer slot = job.padding() ? null : decoded.remove(s);
        if (slot == null) {
          slot = store.take();
          if (slot < 0) {
            throw new IllegalStateException("frame store exhausted; memory budget too small");
          }
          decodeInto(s, store.address(slot), fetcher, rows, -1);
          counters.decodedOnExit.incrementAndGet();
        }
        borrowed.add(slot);
        items.add(new BatchAssembler.Item(s, e, rowsOf(rows, e), store.address(slot)));
      }
      return new Batch(assembler.build(items, job.padding()), allocator, epoch, position);
    } finally {
      borrowed.forEach(store::release);
    }
  }

  private EpisodeRows rowsOf(EpisodeRowSource rows, EpisodeInfo e) {
    try {
      return rows.rows(e);
    } catch (DatasetException ex) {
      throw new SampleException(ex.file(), e.index(), null, ex.getMessage(), ex);
    }
  }

  /** Decodes every camera and window position of {@code sample} to {@code address}. */
  private void decodeInto(long sample, long address, FrameFetcher fetcher, EpisodeRowSource rows,
      long reader) {
    EpisodeInfo e = ctx.metadata().episode(Samples.episode(sample));
    int frame = Samples.frame(sample);
    for (int k = 0; k < ctx.cameras().size(); k++) {
      String camera = ctx.cameras().get(k);
      int[] offsets = ctx.windows().offsets(camera);
      int n = offsets == null ? 1 : offsets.length;
      int[] frames = new int[n];
      long[] addresses = new long[n];
      for (int t = 0; t < n; t++) {
        frames[t] = offsets == null ? frame : Windows.clampedFrame(frame, offsets[t], e.length());
        addresses[t] = address + ctx.cameraOffset(k) + t * ctx.frameBytes();
      }
      fetcher.fetch(e, camera, frames, addresses, reader == -1 ? -1 : reader * 64 + k);
    }
  }
}
