package org.robostream.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.robostream.testing.Datasets;
import org.robostream.testing.NativeLeakCheck;

/**
 * A consumer thread interrupted while {@code next()} waits for a batch: {@code next()} ends at once
 * with the outcome {@link StreamingDataset} documents (an {@link IllegalStateException} caused by
 * the {@link InterruptedException}, the thread's interrupt flag set again), and the dataset still
 * closes promptly, ending its worker threads and freeing everything.
 */
@ExtendWith(NativeLeakCheck.class)
class InterruptedConsumerTest {

  private static Set<Thread> workerThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().startsWith("robostream-worker-"))
        .collect(Collectors.toSet());
  }

  /** Waits until {@code t} is parked (in a wait, with or without a timeout). */
  private static void awaitParked(Thread t) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (t.getState() != Thread.State.WAITING && t.getState() != Thread.State.TIMED_WAITING) {
      assertTrue(System.nanoTime() < deadline, t.getName() + " is " + t.getState());
      Thread.sleep(5);
    }
  }

  @Test
  void anInterruptedNextThrowsWithTheFlagSetAndTheDatasetStillCloses() throws Exception {
    Set<Thread> earlier = workerThreads();
    // One worker, its second file (the second camera of the first episode) held: no batch can
    // be built, so the consumer waits in next().
    HeldVideoReads videos = new HeldVideoReads(2, true);
    StreamingDataset ds =
        StreamingDataset.builder(Datasets.patternV30())
            .batchSize(4)
            .workers(1)
            .returnUint8(true)
            .videoSources(videos)
            .build();
    try {
      AtomicReference<Throwable> thrown = new AtomicReference<>();
      AtomicBoolean flagAfter = new AtomicBoolean();
      Thread consumer =
          new Thread(
              () -> {
                try {
                  ds.iterator().next().close();
                } catch (Throwable t) {
                  thrown.set(t);
                  flagAfter.set(Thread.currentThread().isInterrupted());
                }
              },
              "consumer");
      consumer.setDaemon(true);
      consumer.start();
      assertTrue(videos.holding.await(60, TimeUnit.SECONDS), "the worker reached the held read");
      awaitParked(consumer); // in next(), waiting for batch 0

      consumer.interrupt();
      consumer.join(TimeUnit.SECONDS.toMillis(5));
      assertFalse(consumer.isAlive(), "next() returned promptly");
      assertInstanceOf(IllegalStateException.class, thrown.get(), "no batch, an exception");
      assertInstanceOf(InterruptedException.class, thrown.get().getCause());
      assertTrue(flagAfter.get(), "the interrupt flag is set again for the caller");

      Set<Thread> workers = workerThreads();
      workers.removeAll(earlier);
      assertEquals(1, workers.size(), "the worker still runs: " + workers);
      long start = System.nanoTime();
      ds.close();
      long closeMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      assertTrue(closeMillis < 5_000, "close() stopped the worker at once: " + closeMillis + " ms");
      for (Thread w : workers) {
        assertFalse(w.isAlive(), w.getName() + " ended");
      }
      assertEquals(0, ds.outstandingBatchBytes());
    } finally {
      videos.release.countDown();
      ds.close();
    }
  }
}
