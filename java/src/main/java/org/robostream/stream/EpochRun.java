package org.robostream.stream;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One pass over the rest of an epoch, as the consumer's iterator: each worker thread fills its own
 * queue (at most {@code prefetch} batches plus an end marker or failure); {@link #next()} takes
 * batch i from worker {@code schedule[i].worker}'s queue, rethrowing its failure. After the last
 * batch {@code hasNext()} is false; once stopped ({@link #stop}, a failed {@code next()}) both
 * throw {@link IllegalStateException} naming why, so a stale iterator is never taken for the
 * epoch's end.
 *
 * <p>Threading: iterator methods, {@link #segments()} and {@link #stop} are the consumer's; workers
 * talk only through their queues and hold the {@link StreamMemory} while running. Taken batches are
 * the consumer's; queued ones are closed here, or by their worker after a stop.
 */
final class EpochRun implements Iterator<Batch> {
  /** What a run tells the dataset that started it. */
  interface Owner {
    /** The run's last batch was taken: the dataset moves to the next epoch. */
    void epochEnded();

    /** The run's {@code next()} failed: the dataset stops it where it is ({@link #stop}). */
    void stopRun(String why);
  }

  // The dataset's logger: a user configures logging by the public class.
  private static final Logger LOG = LoggerFactory.getLogger(StreamingDataset.class);
  private static final long JOIN_MILLIS = 10_000;

  private final ResumePlanner.Position position;
  private final RankSchedule schedule;
  private final int world;
  private final int workers;
  private final StreamMemory memory;
  private final Owner owner;
  private final List<BlockingQueue<StreamWorker.Output>> queues = new ArrayList<>();
  private final List<StreamWorker> tasks = new ArrayList<>();
  private final List<Thread> threads = new ArrayList<>();
  private volatile boolean stopped; // read by worker threads when they end
  private String stoppedBecause; // why the dataset stopped this run before its epoch ended
  private boolean ended;
  private int next;

  /** Starts the workers of {@code position}'s plan for this rank, from its consumed batches. */
  EpochRun(
      StreamConfig config,
      ResumePlanner.Position position,
      long epoch,
      StreamMemory memory,
      StreamDecoders decoders,
      StreamCounters counters,
      Owner owner) {
    int rank = config.rankWorld().rank();
    StreamContext ctx = config.context();
    this.position = position;
    this.schedule = position.plan().schedule(rank);
    this.world = config.rankWorld().world();
    this.workers = config.workers();
    this.memory = memory;
    this.owner = owner;
    this.next = position.consumedBatches();
    for (int w = 0; w < workers; w++) {
      BlockingQueue<StreamWorker.Output> q = new ArrayBlockingQueue<>(ctx.prefetch() + 1);
      queues.add(q);
      StreamWorker.Assignment job =
          new StreamWorker.Assignment(position.plan(), schedule, rank, w, next, epoch);
      StreamWorker.Resources with =
          new StreamWorker.Resources(
              memory.allocator(),
              decoders.newCache(),
              counters,
              memory::newFramePath,
              memory.store(w),
              memory.newCachedFetch(counters, decoders::identity, decoders::facts),
              decoders.placement());
      StreamWorker task = new StreamWorker(ctx, job, with, q);
      tasks.add(task);
      Thread t = new Thread(() -> runAndLetGo(task, q), "robostream-worker-" + rank + "-" + w);
      t.setDaemon(true);
      threads.add(t);
    }
    if (next < schedule.size()) {
      for (Thread t : threads) {
        memory.hold();
        t.start();
      }
    }
  }

  /**
   * Runs one worker thread; when it ends, closes what it queued after its run was stopped (nobody
   * will take it) and lets go of the memory it used.
   */
  private void runAndLetGo(StreamWorker task, BlockingQueue<StreamWorker.Output> queue) {
    try {
      task.run();
    } finally {
      if (stopped) {
        closeQueued(queue);
      }
      memory.letGo();
    }
  }

  /**
   * The ranks' position in the epoch: the segments before this run's, then this run's with the
   * batches taken so far.
   */
  List<StreamState.Segment> segments() {
    List<StreamState.Segment> s = new ArrayList<>(position.prior());
    s.add(new StreamState.Segment(world, workers, next, position.plan().buffer()));
    return s;
  }

  @Override
  public boolean hasNext() {
    if (stoppedBecause != null) {
      throw new IllegalStateException(
          "this iterator was stopped at batch "
              + next
              + " of "
              + schedule.size()
              + ": "
              + stoppedBecause
              + "; iterate again (for (Batch b : ds))"
              + " to continue from the dataset's position");
    }
    if (ended) {
      return false;
    }
    if (next >= schedule.size()) {
      ended = true;
      stopWorkers();
      owner.epochEnded();
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
      owner.stopRun("its next() failed: " + f.error());
      throw f.error();
    }
    if (!(out instanceof StreamWorker.Built built) || built.position() != next) {
      owner.stopRun("its next() failed: worker " + w + " delivered " + out + " for batch " + next);
      throw new IllegalStateException("worker " + w + " delivered " + out + " for batch " + next);
    }
    next++;
    return built.batch();
  }

  /** Stops the run where it is; from now on the iterator throws, naming {@code why}. */
  void stop(String why) {
    stoppedBecause = why;
    stopWorkers();
  }

  /**
   * Interrupts the workers and waits for each; a worker that does not end within 10 s (held in
   * native code, such as a wait for an NVDEC session) keeps its store and the pools until it ends,
   * and its worker index gets a new store.
   */
  private void stopWorkers() {
    stopped = true;
    tasks.forEach(StreamWorker::stop);
    threads.forEach(Thread::interrupt);
    for (int w = 0; w < threads.size(); w++) {
      Thread t = threads.get(w);
      try {
        t.join(JOIN_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      if (t.isAlive()) {
        LOG.warn(
            "worker {} did not stop within 10 s (held in native code?); it keeps its"
                + " frame store and the pools until it ends",
            w);
        memory.replaceStore(w);
      }
    }
    queues.forEach(EpochRun::closeQueued);
  }

  private static void closeQueued(BlockingQueue<StreamWorker.Output> queue) {
    for (StreamWorker.Output o = queue.poll(); o != null; o = queue.poll()) {
      if (o instanceof StreamWorker.Built b) {
        b.batch().close();
      }
    }
  }
}
