package org.robostream.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.dataset.JsonCells;
import org.robostream.dataset.ParquetFrames;
import org.robostream.dataset.synth.LanguageColumnWriter;
import org.robostream.dataset.synth.LanguageMessage;
import org.robostream.dataset.synth.SyntheticLanguage;
import org.robostream.stream.Batch;
import org.robostream.stream.StreamingDataset;

/**
 * {@code make-dataset --language-columns} writes LeRobot's language columns (the Python bridge's
 * tests get their dataset with them this way): declared {@code dtype language} in info.json,
 * present in every data file with each row's messages as {@link SyntheticLanguage} says, and
 * streamed by the loader as each sample's JSON text.
 */
@org.junit.jupiter.api.extension.ExtendWith(org.robostream.testing.NativeLeakCheck.class)
class MakeDatasetLanguageColumnsTest {
  private static final List<String> COLUMNS =
      List.of(LanguageColumnWriter.PERSISTENT, LanguageColumnWriter.EVENTS);

  @TempDir Path tmp;

  @Test
  void bothColumnsAreDeclaredAndInEveryDataFileWithEachRowsMessages() throws Exception {
    // No cameras: only the tables matter here. v3.0 rolls a data file over per episode.
    String[][] layouts = {{"v2.1"}, {"v3.0", "--data-files-size-mb", "0.001"}};
    for (String[] layout : layouts) {
      Path out = tmp.resolve(layout[0]);
      List<String> args = new ArrayList<>(List.of("--cameras", "0", "--layout"));
      args.addAll(List.of(layout));
      assertEquals(0, makeDataset(out, args.toArray(String[]::new)), layout[0]);
      JsonNode features =
          Json.MAPPER.readTree(out.resolve("meta/info.json").toFile()).get("features");
      for (String column : COLUMNS) {
        assertEquals(
            "{\"dtype\":\"language\",\"shape\":[1],\"names\":null}",
            features.get(column).toString(),
            layout[0] + " " + column);
      }
      List<Path> files;
      try (Stream<Path> walk = Files.walk(out.resolve("data"))) {
        files = walk.filter(p -> p.toString().endsWith(".parquet")).sorted().toList();
      }
      assertEquals(3, files.size(), layout[0] + ": one data file per episode");
      long rows = 0;
      for (Path file : files) {
        rows += checkRows(file);
      }
      assertEquals(120, rows, layout[0]);
    }
    // Without the flag: neither column.
    Path plain = tmp.resolve("plain");
    assertEquals(
        0,
        Main.run("make-dataset", "--out", plain.toString(), "--episodes", "1", "--cameras", "0"));
    JsonNode features =
        Json.MAPPER.readTree(plain.resolve("meta/info.json").toFile()).get("features");
    assertFalse(features.has(LanguageColumnWriter.PERSISTENT), features.toString());
    assertFalse(features.has(LanguageColumnWriter.EVENTS), features.toString());
  }

  /** Checks every row of {@code file}'s language columns against its index and frame. */
  private static int checkRows(Path file) throws Exception {
    try (BufferAllocator a = new RootAllocator()) {
      List<String> columns = ParquetFrames.fileColumns(a, file);
      assertTrue(columns.containsAll(COLUMNS), file + ": " + columns);
      try (VectorSchemaRoot root = ParquetFrames.read(a, file, columns)) {
        BaseIntVector index = (BaseIntVector) root.getVector("index");
        BaseIntVector frame = (BaseIntVector) root.getVector("frame_index");
        for (int r = 0; r < root.getRowCount(); r++) {
          checkRow(
              index.getValueAsLong(r),
              (int) frame.getValueAsLong(r),
              JsonCells.write(root.getVector(LanguageColumnWriter.PERSISTENT), r, 1 << 20),
              JsonCells.write(root.getVector(LanguageColumnWriter.EVENTS), r, 1 << 20));
        }
        return root.getRowCount();
      }
    }
  }

