package org.robostream.frames;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.robostream.arrow.BatchMemoryPool;
import org.robostream.codec.DecodedPicture;
import org.robostream.codec.HeldFrame;
import org.robostream.codec.RawPicture;
import org.robostream.codec.Slot;
import org.robostream.nativecore.NativeAddress;
import org.robostream.testing.HeldFrameBytes;
import org.robostream.video.FrameLayout;
import org.robostream.video.FrameSamples;
import org.robostream.video.UnsupportedVideoException;

/**
 * The CUDA frame device's holder over a host pool (how it runs without a GPU): a frame asked again
 * by the next request is copied from the block just converted, not converted twice; a picture on
 * the GPU is never written into host memory.
 */
class CudaFrameDeviceTest {
  private static final HoldSpec SPEC =
      new HoldSpec(new FrameSize(2, 3), FrameSamples.RGB_UINT8, FrameLayout.HWC, null);
  private static final int BYTES = 2 * 3 * 3;

  /** A picture that writes {@code value} into every byte of the block it is converted into. */
  private static final class Painted implements DecodedPicture {
    private final boolean onGpu;
    private final byte value;
    int conversions;

    Painted(boolean onGpu, int value) {
      this.onGpu = onGpu;
      this.value = (byte) value;
    }

    @Override
    public int width() {
      return 3;
    }

    @Override
    public int height() {
      return 2;
    }

    @Override
    public boolean onGpu() {
      return onGpu;
    }

    @Override
    public boolean deep() {
      return false;
    }

    @Override
    public RawPicture raw() {
      throw new UnsupportedVideoException("test", "no host planes");
    }

    @Override
    public void convertInto(Slot slot) {
      conversions++;
      byte[] fill = new byte[slot.width() * slot.height() * 3];
      java.util.Arrays.fill(fill, value);
      NativeAddress.bytesAt(slot.address(), fill.length).put(fill);
    }
  }

  @Test
  void aRepeatedFrameIsCopiedFromTheBlockJustConvertedAndAnUnrecordedIndexIsNeverARepeat() {
    try (BatchMemoryPool pool = BatchMemoryPool.host();
        FrameDevice device = FrameDevice.Kind.CUDA.open(pool);
        FrameMemory memory = device.newMemory(1 << 20)) {
      HeldFrame[] out = new HeldFrame[4];
      List<HeldFrame> held = Arrays.asList(out);
      PictureHolder holder = device.holder(SPEC, memory, out);
      Painted seven = new Painted(false, 7);
      holder.accept(0, seven, 0.25, 5);
      holder.accept(1, seven, 0.25, 5);
      assertEquals(1, seven.conversions, "frame 5 converted once");
      Painted nine = new Painted(false, 9);
      Painted eleven = new Painted(false, 11);
      holder.accept(2, nine, 0.5, -1);
      holder.accept(3, eleven, 0.5, -1); // another picture: -1 says nothing about which frame
      assertEquals(1, eleven.conversions, "an unrecorded index is converted, not copied");
      byte[] sevens = new byte[BYTES];
      java.util.Arrays.fill(sevens, (byte) 7);
      byte[] elevens = new byte[BYTES];
      java.util.Arrays.fill(elevens, (byte) 11);
      assertArrayEquals(sevens, HeldFrameBytes.of(held.get(0)));
      assertArrayEquals(
          sevens, HeldFrameBytes.of(held.get(1)), "the repeat's own block holds the frame");
      assertArrayEquals(elevens, HeldFrameBytes.of(held.get(3)));
      assertEquals(4L * BYTES, memory.heldBytes(), "a block per request");
      memory.releaseAll();
    }
  }

  @Test
  void aPictureOnTheGpuIsNeverWrittenIntoAHostPool() {
    try (BatchMemoryPool pool = BatchMemoryPool.host();
        FrameDevice device = FrameDevice.Kind.CUDA.open(pool);
        FrameMemory memory = device.newMemory(1 << 20)) {
      PictureHolder holder = device.holder(SPEC, memory, new HeldFrame[1]);
      Painted onGpu = new Painted(true, 1);
      assertThrows(IllegalStateException.class, () -> holder.accept(0, onGpu, 0.0, 0));
      holder.releaseUndelivered();
      assertEquals(0, onGpu.conversions, "nothing written");
      assertEquals(0, memory.heldBytes(), "no block kept");
    }
  }
}
