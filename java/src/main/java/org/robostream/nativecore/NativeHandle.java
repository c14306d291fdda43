package org.robostream.nativecore;

import java.lang.ref.Cleaner;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The single owner of one native handle (the RocksJava model): the handle is freed exactly once, by
 * {@link #close()} (compare-and-set, idempotent), unless {@link #release()} moved ownership
 * elsewhere. A {@link Cleaner} is only a safety net: if the owner becomes unreachable while the
 * handle is still open, the handle is freed and the leak is logged, because a leak is a bug in the
 * caller that the log must show.
 *
 * <p>Thread-safe: {@link #close()} and {@link #release()} may race; exactly one wins.
 */
public final class NativeHandle implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(NativeHandle.class);
  private static final Cleaner CLEANER = Cleaner.create();

  private final State state;
  private final Cleaner.Cleanable cleanable;

  /**
   * @param owner the Java object whose reachability guards the handle (not referenced by the
   *     cleanup action)
   * @param handle the non-zero native handle
   * @param free frees the handle
   * @param what the resource's name for messages
   */
  public NativeHandle(Object owner, long handle, LongConsumer free, String what) {
    if (handle == 0) {
      throw new IllegalArgumentException("null native handle for " + what);
    }
    this.state = new State(handle, free, what);
    this.cleanable = CLEANER.register(owner, state);
  }

  /** The handle; throws when it was closed or released. */
  public long get() {
    long h = state.handle.get();
    if (h == 0) {
      throw new IllegalStateException(state.what + " is closed or was handed over");
    }
    return h;
  }

  public boolean isOpen() {
    return state.handle.get() != 0;
  }

  /** Hands ownership over (for example to an exported Arrow array): nothing will free it here. */
  public long release() {
    long h = state.handle.getAndSet(0);
    if (h == 0) {
      throw new IllegalStateException(state.what + " is closed or was handed over");
    }
    cleanable.clean(); // runs the action, which now finds no handle
    return h;
  }

  @Override
  public void close() {
    state.explicit = true;
    cleanable.clean();
  }

  private static final class State implements Runnable {
    final AtomicLong handle;
    final LongConsumer free;
    final String what;
    volatile boolean explicit;

    State(long handle, LongConsumer free, String what) {
      this.handle = new AtomicLong(handle);
      this.free = free;
      this.what = what;
    }

    @Override
    public void run() {
      long h = handle.getAndSet(0);
      if (h == 0) {
        return;
      }
      if (!explicit) {
        LOG.warn("{} was never closed; freeing it now (a resource leak in the caller)", what);
      }
      free.accept(h);
    }
  }
}
