package org.robostream.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.robostream.dataset.ParquetFrames;
import org.robostream.dataset.synth.LanguageColumnWriter;
import org.robostream.dataset.synth.ParquetTableWriter;
import org.robostream.dataset.synth.SyntheticDatasetSpec;
import org.robostream.dataset.synth.SyntheticLanguage;
import org.robostream.dataset.synth.VideoCodecChoice;

/**
 * Test datasets with LeRobot's language columns. The columns, their rows and the JSON the loader
 * must deliver are the synth module's ({@link LanguageColumnWriter}, {@link SyntheticLanguage},
 * {@code LanguageMessage.json}); here are the fixture datasets, and {@link #addTo}, which rewrites
 * an existing dataset's data files with rows a test chooses (ones the loader must refuse), since
 * the writer has no Parquet reader. Stateless.
 */
public final class LanguageColumns {
  private static final ObjectMapper JSON = new ObjectMapper();

  private LanguageColumns() {}

  /** A v3.0 dataset: 6 episodes of 24 frames at 30 fps in one data file, one 64x64 camera. */
  private static SyntheticDatasetSpec baseSpec() {
    return new SyntheticDatasetSpec(
        Path.of("unused"),
        6,
        24,
        0.0,
        1,
        64,
        64,
        30,
        VideoCodecChoice.AV1,
        2,
        -1,
        SyntheticDatasetSpec.Layout.V30,
        100,
        200,
        SyntheticDatasetSpec.Content.PATTERN,
        2,
        2);
  }

  /** {@link #baseSpec} without language columns, for {@link #addTo}. */
  public static Path baseDataset() {
    return Fixtures.dataset("language-base-v30", baseSpec());
  }

  /** {@link #baseSpec} with both language columns as the synthetic writer writes them. */
  public static Path dataset() {
    return Fixtures.dataset("language-v30", baseSpec().withLanguageColumns(true));
  }

  /**
   * Adds both columns to every data file of {@code root} and declares them in info.json: {@code
   * language_persistent} as {@code persistent} says, {@code language_events} the synthetic ones.
   */
  public static void addTo(Path root, LanguageColumnWriter.Rows persistent) throws IOException {
    LanguageColumnWriter writer = new LanguageColumnWriter(persistent, SyntheticLanguage::events);
    try (Stream<Path> files = Files.walk(root.resolve("data"))) {
      for (Path file : files.filter(p -> p.toString().endsWith(".parquet")).toList()) {
        addToFile(file, writer);
      }
    }
    MetadataEdit.info(
        root,
        info -> {
          ObjectNode features = (ObjectNode) info.get("features");
          for (String name :
              List.of(LanguageColumnWriter.PERSISTENT, LanguageColumnWriter.EVENTS)) {
            features.set(name, JSON.valueToTree(LanguageColumnWriter.feature()));
          }
        });
  }

  private static void addToFile(Path file, LanguageColumnWriter writer) throws IOException {
    try (BufferAllocator allocator = new RootAllocator()) {
      List<String> names = ParquetFrames.fileColumns(allocator, file);
      try (VectorSchemaRoot read = ParquetFrames.read(allocator, file, names)) {
        int rows = read.getRowCount();
        List<FieldVector> vectors = new ArrayList<>();
        for (FieldVector v : read.getFieldVectors()) {
          vectors.add(copy(v, allocator));
        }
        for (Field f : LanguageColumnWriter.fields()) {
          vectors.add(f.createVector(allocator));
        }
        try (VectorSchemaRoot out = new VectorSchemaRoot(vectors)) {
          writer.fill(out, rows);
          out.setRowCount(rows);
          ParquetTableWriter.write(allocator, out.getSchema(), List.of(out), file);
        }
      }
    }
  }

  private static FieldVector copy(FieldVector from, BufferAllocator allocator) {
    FieldVector to = from.getField().createVector(allocator);
    to.allocateNew();
    for (int r = 0; r < from.getValueCount(); r++) {
      to.copyFromSafe(r, r, from);
    }
    to.setValueCount(from.getValueCount());
    return to;
  }
}
