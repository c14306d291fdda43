package org.robostream.stream;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.robostream.source.ByteSource;
import org.robostream.source.LocalFileByteSource;
import org.robostream.source.VideoSources;

/**
 * Local video files, except that the first read of the {@code n}-th file a worker opens waits until
 * {@link #release} is counted down: a worker held where the test wants it. Files opened on other
 * threads (the build's read of each camera's first header) are not counted. Either like a wait in
 * native code (an interrupt does not end it), or like an ordinary blocking read (an interrupt ends
 * it with an {@link InterruptedIOException}, the interrupt flag set again). Thread-safe.
 */
final class HeldVideoReads implements VideoSources {
  /** Counted down when the held read starts waiting. */
  final CountDownLatch holding = new CountDownLatch(1);

  /** Count down to let the held read go on. */
  final CountDownLatch release = new CountDownLatch(1);

  private final AtomicInteger opened = new AtomicInteger();
  private final int heldOpen;
  private final boolean interruptible;

  /**
   * @param heldOpen which file opened by a worker (1-based, over every worker) has its first read
   *     held
   * @param interruptible whether an interrupt ends the wait
   */
  HeldVideoReads(int heldOpen, boolean interruptible) {
    this.heldOpen = heldOpen;
    this.interruptible = interruptible;
  }

  @Override
  public ByteSource open(Path file) {
    ByteSource real = LocalFileByteSource.open(file);
    boolean held =
        Thread.currentThread().getName().startsWith("robostream-worker-")
            && opened.incrementAndGet() == heldOpen;
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
          hold();
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

  private void hold() throws InterruptedIOException {
    holding.countDown();
    boolean interrupted = false;
    while (true) {
      try {
        release.await();
        break;
      } catch (InterruptedException e) {
        if (interruptible) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("read interrupted");
        }
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
