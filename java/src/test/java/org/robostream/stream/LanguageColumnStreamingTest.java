package org.robostream.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.robostream.dataset.DatasetException;
import org.robostream.dataset.DatasetInfo;
import org.robostream.dataset.Feature;
import org.robostream.dataset.synth.LanguageColumnWriter;
import org.robostream.dataset.synth.LanguageMessage;
import org.robostream.dataset.synth.SyntheticLanguage;
import org.robostream.testing.Fixtures;
import org.robostream.testing.LanguageColumns;

/**
 * A dataset with LeRobot's language columns streams end to end: every sample carries its own row's
 * {@code language_persistent} and {@code language_events} as JSON text, in natural and shuffled
 * order; windows on them are refused at build; a row past the 1 MiB bound is a typed error naming
 * the file, episode and column.
 */
class LanguageColumnStreamingTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int ROWS = 6 * 24;

  /** Checks every sample of {@code b}; returns the dataset indices it held. */
  private static List<Long> check(Batch b) throws Exception {
    long[] index = b.longs("index");
    long[] frame = b.longs("frame_index");
    String[] persistent = b.strings(LanguageColumnWriter.PERSISTENT);
    String[] events = b.strings(LanguageColumnWriter.EVENTS);
    assertEquals(b.size(), persistent.length, "one text per sample");
    assertEquals(b.size(), events.length, "one text per sample");
    List<Long> seen = new java.util.ArrayList<>();
    for (int i = 0; i < b.size(); i++) {
      int f = (int) frame[i];
      assertEquals(
          LanguageMessage.json(SyntheticLanguage.persistent(index[i], f), true),
          JSON.readTree(persistent[i]),
          "language_persistent of row " + index[i]);
      assertEquals(
          LanguageMessage.json(SyntheticLanguage.events(index[i], f), false),
          JSON.readTree(events[i]),
          "language_events of row " + index[i]);
      seen.add(index[i]);
    }
    return seen;
  }

  @Test
  void everySampleCarriesItsOwnRowsLanguageInNaturalOrder() throws Exception {
    Path root = LanguageColumns.dataset();
    List<Long> order = new java.util.ArrayList<>();
    try (StreamingDataset ds =
        StreamingDataset.builder(root).batchSize(10).workers(1).shuffle(false).build()) {
      for (Batch b : ds) {
        try (b) {
          assertTrue(
              b.columnNames().contains(LanguageColumnWriter.PERSISTENT),
              b.columnNames().toString());
          order.addAll(check(b));
        }
      }
    }
    assertEquals(ROWS, order.size());
    for (int i = 0; i < ROWS; i++) {
      assertEquals(i, order.get(i), "rows in the dataset's order");
    }
  }

  @Test
  void shuffledSamplesWithTwoWorkersCarryTheirOwnRowsLanguage() throws Exception {
    Path root = LanguageColumns.dataset();
    Set<Long> seen = new HashSet<>();
    List<Long> order = new java.util.ArrayList<>();
    try (StreamingDataset ds =
        StreamingDataset.builder(root).batchSize(8).workers(2).bufferSize(30).seed(7).build()) {
      for (Batch b : ds) {
        try (b) {
          for (long i : check(b)) {
            assertTrue(seen.add(i), "twice: row " + i);
            order.add(i);
          }
        }
      }
    }
    assertEquals(ROWS, seen.size());
    assertTrue(!order.equals(order.stream().sorted().toList()), "the order was shuffled");
  }

  @Test
  void aWindowOnALanguageColumnIsRefusedWhenTheStreamIsBuilt() {
    Path root = LanguageColumns.dataset();
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                StreamingDataset.builder(root)
                    .deltaTimestamps(
                        Map.of(LanguageColumnWriter.EVENTS, new double[] {0, 1 / 30.0}))
                    .build()
                    .close());
    assertEquals(
        "delta_timestamps key language_events is a language column, delivered as one JSON text"
            + " per sample: windows (delta_timestamps) are taken of cameras and numeric or bool"
            + " columns only; leave language_events out of delta_timestamps (each sample still"
            + " carries its own row's value)",
        e.getMessage());
  }

  @Test
  void aWindowOnAStringColumnIsRefusedAndOneOnANumericColumnIsNot() {
    DatasetInfo info =
        new DatasetInfo(
            "v3.0",
            null,
            30,
            1,
            1,
            1000,
            null,
            null,
            Map.of(
                "note",
                new Feature("note", "string", new int[] {1}, List.of(), Map.of()),
                "action",
                new Feature("action", "float32", new int[] {2}, List.of(), Map.of())),
            List.of());
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> Windows.fromDeltaTimestamps(Map.of("note", new double[] {0}), info));
    assertTrue(
        e.getMessage()
            .startsWith("delta_timestamps key note is a string column, delivered as text:"),
        e.getMessage());
    assertEquals(
        2,
        Windows.fromDeltaTimestamps(Map.of("action", new double[] {0, 1}), info)
            .offsets("action")
            .length);
  }

  @Test
  void aRowPastTheBoundIsATypedErrorNamingFileEpisodeAndColumn() {
    // Row 100 is episode 4's frame 4 (24 frames an episode).
    LanguageMessage huge =
        new LanguageMessage(
            "user", "x".repeat(ColumnValues.MAX_JSON_ROW_BYTES), null, 0f, null, null, null);
    Path root =
        Fixtures.derivedDataset(
            "language-too-large-v30",
            LanguageColumns.baseDataset(),
            r ->
                LanguageColumns.addTo(
                    r, (i, f) -> i == 100 ? List.of(huge) : SyntheticLanguage.persistent(i, f)));
    try (StreamingDataset ds =
        StreamingDataset.builder(root).batchSize(10).workers(1).shuffle(false).build()) {
      SampleException e =
          assertThrows(
              SampleException.class,
              () -> {
                for (Batch b : ds) {
                  b.close();
                }
              });
      DatasetException.Unsupported cause =
          assertInstanceOf(DatasetException.Unsupported.class, e.getCause(), e.toString());
      assertTrue(cause.file().endsWith("data/chunk-000/file-000.parquet"), cause.file());
      assertEquals(
          "episode 4 frame 4 (row 100 of the file): column language_persistent is more than"
              + " 1048576 bytes (1 MiB) as JSON text, the most robostream delivers for one row of a"
              + " language or nested column",
          cause.problem());
    }
  }
}
