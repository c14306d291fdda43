package org.robostream.dataset.synth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/**
 * The generated language rows: every row form from the first row on; {@link
 * LanguageColumnWriter#fill} stores each row's own messages; the spec asks for them only when told.
 */
class SyntheticLanguageTest {
  @Test
  void rowsHoldNullRowsEmptyListsAndSeveralMessagesFromTheFirstRowOn() {
    Set<String> persistent = new HashSet<>();
    Set<String> events = new HashSet<>();
    for (long index = 0; index < 6; index++) {
      persistent.add(form(SyntheticLanguage.persistent(index, 3)));
      events.add(form(SyntheticLanguage.events(index, 3)));
    }
    assertEquals(Set.of("null", "empty", "one", "several"), persistent);
    assertEquals(Set.of("null", "empty", "one", "several"), events);
  }

  private static String form(List<LanguageMessage> messages) {
    if (messages == null) {
      return "null";
    }
    return switch (messages.size()) {
      case 0 -> "empty";
      case 1 -> "one";
      default -> "several";
    };
  }

  @Test
  void fillStoresEachRowsOwnMessages() {
    List<Field> fields = new java.util.ArrayList<>();
    fields.add(Field.notNullable("index", new ArrowType.Int(64, true)));
    fields.add(Field.notNullable("frame_index", new ArrowType.Int(64, true)));
    fields.addAll(LanguageColumnWriter.fields());
    long[] rows = {0, 66, 67, 68, 69, 70, 71};
    try (BufferAllocator a = new RootAllocator();
        VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(fields), a)) {
      root.allocateNew();
      for (int r = 0; r < rows.length; r++) {
        ((BigIntVector) root.getVector("index")).set(r, rows[r]);
        ((BigIntVector) root.getVector("frame_index")).set(r, r);
      }
      LanguageColumnWriter.SYNTHETIC.fill(root, rows.length);
      root.setRowCount(rows.length);
      ListVector p = (ListVector) root.getVector(LanguageColumnWriter.PERSISTENT);
      ListVector e = (ListVector) root.getVector(LanguageColumnWriter.EVENTS);
      for (int r = 0; r < rows.length; r++) {
        assertEquals(count(SyntheticLanguage.persistent(rows[r], r)), count(p.getObject(r)));
        assertEquals(count(SyntheticLanguage.events(rows[r], r)), count(e.getObject(r)));
      }
      // Row 70 (index % 6 == 4): the persistent "motion" message at frame 5, an empty call list.
      String motion = p.getObject(5).get(0).toString();
      assertTrue(motion.contains("\"content\":\"x\""), motion);
      assertTrue(motion.contains("\"style\":\"motion\""), motion);
      assertTrue(motion.contains("\"timestamp\":" + (5 / 30f + 0.1f)), motion);
      assertTrue(motion.contains("\"tool_calls\":[]"), motion);
    }
  }

  private static int count(List<?> messages) {
    return messages == null ? -1 : messages.size();
  }

  @Test
  void theSpecAsksForLanguageColumnsOnlyWhenTold() {
    SyntheticDatasetSpec plain = SyntheticDatasetSpec.defaults(Path.of("out"));
    assertFalse(plain.languageColumns());
    SyntheticDatasetSpec language = plain.withLanguageColumns(true);
    assertTrue(language.languageColumns());
    assertTrue(language.withOut(Path.of("other")).languageColumns(), "kept by the other withs");
    assertEquals(plain, language.withLanguageColumns(false));
    assertNotNull(LanguageColumnWriter.feature());
    assertEquals("language", LanguageColumnWriter.feature().get("dtype"));
    assertEquals(List.of(1), LanguageColumnWriter.feature().get("shape"));
  }
}
