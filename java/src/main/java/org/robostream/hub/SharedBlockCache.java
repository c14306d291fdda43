package org.robostream.hub;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Read-ahead blocks of remote files shared by every reader in the process: a loader opens a decoder
 * per live episode stream, camera and worker, and each of them reads the same few blocks of the
 * same concatenated v3.0 files. Without sharing, every decoder refetched the blocks it touched
 * (measured: 21x the video bytes per delivered frame); with it each block is fetched once while it
 * stays in the cache. Concurrent requests for one block wait for the same fetch. Bounded by bytes,
 * least recently used first. Thread-safe.
 */
final class SharedBlockCache {
  /**
   * One block of a file, with the file's total size and the server's version of it (ETag, else
   * Last-Modified; null when unknown) at the time the block was fetched.
   */
  record Block(byte[] bytes, long totalSize, String version) {}

  private record Key(String url, long index) {}

  /** Fetches a block when it is not cached. */
  interface Fetcher {
    Block fetch();
  }

  private final long capacityBytes;
  private final Map<Key, CompletableFuture<Block>> blocks = new LinkedHashMap<>(64, 0.75f, true);
  private long cachedBytes;

  SharedBlockCache(long capacityBytes) {
    this.capacityBytes = capacityBytes;
  }

  Block get(String url, long index, Fetcher fetcher) {
    Key key = new Key(url, index);
    CompletableFuture<Block> future;
    boolean mine = false;
    synchronized (this) {
      future = blocks.get(key);
      if (future == null) {
        future = new CompletableFuture<>();
        blocks.put(key, future);
        mine = true;
      }
    }
    if (mine) {
      try {
        Block b = fetcher.fetch();
        future.complete(b);
        synchronized (this) {
          cachedBytes += b.bytes().length;
          evict();
        }
      } catch (RuntimeException | Error e) {
        synchronized (this) {
          blocks.remove(key); // a later reader tries again
        }
        future.completeExceptionally(e);
        throw e;
      }
    }
    try {
      return future.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw e;
    }
  }

  private void evict() {
    Iterator<Map.Entry<Key, CompletableFuture<Block>>> it = blocks.entrySet().iterator();
    while (cachedBytes > capacityBytes && it.hasNext()) {
      CompletableFuture<Block> f = it.next().getValue();
      if (!f.isDone() || f.isCompletedExceptionally()) {
        continue;
      }
      cachedBytes -= f.join().bytes().length;
      it.remove();
    }
  }

  /**
   * Starts fetching a block on {@code executor} unless it is cached or on its way; failures are
   * left for the reader that needs the block (it fetches again and gets the typed error).
   */
  void prefetch(String url, long index, Fetcher fetcher, java.util.concurrent.Executor executor) {
    synchronized (this) {
      if (blocks.containsKey(new Key(url, index))) {
        return;
      }
    }
    try {
      executor.execute(
          () -> {
            try {
              get(url, index, fetcher);
            } catch (RuntimeException ignored) {
              // the reader that needs it will see the error
            }
          });
    } catch (java.util.concurrent.RejectedExecutionException ignored) {
      // read-ahead is an optimisation: skip it when the pool is saturated
    }
  }

  /**
   * Drops every finished block of {@code url}: the file changed on the server, and a later reader
   * must start over from the new version instead of mixing in old blocks.
   */
  synchronized void forget(String url) {
    Iterator<Map.Entry<Key, CompletableFuture<Block>>> it = blocks.entrySet().iterator();
    while (it.hasNext()) {
      Map.Entry<Key, CompletableFuture<Block>> e = it.next();
      CompletableFuture<Block> f = e.getValue();
      if (e.getKey().url().equals(url) && f.isDone() && !f.isCompletedExceptionally()) {
        cachedBytes -= f.join().bytes().length;
        it.remove();
      }
    }
  }

  synchronized long cachedBytes() {
    return cachedBytes;
  }
}
