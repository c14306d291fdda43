package org.robostream.hub;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.robostream.source.ContentKind;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HTTP for the Hub. Redirects are followed by hand, so the Authorization header never reaches
 * another host (e.g. the CDN). Transient failures (429 with Retry-After, 5xx, resets, timeouts,
 * stalls, truncated bodies) are retried whole with bounded backoff and jitter ({@link
 * RetryPolicy}), so a body is never partial or duplicated. Errors name the URL and last status;
 * 401/403 name the token's origin. The token is never logged.
 *
 * <p>All a server sends is bounded: API answers by {@link #MAX_API_BODY_BYTES}, range answers by
 * the exact range, others by {@link #IGNORED_BODY_BYTES}; at most {@link #MAX_REDIRECTS} hops,
 * never https to http; at least {@link #MIN_BYTES_PER_SECOND} per timeout window, so stalls end.
 * Thread-safe: one instance serves every worker.
 */
public final class HubHttp {
  /**
   * The most an API or metadata answer (refs, revision, a tree listing page) may hold: real answers
   * are far smaller (a tree page of 1,000 files is about 0.3 MB; longer listings come in pages),
   * and an answer that never ends must not fill the heap.
   */
  public static final long MAX_API_BODY_BYTES = 16L << 20;

  /**
   * The slowest pace an answer may keep over a window of the timeout (HF_HUB_DOWNLOAD_TIMEOUT): far
   * below any usable rate, so a connection dripping a byte now and then fails within one window
   * instead of holding a worker for good.
   */
  public static final long MIN_BYTES_PER_SECOND = 16 << 10;

  /** Redirects followed for one request (a resolve URL takes one or two). */
  static final int MAX_REDIRECTS = 10;

  /**
   * What is read of a body nobody uses (redirects, error statuses): enough for the usual short
   * ones, so their connection can be used again; reading stops there.
   */
  static final long IGNORED_BODY_BYTES = 64 << 10;

  private static final Logger LOG = LoggerFactory.getLogger(HubHttp.class);

  private final HubConfig config;
  private final HttpClient client;
  private final String endpointAuthority;
  private final AtomicLong bytesFetched = new AtomicLong();
  private final AtomicLong requests = new AtomicLong();
  private final AtomicLong retries = new AtomicLong();
  private final SharedBlockCache blocks;
  private final HubTraffic traffic;
  private final java.util.Map<String, String> revisionNames =
      new java.util.concurrent.ConcurrentHashMap<>();
  private final java.util.concurrent.ThreadPoolExecutor readAhead =
      new java.util.concurrent.ThreadPoolExecutor(
          4,
          4,
          30,
          TimeUnit.SECONDS,
          new java.util.concurrent.ArrayBlockingQueue<>(64),
          r -> {
            Thread t = new Thread(r, "robostream-hub-readahead");
            t.setDaemon(true);
            return t;
          },
          new java.util.concurrent.ThreadPoolExecutor.AbortPolicy());

  public HubHttp(HubConfig config) {
    this.config = config;
    this.client =
        HttpClient.newBuilder()
            .followRedirects(HttpClient.Redirect.NEVER)
            .connectTimeout(config.timeout())
            .version(HttpClient.Version.HTTP_1_1)
            .build();
    this.endpointAuthority = authority(URI.create(config.endpoint()));
    this.blocks = new SharedBlockCache(config.blockCacheBytes());
    this.traffic = new HubTraffic(config.endpoint());
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

  /** The same bytes and requests by where they came from (repository, bucket, local disk). */
  public HubTraffic traffic() {
    return traffic;
  }

  public long requests() {
    return requests.get();
  }

  public long retries() {
    return retries.get();
  }

  /**
   * Bytes {@code [start, start + length)} of {@code url}, fewer only at the end of the file. A 206
   * must hold exactly those bytes (else {@link HubException.RangeMismatch} once retries run out); a
   * server that ignores Range must declare the file's size, and only the bytes up to the range's
   * end are read.
   *
   * @param what what the file should be, for the error when the server answers with a page
   */
  public RangeResult getRange(String url, long start, int length, String what) {
    return exchange(
        url,
        "bytes=" + start + "-" + (start + length - 1),
        info ->
            switch (info.statusCode()) {
              case 206 -> BoundedBody.Limit.atMost(length);
              case 200 -> BoundedBody.Limit.window(start, length);
              default -> BoundedBody.Limit.window(0, IGNORED_BODY_BYTES);
            },
        r -> {
          if (r.statusCode() != 416) {
            failOnStatus(url, r.statusCode(), r);
            if (start == 0) {
              rejectPages(url, r.statusCode(), r.headers(), r.body().bytes(), what);
            }
          }
          return RangeAnswer.read(url, r, start, length);
        });
  }

  /** A small text resource (API JSON) and its {@code Link: <...>; rel="next"} target, if any. */
  public TextResult getText(String url) {
    return exchange(
        url,
        null,
        info ->
            info.statusCode() == 200
                ? BoundedBody.Limit.atMost(MAX_API_BODY_BYTES)
                : BoundedBody.Limit.window(0, IGNORED_BODY_BYTES),
        r -> {
          failOnStatus(url, r.statusCode(), r);
          if (r.body().overflowed()) {
            throw new HubException.TooLarge(url, r.statusCode(), MAX_API_BODY_BYTES);
          }
          checkWholeBody(r, r.body().bytes());
          return new TextResult(
              new String(r.body().bytes(), java.nio.charset.StandardCharsets.UTF_8),
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

  private HttpResponse<BoundedBody.Received> send(
      String url, String range, Function<HttpResponse.ResponseInfo, BoundedBody.Limit> limits)
      throws IOException, TransientFailure {
    URI uri = URI.create(url);
    for (int hop = 0; hop <= MAX_REDIRECTS; hop++) {
      HttpRequest.Builder b =
          HttpRequest.newBuilder(uri)
              .GET()
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
      AtomicReference<BoundedBody> body = new AtomicReference<>();
      HttpResponse<BoundedBody.Received> response;
      try {
        response =
            PacedWait.await(
                uri.toString(),
                client.sendAsync(b.build(), BoundedBody.handler(limits, body)),
                body,
                config.timeout());
      } finally {
        BoundedBody got = body.get();
        long received = got == null ? 0 : got.received();
        bytesFetched.addAndGet(received);
        // Against the URL asked for: a redirect's hops count for the repository or bucket.
        traffic.request(url, received);
      }
      int status = response.statusCode();
      if (status == 301 || status == 302 || status == 303 || status == 307 || status == 308) {
        String location =
            response
                .headers()
                .firstValue("Location")
                .orElseThrow(() -> new IOException("redirect " + status + " without Location"));
        uri = FollowRule.follow(url, status, uri, location);
        continue;
      }
      return response;
    }
    throw new HubException(
        url, 0, "more than " + MAX_REDIRECTS + " redirects (a loop?); the" + " last led to " + uri);
  }

  private void failOnStatus(String url, int status, HttpResponse<?> r) throws TransientFailure {
    if (status == 429 || status >= 500) {
      throw new TransientFailure(status, "HTTP " + status, retryAfter(r.headers()), null);
    }
    if (status == 401 || status == 403) {
      throw new HubException.Unauthorized(
          url,
          status,
          "HTTP "
              + status
              + " with "
              + config.tokenOrigin()
              + ": the repository may be private or gated (set HF_TOKEN or"
              + " log in with a token that has access)");
    }
    if (status == 404) {
      throw new HubException.NotFound(
          url,
          "HTTP 404: "
              + HubLocation.ofResolveUrl(config.endpoint(), url)
                  .map(
                      f ->
                          "no file "
                              + f.path()
                              + " in "
                              + describe(f.location())
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
    return "dataset "
        + l.id()
        + " at revision "
        + (name == null ? l.revision() : name + " (commit " + l.revision() + ")");
  }

  private static void checkWholeBody(HttpResponse<?> r, byte[] body) throws TransientFailure {
    OptionalLong length = r.headers().firstValueAsLong("Content-Length");
    if (length.isPresent() && length.getAsLong() != body.length) {
      throw new TransientFailure(
          r.statusCode(),
          "truncated body: " + body.length + " of " + length.getAsLong() + " bytes");
    }
  }

  private static void rejectPages(
      String url, int status, HttpHeaders headers, byte[] head, String what) {
    String type = headers.firstValue("Content-Type").orElse("").toLowerCase(Locale.ROOT);
    ContentKind kind = ContentKind.of(head, Math.min(head.length, 64));
    boolean html = type.startsWith("text/html") || kind == ContentKind.HTML;
    // By its bytes, JSON is a page only where a binary file belongs: other files may be text.
    boolean binaryExpected = what.contains("Parquet") || what.contains("MP4");
    boolean json =
        !what.contains("JSON")
            && (type.startsWith("application/json") || binaryExpected && kind == ContentKind.JSON);
    if (html || json) {
      throw new HubException.NotAFile(
          url,
          status,
          "got "
              + (html ? "an HTML page" : "JSON")
              + " instead of "
              + what
              + " (a login or error page: check the token, the revision"
              + " and the path)");
    }
  }

  // ------------------------------------------------------------------ retries

  /** What an answer becomes; throws {@link TransientFailure} for an answer worth asking again. */
  private interface Reading<T> {
    T read(HttpResponse<BoundedBody.Received> response) throws IOException, TransientFailure;
  }

  /**
   * One GET of {@code url} ({@code range}: a Range header, or null) whose body is bounded by {@code
   * limits} and read by {@code reading}, asked again by the retry policy while it fails
   * transiently.
   */
  private <T> T exchange(
      String url,
      String range,
      Function<HttpResponse.ResponseInfo, BoundedBody.Limit> limits,
      Reading<T> reading) {
    return withRetries(url, () -> reading.read(send(url, range, limits)));
  }

  private interface Attempt<T> {
    T run() throws IOException, TransientFailure;
  }

  private <T> T withRetries(String url, Attempt<T> attempt) {
    RetryPolicy policy = config.retry();
    TransientFailure last = null;
    for (int tryNumber = 1; tryNumber <= policy.attempts(); tryNumber++) {
      try {
        return attempt.run();
      } catch (TransientFailure t) {
        last = t;
      } catch (IOException e) {
        last = new TransientFailure(0, e.getClass().getSimpleName() + ": " + e.getMessage());
      }
      if (tryNumber < policy.attempts()) {
        Duration pause = policy.delay(tryNumber, last.retryAfter);
        retries.incrementAndGet();
        LOG.debug("retrying {} in {} ms after {}", url, pause.toMillis(), last.getMessage());
        sleep(pause);
      }
    }
    if (last.giveUp != null) {
      throw last.giveUp;
    }
    throw new HubException.RetriesExhausted(
        url,
        last.status,
        "failed after " + policy.attempts() + " attempts; last: " + last.getMessage(),
        last);
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
        return Duration.between(
            java.time.ZonedDateTime.now(),
            java.time.ZonedDateTime.parse(
                value, java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME));
      } catch (java.time.format.DateTimeParseException e) {
        return null; // unreadable: our own backoff
      }
    }
  }

  static String version(HttpHeaders h) {
    return h.firstValue("ETag")
        .or(() -> h.firstValue("Last-Modified").map(d -> "modified " + d))
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
            return FollowRule.follow(url, 200, base, part.substring(a + 1, b).trim()).toString();
          }
        }
      }
    }
    return null;
  }

  /** {@code scheme://host:port} of {@code uri}, lower case: who the server is. */
  static String authority(URI uri) {
    int port =
        uri.getPort() >= 0 ? uri.getPort() : "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
    return (uri.getScheme() + "://" + uri.getHost() + ":" + port).toLowerCase(Locale.ROOT);
  }
}
