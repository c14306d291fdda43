package org.robostream.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.robostream.nativecore.NativeAddress;
import org.robostream.testing.FfmpegReference;
import org.robostream.testing.FrameCompare;
import org.robostream.video.CorruptImageException;
import org.robostream.video.FrameLayout;
import org.robostream.video.FrameSamples;

/**
 * Images of the colour types users' PNGs and JPEGs have (RGB, RGBA, grey, palette, 16-bit grey),
 * decoded by {@link ImageDecoder} and converted both straight from the decoder and through a packed
 * copy (the loader's host path), against the ffmpeg CLI's RGB24 decode of the same file.
 */
class ImageDecoderTest {
  private static final int W = 40;
  private static final int H = 24;

  private static byte[] encode(int type, String format) throws Exception {
    BufferedImage image = new BufferedImage(W, H, type);
    Random random = new Random(type * 31L + format.length());
    for (int y = 0; y < H; y++) {
      for (int x = 0; x < W; x++) {
        int smooth = (x * 6) << 16 | (y * 10) << 8 | ((x + y) * 3);
        image.setRGB(x, y, 0xFF000000 | (random.nextInt(8) == 0 ? random.nextInt() : smooth));
      }
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertTrue(ImageIO.write(image, format, out), format + " writer for type " + type);
    return out.toByteArray();
  }

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({
    "png, 5, 0", // TYPE_3BYTE_BGR: RGB
    "png, 6, 0", // TYPE_4BYTE_ABGR: RGBA
    "png, 10, 0", // TYPE_BYTE_GRAY
    "png, 13, 0", // TYPE_BYTE_INDEXED: palette
    "png, 11, 1", // TYPE_USHORT_GRAY: 16-bit, scaled to 8 bits by swscale
    "jpeg, 5, 1", // YCbCr 4:2:0
    "jpeg, 10, 1" // grey
  })
  void decodesLikeTheFfmpegCli(String format, int type, int tolerance) throws Exception {
    byte[] bytes = encode(type, format);
    Path file = Files.createTempFile("robostream-image", "." + format);
    try (ImageDecoder decoder = new ImageDecoder();
        PicturePacker packer = new PicturePacker();
        SwscaleConverter swscale = new SwscaleConverter()) {
      Files.write(file, bytes);
      byte[] want = FfmpegReference.imageRgb(file);
      HostFrameBuffer direct = new HostFrameBuffer(2, H, W, FrameLayout.HWC);
      RawPicture picture = decoder.decode(bytes, bytes.length, "test", "image");
      assertEquals(W, picture.width());
      assertEquals(H, picture.height());
      decoder.convertCurrent(direct.slotAddress(0), FrameLayout.HWC);
      long packedBytes = PicturePacker.packedBytes(W, H, picture.pixelFormat());
      try (org.bytedeco.javacpp.BytePointer packed =
          new org.bytedeco.javacpp.BytePointer(packedBytes)) {
        packer.pack(picture, packed.address(), 0, 0);
        swscale.convertPacked(
            packed.address(),
            W,
            H,
            picture.pixelFormat(),
            picture.color(),
            new Slot(direct.slotAddress(1), W, H, FrameLayout.HWC, FrameSamples.RGB_UINT8));
      }
      for (int slot = 0; slot < 2; slot++) {
        byte[] got = new byte[W * H * 3];
        NativeAddress.bytesAt(direct.slotAddress(slot), got.length).get(got);
        assertTrue(
            FrameCompare.maxAbsDiff(want, got, 0) <= tolerance,
            (slot == 0 ? "direct" : "packed")
                + " differs by "
                + FrameCompare.maxAbsDiff(want, got, 0));
      }
    } finally {
      Files.deleteIfExists(file);
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"HWC", "CHW"})
  void aFrameOfAWidthThatIsNoMultipleOf16IsWrittenWithinItsSlot(FrameLayout layout)
      throws Exception {
    // swscale's SIMD YUV-to-RGB24 converter writes 16-pixel blocks: 24 bytes past a 40-wide
    // frame, into whatever follows the slot (here the next slot; in a batch, the heap).
    byte[] jpeg = encode(BufferedImage.TYPE_3BYTE_BGR, "jpeg");
    long frame = 3L * W * H;
    try (ImageDecoder decoder = new ImageDecoder();
        PicturePacker packer = new PicturePacker();
        SwscaleConverter swscale = new SwscaleConverter()) {
      HostFrameBuffer slots = new HostFrameBuffer(2, H, W, layout);
      for (int path = 0; path < 2; path++) {
        NativeAddress.bytesAt(slots.slotAddress(1), frame).fill(0x5A);
        RawPicture picture = decoder.decode(jpeg, jpeg.length, "test", "image");
        if (path == 0) {
          decoder.convertCurrent(slots.slotAddress(0), layout);
        } else {
          try (org.bytedeco.javacpp.BytePointer packed =
              new org.bytedeco.javacpp.BytePointer(
                  PicturePacker.packedBytes(W, H, picture.pixelFormat()))) {
            packer.pack(picture, packed.address(), 0, 0);
            swscale.convertPacked(
                packed.address(),
                W,
                H,
                picture.pixelFormat(),
                picture.color(),
                new Slot(slots.slotAddress(0), W, H, layout, FrameSamples.RGB_UINT8));
          }
        }
        byte[] next = new byte[(int) frame];
        NativeAddress.bytesAt(slots.slotAddress(1), frame).get(next);
        for (int i = 0; i < next.length; i++) {
          assertEquals(
              0x5A, next[i], (path == 0 ? "direct" : "packed") + ": byte " + i + " after the slot");
        }
      }
    }
  }

  @Test
  void headersGiveFormatAndSizeAndRefuseOtherBytes() throws Exception {
    byte[] png = encode(BufferedImage.TYPE_3BYTE_BGR, "png");
    byte[] jpeg = encode(BufferedImage.TYPE_3BYTE_BGR, "jpeg");
    assertEquals(new ImageHeader(ImageHeader.Format.PNG, W, H), ImageHeader.read(png, png.length));
    assertEquals(
        new ImageHeader(ImageHeader.Format.JPEG, W, H), ImageHeader.read(jpeg, jpeg.length));
    assertNull(ImageHeader.read(png, 20), "cut before the size");
    assertNull(ImageHeader.read(new byte[] {'G', 'I', 'F', '8', '9', 'a', 0, 0}, 8));
    try (ImageDecoder decoder = new ImageDecoder()) {
      CorruptImageException e =
          assertThrows(
              CorruptImageException.class, () -> decoder.decode(png, 20, "f.parquet", "frame 7"));
      assertEquals("f.parquet", e.file());
      assertEquals("frame 7: the 20 bytes are neither a PNG nor a JPEG image", e.problem());
      // A header claiming a huge (or zero) size is refused before FFmpeg allocates for it.
      byte[] huge = png.clone();
      java.nio.ByteBuffer.wrap(huge, 16, 8).putInt(-1).putInt(0x7fffffff); // 2^32-1 x 2^31-1
      CorruptImageException big =
          assertThrows(
              CorruptImageException.class,
              () -> decoder.decode(huge, huge.length, "f.parquet", "frame 9"));
      assertTrue(big.problem().contains("sides must be 1..16384"), big.problem());
      byte[] empty = png.clone();
      java.nio.ByteBuffer.wrap(empty, 16, 8).putInt(0).putInt(H);
      assertThrows(
          CorruptImageException.class,
          () -> decoder.decode(empty, empty.length, "f.parquet", "frame 10"));
      // The decoder goes on with the next image after a failure.
      RawPicture p = decoder.decode(jpeg, jpeg.length, "f.parquet", "frame 8");
      assertArrayEquals(new int[] {W, H}, new int[] {p.width(), p.height()});
    }
  }
}
