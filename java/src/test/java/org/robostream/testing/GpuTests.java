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
    String cause = !Cuda.isAvailable() ? Cuda.unavailabilityCause()
        : !Cuda.nvdecAvailable(0) ? Cuda.nvdecUnavailabilityCause(0) : null;
    if (cause == null) {
      return;
    }
    if ("1".equals(System.getenv("ROBOSTREAM_REQUIRE_CUDA"))) {
      Assertions.fail("ROBOSTREAM_REQUIRE_CUDA=1 but NVDEC is unusable: " + cause);
    }
    Assumptions.abort("no usable NVDEC: " + cause);
  }
}
