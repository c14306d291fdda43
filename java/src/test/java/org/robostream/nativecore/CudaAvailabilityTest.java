package org.robostream.nativecore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import org.junit.jupiter.api.Test;
import org.robostream.GpuUnavailableException;
import org.robostream.arrow.BatchMemoryPool;
import org.robostream.testing.GpuTests;
import org.robostream.video.DecodeDeviceSpec;
import org.robostream.video.Device;

/**
 * CUDA availability is probed once and explained. On machines without a GPU (CI) the library still
 * loads and every CUDA entry point answers with the cause; with ROBOSTREAM_REQUIRE_CUDA=1 a missing
 * GPU fails instead of skipping.
 */
class CudaAvailabilityTest {
  static boolean cudaRequired() {
    return "1".equals(System.getenv("ROBOSTREAM_REQUIRE_CUDA"));
  }

  /**
   * Skipped without a usable GPU and NVDEC (an assumption, so it never passes there), failed
   * instead when ROBOSTREAM_REQUIRE_CUDA=1; where both are usable the answers must agree.
   */
  @Test
  void requiredCudaIsThere() {
    GpuTests.requireNvdec();
    assertTrue(Cuda.isAvailable());
    assertNull(Cuda.unavailabilityCause(), "a usable GPU has no unavailability cause");
    assertTrue(Cuda.deviceCount() > 0, "a usable GPU is a device");
    assertNull(Cuda.nvdecUnavailabilityCause(0));
  }

  @Test
  void withoutAGpuEveryAnswerNamesTheCause() {
    assumeFalse(Cuda.isAvailable(), "a GPU is present: covered by the native GPU tests");
    assumeFalse(cudaRequired());
    String cause = Cuda.unavailabilityCause();
    assertNotNull(cause);
    assertTrue(cause.startsWith("CUDA unavailable: "), cause);
    assertTrue(
        cause.contains("libcuda.so.1")
            || cause.contains("cuInit")
            || cause.contains("no CUDA device"),
        cause);
    assertEquals(0, Cuda.deviceCount());
    assertFalse(Cuda.nvdecAvailable(0));
    assertEquals(cause, Cuda.nvdecUnavailabilityCause(0));
    GpuUnavailableException e =
        assertThrows(GpuUnavailableException.class, () -> BatchMemoryPool.cuda(0));
    assertTrue(e.getMessage().contains(cause), e.getMessage());
  }

  @Test
  void theDriverVersionIsKnownExactlyWhenTheDriverLibraryLoads() {
    String version = Cuda.driverVersion();
    if (Cuda.isAvailable()) {
      assertNotNull(version, "a usable GPU has a driver version");
    } else if (Cuda.unavailabilityCause().contains("Cannot load libcuda.so.1")) {
      assertNull(version, "no driver library, no version");
    }
    if (version != null) {
      assertTrue(version.matches("\\d+\\.\\d+"), version);
    }
  }

  @Test
  void cudaRequestsResolveToAnErrorOrAReportedFallback() {
    assumeFalse(Cuda.isAvailable());
    GpuUnavailableException e =
        assertThrows(GpuUnavailableException.class, () -> DecodeDeviceSpec.parse("cuda").resolve());
    assertTrue(e.getMessage().contains(Cuda.unavailabilityCause()), e.getMessage());
    assertTrue(e.getMessage().contains("cuda-or-cpu"), e.getMessage());
    DecodeDeviceSpec.Resolution r = DecodeDeviceSpec.parse("cuda-or-cpu:1").resolve();
    assertEquals(Device.CPU, r.effective());
    assertEquals(Cuda.unavailabilityCause(), r.fallbackReason());
    DecodeDeviceSpec.Resolution cpu = DecodeDeviceSpec.CPU.resolve();
    assertNull(cpu.fallbackReason());
  }

  @Test
  void deviceSpecsParse() {
    assertEquals(new DecodeDeviceSpec(Device.CUDA, 0, false), DecodeDeviceSpec.parse("cuda"));
    assertEquals(new DecodeDeviceSpec(Device.CUDA, 3, false), DecodeDeviceSpec.parse("CUDA:3"));
    assertEquals(
        new DecodeDeviceSpec(Device.CUDA, 1, true), DecodeDeviceSpec.parse("cuda-or-cpu:1"));
    assertEquals(DecodeDeviceSpec.CPU, DecodeDeviceSpec.parse("cpu"));
    assertEquals("cuda-or-cpu:1", DecodeDeviceSpec.parse("cuda-or-cpu:1").toString());
    for (String bad : new String[] {"gpu", "cuda:", "cuda:-1", "cuda:x", "cudax"}) {
      assertThrows(IllegalArgumentException.class, () -> DecodeDeviceSpec.parse(bad), bad);
    }
  }
}
