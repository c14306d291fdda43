package org.robostream.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The shuffle buffer and decode runs sized to a worker's share of the memory budget: the budget
 * holds the buffer, the batch being cut and each live stream's run decoded ahead; runs shrink
 * before the buffer does, and the buffer never below one sample.
 */
class ShuffleBufferSizingTest {
  // 640x480 yuv420p packed, one camera.
  static final long SAMPLE = 460_800;

  @Test
  void aBudgetThatHoldsEverythingKeepsTheRequestedBufferAndFullRuns() {
    long needed = ShuffleBufferSizing.bytesFor(2000, SAMPLE, 64, 16, 8);
    ShuffleBufferSizing s = ShuffleBufferSizing.of(2000, needed, SAMPLE, 64, 16, 8, true);
    assertEquals(2000, s.bufferSize());
    assertEquals(8, s.run());
    assertFalse(s.reduced(2000));
  }

  @Test
  void runsShrinkBeforeTheBuffer() {
    long needed = ShuffleBufferSizing.bytesFor(2000, SAMPLE, 64, 16, 8);
    // Room for the buffer and the batch, and 3 frames ahead for each of the 16 streams.
    ShuffleBufferSizing s =
        ShuffleBufferSizing.of(2000, needed - 16 * 4 * SAMPLE, SAMPLE, 64, 16, 8, true);
    assertEquals(2000, s.bufferSize());
    assertEquals(4, s.run());
  }

  @Test
  void theBufferIsWhatIsLeftAfterTheBatchWhenTheBudgetIsShort() {
    // The default 2 GiB over 2 workers for 640x480: 2330 samples fit, 64 are the batch's.
    long store = (2L << 30) / 2;
    ShuffleBufferSizing s = ShuffleBufferSizing.of(4000, store, SAMPLE, 64, 16, 8, true);
    assertEquals(store / SAMPLE - 64, s.bufferSize());
    assertEquals(1, s.run());
    assertTrue(s.reduced(4000));
    // Everything it holds fits: buffer + batch + no run ahead.
    assertTrue((s.bufferSize() + 64) * SAMPLE <= store);
  }

  @Test
  void onNvdecRunsKeepTheirLengthAndOnlyTheBufferShrinks() {
    // Every NVDEC call starts with a seek: a run cut short would decode its GOP's start again.
    long store = 1000 * SAMPLE;
    ShuffleBufferSizing s = ShuffleBufferSizing.of(2000, store, SAMPLE, 64, 16, 64, false);
    assertEquals(64, s.run());
    // 16 streams x 63 frames ahead would leave nothing: the runs get half the room at most.
    assertEquals((1000 - 64) / 2, s.bufferSize());
    long plenty = ShuffleBufferSizing.bytesFor(2000, SAMPLE, 64, 16, 64);
    assertEquals(
        2000, ShuffleBufferSizing.of(2000, plenty, SAMPLE, 64, 16, 64, false).bufferSize());
  }

  @Test
  void neverBelowOneSample() {
    ShuffleBufferSizing s = ShuffleBufferSizing.of(1000, 3 * SAMPLE, SAMPLE, 8, 16, 8, true);
    assertEquals(1, s.bufferSize());
    assertEquals(1, s.run());
    assertEquals(3, s.capacity());
  }
}