  /** Both texts of the row with dataset index {@code index} are its messages. */
  private static void checkRow(long index, int frame, String persistent, String events)
      throws Exception {
    assertEquals(
        LanguageMessage.json(SyntheticLanguage.persistent(index, frame), true),
        Json.MAPPER.readTree(persistent),
        "language_persistent of row " + index);
    assertEquals(
        LanguageMessage.json(SyntheticLanguage.events(index, frame), false),
        Json.MAPPER.readTree(events),
        "language_events of row " + index);
  }

  /** The Python bridge's command: one v3.0 data file of 120 rows, one 64x64 camera. */
  @Test
  void theDatasetStreamsEachSamplesOwnRowsTexts() throws Exception {
    Path out = tmp.resolve("stream");
    assertEquals(0, makeDataset(out, "--cameras", "1", "--size", "64x64"));
    List<Long> seen = new ArrayList<>();
    String[] row70 = null;
    try (StreamingDataset ds =
        StreamingDataset.builder(out).batchSize(16).workers(1).shuffle(false).build()) {
      for (Batch b : ds) {
        try (b) {
          long[] index = b.longs("index");
          long[] frame = b.longs("frame_index");
          String[] persistent = b.strings(LanguageColumnWriter.PERSISTENT);
          String[] events = b.strings(LanguageColumnWriter.EVENTS);
          for (int i = 0; i < b.size(); i++) {
            checkRow(index[i], (int) frame[i], persistent[i], events[i]);
            if (index[i] == 70) {
              row70 = new String[] {persistent[i], events[i]};
            }
            seen.add(index[i]);
          }
        }
      }
    }
    assertEquals(120, seen.size());
    // Every layout streams, rows varying from the first on (the loader's open-time check of
    // list columns leaves language columns alone): v2.1, one data file per episode.
    Path v21 = tmp.resolve("stream-v21");
    assertEquals(0, makeDataset(v21, "--cameras", "1", "--size", "64x64", "--layout", "v2.1"));
    int rows = 0;
    try (StreamingDataset ds = StreamingDataset.builder(v21).batchSize(16).workers(1).build()) {
      for (Batch b : ds) {
        try (b) {
          long[] index = b.longs("index");
          long[] frame = b.longs("frame_index");
          String[] persistent = b.strings(LanguageColumnWriter.PERSISTENT);
          String[] events = b.strings(LanguageColumnWriter.EVENTS);
          for (int i = 0; i < b.size(); i++) {
            checkRow(index[i], (int) frame[i], persistent[i], events[i]);
          }
          rows += b.size();
        }
      }
    }
    assertEquals(120, rows);
    // Row 70 (episode 1, frame 30; 70 % 6 == 4) as the Python bridge's tests see the texts.
    assertEquals(
        "[{\"role\":\"assistant\",\"content\":\"x\",\"style\":\"motion\","
            + "\"timestamp\":1.100000023841858,\"camera\":null,\"tool_calls\":[]}]",
        row70[0]);
    assertEquals(
        "[{\"role\":\"user\",\"content\":\"what is visible? ✓\",\"style\":\"vqa\","
            + "\"camera\":\"observation.images.top\",\"tool_calls\":null},"
            + "{\"role\":\"assistant\",\"content\":\"two calls\",\"style\":null,\"camera\":null,"
            + "\"tool_calls\":[{\"type\":\"function\",\"function\":{\"name\":\"say\","
            + "\"arguments\":{\"text\":\"a\"}}},{\"type\":\"function\",\"function\":"
            + "{\"name\":\"say\",\"arguments\":{\"text\":null}}}]}]",
        row70[1]);
  }

  /** make-dataset of 3 episodes x 40 frames with language columns, and {@code more}. */
  private static int makeDataset(Path out, String... more) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "make-dataset",
                "--out",
                out.toString(),
                "--episodes",
                "3",
                "--frames-per-episode",
                "40",
                "--language-columns"));
    args.addAll(List.of(more));
    return Main.run(args.toArray(String[]::new));
  }
}
