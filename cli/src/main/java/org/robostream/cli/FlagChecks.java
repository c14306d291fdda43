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

  /**
   * The bytes of {@code mib} MiB (2^20 bytes, the unit of the {@code -mb} flags), refused below 1
   * and where the bytes would pass {@link Long#MAX_VALUE}: the shift would wrap silently, and a
   * wrapped budget is a wrong budget, not an error.
   *
   * @throws IllegalArgumentException naming {@code flag} and the value
   */
  static long mebibytes(String flag, long mib) {
    atLeast(1, flag, mib);
    long most = Long.MAX_VALUE >> 20;
    if (mib > most) {
      throw new IllegalArgumentException(
          flag + " must be at most " + most + " (MiB; 2^63 - 1 bytes), got " + mib);
    }
    return mib << 20;
  }
}
