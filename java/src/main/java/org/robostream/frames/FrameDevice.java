package org.robostream.frames;

import org.robostream.arrow.FrameBatchBuilder;
import org.robostream.video.HeldFrame;

/**
 * The device a worker's frames are held on and written from, and the only place the loader's frame
 * handling differs by device (after torchcodec's {@code DeviceInterface}): it owns the memory held
 * frames wait in, the stream its copies are queued on, and the two operations a frame needs — hold
 * a decoded picture ({@link #holder}) and write a held frame into a batch slot with its conversion,
 * resize and image transforms ({@link #write}). {@link FramePath} is the one route that uses it.
 *
 * <p>Implementations: {@link CpuFrameDevice} (pictures held packed as the codec produced them in
 * host memory, converted into the slot when the batch is built) and {@link CudaFrameDevice} (frames
 * converted when decoded into blocks of the batch device's pool — NVDEC's colour kernel on a GPU —
 * and copied into the slot; over a host pool the same code runs in host memory, which is how it is
 * tested without a GPU).
 *
 * <p>Not thread-safe: one per worker thread; {@link #close()} frees what the device owns (not the
 * memories it made, which belong to their callers).
 */
public interface FrameDevice extends AutoCloseable {
  /** Receives request {@code request}'s held frame. */
  @FunctionalInterface
  interface HeldFrames {
    void put(int request, HeldFrame frame);
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
   * memory}; request i's frame goes to {@code out}.
   */
  PictureHolder holder(HoldSpec spec, FrameMemory memory, HeldFrames out);

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
