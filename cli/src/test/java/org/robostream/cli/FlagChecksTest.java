package org.robostream.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The {@code -mb} flags' MiB become bytes only when they fit; each refusal names the flag. */
class FlagChecksTest {
  @Test
  void mebibytesAreBinaryAndTheLargestThatFitsIsKept() {
    assertEquals(1L << 20, FlagChecks.mebibytes("--memory-budget-mb", 1));
    assertEquals(2048L << 20, FlagChecks.mebibytes("--memory-budget-mb", 2048));
    assertEquals(
        (Long.MAX_VALUE >> 20) << 20, FlagChecks.mebibytes("--memory-budget-mb", 8796093022207L));
  }

  @Test
  void zeroNegativeAndOverflowAreRefusedNamingTheFlagAndTheValue() {
    assertEquals(
        "--memory-budget-mb must be >= 1, got 0",
        assertThrows(
                IllegalArgumentException.class, () -> FlagChecks.mebibytes("--memory-budget-mb", 0))
            .getMessage());
    assertEquals(
        "--memory-budget-mb must be >= 1, got -5",
        assertThrows(
                IllegalArgumentException.class,
                () -> FlagChecks.mebibytes("--memory-budget-mb", -5))
            .getMessage());
    for (long tooMany : new long[] {8796093022208L, 1L << 44, Long.MAX_VALUE}) {
      assertEquals(
          "--memory-budget-mb must be at most 8796093022207 (MiB; 2^63 - 1 bytes), got " + tooMany,
          assertThrows(
                  IllegalArgumentException.class,
                  () -> FlagChecks.mebibytes("--memory-budget-mb", tooMany))
              .getMessage());
    }
  }
}
