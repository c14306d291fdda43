package org.robostream.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.robostream.framecache.FrameCacheStats;

/** The frame_cache block carries the shortfall counters, and the summary line names it. */
class FrameCacheReportTest {
  private static Map<String, Object> result(FrameCacheStats stats) {
    Map<String, Object> r = new HashMap<>();
    r.put("frame_cache", FrameCacheReport.block("memory:1M", stats));
    return r;
  }

  @Test
  void aCacheTooSmallIsCountedInTheBlockAndSaidInTheLine() {
    FrameCacheStats small =
        new FrameCacheStats(0, 480, 0, 0, 0, 0, 0, 1L << 20, 0, 480, null, 2, 0, 2998272);
    Map<String, Object> r = result(small);
    @SuppressWarnings("unchecked")
    Map<String, Object> c = (Map<String, Object>) r.get("frame_cache");
    assertEquals(2L, c.get("refused_reservations"));
    assertEquals(0L, c.get("own_evictions"));
    assertEquals(2998272L, c.get("needed_bytes"));
    String line = FrameCacheReport.line(r);
    assertTrue(
        line.contains(
            "; TOO SMALL: the frames read need 2.86 MiB (2998272 bytes), the cache holds 1 MiB"
                + " (1048576 bytes) (2 reservations refused, 0 files evicted and read again):"
                + " raise --frame-cache SIZE"),
        line);
  }

  @Test
  void aCacheThatHoldsWhatIsReadSaysNothingOfIt() {
    FrameCacheStats fits =
        new FrameCacheStats(90, 90, 90, 0, 1, 1, 1, 1L << 20, 0, 0, null, 0, 0, 569344);
    assertFalse(FrameCacheReport.line(result(fits)).contains("TOO SMALL"));
  }
}
