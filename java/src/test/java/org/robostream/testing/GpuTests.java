package org.robostream.testing;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.robostream.nativecore.Cuda;

/**
 * The rule for tests tagged {@code cuda}: they skip where NVDEC cannot be used, and fail instead
 * when {@code ROBOSTREAM_REQUIRE_CUDA=1} (set on GPU machines), so a broken GPU run cannot pass.
 */
public final class GpuTests {
  private GpuTests() {}

  /** Returns when NVDEC on cuda:0 is usable; otherwise skips or fails the calling test. */
  public static void requireNvdec() {
    require(
        "NVDEC",
        !Cuda.isAvailable()
            ? Cuda.unavailabilityCause()
            : !Cuda.nvdecAvailable(0) ? Cuda.nvdecUnavailabilityCause(0) : null);
  }

  /** Returns when a CUDA device is usable (NVDEC or not); otherwise skips or fails the test. */
  public static void requireCuda() {
    require("CUDA", Cuda.isAvailable() ? null : Cuda.unavailabilityCause());
  }

  private static void require(String what, String cause) {
    if (cause == null) {
      return;
    }
    if ("1".equals(System.getenv("ROBOSTREAM_REQUIRE_CUDA"))) {
      Assertions.fail("ROBOSTREAM_REQUIRE_CUDA=1 but " + what + " is unusable: " + cause);
    }
    Assumptions.abort("no usable " + what + ": " + cause);
  }
}
