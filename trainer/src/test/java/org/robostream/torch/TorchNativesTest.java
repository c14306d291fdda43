package org.robostream.torch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.testing.Processes;

/**
 * libtorch loads from a fresh JavaCPP cache without the dynamic linker ever looking outside the
 * cache for one of the presets' own libraries. Before {@link TorchNatives} extracted the whole
 * folder first, JavaCPP loaded libtorch.so while libtorch_cpu.so was not yet extracted, the linker
 * searched the system for it, and with Debian's libtorch-dev installed it found libtorch 1.13 and
 * the JVM crashed. The linker's own trace (LD_DEBUG=libs) shows that search on any machine, with or
 * without a system libtorch, so this fails without the fix here too.
 */
class TorchNativesTest {
  /** Loads the natives, then exits: the child JVM's whole job. */
  public static void main(String[] args) {
    TorchNatives.load();
    System.out.println("loaded");
  }

  @Test
  void blasRunsSingleThreadedUnderLibtorchsThreads() {
    TorchNatives.load();
    assertEquals(1, org.bytedeco.openblas.presets.openblas_nolapack.blas_get_num_threads());
  }

  @Test
  void aFreshCacheResolvesEveryPresetLibraryInsideTheCache(@TempDir Path tmp) throws Exception {
    Path cache = tmp.resolve("fresh-javacpp-cache");
    Path trace = tmp.resolve("ld");
    List<String> command = new ArrayList<>(Processes.javaMain(TorchNativesTest.class.getName()));
    command.add(1, "-Dorg.bytedeco.javacpp.cachedir=" + cache);
    Processes.Result r =
        Processes.run(
            Map.of("LD_DEBUG", "libs", "LD_DEBUG_OUTPUT", trace.toString()), null, 240, command);
    assertEquals(0, r.rc(), r.output());
    assertTrue(r.output().contains("loaded"), r.output());

    Set<String> presetLibraries;
    try (Stream<Path> files = Files.walk(cache)) {
      presetLibraries =
          files
              .filter(Files::isRegularFile) // extracted, not JavaCPP's links to system libraries
              .map(f -> f.getFileName().toString())
              // libtorch's own libraries and the BLAS it links: a system copy of these is another
              // version of the same code. (The runtime libraries the presets also ship, such as
              // libgcc_s, are the JVM's own system ones, already loaded before ours.)
              .filter(n -> n.matches("lib(torch|c10|jnitorch|openblas).*\\.so.*"))
              .collect(Collectors.toSet());
    }
    assertTrue(presetLibraries.contains("libtorch_cpu.so"), presetLibraries.toString());
    // "find library=NAME [0]; searching" starts a search; "search cache=/etc/ld.so.cache" means
    // nothing on the RUNPATH ($ORIGIN, the cache) had it and the system is next.
    String searching = null;
    List<String> escaped = new ArrayList<>();
    for (String line : traceLines(tmp)) {
      int find = line.indexOf("find library=");
      if (find >= 0) {
        String name = line.substring(find + "find library=".length()).split(" ")[0];
        searching = presetLibraries.contains(name) ? name : null;
      } else if (searching != null && line.contains("search cache=")) {
        escaped.add(searching);
        searching = null;
      }
    }
    if (!escaped.isEmpty()) {
      fail("the linker searched the system for the presets' own " + escaped);
    }
  }

  private static List<String> traceLines(Path dir) throws IOException {
    List<String> lines = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.filter(p -> p.getFileName().toString().startsWith("ld.")).toList()) {
        lines.addAll(Files.readAllLines(f));
      }
    }
    assertTrue(!lines.isEmpty(), "no LD_DEBUG trace written");
    return lines;
  }
}
