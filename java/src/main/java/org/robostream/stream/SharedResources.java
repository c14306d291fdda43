package org.robostream.stream;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a {@link StreamingDataset} and its worker threads share — the batch memory pools, the
 * workers' frame stores, the Arrow allocator — closed when the last of its holders lets go: the
 * dataset (at {@link StreamingDataset#close()}) and every running worker thread (when it ends). A
 * worker can outlive {@code close()}: an interrupt does not end a wait inside native code (a worker
 * waits up to 60 s for a free NVDEC session), and until it returns the worker writes into its
 * store's blocks and returns them to the pools. Freeing those at {@code close()} would hand the
 * memory to someone else, or free it, under the worker.
 *
 * <p>Thread-safe. Resources are closed in the reverse order of {@link #add}, on the thread that
 * lets go last.
 */
final class SharedResources {
  private static final Logger LOG = LoggerFactory.getLogger(SharedResources.class);

  private final Deque<AutoCloseable> resources = new ArrayDeque<>();
  private int holders = 1; // the dataset

  /** Registers {@code resource} to be closed with the rest; returns it. */
  synchronized <T extends AutoCloseable> T add(T resource) {
    requireHeld();
    resources.push(resource);
    return resource;
  }

  /** One more holder: a worker thread about to start. */
  synchronized void hold() {
    requireHeld();
    holders++;
  }

  /** Drops one holder; the last closes every resource. */
  void letGo() {
    List<AutoCloseable> closing;
    synchronized (this) {
      requireHeld();
      if (--holders > 0) {
        return;
      }
      closing = new ArrayList<>(resources);
      resources.clear();
    }
    for (AutoCloseable resource : closing) {
      try {
        resource.close();
      } catch (Exception e) {
        LOG.warn("cannot close {}: {}", resource, e.toString());
      }
    }
  }

  private void requireHeld() {
    if (holders == 0) {
      throw new IllegalStateException("the stream's resources are closed");
    }
  }
}
