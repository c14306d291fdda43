package org.robostream.dataset.synth;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * The camera columns of a dataset whose cameras are image features: per camera a struct {@code
 * {bytes: binary, path: string}} (Hugging Face datasets' {@code Image} type, as LeRobot writes it),
 * each row holding its frame's encoded PNG or JPEG and the file name the image would have on disk
 * ({@code frame_000012.png}). Not thread-safe: one per dataset being written.
 */
final class ImageColumns {
  static final String BYTES = "bytes";
  static final String PATH = "path";

  private final SyntheticDatasetSpec spec;
  private final CameraFormat format;
  private final ImageFeatureEncoder encoder;

  ImageColumns(SyntheticDatasetSpec spec, CameraFormat format) {
    this.spec = spec;
    this.format = format;
    this.encoder = new ImageFeatureEncoder(format, spec.width(), spec.height());
  }

  /** One struct field per camera, in camera order. */
  List<Field> fields() {
    List<Field> fields = new ArrayList<>();
    for (String camera : spec.cameraKeys()) {
      fields.add(
          new Field(
              camera,
              FieldType.nullable(ArrowType.Struct.INSTANCE),
              List.of(
                  Field.nullable(BYTES, ArrowType.Binary.INSTANCE),
                  Field.nullable(PATH, ArrowType.Utf8.INSTANCE))));
    }
    return fields;
  }

  /** Encoded bytes a row adds, about: for the data-file rollover. */
  long bytesPerRow() {
    long raw = 3L * spec.width() * spec.height() * spec.cameras();
    return format == CameraFormat.PNG ? raw / 2 : raw / 10;
  }

  /** Fills the camera columns of episode {@code e}'s {@code frames} rows. */
  void fill(VectorSchemaRoot root, int e, int frames) {
    byte[] rgb = new byte[3 * spec.width() * spec.height()];
    List<String> cameras = spec.cameraKeys();
    for (int k = 0; k < cameras.size(); k++) {
      StructVector column = (StructVector) root.getVector(cameras.get(k));
      VarBinaryVector bytes = column.getChild(BYTES, VarBinaryVector.class);
      VarCharVector path = column.getChild(PATH, VarCharVector.class);
      FfmpegVideoWriter.FramePainter painter = CameraFrames.painter(spec, e, k);
      for (int f = 0; f < frames; f++) {
        painter.paint(rgb, f);
        try {
          bytes.setSafe(f, encoder.encode(rgb));
        } catch (IOException ex) {
          throw new UncheckedIOException(ex);
        }
        String name = String.format("frame_%06d.%s", f, format.extension());
        path.setSafe(f, name.getBytes(StandardCharsets.UTF_8));
        column.setIndexDefined(f);
      }
      bytes.setValueCount(frames);
      path.setValueCount(frames);
      column.setValueCount(frames);
    }
  }
}
