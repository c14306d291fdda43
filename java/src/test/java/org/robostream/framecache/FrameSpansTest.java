package org.robostream.framecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Frame spans: merged as added, a slot per covered position in order, covering and unions. */
class FrameSpansTest {
  private static FrameSpans of(int... firstCount) {
    FrameSpans.Builder b = FrameSpans.builder();
    for (int i = 0; i < firstCount.length; i += 2) {
      b.add(firstCount[i], firstCount[i + 1]);
    }
    return b.build();
  }

  @Test
  void spansAddedInAnyOrderAreSortedAndOverlappingOrAdjacentOnesMerged() {
    FrameSpans s = of(60, 30, 0, 30, 20, 15, 120, 10);
    assertEquals(3, s.spans(), s.toString());
    assertEquals(0, s.first(0));
    assertEquals(35, s.length(0), "[0, 30) and [20, 35) are one span");
    assertEquals(60, s.first(1));
    assertEquals(30, s.length(1));
    assertEquals(120, s.first(2));
    assertEquals(10, s.length(2));
    assertEquals(3, of(0, 10, 20, 10, 40, 10).spans(), "apart: three");
    assertEquals(1, of(0, 10, 10, 10).spans(), "adjacent: one");
    assertEquals(35 + 30 + 10, s.count());
    assertNull(FrameSpans.builder().build(), "no span");
  }

  @Test
  void eachCoveredPositionHasTheNextSlotAndOthersNone() {
    FrameSpans s = of(30, 30, 90, 30, 180, 30);
    assertEquals(90, s.count());
    assertEquals(-1, s.slotOf(0));
    assertEquals(-1, s.slotOf(29));
    assertEquals(0, s.slotOf(30));
    assertEquals(29, s.slotOf(59));
    assertEquals(-1, s.slotOf(60));
    assertEquals(30, s.slotOf(90));
    assertEquals(60, s.slotOf(180));
    assertEquals(89, s.slotOf(209));
    assertEquals(-1, s.slotOf(210));
    FrameSpans whole = FrameSpans.whole(240);
    for (int p = 0; p < 240; p++) {
      assertEquals(p, whole.slotOf(p), "the whole video: slot = position");
    }
    assertTrue(whole.isWhole(240));
    assertFalse(s.isWhole(240));
  }

  @Test
  void coversUnionAndWithin() {
    FrameSpans a = of(0, 30, 60, 30);
    FrameSpans b = of(60, 10, 100, 5);
    assertTrue(a.covers(of(0, 30)));
    assertTrue(a.covers(of(5, 10, 65, 20)));
    assertFalse(a.covers(of(25, 10)), "runs past a span's end");
    assertFalse(a.covers(b));
    FrameSpans u = a.union(b);
    assertTrue(u.covers(a) && u.covers(b));
    assertEquals(of(0, 30, 60, 30, 100, 5), u);
    assertTrue(FrameSpans.whole(240).covers(u));
    assertEquals(of(0, 30, 60, 10), a.within(70));
    assertNull(of(100, 5).within(100), "nothing below 100");
  }

  @Test
  void aSpanTableFromDiskIsCheckedBeforeUse() {
    assertEquals(of(0, 30, 60, 30), FrameSpans.checked(new int[] {0, 60}, new int[] {30, 30}, 240));
    assertNull(FrameSpans.checked(new int[] {60, 0}, new int[] {30, 30}, 240), "unsorted");
    assertNull(FrameSpans.checked(new int[] {0, 20}, new int[] {30, 30}, 240), "overlapping");
    assertNull(FrameSpans.checked(new int[] {0, 30}, new int[] {30, 30}, 240), "adjacent");
    assertNull(FrameSpans.checked(new int[] {0}, new int[] {241}, 240), "past the video");
    assertNull(FrameSpans.checked(new int[] {-1}, new int[] {5}, 240), "negative");
    assertNull(FrameSpans.checked(new int[] {0}, new int[] {0}, 240), "empty span");
    assertNull(
        FrameSpans.checked(new int[] {Integer.MAX_VALUE}, new int[] {Integer.MAX_VALUE}, 240),
        "overflow");
    assertNull(FrameSpans.checked(new int[0], new int[0], 240), "no span");
    assertThrows(IllegalArgumentException.class, () -> FrameSpans.builder().add(-1, 3));
    assertThrows(IllegalArgumentException.class, () -> FrameSpans.builder().add(0, 0));
  }
}
