package org.robostream.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.awt.image.Raster;
import java.awt.image.WritableRaster;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.Random;
import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriter;
import javax.imageio.stream.MemoryCacheImageOutputStream;
import org.junit.jupiter.api.Test;
import org.robostream.video.CorruptImageException;
import org.robostream.video.FrameLayout;
import org.robostream.video.UnsupportedVideoException;

/**
 * Images decode strictly (issue 24): FFmpeg conceals damage (a JPEG cut in its scan decodes with
 * made-up rows, a palette PNG without its palette decodes black), so a damaged image is a {@link
 * CorruptImageException} naming the file and what is wrong before FFmpeg sees it, and a CMYK/YCCK
 * JPEG a typed {@link UnsupportedVideoException} (before: an untyped IllegalStateException out of
 * swscale). The fuzzes at the end count outcomes: every PNG mutation is refused or decodes to the
 * original pixels (PNG chunks carry CRC-32s), every JPEG cut is refused, and no mutation ends in an
 * untyped exception.
 */
class StrictImageTest {
  private static final int W = 40;
  private static final int H = 24;

  private static byte[] encode(int type, String format) throws Exception {
    BufferedImage image = new BufferedImage(W, H, type);
    Random random = new Random(7);
    for (int y = 0; y < H; y++) {
      for (int x = 0; x < W; x++) {
        image.setRGB(x, y, 0xFF000000 | (x * 6) << 16 | (y * 10) << 8 | random.nextInt(64));
      }
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertTrue(ImageIO.write(image, format, out));
    return out.toByteArray();
  }

  private static byte[] decodeToRgb(ImageDecoder decoder, byte[] bytes) {
    RawPicture p =
        decoder.decode(
            bytes, bytes.length, "images.parquet", "observation.image episode 3 frame 7");
    // The loader refuses another size than the feature declares before converting; here the
    // buffer is the original's size, so a picture of another size must not be converted into it.
    assertEquals(W + "x" + H, p.width() + "x" + p.height(), "a picture of another size");
    HostFrameBuffer rgb = new HostFrameBuffer(1, H, W, FrameLayout.HWC);
    decoder.convertCurrent(rgb.slotAddress(0), FrameLayout.HWC);
    byte[] out = new byte[W * H * 3];
    rgb.frame(0).get(out);
    return out;
  }

  @Test
  void aTruncatedJpegIsRefusedNamingFileAndFrame() throws Exception {
    byte[] jpeg = encode(BufferedImage.TYPE_3BYTE_BGR, "jpeg");
    try (ImageDecoder decoder = new ImageDecoder()) {
      decodeToRgb(decoder, jpeg); // whole: decodes
      for (double cut : new double[] {0.32, 0.46, 0.69, 0.99}) {
        byte[] shorter = Arrays.copyOf(jpeg, (int) (jpeg.length * cut));
        CorruptImageException e =
            assertThrows(CorruptImageException.class, () -> decodeToRgb(decoder, shorter));
        assertEquals("images.parquet", e.file());
        assertTrue(e.problem().contains("observation.image episode 3 frame 7"), e.getMessage());
        assertTrue(e.problem().contains("truncated"), e.getMessage());
      }
      byte[] noEnd = Arrays.copyOf(jpeg, jpeg.length - 2); // all of it but the end marker
      assertThrows(CorruptImageException.class, () -> decodeToRgb(decoder, noEnd));
    }
  }

  @Test
  void aPalettePngWithoutItsPaletteIsRefused() throws Exception {
    byte[] png = encode(BufferedImage.TYPE_BYTE_INDEXED, "png");
    int plte = indexOf(png, "PLTE") - 4; // the chunk starts with its length
    assertTrue(plte > 0, "ImageIO writes indexed PNGs with a PLTE chunk");
    int length =
        ((png[plte] & 0xFF) << 24)
            | ((png[plte + 1] & 0xFF) << 16)
            | ((png[plte + 2] & 0xFF) << 8)
            | (png[plte + 3] & 0xFF);
    byte[] without = new byte[png.length - 12 - length];
    System.arraycopy(png, 0, without, 0, plte);
    System.arraycopy(png, plte + 12 + length, without, plte, png.length - plte - 12 - length);
    try (ImageDecoder decoder = new ImageDecoder()) {
      decodeToRgb(decoder, png);
      CorruptImageException e =
          assertThrows(CorruptImageException.class, () -> decodeToRgb(decoder, without));
      assertTrue(e.problem().contains("palette PNG without a PLTE chunk"), e.getMessage());
    }
  }

  @Test
  void aCmykJpegIsATypedRefusal() throws Exception {
    WritableRaster raster =
        Raster.createInterleavedRaster(java.awt.image.DataBuffer.TYPE_BYTE, W, H, 4, null);
    for (int y = 0; y < H; y++) {
      for (int x = 0; x < W; x++) {
        raster.setPixel(x, y, new int[] {x * 6, y * 10, 40, 20});
      }
    }
    ImageWriter writer = ImageIO.getImageWritersByFormatName("jpeg").next();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (MemoryCacheImageOutputStream stream = new MemoryCacheImageOutputStream(out)) {
      writer.setOutput(stream);
      writer.write(null, new IIOImage(raster, null, null), null);
    } finally {
      writer.dispose();
    }
    byte[] cmyk = out.toByteArray();
    try (ImageDecoder decoder = new ImageDecoder()) {
      UnsupportedVideoException e =
          assertThrows(UnsupportedVideoException.class, () -> decodeToRgb(decoder, cmyk));
      assertTrue(e.problem().contains("4-component (CMYK or YCCK) JPEG"), e.getMessage());
      assertTrue(e.problem().contains("frame 7"), e.getMessage());
    }
  }

  /** Every byte of a PNG flipped, one at a time: refused, or the very same pixels. */
  @Test
  void pngFuzzEveryMutationIsRefusedOrDecodesToTheOriginal() throws Exception {
    byte[] png = encode(BufferedImage.TYPE_3BYTE_BGR, "png");
    Random random = new Random(24);
    int refused = 0;
    int same = 0;
    try (ImageDecoder decoder = new ImageDecoder()) {
      byte[] want = decodeToRgb(decoder, png);
      for (int at = 0; at < png.length; at++) {
        byte[] mutated = png.clone();
        mutated[at] ^= (byte) (1 + random.nextInt(255));
        try {
          assertArrayEquals(want, decodeToRgb(decoder, mutated), "byte " + at + " flipped");
          same++;
        } catch (CorruptImageException expected) {
          refused++;
        }
      }
      for (int cut = 0; cut < png.length; cut++) {
        byte[] shorter = Arrays.copyOf(png, cut);
        assertThrows(CorruptImageException.class, () -> decodeToRgb(decoder, shorter));
        refused++;
      }
    }
    System.out.printf(
        "png fuzz: %d mutations (%d bytes flipped, %d cuts): %d refused, %d the original%n",
        2 * png.length, png.length, png.length, refused, same);
    assertTrue(refused >= png.length, refused + " refused");
  }

  /**
   * A JPEG cut at every length is refused; flipped bytes (JPEG has no checksum: a flip inside the
   * scan data can decode to other pixels, which no decoder can tell) end in a picture or a typed
   * error, never an untyped exception.
   */
  @Test
  void jpegFuzzEveryCutIsRefusedAndNoFlipEndsUntyped() throws Exception {
    byte[] jpeg = encode(BufferedImage.TYPE_3BYTE_BGR, "jpeg");
    Random random = new Random(24);
    int refused = 0;
    int decoded = 0;
    try (ImageDecoder decoder = new ImageDecoder()) {
      for (int cut = 0; cut < jpeg.length - 1; cut++) {
        byte[] shorter = Arrays.copyOf(jpeg, cut);
        assertThrows(
            CorruptImageException.class, () -> decodeToRgb(decoder, shorter), "cut " + cut);
        refused++;
      }
      for (int i = 0; i < 400; i++) {
        byte[] mutated = jpeg.clone();
        mutated[random.nextInt(jpeg.length)] ^= (byte) (1 + random.nextInt(255));
        try {
          decodeToRgb(decoder, mutated);
          decoded++;
        } catch (CorruptImageException | UnsupportedVideoException typed) {
          refused++;
        }
      }
    }
    System.out.printf(
        "jpeg fuzz: %d cuts refused, 400 flips: %d refused, %d decoded%n",
        jpeg.length - 1, refused - (jpeg.length - 1), decoded);
  }

  private static int indexOf(byte[] b, String text) {
    byte[] t = text.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
    outer:
    for (int i = 0; i + t.length <= b.length; i++) {
      for (int j = 0; j < t.length; j++) {
        if (b[i + j] != t[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
