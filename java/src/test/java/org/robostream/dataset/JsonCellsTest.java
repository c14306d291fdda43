package org.robostream.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.impl.UnionMapWriter;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.dataset.synth.LanguageColumnWriter;
import org.robostream.dataset.synth.LanguageMessage;
import org.robostream.dataset.synth.SyntheticLanguage;

/**
 * Arrow values as JSON text: every row form of LeRobot's language columns reads back (Jackson, and
 * Python's {@code json.loads}) as the messages written; the bound and the refused types.
 */
class JsonCellsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int BIG = 1 << 20;

  @TempDir Path tmp;

  /** Rows of every form the fixtures write, from the varied part of their table. */
  private static final long[] ROWS = {66, 67, 68, 69, 70, 71, 5};

  @Test
  void everyLanguageRowFormReadsBackAsItsMessages() throws Exception {
    try (BufferAllocator a = new RootAllocator();
        ListVector p = (ListVector) LanguageColumnWriter.persistentField().createVector(a);
        ListVector e = (ListVector) LanguageColumnWriter.eventsField().createVector(a)) {
      fill(p, e);
      for (int r = 0; r < ROWS.length; r++) {
        JsonNode persistent = JSON.readTree(JsonCells.write(p, r, BIG));
        JsonNode events = JSON.readTree(JsonCells.write(e, r, BIG));
        assertEquals(
            LanguageMessage.json(SyntheticLanguage.persistent(ROWS[r], 7), true),
            persistent,
            "persistent row " + ROWS[r]);
        assertEquals(
            LanguageMessage.json(SyntheticLanguage.events(ROWS[r], 7), false),
            events,
            "events row " + ROWS[r]);
      }
    }
  }

  @Test
  void theTextIsCompactWithFieldsInSchemaOrderAndNullsWritten() throws Exception {
    try (BufferAllocator a = new RootAllocator();
        ListVector p = (ListVector) LanguageColumnWriter.persistentField().createVector(a);
        ListVector e = (ListVector) LanguageColumnWriter.eventsField().createVector(a)) {
      fill(p, e);
      assertEquals("null", JsonCells.write(p, 0, BIG), "row 66: a null row");
      assertEquals("[]", JsonCells.write(e, 0, BIG), "row 66: no events");
      String subtask =
          "{\"role\":\"assistant\",\"content\":\"reach for cup 7\",\"style\":\"subtask\","
              + "\"timestamp\":"
              + (double) (7 / 30f + 0.1f)
              + ",\"camera\":null,\"tool_calls\":null}";
      assertEquals(
          "[" + subtask + "," + subtask + "," + subtask + "]",
          JsonCells.write(p, 6, BIG),
          "row 5: the same message three times");
      // Escapes as JSON needs them; other characters as they are (UTF-8 in the column).
      String unicode = JsonCells.write(p, 2, BIG);
      assertTrue(
          unicode.contains("\"content\":\"line1\\nline2\\t\\\"q\\\" \\\\ é 漢字 🤖 \\u0001 end\""),
          unicode);
      assertEquals(
          "[{\"role\":\"assistant\",\"content\":null,\"style\":null,\"camera\":null,"
              + "\"tool_calls\":[{\"type\":\"function\",\"function\":{\"name\":\"say\","
              + "\"arguments\":{\"text\":\"héllo 🤖 frame 7\"}}}]}]",
          JsonCells.write(e, 2, BIG),
          "nested tool calls as objects");
    }
  }

  @Test
  void pythonsJsonLoadsReadsTheTextsAsTheMessages() throws Exception {
    Assumptions.assumeTrue(hasPython(), "python3 is not on the PATH");
    List<String> lines = new ArrayList<>();
    try (BufferAllocator a = new RootAllocator();
        ListVector p = (ListVector) LanguageColumnWriter.persistentField().createVector(a);
        ListVector e = (ListVector) LanguageColumnWriter.eventsField().createVector(a)) {
      fill(p, e);
      for (int r = 0; r < ROWS.length; r++) {
        lines.add(JsonCells.write(p, r, BIG));
        lines.add(
            JSON.writeValueAsString(
                LanguageMessage.json(SyntheticLanguage.persistent(ROWS[r], 7), true)));
        lines.add(JsonCells.write(e, r, BIG));
        lines.add(
            JSON.writeValueAsString(
                LanguageMessage.json(SyntheticLanguage.events(ROWS[r], 7), false)));
      }
    }
    Path file = Files.write(tmp.resolve("texts.jsonl"), lines, StandardCharsets.UTF_8);
    String script =
        "import json,sys\n"
            + "ls=open(sys.argv[1],encoding='utf-8').read().split('\\n')\n"
            + "n=0\n"
            + "for i in range(0,len(ls)-1,2):\n"
            + "  got=json.loads(ls[i]); want=json.loads(ls[i+1])\n"
            + "  assert got==want,(i,got,want)\n"
            + "  if isinstance(got,list):\n"
            + "    assert all(isinstance(m,dict) for m in got)\n"
            + "  n+=1\n"
            + "print('ok',n)\n";
    Process py =
        new ProcessBuilder("python3", "-c", script, file.toString())
            .redirectErrorStream(true)
            .start();
    String out = new String(py.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, py.waitFor(), out);
    assertEquals("ok " + 2 * ROWS.length, out.strip());
  }

  @Test
  void aFloat32IsWrittenAsTheDoubleItWidensTo() throws Exception {
    Field f = Field.nullable("x", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE));
    try (BufferAllocator a = new RootAllocator();
        Float4Vector v = (Float4Vector) f.createVector(a)) {
      v.allocateNew(4);
      v.set(0, 0.1f);
      v.set(1, Float.NaN);
      v.set(2, Float.NEGATIVE_INFINITY);
      v.setNull(3);
      v.setValueCount(4);
      assertEquals("0.10000000149011612", JsonCells.write(v, 0, BIG));
      assertEquals((double) 0.1f, JSON.readTree(JsonCells.write(v, 0, BIG)).doubleValue());
      assertEquals("NaN", JsonCells.write(v, 1, BIG), "as Python's json writes it");
      assertEquals("-Infinity", JsonCells.write(v, 2, BIG));
      assertEquals("null", JsonCells.write(v, 3, BIG));
    }
  }

  @Test
  void unsignedSixtyFourBitValuesAreNotNegative() {
    try (BufferAllocator a = new RootAllocator();
        UInt8Vector v = new UInt8Vector("u", a)) {
      v.allocateNew(1);
      v.set(0, -1L);
      v.setValueCount(1);
      assertEquals("18446744073709551615", JsonCells.write(v, 0, BIG));
    }
  }

  @Test
  void aMapIsAListOfKeyValuePairs() {
    try (BufferAllocator a = new RootAllocator();
        MapVector m = MapVector.empty("m", a, false)) {
      UnionMapWriter w = m.getWriter();
      w.setPosition(0);
      w.startMap();
      w.startEntry();
      w.key().bigInt().writeBigInt(1);
      w.value().bigInt().writeBigInt(10);
      w.endEntry();
      w.startEntry();
      w.key().bigInt().writeBigInt(2);
      w.value().bigInt().writeBigInt(20);
      w.endEntry();
      w.endMap();
      w.setValueCount(1);
      assertEquals("[[1,10],[2,20]]", JsonCells.write(m, 0, BIG));
    }
  }

  @Test
  void aStringOfArrowsJsonTypeIsEmbeddedAsTheValueItHolds() {
    Field json =
        new Field(
            "j",
            new FieldType(
                true, ArrowType.Utf8.INSTANCE, null, Map.of("ARROW:extension:name", "arrow.json")),
            null);
    try (BufferAllocator a = new RootAllocator();
        VarCharVector v = (VarCharVector) json.createVector(a);
        VarCharVector plain = new VarCharVector("s", a)) {
      v.allocateNew(2);
      v.setSafe(0, "{\"name\": \"say\", \"n\": [1, 2]}".getBytes(StandardCharsets.UTF_8));
      v.setSafe(1, "not json {".getBytes(StandardCharsets.UTF_8));
      v.setValueCount(2);
      assertEquals("{\"name\":\"say\",\"n\":[1,2]}", JsonCells.write(v, 0, BIG));
      assertEquals("\"not json {\"", JsonCells.write(v, 1, BIG), "kept as a string");
      plain.allocateNew(1);
      plain.setSafe(0, "{\"a\":1}".getBytes(StandardCharsets.UTF_8));
      plain.setValueCount(1);
      assertEquals("\"{\\\"a\\\":1}\"", JsonCells.write(plain, 0, BIG), "a plain string");
    }
  }

  @Test
  void aTextPastTheBoundIsRefusedAndOneAtTheBoundIsNot() {
    try (BufferAllocator a = new RootAllocator();
        VarCharVector v = new VarCharVector("s", a)) {
      v.allocateNew(3);
      v.setSafe(0, "x".repeat(98).getBytes(StandardCharsets.UTF_8)); // 100 bytes quoted
      v.setSafe(1, "x".repeat(99).getBytes(StandardCharsets.UTF_8));
      v.setSafe(2, "é".repeat(49).getBytes(StandardCharsets.UTF_8)); // 98 + 2 bytes, 51 chars
      v.setValueCount(3);
      assertEquals(100, JsonCells.write(v, 0, 100).length());
      assertThrows(JsonCells.TooLarge.class, () -> JsonCells.write(v, 1, 100));
      assertEquals(51, JsonCells.write(v, 2, 100).length(), "100 bytes of UTF-8");
      assertThrows(JsonCells.TooLarge.class, () -> JsonCells.write(v, 2, 99));
    }
  }

  @Test
  void aLargeNestedValueStopsBeingWrittenOnceItIsPastTheBound() {
    try (BufferAllocator a = new RootAllocator();
        ListVector p = (ListVector) LanguageColumnWriter.persistentField().createVector(a)) {
      List<LanguageMessage> many = new ArrayList<>();
      for (int i = 0; i < 2_000; i++) {
        many.add(new LanguageMessage("user", "m" + i, null, 0f, null, null, null));
      }
      LanguageColumnWriter.writeRow(p, 0, many, true);
      p.setValueCount(1);
      assertThrows(JsonCells.TooLarge.class, () -> JsonCells.write(p, 0, 4096));
      assertTrue(JsonCells.write(p, 0, BIG).length() > 4096);
    }
  }

  @Test
  void valuesWithoutAJsonFormAreNamedByWhereTheyAre() {
    Field blob =
        new Field(
            "language_events",
            FieldType.nullable(ArrowType.List.INSTANCE),
            List.of(
                new Field(
                    "item",
                    FieldType.nullable(ArrowType.Struct.INSTANCE),
                    List.of(
                        Field.nullable("role", ArrowType.Utf8.INSTANCE),
                        Field.nullable("blob", ArrowType.Binary.INSTANCE)))));
    assertEquals("language_events[].blob: Binary", JsonCells.unsupported(blob));
    Field time =
        Field.nullable(
            "t", new ArrowType.Timestamp(org.apache.arrow.vector.types.TimeUnit.SECOND, null));
    assertEquals("t: Timestamp(SECOND, null)", JsonCells.unsupported(time));
    assertNull(JsonCells.unsupported(LanguageColumnWriter.persistentField()));
    assertNull(JsonCells.unsupported(LanguageColumnWriter.eventsField()));
  }

  @Test
  void languageColumnsAreDeliveredAsJsonAndNumericDeclarationsAreNot() {
    Feature language =
        new Feature("language_events", "language", new int[] {1}, List.of(), Map.of());
    Feature dict = new Feature("meta", "dict", new int[] {1}, List.of(), Map.of());
    Feature floats = new Feature("action", "float32", new int[] {2, 3}, List.of(), Map.of());
    Field nestedFloats =
        new Field(
            "action",
            FieldType.nullable(ArrowType.List.INSTANCE),
            List.of(
                new Field(
                    "item",
                    FieldType.nullable(ArrowType.List.INSTANCE),
                    List.of(
                        Field.nullable(
                            "item", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE))))));
    Field text = Field.nullable("language_events", ArrowType.Utf8.INSTANCE);
    assertTrue(FeatureColumns.deliveredAsJson(language, LanguageColumnWriter.eventsField()));
    assertTrue(FeatureColumns.deliveredAsJson(language, text), "a language column of text");
    assertTrue(FeatureColumns.deliveredAsJson(dict, LanguageColumnWriter.eventsField()));
    assertTrue(!FeatureColumns.deliveredAsJson(dict, text), "an unknown dtype of plain values");
    assertTrue(!FeatureColumns.deliveredAsJson(floats, nestedFloats), "numbers stay numbers");
  }

  @Test
  void aLanguageColumnOfBinaryIsRefusedWhenTheFileIsChecked() {
    Feature language =
        new Feature("language_events", "language", new int[] {1}, List.of(), Map.of());
    Field blob =
        new Field(
            "language_events",
            FieldType.nullable(ArrowType.Struct.INSTANCE),
            List.of(Field.nullable("blob", ArrowType.Binary.INSTANCE)));
    DatasetInfo info = infoWith(language);
    DatasetException e =
        assertThrows(
            DatasetException.BadMetadata.class,
            () -> FeatureColumns.check(info, new Schema(List.of(blob)), "data/file-000.parquet"));
    assertEquals(
        "data/file-000.parquet: column language_events holds values that JSON text cannot carry"
            + " (language_events.blob: Binary): a language column is delivered as one JSON text"
            + " per row, of strings, numbers, bools, structs, lists and maps",
        e.getMessage());
  }

  private static DatasetInfo infoWith(Feature f) {
    return new DatasetInfo(
        "v3.0", null, 30, 1, 1, 1000, null, null, Map.of(f.name(), f), java.util.List.of());
  }

  /** Rows {@link #ROWS} of both columns into {@code p} and {@code e} (frame 7). */
  private static void fill(ListVector p, ListVector e) {
    for (int r = 0; r < ROWS.length; r++) {
      LanguageColumnWriter.writeRow(p, r, SyntheticLanguage.persistent(ROWS[r], 7), true);
      LanguageColumnWriter.writeRow(e, r, SyntheticLanguage.events(ROWS[r], 7), false);
    }
    p.setValueCount(ROWS.length);
    e.setValueCount(ROWS.length);
  }

  private static boolean hasPython() {
    try {
      return new ProcessBuilder("python3", "-c", "pass").start().waitFor() == 0;
    } catch (Exception e) {
      return false;
    }
  }
}
