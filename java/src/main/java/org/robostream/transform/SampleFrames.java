package org.robostream.transform;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;
import org.robostream.arrow.DType;
import org.robostream.nativecore.NativeAddress;
import org.robostream.video.FrameLayout;

/**
 * One sample's frames of one camera as an {@link ImageTransform} sees them: {@code positions}
 * frames (1, or the camera's window) of {@code channels} x {@code height} x {@code width} values of
 * {@code dtype} in {@code layout}, back to back in host memory that belongs to the batch being
 * built (valid only during {@link ImageTransform#apply}).
 *
 * <p>Not thread-safe: one worker hands it to the transform and takes it back.
 */
public final class SampleFrames {
  private final String camera;
  private final long index;
  private final long epoch;
  private final int positions;
  private final int channels;
  private final int height;
  private final int width;
  private final FrameLayout layout;
  private final DType dtype;
  private final long address;
  private final SplittableRandom random;

  public SampleFrames(
      String camera,
      long index,
      long epoch,
      int positions,
      int channels,
      int height,
      int width,
      FrameLayout layout,
      DType dtype,
      long address,
      SplittableRandom random) {
    this.camera = camera;
    this.index = index;
    this.epoch = epoch;
    this.positions = positions;
    this.channels = channels;
    this.height = height;
    this.width = width;
    this.layout = layout;
    this.dtype = dtype;
    this.address = address;
    this.random = random;
  }

  /** The camera's feature key. */
  public String camera() {
    return camera;
  }

  /** The sample's {@code index} (its frame's index in the whole dataset). */
  public long index() {
    return index;
  }

  public long epoch() {
    return epoch;
  }

  /** Frames per sample: 1, or the camera's window length. */
  public int positions() {
    return positions;
  }

  public int channels() {
    return channels;
  }

  public int height() {
    return height;
  }

  public int width() {
    return width;
  }

  public FrameLayout layout() {
    return layout;
  }

  /** UINT8 or FLOAT32 RGB (in [0, 1]), UINT16 or FLOAT32 depth. */
  public DType dtype() {
    return dtype;
  }

  /** [T, C, H, W] or [T, H, W, C]. */
  public long[] shape() {
    return layout == FrameLayout.CHW
        ? new long[] {positions, channels, height, width}
        : new long[] {positions, height, width, channels};
  }

  public long byteSize() {
    return (long) positions * channels * height * width * dtype.bytes();
  }

  /** Host address of the first value. */
  public long address() {
    return address;
  }

  /** The frames' memory, native byte order, writable. */
  public ByteBuffer data() {
    return NativeAddress.bytesAt(address, byteSize()).asByteBuffer().order(ByteOrder.nativeOrder());
  }

  /**
   * This sample's generator for this camera: the same numbers for the same (seed, epoch, index,
   * camera) in every run, whatever the worker, rank or resume.
   */
  public SplittableRandom random() {
    return random;
  }
}
