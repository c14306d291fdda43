package org.robostream.hub;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** Which Content-Range headers a range answer may carry, and which request each answers. */
class ContentRangeTest {
  @Test
  void onlyAConsistentSingleRangeParses() {
    assertEquals(
        Optional.of(new ContentRange(100, 199, 1000)), ContentRange.parse("bytes 100-199/1000"));
    for (String bad :
        new String[] {
          null,
          "",
          "bytes 100-199/*",
          "bytes 200-100/1000",
          "bytes 100-1000/1000",
          "bytes -1-5/10",
          "items 0-1/2",
          "bytes 0-1/2, bytes 4-5/6",
          "bytes 0-1/99999999999999999999"
        }) {
      assertEquals(Optional.empty(), ContentRange.parse(bad), bad);
    }
    assertEquals(OptionalLong.of(1000), ContentRange.unsatisfiedTotal("bytes */1000"));
    assertEquals(OptionalLong.empty(), ContentRange.unsatisfiedTotal("bytes 0-1/1000"));
  }

  @Test
  void aRangeAnswersOnlyTheRequestItStartsAtAndEndsWith() {
    assertTrue(new ContentRange(100, 199, 1000).answers(100, 100));
    assertTrue(new ContentRange(900, 999, 1000).answers(900, 5000), "cut at the file's end");
    assertFalse(new ContentRange(116, 215, 1000).answers(100, 100), "shifted");
    assertFalse(new ContentRange(100, 150, 1000).answers(100, 100), "shorter");
    assertFalse(new ContentRange(0, 999, 1000).answers(100, 100), "the whole file");
    assertFalse(new ContentRange(900, 949, 1000).answers(900, 5000), "ends before the end");
  }
}
