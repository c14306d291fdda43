package org.robostream.dataset;

import java.util.Arrays;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.robostream.codec.ImageHeader;

/**
 * The real size of image features' images against the shape info.json declares, read from an
 * image's header (PNG's IHDR, JPEG's start of frame) without decoding it. When a dataset is opened
 * the first image of every image camera is checked (one small read per camera), so a dataset whose
 * images are all of another size fails then, not after its first batches; the loader checks every
 * image before decoding it. Stateless.
 */
public final class ImageSizes {
  private ImageSizes() {}

  /**
   * Checks frame 0 of the first kept episode that has frames, for every kept image camera of {@code
   * metadata}.
   */
  public static void checkFirstImages(LeRobotMetadata metadata) {
    EpisodeInfo episode =
        metadata.episodes().stream().filter(e -> e.length() > 0).findFirst().orElse(null);
    if (metadata.imageCameras().isEmpty() || episode == null) {
      return;
    }
    try (BufferAllocator allocator = new RootAllocator()) {
      for (String camera : metadata.imageCameras()) { // the kept ones
        Feature feature = metadata.info().features().get(camera);
        byte[] image = EpisodeImages.first(allocator, episode, feature);
        require(
            image,
            feature,
            episode.dataFile().toString(),
            "episode " + episode.index() + " frame 0 of " + camera);
      }
    }
  }

  /**
   * Throws {@link DatasetException.BadMetadata} naming {@code file}, {@code where} the image is,
   * both sizes and the declared shape when {@code image}'s header gives another size than {@code
   * feature} declares. An image without a readable header passes: its decoder names the problem.
   */
  public static void require(byte[] image, Feature feature, String file, String where) {
    ImageHeader header = ImageHeader.read(image, image.length);
    FrameShape declared = feature.frameShape(); // axes as its names say (channels first or last)
    if (header != null
        && (header.width() != declared.width() || header.height() != declared.height())) {
      throw new DatasetException.BadMetadata(
          file,
          where
              + " is a "
              + header.width()
              + "x"
              + header.height()
              + " "
              + header.format()
              + " but info.json declares "
              + feature.name()
              + " as "
              + declared.width()
              + "x"
              + declared.height()
              + " (shape "
              + Arrays.toString(feature.shape())
              + ")");
    }
  }
}
