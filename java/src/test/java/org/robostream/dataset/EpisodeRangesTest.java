package org.robostream.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Episode selections as ranges: parsed as a user writes them, written back as they parse. */
class EpisodeRangesTest {
  @Test
  void indicesAndRangesParseAscendingAndDistinctAndFormatBack() {
    assertEquals(List.of(0, 1, 2, 3, 5, 7), EpisodeRanges.parse("7, 0-3,5,2"));
    assertEquals("0-3,5,7", EpisodeRanges.format(List.of(7, 0, 1, 2, 3, 5, 2)));
    assertEquals("1-2,4", EpisodeRanges.format(EpisodeRanges.parse("1-2,4")));
    assertEquals(List.of(12), EpisodeRanges.parse("12-12"));
  }

  @Test
  void whatIsNotARangeIsRefusedNamingThePartAndTheForm() {
    for (String bad :
        new String[] {"", "a", "1,,2", "-1", "3-1", "1-2-3", "0-99999999", "9999999999"}) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> EpisodeRanges.parse(bad), bad);
      assertTrue(e.getMessage().startsWith("episodes(\"" + bad + "\"): "), e.getMessage());
      assertTrue(e.getMessage().endsWith("such as 0-9,12"), e.getMessage());
    }
  }
}
