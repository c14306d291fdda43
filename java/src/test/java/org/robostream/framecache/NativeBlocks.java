package org.robostream.framecache;

import java.util.ArrayList;
import java.util.List;
import org.bytedeco.javacpp.BytePointer;
import org.robostream.codec.ColorSpec;
import org.robostream.codec.HeldForm;
import org.robostream.codec.HeldFrame;
import org.robostream.codec.PicturePacker;
import org.robostream.nativecore.NativeAddress;

/**
 * Native memory for the frame cache's tests: the blocks a read copies into (a {@link FrameTarget}
 * that never reuses one) and pictures made from a seed, all freed by {@link #close()} after the
 * test. Thread-safe: the hostile tests read from several threads.
 */
final class NativeBlocks implements FrameTarget, AutoCloseable {
  static final int SIDE = 160;

  private final List<BytePointer> blocks = new ArrayList<>();

  @Override
  public synchronized long take(long bytes) {
    BytePointer p = new BytePointer(bytes);
    blocks.add(p);
    return p.address();
  }

  /** Kept until {@link #close()}: a test may still look at what a refused read left there. */
  @Override
  public void giveBack(long address, long bytes) {}

  /** A SIDE x SIDE picture packed in {@code format}, byte i being {@code i * step + seed}. */
  HeldFrame picture(int format, int step, int seed, ColorSpec color, double pts, long index) {
    long bytes = PicturePacker.packedBytes(SIDE, SIDE, format);
    long address = take(bytes);
    BytePointer p = NativeAddress.bytesAt(address, bytes); // a view: the block is ours
    for (long i = 0; i < bytes; i++) {
      p.put(i, (byte) (i * step + seed));
    }
    return new HeldFrame(
        address, bytes, SIDE, SIDE, new HeldForm.Packed(format), color, pts, index);
  }

  @Override
  public synchronized void close() {
    blocks.forEach(BytePointer::close);
    blocks.clear();
  }
}
