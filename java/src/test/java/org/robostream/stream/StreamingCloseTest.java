package org.robostream.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.robostream.nativecore.NativeResources;
import org.robostream.source.ByteSource;
import org.robostream.source.LocalFileByteSource;
import org.robostream.source.VideoSources;
import org.robostream.testing.Datasets;

/**
 * {@code close()} while a worker cannot be stopped: the worker keeps the batch pool and its frame
 * store (whose blocks it holds) until it ends, then everything is freed, instead of running on
 * memory the dataset already freed. On a GPU a worker is held like this inside native code while
 * it waits up to 60 s for an NVDEC session; that wait cannot run here, so a read of the video
 * holds the worker instead, ignoring interrupts as a native wait does.
 */
class StreamingCloseTest {

  /**
   * Local files; the first read of the second file opened waits until released, ignoring
   * interrupts. A worker decodes a sample camera by camera, so by then it holds the first
   * camera's frames in pool blocks.
   */
  private static final class HeldRead implements VideoSources {
    final CountDownLatch holding = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    private final AtomicInteger opened = new AtomicInteger();

    @Override
    public ByteSource open(Path file) {
      ByteSource real = LocalFileByteSource.open(file);
      boolean held = opened.incrementAndGet() == 2;
      return new ByteSource() {
        private boolean first = true;

        @Override
        public long size() throws IOException {
          return real.size();
        }

        @Override
        public int read(long position, ByteBuffer dst) throws IOException {
          if (held && first) {
            first = false;
            holdUninterruptibly();
          }
          return real.read(position, dst);
        }

        @Override
        public String name() {
          return real.name();
        }

        @Override
        public void close() throws IOException {
          real.close();
        }
      };
    }

    private void holdUninterruptibly() {
      holding.countDown();
      boolean interrupted = false;
      while (true) {
        try {
          release.await();
          break;
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @Test
  void closeLeavesTheMemoryOfAWorkerThatCannotStopUntilItEnds() throws Exception {
    long objectsBefore = NativeResources.liveObjects();
    long bytesBefore = NativeResources.liveBytes();
    HeldRead videos = new HeldRead();
    StreamingDataset ds = StreamingDataset.builder(Datasets.patternV30()).batchSize(4)
        .workers(1).bufferSize(16).maxNumShards(2).returnUint8(true).deviceBatches(true)
        .videoSources(videos).build();
    Iterator<Batch> batches = ds.iterator();
    try {
      assertTrue(videos.holding.await(60, TimeUnit.SECONDS), "the worker reached the held read");
      assertTrue(NativeResources.liveBytes() > bytesBefore, "the worker holds pool blocks");
      ds.close(); // gives up waiting for the worker after 10 s
      assertTrue(NativeResources.liveBytes() > bytesBefore,
          "the pool's blocks stay while the worker that holds them runs");
    } finally {
      videos.release.countDown();
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while ((NativeResources.liveObjects() != objectsBefore
        || NativeResources.liveBytes() != bytesBefore) && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertEquals(bytesBefore, NativeResources.liveBytes(),
        "the worker returned its blocks and the last holder freed the pool");
    assertEquals(objectsBefore, NativeResources.liveObjects());
    IllegalStateException stale = assertThrows(IllegalStateException.class, batches::hasNext,
        "a closed stream's iterator says so");
    assertTrue(stale.getMessage().contains("the dataset was closed"), stale.getMessage());
  }
}
