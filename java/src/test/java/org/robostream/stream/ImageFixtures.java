package org.robostream.stream;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.function.Consumer;
import javax.imageio.ImageIO;
import org.robostream.testing.Fixtures;
import org.robostream.testing.MetadataEdit;
import org.robostream.testing.ParquetEdit;

/** Damaged copies of the image-feature datasets (v2.1, camera observation.images.top). */
final class ImageFixtures {
  private static final String TOP = "observation.images.top";

  private ImageFixtures() {}

  /** {@code source} with the image of {@code frame} of {@code episode} cut after 40 bytes. */
  static Path withCorruptImage(Path source, int episode, int frame) {
    return withEpisodeFileEdited(
        source, "-corrupt-e" + episode + "f" + frame, episode, e -> e.damageImage(TOP, frame, 40));
  }

  /** {@code source} whose image of {@code frame} of {@code episode} has only its path. */
  static Path withPathOnlyImage(Path source, int episode, int frame) {
    return withEpisodeFileEdited(
        source, "-path-only-e" + episode + "f" + frame, episode, e -> e.dropImageBytes(TOP, frame));
  }

  /** {@code source} whose image of {@code frame} of {@code episode} is a 96x64 PNG. */
  static Path withImageOf96x64(Path source, int episode, int frame) {
    return withEpisodeFileEdited(
        source,
        "-96x64-e" + episode + "f" + frame,
        episode,
        e -> e.replaceImage(TOP, frame, png(96, 64)));
  }

  /**
   * {@code source} whose image of {@code frame} of {@code episode} is a 16-bit gray PNG of the
   * declared 64x48 (values a gradient that no 8-bit picture holds: v = 37 * (x + 64 y) + 11).
   */
  static Path withSixteenBitImage(Path source, int episode, int frame) {
    return withEpisodeFileEdited(
        source,
        "-16bit-e" + episode + "f" + frame,
        episode,
        e -> e.replaceImage(TOP, frame, sixteenBitGrayPng(64, 48)));
  }

  private static byte[] sixteenBitGrayPng(int width, int height) {
    BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_USHORT_GRAY);
    for (int y = 0; y < height; y++) {
      for (int x = 0; x < width; x++) {
        image.getRaster().setSample(x, y, 0, (37 * (x + 64 * y) + 11) & 0xffff);
      }
    }
    return pngOf(image);
  }

  private static byte[] png(int width, int height) {
    return pngOf(new BufferedImage(width, height, BufferedImage.TYPE_3BYTE_BGR));
  }

  private static byte[] pngOf(BufferedImage image) {
    try {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ImageIO.write(image, "png", out);
      return out.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A copy of v2.1 {@code source} whose data file of {@code episode} {@code change} edited. */
  private static Path withEpisodeFileEdited(
      Path source, String suffix, int episode, Consumer<ParquetEdit> change) {
    return Fixtures.derivedDataset(
        source.getFileName() + suffix,
        source,
        root ->
            ParquetEdit.rewrite(
                root.resolve(String.format("data/chunk-000/episode_%06d.parquet", episode)),
                change));
  }

  /** {@code source} whose info.json declares {@code action} an image feature. */
  static Path actionDeclaredAsImage(Path source) {
    return Fixtures.derivedDataset(
        source.getFileName() + "-action-image",
        source,
        root ->
            MetadataEdit.info(
                root,
                info -> {
                  ObjectNode action = (ObjectNode) info.path("features").path("action");
                  action.put("dtype", "image");
                  action.putArray("shape").add(48).add(64).add(3);
                }));
  }

  /** {@code source} whose info.json declares the camera {@code width x height}. */
  static Path declaredAs(Path source, int width, int height) {
    return Fixtures.derivedDataset(
        source.getFileName() + "-declared-" + width + "x" + height,
        source,
        root ->
            MetadataEdit.info(
                root,
                info -> {
                  ArrayNode shape =
                      ((ObjectNode) info.path("features").path(TOP)).putArray("shape");
                  shape.add(height).add(width).add(3);
                }));
  }

  /** {@code source} with every image camera declared channels first ([3, H, W], names say so). */
  static Path channelsFirst(Path source) {
    return Fixtures.derivedDataset(
        source.getFileName() + "-channels-first",
        source,
        root ->
            MetadataEdit.info(
                root,
                info ->
                    info.path("features")
                        .forEach(
                            f -> {
                              if (f.path("dtype").asText().equals("image")) {
                                ArrayNode shape = (ArrayNode) f.get("shape");
                                int h = shape.get(0).asInt();
                                int w = shape.get(1).asInt();
                                ((ObjectNode) f).putArray("shape").add(3).add(h).add(w);
                                ((ObjectNode) f)
                                    .putArray("names")
                                    .add("channels")
                                    .add("height")
                                    .add("width");
                              }
                            })));
  }
}
