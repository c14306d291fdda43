package org.robostream.nativecore;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The packaged native libraries load without a GPU and name no run-time-loaded library. */
class NativeLibraryTest {
  static List<Path> packagedLibraries() throws IOException {
    Path dir = Path.of("target/classes/org/robostream/nativecore/linux-x86_64");
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.toString().endsWith(".so")).toList();
    }
  }

  @Test
  void noNeededEntryForCudaNvcuvidOrDav1d() throws Exception {
    List<Path> libs = packagedLibraries();
    assertTrue(libs.size() >= 2, "core + JNI library packaged: " + libs);
    for (Path lib : libs) {
      Process p = new ProcessBuilder("readelf", "-d", lib.toString()).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(p.waitFor() == 0 && out.contains("NEEDED"), "readelf on " + lib);
      for (String forbidden : new String[] {"libcuda", "libnvcuvid", "libdav1d", "libcudart"}) {
        assertFalse(out.contains(forbidden), lib + " links " + forbidden + ":\n" + out);
      }
      assertFalse(
          out.contains("/work/") || out.contains("target/native-build"),
          lib + " carries a build path in its RUNPATH:\n" + out);
    }
  }

  @Test
  void cudaReportsACauseWhenUnavailable() {
    assumeFalse(Cuda.isAvailable(), "a GPU is present");
    if ("1".equals(System.getenv("ROBOSTREAM_REQUIRE_CUDA"))) {
      throw new AssertionError(
          "ROBOSTREAM_REQUIRE_CUDA=1 but CUDA is unavailable: " + Cuda.unavailabilityCause());
    }
    assertNotNull(Cuda.unavailabilityCause());
    assertTrue(
        Cuda.unavailabilityCause().startsWith("CUDA unavailable"), Cuda.unavailabilityCause());
  }

  @Test
  void dav1dIsLoadedAtRunTime() {
    assertTrue(Av1Decoder.isAvailable(), Av1Decoder.unavailabilityCause());
    assertTrue(Av1Decoder.libraryVersion().matches("\\d+\\.\\d+.*"), Av1Decoder.libraryVersion());
  }
}
