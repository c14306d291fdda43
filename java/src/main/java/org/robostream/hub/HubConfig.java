package org.robostream.hub;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * @param endpoint {@code HF_ENDPOINT} (default https://huggingface.co), trailing slash dropped
 * @param token {@code HF_TOKEN}, else {@code $HF_HOME/token} (unless {@code
 *     HF_HUB_DISABLE_IMPLICIT_TOKEN}), or null; never in {@link #toString()}
 * @param tokenOrigin where the token came from ("HF_TOKEN", the token file's path) or "no token"
 * @param cacheRoot {@code HF_LEROBOT_HOME}; robostream writes only {@link HubFileCache#MIRROR_DIR}
 * @param blockBytes read-ahead block of range requests ({@code ROBOSTREAM_HUB_BLOCK_MB}, 5)
 * @param timeout connect and per-request read timeout ({@code HF_HUB_DOWNLOAD_TIMEOUT}, 10 s)
 * @param retry retry policy for transient failures
 * @param cacheLimitBytes local cache limit ({@code ROBOSTREAM_HUB_CACHE_GB}, 50)
 * @param blockCacheBytes memory for read-ahead blocks shared by all readers (default 512 MiB)
 */
public record HubConfig(
    String endpoint,
    String token,
    String tokenOrigin,
    Path cacheRoot,
    int blockBytes,
    Duration timeout,
    RetryPolicy retry,
    long cacheLimitBytes,
    long blockCacheBytes) {
  public static final String DEFAULT_ENDPOINT = "https://huggingface.co";
  public static final int DEFAULT_BLOCK_BYTES = 5 << 20;
  public static final long DEFAULT_CACHE_LIMIT = 50L << 30;
  public static final long DEFAULT_BLOCK_CACHE = 512L << 20;

  public HubConfig {
    if (blockBytes < 4096) {
      throw new IllegalArgumentException("read-ahead block must be >= 4096 bytes");
    }
  }

  public static HubConfig fromEnvironment() {
    return fromEnvironment(System.getenv());
  }

  public static HubConfig fromEnvironment(Map<String, String> env) {
    String endpoint = env.getOrDefault("HF_ENDPOINT", DEFAULT_ENDPOINT).trim();
    while (endpoint.endsWith("/")) {
      endpoint = endpoint.substring(0, endpoint.length() - 1);
    }
    Path hfHome =
        env.containsKey("HF_HOME")
            ? Path.of(env.get("HF_HOME"))
            : Path.of(System.getProperty("user.home"), ".cache", "huggingface");
    String token = env.get("HF_TOKEN");
    String origin = "HF_TOKEN";
    boolean implicit = !truthy(env.get("HF_HUB_DISABLE_IMPLICIT_TOKEN"));
    if ((token == null || token.isBlank()) && !implicit) {
      token = null;
      origin = "no token (HF_HUB_DISABLE_IMPLICIT_TOKEN)";
    } else if (token == null || token.isBlank()) {
      Path file = hfHome.resolve("token");
      token = readToken(file);
      origin = token == null ? "no token (anonymous)" : "token file " + file;
    }
    Path cache =
        env.containsKey("HF_LEROBOT_HOME")
            ? Path.of(env.get("HF_LEROBOT_HOME"))
            : hfHome.resolve("lerobot");
    double timeoutSeconds = Double.parseDouble(env.getOrDefault("HF_HUB_DOWNLOAD_TIMEOUT", "10"));
    // Ours: ROBOSTREAM_HUB_BLOCK_MB (read-ahead block), ROBOSTREAM_HUB_CACHE_GB (disk cache).
    int block =
        (int) (Double.parseDouble(env.getOrDefault("ROBOSTREAM_HUB_BLOCK_MB", "5")) * (1 << 20));
    long cacheLimit =
        (long) (Double.parseDouble(env.getOrDefault("ROBOSTREAM_HUB_CACHE_GB", "50")) * (1L << 30));
    return new HubConfig(
        endpoint,
        token,
        origin,
        cache,
        block,
        Duration.ofMillis((long) (timeoutSeconds * 1000)),
        RetryPolicy.DEFAULT,
        cacheLimit,
        DEFAULT_BLOCK_CACHE);
  }

  /** huggingface_hub's reading of a boolean variable: 1, true, yes, on (any case). */
  private static boolean truthy(String value) {
    return value != null
        && java.util.Set.of("1", "true", "yes", "on")
            .contains(value.strip().toLowerCase(java.util.Locale.ROOT));
  }

  private static String readToken(Path file) {
    try {
      if (!Files.isRegularFile(file)) {
        return null;
      }
      String t = Files.readString(file, StandardCharsets.UTF_8).trim();
      return t.isEmpty() ? null : t;
    } catch (IOException e) {
      return null;
    }
  }

  public HubConfig withBlockBytes(int bytes) {
    return new HubConfig(
        endpoint,
        token,
        tokenOrigin,
        cacheRoot,
        bytes,
        timeout,
        retry,
        cacheLimitBytes,
        blockCacheBytes);
  }

  public HubConfig withRetry(RetryPolicy policy) {
    return new HubConfig(
        endpoint,
        token,
        tokenOrigin,
        cacheRoot,
        blockBytes,
        timeout,
        policy,
        cacheLimitBytes,
        blockCacheBytes);
  }

  public HubConfig withCacheRoot(Path root) {
    return new HubConfig(
        endpoint,
        token,
        tokenOrigin,
        root,
        blockBytes,
        timeout,
        retry,
        cacheLimitBytes,
        blockCacheBytes);
  }

  public HubConfig withCacheLimit(long bytes) {
    return new HubConfig(
        endpoint,
        token,
        tokenOrigin,
        cacheRoot,
        blockBytes,
        timeout,
        retry,
        bytes,
        blockCacheBytes);
  }

  public HubConfig withTimeout(Duration t) {
    return new HubConfig(
        endpoint,
        token,
        tokenOrigin,
        cacheRoot,
        blockBytes,
        t,
        retry,
        cacheLimitBytes,
        blockCacheBytes);
  }

  @Override
  public String toString() {
    return "HubConfig[endpoint="
        + endpoint
        + ", token="
        + (token == null ? "none" : "***")
        + " ("
        + tokenOrigin
        + "), cache="
        + cacheRoot
        + ", block="
        + blockBytes
        + "]";
  }
}
