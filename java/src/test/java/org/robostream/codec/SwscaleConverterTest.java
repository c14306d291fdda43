package org.robostream.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.Arrays;
import org.bytedeco.ffmpeg.global.avutil;
import org.bytedeco.javacpp.BytePointer;
import org.junit.jupiter.api.Test;
import org.robostream.video.FrameLayout;
import org.robostream.video.FrameSamples;

/**
 * One converter converts pictures of several sizes in turn (a worker's converter serves every
 * camera, and resize changes the destination size): swscale's cached context is then made anew,
 * with swscale's default matrix, and the stream's own matrix and range must be set on it again.
 */
class SwscaleConverterTest {
  private static final int SIDE = 16;
  private static final ColorSpec BT709_FULL = new ColorSpec(ColorSpec.Matrix.BT709, true);

  @Test
  void theStreamsMatrixSurvivesAChangeOfDestinationSize() {
    try (BytePointer y = filled(SIDE * SIDE, 120);
        BytePointer u = filled(SIDE * SIDE / 4, 200);
        BytePointer v = filled(SIDE * SIDE / 4, 60);
        SwscaleConverter converter = new SwscaleConverter();
        SwscaleConverter fresh = new SwscaleConverter()) {
      long[] planes = {y.address(), u.address(), v.address()};
      int[] strides = {SIDE, SIDE / 2, SIDE / 2};
      byte[] first = convert(converter, planes, strides, SIDE, BT709_FULL);
      convert(converter, planes, strides, SIDE / 2, BT709_FULL); // another cached context
      byte[] again = convert(converter, planes, strides, SIDE, BT709_FULL);
      assertArrayEquals(first, again, "the same conversion after a size change");
      byte[] bt601 =
          convert(fresh, planes, strides, SIDE, new ColorSpec(ColorSpec.Matrix.BT601, true));
      assertFalse(Arrays.equals(first, bt601), "the matrices give different colours here");
    }
  }

  private static byte[] convert(
      SwscaleConverter converter, long[] planes, int[] strides, int dstSide, ColorSpec color) {
    try (BytePointer dst = new BytePointer((long) dstSide * dstSide * 3)) {
      converter.convert(
          new RawPicture(planes, strides, SIDE, SIDE, avutil.AV_PIX_FMT_YUV420P, color),
          new Slot(dst.address(), dstSide, dstSide, FrameLayout.HWC, FrameSamples.RGB_UINT8));
      byte[] out = new byte[dstSide * dstSide * 3];
      dst.get(out);
      return out;
    }
  }

  private static BytePointer filled(int bytes, int value) {
    BytePointer p = new BytePointer(bytes);
    p.fill(value);
    return p;
  }
}
