package org.robostream.codec;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.bytedeco.javacpp.Pointer;
import org.robostream.video.FrameLayout;
import org.robostream.video.FrameSamples;
import org.robostream.video.VideoStreamInfo;

/**
 * A {@link FrameDestination} over a direct ByteBuffer holding {@code capacity} frames back to back,
 * of any {@link FrameSamples}. Not thread-safe. The buffer is garbage-collected memory; frames
 * meant for Arrow consumers or a GPU go to a {@code FrameBatch} instead ({@code
 * decode.VideoDecoder}).
 */
public final class HostFrameBuffer implements FrameDestination {
  private final int width;
  private final int height;
  private final FrameLayout layout;
  private final ByteBuffer buffer;
  private final long address;
  private final int capacity;
  private final FrameSamples samples;

  public HostFrameBuffer(int capacity, int height, int width, FrameLayout layout) {
    this(capacity, height, width, layout, FrameSamples.RGB_UINT8);
  }

  /** Frames holding {@code samples} (float32 RGB, a depth map's values) instead of uint8 RGB. */
  public HostFrameBuffer(
      int capacity, int height, int width, FrameLayout layout, FrameSamples samples) {
    if (capacity < 0 || width <= 0 || height <= 0) {
      throw new IllegalArgumentException("bad frame buffer geometry");
    }
    this.width = width;
    this.height = height;
    this.layout = layout;
    this.capacity = capacity;
    this.samples = samples;
    long bytes = capacity * frameBytes();
    if (bytes > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("frame buffer of " + bytes + " bytes exceeds 2 GiB");
    }
    this.buffer =
        ByteBuffer.allocateDirect((int) Math.max(1, bytes)).order(ByteOrder.nativeOrder());
    this.address = new Pointer(buffer).address();
  }

  public static HostFrameBuffer forVideo(VideoStreamInfo info, int capacity, FrameLayout layout) {
    return new HostFrameBuffer(capacity, info.height(), info.width(), layout);
  }

  @Override
  public int width() {
    return width;
  }

  @Override
  public int height() {
    return height;
  }

  @Override
  public FrameLayout layout() {
    return layout;
  }

  @Override
  public FrameSamples samples() {
    return samples;
  }

  public int capacity() {
    return capacity;
  }

  @Override
  public long slotAddress(int request) {
    if (request < 0 || request >= capacity) {
      throw new IndexOutOfBoundsException("slot " + request + " of " + capacity);
    }
    return address + request * frameBytes();
  }

  /** A read-only view of frame {@code request}'s bytes. */
  public ByteBuffer frame(int request) {
    int bytes = (int) frameBytes();
    return buffer
        .duplicate()
        .position(request * bytes)
        .limit((request + 1) * bytes)
        .slice()
        .asReadOnlyBuffer();
  }

  /** Frame {@code request} copied into a new array. */
  public byte[] frameBytes(int request) {
    ByteBuffer view = frame(request);
    byte[] out = new byte[view.remaining()];
    view.get(out);
    return out;
  }
}
