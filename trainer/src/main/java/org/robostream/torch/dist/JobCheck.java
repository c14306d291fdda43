package org.robostream.torch.dist;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What one job's ranks prove and compare at the rendezvous ({@link DataParallel#join}): the job's
 * secret (keeps out other jobs' peers), its identity (two jobs on one port never pair), and
 * settings every rank must share (a difference is refused naming each value). The secret is {@value
 * #ENV} if set, else a key made once in the shared home ({@link #origin} names it). Immutable.
 *
 * @param secret at least 16 bytes
 * @param origin where the secret came from, for messages
 * @param job the launcher's job identity ({@code SLURM_JOB_ID}, {@code TORCHELASTIC_RUN_ID},
 *     {@value #JOB_ENV}), or empty
 * @param settings setting name to value; every rank must have the same
 */
public record JobCheck(
    byte[] secret, String origin, String job, SortedMap<String, String> settings) {
  /** The job's secret, set by a launcher: at least 16 characters. */
  public static final String ENV = "ROBOSTREAM_JOB_SECRET";

  /** A job identity for launchers that set none of their own. */
  public static final String JOB_ENV = "ROBOSTREAM_JOB_ID";

  static final String FILE = ".cache/robostream/job-secret";

  public JobCheck {
    if (secret == null || secret.length < 16) {
      throw new IllegalArgumentException("a job secret has at least 16 bytes");
    }
    secret = secret.clone();
    settings = new TreeMap<>(settings);
  }

  @Override
  public byte[] secret() {
    return secret.clone();
  }

  /**
   * The check of the job {@code env} describes, comparing {@code settings}: the secret from {@value
   * #ENV}, else this user's file under {@code home} (made when missing).
   *
   * @throws IllegalArgumentException when {@value #ENV} has fewer than 16 characters, or the file
   *     is not one only this user can read (or cannot be made)
   */
  public static JobCheck of(Map<String, String> env, Path home, Map<String, String> settings) {
    String job =
        firstOf(env, "SLURM_JOB_ID", "TORCHELASTIC_RUN_ID", JOB_ENV).replaceAll("[^\\w.-]", "_");
    String given = env.get(ENV);
    if (given != null) {
      if (given.strip().length() < 16) {
        throw new IllegalArgumentException(
            ENV + " must have at least 16 characters (the SLURM launcher makes 64 hex digits)");
      }
      return new JobCheck(
          given.strip().getBytes(StandardCharsets.UTF_8), ENV, job, new TreeMap<>(settings));
    }
    Path file = home.resolve(FILE);
    return new JobCheck(userSecret(file), file.toString(), job, new TreeMap<>(settings));
  }

  private static String firstOf(Map<String, String> env, String... names) {
    for (String name : names) {
      String v = env.get(name);
      if (v != null && !v.isBlank() && !v.strip().equals("none")) {
        return v.strip();
      }
    }
    return "";
  }

  /** The 32 random bytes of {@code file}, made (0600) when missing. */
  private static byte[] userSecret(Path file) {
    try {
      if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
        make(file);
      }
      int me = (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
      boolean own =
          Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)
              && (Integer) Files.getAttribute(file, "unix:uid", LinkOption.NOFOLLOW_LINKS) == me
              && ((Integer) Files.getAttribute(file, "unix:mode", LinkOption.NOFOLLOW_LINKS) & 077)
                  == 0
              && Files.size(file) == 32;
      if (!own) {
        throw new IllegalArgumentException(
            file
                + " is not this user's 32-byte secret that nobody else can read (chmod 600 it, or"
                + " remove it to make a new one), or set "
                + ENV);
      }
      return Files.readAllBytes(file);
    } catch (IOException | UnsupportedOperationException e) {
      throw new IllegalArgumentException(
          "the job secret " + file + " cannot be made or read (" + e + "); set " + ENV, e);
    }
  }

  /** Writes a new random secret at {@code file}, unless another rank did first. */
  private static void make(Path file) throws IOException {
    byte[] bytes = new byte[32];
    new SecureRandom().nextBytes(bytes);
    org.robostream.framecache.CacheFolder.createPrivateFile(file, bytes);
  }
}
