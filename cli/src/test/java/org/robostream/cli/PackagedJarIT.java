package org.robostream.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.robostream.testing.FfmpegReference;
import org.robostream.testing.Ffprobe;
import org.robostream.testing.Fixtures;
import org.robostream.testing.FrameCompare;

/**
 * The packaged jar works alone (Failsafe, after {@code package}): {@code java -jar} in a fresh JVM,
 * started in an empty folder, with an empty JavaCPP cache and without LD_LIBRARY_PATH, loads
 * robostream's native libraries out of the jar (JavaCPP extracts them into the cache; its debug log
 * names the file it loads) and decodes through them: H.264 through FFmpeg, AV1 through dav1d.
 */
class PackagedJarIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> OUR_LIBRARIES =
      List.of("librobostream_core.so", "libjniNativeCore.so");

  @TempDir Path tmp;

  /**
   * Failsafe passes the jar after {@code package}; Surefire runs this class only when a -Dtest
   * pattern such as '!SlurmMatrixTest' overrides its includes, before there is a jar: skip there.
   */
  @BeforeAll
  static void runsUnderFailsafe() {
    assumeTrue(
        System.getProperty("robostream.jar") != null,
        "PackagedJarIT needs the packaged jar: it runs under Failsafe in mvn verify");
  }

  record Run(int exitCode, String stdout, String stderr) {}

  @ParameterizedTest
  @ValueSource(strings = {"h264_g30.mp4", "av1_g2.mp4"})
  void probeFromTheJarMatchesFfprobe(String name) throws Exception {
    Path video = Fixtures.video(name);
    Run run = runJar("probe", video.toString());
    JsonNode info = JSON.readTree(run.stdout());

    Ffprobe.Stream stream = Ffprobe.stream(video);
    List<Ffprobe.Packet> packets = Ffprobe.packets(video);
    assertEquals(stream.codec(), info.path("codec").asText());
    assertEquals(stream.width(), info.path("width").asInt());
    assertEquals(stream.height(), info.path("height").asInt());
    assertEquals(packets.size(), info.path("frameCount").asInt());
    double[] keyframes =
        packets.stream()
            .filter(Ffprobe.Packet::key)
            .mapToDouble(Ffprobe.Packet::ptsSeconds)
            .sorted()
            .toArray();
    double[] reported =
        StreamSupport.stream(info.path("keyframeTimestamps").spliterator(), false)
            .mapToDouble(JsonNode::asDouble)
            .toArray();
    assertArrayEquals(keyframes, reported, 1e-6, "keyframes");
  }

  @ParameterizedTest
  @ValueSource(strings = {"h264_g30.mp4", "av1_g2.mp4"})
  void framesFromTheJarAreTheReferenceFrames(String name) throws Exception {
    Path video = Fixtures.video(name);
    double[] pts = FfmpegReference.framePts(video);
    int[] wanted = {pts.length - 1, 0, 151, 44};
    List<String> at = new ArrayList<>();
    for (int f : wanted) {
      at.add(Double.toString(pts[f]));
    }
    Path out = tmp.resolve("frames");
    Run run =
        runJar("frames", video.toString(), "--at", String.join(",", at), "--out", out.toString());
    assertTrue(run.stdout().contains("wrote 4 frames"), run.stdout());

    JsonNode entries = JSON.readTree(out.resolve("frames.json").toFile());
    assertEquals(wanted.length, entries.size());
    byte[] reference = FfmpegReference.allFramesRgb(video);
    for (int i = 0; i < wanted.length; i++) {
      JsonNode e = entries.get(i);
      int width = e.path("width").asInt();
      int frameBytes = width * e.path("height").asInt() * 3;
      assertEquals(wanted[i], e.path("frame_index").asInt(), "frame index of request " + i);
      assertEquals(pts[wanted[i]], e.path("pts").asDouble(), 1e-6, "pts of request " + i);
      assertEquals("hwc", e.path("layout").asText());
      byte[] rgb = Files.readAllBytes(out.resolve(e.path("file").asText()));
      assertEquals(frameBytes, rgb.length);
      assertEquals(wanted[i], FrameCompare.patternFrameNumber(rgb, width), "pattern " + i);
      double diff = FrameCompare.meanAbsDiff(rgb, reference, wanted[i] * frameBytes);
      assertTrue(diff <= 1.5, "request " + i + " mean diff " + diff);
    }
  }

  /**
   * Runs the jar as a user would, except for an empty cache folder and JavaCPP's debug log, and
   * checks that our libraries were loaded from that cache, i.e. extracted from the jar.
   */
  private Run runJar(String... args) throws IOException, InterruptedException {
    Path jar = Path.of(System.getProperty("robostream.jar"));
    assertTrue(Files.isRegularFile(jar), "packaged jar missing: " + jar);
    Path cache = Files.createDirectories(tmp.resolve("javacpp-cache"));
    Path cwd = Files.createDirectories(tmp.resolve("cwd"));
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dorg.bytedeco.javacpp.cachedir=" + cache,
                "-Dorg.bytedeco.javacpp.logger.debug=true",
                "--add-opens=java.base/java.nio=ALL-UNNAMED",
                "-jar",
                jar.toString()));
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command).directory(cwd.toFile());
    Map<String, String> env = pb.environment();
    for (String variable :
        List.of(
            "LD_LIBRARY_PATH",
            "LD_PRELOAD",
            "CLASSPATH",
            "JAVA_TOOL_OPTIONS",
            "ROBOSTREAM_FIXTURES")) {
      env.remove(variable);
    }
    Process p = pb.start();
    // stderr carries JavaCPP's debug log: read it on its own thread so neither pipe fills.
    var stderr = new java.util.concurrent.CompletableFuture<String>();
    Thread reader =
        new Thread(
            () -> {
              try {
                stderr.complete(
                    new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
              } catch (IOException e) {
                stderr.completeExceptionally(e);
              }
            });
    reader.start();
    String stdout = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(2, TimeUnit.MINUTES), "jar did not finish");
    Run run = new Run(p.exitValue(), stdout, stderr.join());
    assertEquals(
        0,
        run.exitCode(),
        "robostream " + String.join(" ", args) + " failed:\n" + run.stdout() + run.stderr());
    for (String library : OUR_LIBRARIES) {
      List<String> loads =
          run.stderr()
              .lines()
              .filter(l -> l.startsWith("Debug: Loading ") && l.endsWith("/" + library))
              .toList();
      assertEquals(1, loads.size(), library + " loaded once: " + loads);
      assertTrue(
          loads.get(0).startsWith("Debug: Loading " + cache + "/"),
          library + " must be loaded from the extracted jar in " + cache + ": " + loads);
    }
    return run;
  }
}
