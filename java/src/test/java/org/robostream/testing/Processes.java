package org.robostream.testing;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Runs commands (scripts, the CLI in a fresh JVM) for tests, output and exit code captured. */
public final class Processes {
  private Processes() {}

  /** A finished command: exit code, stdout and stderr interleaved. */
  public record Result(int rc, String output) {}

  /**
   * Runs {@code command} in the repository root with {@code env} added to (or, for null values,
   * removed from) this JVM's environment, {@code stdin} fed to it; fails the test when it runs
   * longer than {@code timeoutSeconds}.
   */
  public static Result run(
      Map<String, String> env, String stdin, long timeoutSeconds, List<String> command)
      throws IOException, InterruptedException {
    Process p = start(env, command);
    try (OutputStream in = p.getOutputStream()) {
      if (stdin != null) {
        in.write(stdin.getBytes(StandardCharsets.UTF_8));
      }
    }
    CompletableFuture<byte[]> out =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return p.getInputStream().readAllBytes();
              } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
              }
            });
    if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError(
          "timed out after " + timeoutSeconds + " s: " + String.join(" ", command));
    }
    return new Result(p.exitValue(), new String(out.join(), StandardCharsets.UTF_8));
  }

  public static Result run(Map<String, String> env, long timeoutSeconds, String... command)
      throws IOException, InterruptedException {
    return run(env, null, timeoutSeconds, List.of(command));
  }

  /** Starts {@code command} in the repository root, stderr merged into stdout. */
  public static Process start(Map<String, String> env, List<String> command) throws IOException {
    ProcessBuilder pb =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .directory(Fixtures.repoRoot().toFile());
    env.forEach(
        (k, v) -> {
          if (v == null) {
            pb.environment().remove(k);
          } else {
            pb.environment().put(k, v);
          }
        });
    return pb.start();
  }

  /** The command line that runs robostream's CLI in a fresh JVM on the test class path. */
  public static List<String> cli(String... args) {
    return javaMain("org.robostream.cli.Main", args);
  }

  /** The command line that runs {@code mainClass} in a fresh JVM on the test class path. */
  public static List<String> javaMain(String mainClass, String... args) {
    List<String> command =
        new java.util.ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m",
                "--add-opens=java.base/java.nio=ALL-UNNAMED",
                "-cp",
                System.getProperty("java.class.path"),
                mainClass));
    command.addAll(List.of(args));
    return command;
  }

  /** The CLI command line as one string, for ROBOSTREAM= in the launchers' environment. */
  public static String cliCommand() {
    return String.join(" ", cli());
  }

  /** Writes an executable script (a stand-in for sbatch, srun, mvn) into {@code dir}. */
  public static Path script(Path dir, String name, String body) throws IOException {
    Files.createDirectories(dir);
    Path file = dir.resolve(name);
    Files.writeString(file, body);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    return file;
  }
}
