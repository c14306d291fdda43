package org.robostream.frames;

import org.robostream.arrow.BatchMemoryPool;
import org.robostream.arrow.FrameBatchBuilder;
import org.robostream.codec.HeldFrame;

/**
 * The device a worker's frames are held on and written from, after torchcodec's {@code
 * DeviceInterface}: the one place the loader's frame handling differs by device. It owns the memory
 * held frames wait in, the stream its copies are queued on, and the two operations a frame needs:
 * hold a decoded picture ({@link #holder}) and write a held frame into a batch slot with its
 * conversion, resize and image transforms ({@link #write}). Devices are registered by {@link Kind}
 * and chosen there, once per dataset.
 *
 * <p>Not thread-safe: one per worker thread; {@link #close()} frees what the device owns (not the
 * memories it made, which belong to their callers).
 */
public interface FrameDevice extends AutoCloseable {
  /** The devices by key: how each is made, and the memory its held frames wait in. */
  enum Kind {
    /** Pictures held packed in host memory, converted into the slot when the batch is built. */
    CPU,
    /**
     * Frames converted when decoded into blocks of the batch device's pool (NVDEC's colour kernel
     * on a GPU) and copied into the slot. Over a host pool the same code runs in host memory, which
     * is how it is tested without a GPU.
     */
    CUDA;

    /** CUDA when frames are held converted in the batch pool ({@code heldConverted}), else CPU. */
    public static Kind of(boolean heldConverted) {
      return heldConverted ? CUDA : CPU;
    }

    /** A device of this kind over {@code pool}, the pool of the worker's batches. */
    public FrameDevice open(BatchMemoryPool pool) {
      return this == CUDA ? new CudaFrameDevice(pool) : new CpuFrameDevice(pool);
    }

    /** Memory for held frames of this kind, bounded by {@code budgetBytes}. */
    public FrameMemory memory(BatchMemoryPool pool, long budgetBytes) {
      return this == CUDA
          ? new PoolFrameMemory(pool, budgetBytes)
          : new HostFrameMemory(budgetBytes);
    }
  }

  /** Frames a stream decodes in one call on the CPU (fixed runs). */
  int CPU_RUN = 8;

  /**
   * The longest run a stream decodes in one call: on NVDEC ({@code nvdec}) every call starts with a
   * seek, so runs go on to the GOP's end, up to 64 frames.
   */
  static int longestRun(boolean nvdec) {
    return nvdec ? 64 : CPU_RUN;
  }

  /** Memory for held frames on this device, bounded by {@code budgetBytes}. */
  FrameMemory newMemory(long budgetBytes);

  /**
   * Frames of a stream decoded in one call when the first of them enters the shuffle buffer: at
   * least {@code minRun}; past that, on to the end of the frame's GOP but never beyond {@code
   * maxRun} (equal values: fixed runs).
   */
  int minRun();

  int maxRun();

  /**
   * Holds one decode call's pictures, which become {@code spec}'s frames, in blocks of {@code
   * memory}; request i's held frame goes to {@code out[i]}.
   */
  PictureHolder holder(HoldSpec spec, FrameMemory memory, HeldFrame[] out);

  /**
   * Writes held frame {@code frame} into slot {@code slot} of {@code column}, with the sample's
   * built-in image transform operations ({@code ops}: null for none), queued on {@link #stream()}.
   */
  void write(FrameBatchBuilder.Column column, long slot, HeldFrame frame, float[] ops);

  /** The CUDA stream {@link #write} queues on (0: host memory, done when it returns). */
  long stream();

  /** Waits until everything queued on {@link #stream()} is done. */
  void synchronize();

  @Override
  void close();
}
