package org.robostream.source.hub;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HTTP for the Hub: range and API GETs with redirects followed by hand (so the Authorization
 * header never goes to another host, e.g. the CDN a resolve URL redirects to), TLS verified by the
 * JDK's defaults, and retries of transient failures — 429 (honouring Retry-After), 5xx, resets,
 * timeouts, stalls and truncated bodies — with bounded exponential backoff and jitter
 * ({@link RetryPolicy}). A request is retried whole, so a retry never yields a partial or
 * duplicated body. Past the budget the error names the URL and the last status; 401/403 name
 * where the token came from; 404 names the path and revision. The token is never logged.
 * Redirects and next-page links are followed only to http(s) URLs, never from https down to
 * http ({@link FollowRule}), at most {@link #MAX_REDIRECTS} hops.
 *
 * <p>Thread-safe: one instance serves every worker; counters are atomic.
 */
public final class HubHttp {
  private static final Logger LOG = LoggerFactory.getLogger(HubHttp.class);
  /** Redirects followed for one request (a resolve URL takes one or two). */
  static final int MAX_REDIRECTS = 10;

  private final HubConfig config;
  private final HttpClient client;
  private final String endpointAuthority;
  private final AtomicLong bytesFetched = new AtomicLong();
  private final AtomicLong requests = new AtomicLong();
  private final AtomicLong retries = new AtomicLong();
  private final SharedBlockCache blocks;
  private final java.util.Map<String, String> revisionNames =
      new java.util.concurrent.ConcurrentHashMap<>();
  private final java.util.concurrent.ThreadPoolExecutor readAhead =
      new java.util.concurrent.ThreadPoolExecutor(4, 4, 30, TimeUnit.SECONDS,
          new java.util.concurrent.ArrayBlockingQueue<>(64), r -> {
            Thread t = new Thread(r, "robostream-hub-readahead");
            t.setDaemon(true);
            return t;
          }, new java.util.concurrent.ThreadPoolExecutor.AbortPolicy());

  public HubHttp(HubConfig config) {
    this.config = config;
    this.client = HttpClient.newBuilder()
        .followRedirects(HttpClient.Redirect.NEVER)
        .connectTimeout(config.timeout())
        .version(HttpClient.Version.HTTP_1_1)
        .build();
    this.endpointAuthority = authority(URI.create(config.endpoint()));
    this.blocks = new SharedBlockCache(config.blockCacheBytes());
    readAhead.allowCoreThreadTimeOut(true);
  }

  /** Read-ahead blocks shared by every range-read source of this client. */
  SharedBlockCache blocks() {
    return blocks;
  }

  /**
   * Where read-ahead fetches run: a few daemon threads (bounded queue), so the blocks that the
   * decoders of several cameras will read next download in parallel while they decode.
   */
  java.util.concurrent.Executor readAhead() {
    return readAhead;
  }

  public HubConfig config() {
    return config;
  }

  /** Remembers what a pinned commit was chosen as, so that errors can say "v3.0 (commit ...)". */
  void nameRevision(String commit, String name) {
    if (!commit.equals(name)) {
      revisionNames.put(commit, name);
    }
  }

  /** Body bytes received, over all requests (retried ones included). */
  public long bytesFetched() {
    return bytesFetched.get();
  }

  public long requests() {
    return requests.get();
  }

  public long retries() {
    return retries.get();
  }

  /**
   * Bytes {@code [start, start + length)} of {@code url}, fewer only at the end of the file.
   *
   * @param what what the file should be, for the error when the server answers with a page
   */
  public RangeResult getRange(String url, long start, int length, String what) {
    return withRetries(url, () -> {
      HttpResponse<byte[]> r = send(url, "bytes=" + start + "-" + (start + length - 1));
      int status = r.statusCode();
      if (status == 416) {
        long total = totalFromContentRange(r.headers()).orElse(start);
        return new RangeResult(new byte[0], total, version(r.headers()));
      }
      failOnStatus(url, status, r);
      byte[] body = r.body();
      long total;
      byte[] slice;
      if (status == 206) {
        total = totalFromContentRange(r.headers()).orElseThrow(() ->
            new Transient(status, "206 without a Content-Range total"));
        long expected = Math.min(length, Math.max(0, total - start));
        if (body.length != expected) {
          throw new Transient(status, "truncated body: " + body.length + " of " + expected
              + " bytes");
        }
        slice = body;
      } else {
        // A server that ignores Range sends the whole file: keep the requested part.
        total = body.length;
        checkWholeBody(r, body);
        int from = (int) Math.min(start, body.length);
        int to = (int) Math.min(start + length, body.length);
        slice = java.util.Arrays.copyOfRange(body, from, to);
      }
      if (start == 0) {
        rejectPages(url, status, r.headers(), slice, what);
      }
      return new RangeResult(slice, total, version(r.headers()));
    });
  }

  /** A small text resource (API JSON) and its {@code Link: <...>; rel="next"} target, if any. */
  public TextResult getText(String url) {
    return withRetries(url, () -> {
      HttpResponse<byte[]> r = send(url, null);
      failOnStatus(url, r.statusCode(), r);
      checkWholeBody(r, r.body());
      return new TextResult(new String(r.body(), java.nio.charset.StandardCharsets.UTF_8),
          nextLink(url, r.headers(), URI.create(url)));
    });
  }

  /**
   * Part of a file.
   *
   * @param totalSize the file's size
   * @param version the server's version of the file: its ETag, else its Last-Modified date; null
   *     when it sends neither
   */
  public record RangeResult(byte[] bytes, long totalSize, String version) {}

  public record TextResult(String body, String next) {}

  // ------------------------------------------------------------------ one exchange

  private HttpResponse<byte[]> send(String url, String range) throws IOException, Transient {
    URI uri = URI.create(url);
    for (int hop = 0; hop <= MAX_REDIRECTS; hop++) {
      HttpRequest.Builder b = HttpRequest.newBuilder(uri).GET()
          .timeout(config.timeout())
          .header("User-Agent", "robostream/0.1 (java)");
      if (range != null) {
        b.header("Range", range);
      }
      // The token is for the Hub itself: never for a host a redirect leads to.
      if (config.token() != null && authority(uri).equals(endpointAuthority)) {
        b.header("Authorization", "Bearer " + config.token());
      }
      requests.incrementAndGet();
      HttpResponse<byte[]> response = await(uri.toString(), client.sendAsync(b.build(),
          HttpResponse.BodyHandlers.ofByteArray()));
      bytesFetched.addAndGet(response.body() == null ? 0 : response.body().length);
      int status = response.statusCode();
      if (status == 301 || status == 302 || status == 303 || status == 307 || status == 308) {
        String location = response.headers().firstValue("Location").orElseThrow(() ->
            new IOException("redirect " + status + " without Location"));
        uri = FollowRule.follow(url, status, uri, location);
        continue;
      }
      return response;
    }
    throw new HubException(url, 0, "more than " + MAX_REDIRECTS + " redirects (a loop?); the"
        + " last led to " + uri);
  }

  /** Waits for a whole exchange, body included, so that a stalled body times out too. */
  private <T> HttpResponse<T> await(String url, CompletableFuture<HttpResponse<T>> future)
      throws IOException, Transient {
    long limit = config.timeout().toMillis() * 3;
    try {
      return future.get(limit, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      future.cancel(true);
      throw new Transient(0, "no complete answer within " + limit + " ms");
    } catch (InterruptedException e) {
      future.cancel(true);
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof javax.net.ssl.SSLHandshakeException tls) {
        // An untrusted certificate does not get better by retrying.
        throw new HubException(url, 0, "TLS verification failed (the certificate is not trusted"
            + " by this JVM): " + tls.getMessage(), tls);
      }
      if (cause instanceof IOException io) {
        throw new Transient(0, io.getClass().getSimpleName() + ": " + io.getMessage());
      }
      throw new IOException(cause);
    }
  }

  private void failOnStatus(String url, int status, HttpResponse<byte[]> r) throws Transient {
    if (status == 429 || status >= 500) {
      throw new Transient(status, "HTTP " + status, retryAfter(r.headers()));
    }
    if (status == 401 || status == 403) {
      throw new HubException.Unauthorized(url, status, "HTTP " + status + " with "
          + config.tokenOrigin() + ": the repository may be private or gated (set HF_TOKEN or"
          + " log in with a token that has access)");
    }
    if (status == 404) {
      throw new HubException.NotFound(url, "HTTP 404: " + HubLocation.ofResolveUrl(
          config.endpoint(), url).map(f -> "no file " + f.path() + " in " + describe(f.location())
              + " (check the path, and that this revision has it)")
          .orElse("not found"));
    }
    if (status != 200 && status != 206) {
      throw new HubException(url, status, "unexpected HTTP " + status);
    }
  }

  private String describe(HubLocation l) {
    if (l.kind() == HubLocation.Kind.BUCKET) {
      return "bucket " + l.id();
    }
    String name = revisionNames.get(l.revision());
    return "dataset " + l.id() + " at revision " + (name == null ? l.revision()
        : name + " (commit " + l.revision() + ")");
  }

  private static void checkWholeBody(HttpResponse<byte[]> r, byte[] body) throws Transient {
    Optional<String> length = r.headers().firstValue("Content-Length");
    if (length.isPresent() && Long.parseLong(length.get().trim()) != body.length) {
      throw new Transient(r.statusCode(), "truncated body: " + body.length + " of "
          + length.get() + " bytes");
    }
  }

  private static void rejectPages(String url, int status, HttpHeaders headers, byte[] head,
      String what) {
    String type = headers.firstValue("Content-Type").orElse("").toLowerCase(Locale.ROOT);
    String start = new String(head, 0, Math.min(head.length, 64),
        java.nio.charset.StandardCharsets.ISO_8859_1).stripLeading().toLowerCase(Locale.ROOT);
    boolean html = type.startsWith("text/html") || start.startsWith("<!doctype")
        || start.startsWith("<html");
    boolean jsonExpected = what.contains("JSON");
    boolean json = !jsonExpected && (type.startsWith("application/json")
        || start.startsWith("{\"error") || start.startsWith("{ \"error"));
    if (html || json) {
      throw new HubException.NotAFile(url, status, "got " + (html ? "an HTML page" : "JSON")
          + " instead of " + what + " (a login or error page: check the token, the revision"
          + " and the path)");
    }
  }

  // ------------------------------------------------------------------ retries

  private interface Attempt<T> {
    T run() throws IOException, Transient;
  }

  /** A failure worth retrying. */
  private static final class Transient extends Exception {
    final int status;
    final Duration retryAfter;

    Transient(int status, String message) {
      this(status, message, null);
    }

    Transient(int status, String message, Duration retryAfter) {
      super(message, null, false, false);
      this.status = status;
      this.retryAfter = retryAfter;
    }
  }

  private <T> T withRetries(String url, Attempt<T> attempt) {
    RetryPolicy policy = config.retry();
    Transient last = null;
    for (int tryNumber = 1; tryNumber <= policy.attempts(); tryNumber++) {
      try {
        return attempt.run();
      } catch (Transient t) {
        last = t;
      } catch (IOException e) {
        last = new Transient(0, e.getClass().getSimpleName() + ": " + e.getMessage());
      }
      if (tryNumber < policy.attempts()) {
        Duration pause = policy.delay(tryNumber, last.retryAfter);
        retries.incrementAndGet();
        LOG.debug("retrying {} in {} ms after {}", url, pause.toMillis(), last.getMessage());
        sleep(pause);
      }
    }
    throw new HubException.RetriesExhausted(url, last.status, "failed after "
        + policy.attempts() + " attempts; last: " + last.getMessage(), last);
  }

  private static void sleep(Duration d) {
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new org.robostream.RobostreamException("interrupted while waiting to retry", e);
    }
  }

  // ------------------------------------------------------------------ headers

  private static Duration retryAfter(HttpHeaders h) {
    Optional<String> v = h.firstValue("Retry-After");
    if (v.isEmpty()) {
      return null;
    }
    String value = v.get().trim();
    try {
      return Duration.ofSeconds(Long.parseLong(value));
    } catch (NumberFormatException notSeconds) {
      try {
        // The other form RFC 9110 allows: an HTTP date.
        return Duration.between(java.time.ZonedDateTime.now(), java.time.ZonedDateTime.parse(
            value, java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME));
      } catch (java.time.format.DateTimeParseException e) {
        return null; // unreadable: our own backoff
      }
    }
  }

  private static Optional<Long> totalFromContentRange(HttpHeaders h) {
    return h.firstValue("Content-Range").flatMap(v -> {
      int slash = v.lastIndexOf('/');
      if (slash < 0 || v.endsWith("*")) {
        return Optional.empty();
      }
      try {
        return Optional.of(Long.parseLong(v.substring(slash + 1).trim()));
      } catch (NumberFormatException e) {
        return Optional.empty();
      }
    });
  }

  private static String version(HttpHeaders h) {
    return h.firstValue("ETag").or(() -> h.firstValue("Last-Modified").map(d -> "modified " + d))
        .orElse(null);
  }

  /** The next page of a listing, a URL followed under the same rule as redirects. */
  private static String nextLink(String url, HttpHeaders h, URI base) {
    for (String value : h.allValues("Link")) {
      for (String part : value.split(",")) {
        if (part.contains("rel=\"next\"") || part.contains("rel=next")) {
          int a = part.indexOf('<');
          int b = part.indexOf('>');
          if (a >= 0 && b > a) {
            return FollowRule.follow(url, 200, base, part.substring(a + 1, b).trim())
                .toString();
          }
        }
      }
    }
    return null;
  }

  /** {@code scheme://host:port} of {@code uri}, lower case: who the server is. */
  static String authority(URI uri) {
    int port = uri.getPort() >= 0 ? uri.getPort()
        : "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
    return (uri.getScheme() + "://" + uri.getHost() + ":" + port).toLowerCase(Locale.ROOT);
  }
}
