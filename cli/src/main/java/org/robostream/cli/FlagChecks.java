package org.robostream.cli;

/**
 * Range checks of numeric flags, made before a dataset is generated or a batch measured, so a
 * mistake (a negative warm-up count that would measure nothing) is an instant exit 2 with the
 * flag's name. Stateless.
 */
final class FlagChecks {
  private FlagChecks() {}

  /**
   * @throws IllegalArgumentException when {@code value < min}
   */
  static void atLeast(long min, String flag, long value) {
    if (value < min) {
      throw new IllegalArgumentException(flag + " must be >= " + min + ", got " + value);
    }
  }
}
