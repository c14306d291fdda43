package org.robostream.stream;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import org.robostream.testing.Fixtures;
import org.robostream.testing.MetadataEdit;
import org.robostream.testing.ParquetEdit;

/** Damaged copies of the image-feature datasets (v2.1, camera observation.images.top). */
final class ImageFixtures {
  private static final String TOP = "observation.images.top";

  private ImageFixtures() {}

  /** {@code source} with the image of {@code frame} of {@code episode} cut after 40 bytes. */
  static Path withCorruptImage(Path source, int episode, int frame) {
    return Fixtures.derivedDataset(
        source.getFileName() + "-corrupt-e" + episode + "f" + frame,
        source,
        root ->
            ParquetEdit.rewrite(
                root.resolve(String.format("data/chunk-000/episode_%06d.parquet", episode)),
                edit -> edit.damageImage(TOP, frame, 40)));
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
}
