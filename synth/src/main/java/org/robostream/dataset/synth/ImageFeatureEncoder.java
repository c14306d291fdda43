package org.robostream.dataset.synth;

import java.awt.image.BufferedImage;
import java.awt.image.DataBufferByte;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import javax.imageio.ImageIO;

/**
 * Encodes RGB24 (HWC) frames as PNG (lossless: the decoded pixels are the painted ones) or JPEG
 * (the JDK's baseline encoder: YCbCr 4:2:0, quality 0.75), the bytes an image feature stores. Not
 * thread-safe: one per dataset being written (it reuses one image).
 */
final class ImageFeatureEncoder {
  private final CameraFormat format;
  private final BufferedImage image;

  ImageFeatureEncoder(CameraFormat format, int width, int height) {
    if (!format.isImage()) {
      throw new IllegalArgumentException(format + " is not an image format");
    }
    this.format = format;
    this.image = new BufferedImage(width, height, BufferedImage.TYPE_3BYTE_BGR);
  }

  /** The encoded bytes of {@code rgb} (width * height * 3 bytes, HWC). */
  byte[] encode(byte[] rgb) throws IOException {
    byte[] bgr = ((DataBufferByte) image.getRaster().getDataBuffer()).getData();
    for (int i = 0; i < bgr.length; i += 3) {
      bgr[i] = rgb[i + 2];
      bgr[i + 1] = rgb[i + 1];
      bgr[i + 2] = rgb[i];
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    if (!ImageIO.write(image, format == CameraFormat.PNG ? "png" : "jpeg", out)) {
      throw new IOException("the JDK has no " + format + " writer");
    }
    return out.toByteArray();
  }
}
