package org.robostream.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.testing.Fixtures;
import org.robostream.testing.Processes;

/**
 * scripts/build-jar.sh and scripts/robostream in a copy of the repository's layout with a stand-in
 * mvn that takes a second and counts its runs: processes asking at once build once, a fresh jar is
 * not rebuilt, and ROBOSTREAM_NO_BUILD=1 never builds.
 */
class BuildOnceTest {
  @TempDir Path tmp;

  @Test
  void concurrentCallersBuildOnceAndNoBuildNeverBuilds() throws Exception {
    Path repo = tmp.resolve("repo");
    for (String script : List.of("build-jar.sh", "robostream")) {
      Processes.script(
          repo.resolve("scripts"),
          script,
          Files.readString(Fixtures.repoRoot().resolve("scripts").resolve(script)));
    }
    for (String module : List.of("java", "cli", "synth")) {
      Files.createDirectories(repo.resolve(module + "/src/main"));
      Files.writeString(repo.resolve(module + "/pom.xml"), "");
    }
    Files.createDirectories(repo.resolve("native"));
    Files.writeString(repo.resolve("CMakeLists.txt"), "");
    Files.writeString(repo.resolve("pom.xml"), "");
    Path source = repo.resolve("java/pom.xml");
    Path runs = tmp.resolve("mvn-runs");
    Path bin = tmp.resolve("bin");
    Processes.script(
        bin,
        "mvn",
        "#!/bin/sh\necho run >> '"
            + runs
            + "'\nsleep 1\n"
            + "mkdir -p cli/target\necho jar > cli/target/robostream-cli-0.1.0-SNAPSHOT.jar\n");
    Map<String, String> env = Map.of("PATH", bin + ":" + System.getenv("PATH"));
    Path jar = repo.resolve("cli/target/robostream-cli-0.1.0-SNAPSHOT.jar");

    Map<String, String> noBuild =
        Map.of("PATH", bin + ":" + System.getenv("PATH"), "ROBOSTREAM_NO_BUILD", "1");
    Processes.Result missing =
        Processes.run(noBuild, 30, repo.resolve("scripts/robostream").toString(), "--version");
    assertEquals(2, missing.rc(), missing.output());
    assertTrue(
        missing.output().contains("ROBOSTREAM_NO_BUILD=1: build it first"), missing.output());
    assertTrue(Files.notExists(runs), "ROBOSTREAM_NO_BUILD=1 never runs mvn");

    List<Process> callers = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      callers.add(Processes.start(env, List.of(repo.resolve("scripts/build-jar.sh").toString())));
    }
    for (Process p : callers) {
      String out = new String(p.getInputStream().readAllBytes());
      assertTrue(p.waitFor(60, TimeUnit.SECONDS));
      assertEquals(0, p.exitValue(), out);
    }
    assertEquals(1, Files.readAllLines(runs).size(), "three callers at once, one build");
    assertTrue(Files.isRegularFile(jar));

    assertEquals(0, Processes.run(env, 30, repo.resolve("scripts/build-jar.sh").toString()).rc());
    assertEquals(1, Files.readAllLines(runs).size(), "a fresh jar is not rebuilt");
    Files.setLastModifiedTime(
        source, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() + 5_000));
    assertEquals(0, Processes.run(env, 30, repo.resolve("scripts/build-jar.sh").toString()).rc());
    assertEquals(2, Files.readAllLines(runs).size(), "a newer source rebuilds");
  }
}
