package org.robostream.video;

/**
 * An image of an image feature (PNG or JPEG bytes stored in a Parquet row) cannot be decoded: not
 * an image, truncated, damaged, or larger than robostream accepts. {@link #file()} names the file
 * that holds the image; the message names the feature and frame. The sibling of {@link
 * CorruptVideoException} for images.
 */
public class CorruptImageException extends VideoException {
  public CorruptImageException(String file, String problem) {
    super(file, problem);
  }
}
