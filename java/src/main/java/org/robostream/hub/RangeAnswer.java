package org.robostream.hub;

import java.net.http.HttpResponse;

/**
 * What a range request's answer may be used as: a 206 only when its Content-Range is exactly the
 * range asked for and its body that long (a shifted answer from a CDN edge would otherwise be read
 * as the file: the decoder then reported a corrupt stream); a 200 (a server that ignores Range)
 * only with a declared size, and only the asked-for window of it; a 416 only for a start at or past
 * the end. A mismatch is retried like a truncated body, and when every attempt gets one it is a
 * {@link HubException.RangeMismatch} naming both ranges. Stateless, thread-safe.
 */
final class RangeAnswer {
  private RangeAnswer() {}

  /**
   * The answer to {@code Range: bytes=start-(start+length-1)} (a 206, 200 or 416) as the file's
   * bytes, its size and version.
   */
  static HubHttp.RangeResult read(
      String url, HttpResponse<BoundedBody.Received> r, long start, int length)
      throws TransientFailure {
    String asked = "bytes=" + start + "-" + (start + length - 1);
    return switch (r.statusCode()) {
      case 206 -> partial(url, r, start, length, asked);
      case 416 ->
          new HubHttp.RangeResult(
              new byte[0], beyondTheEnd(url, r, start, asked), HubHttp.version(r.headers()));
      default -> windowOfWhole(url, r, start, length);
    };
  }

  /** The bytes of a 206, which must be exactly the range asked for. */
  private static HubHttp.RangeResult partial(
      String url, HttpResponse<BoundedBody.Received> r, long start, int length, String asked)
      throws TransientFailure {
    String header = contentRange(r);
    ContentRange range = ContentRange.parse(header).orElse(null);
    if (range == null || !range.answers(start, length)) {
      // Retried (a CDN edge can glitch), but never read as the file.
      throw new TransientFailure(
          206,
          "Content-Range " + header + " for " + asked,
          null,
          new HubException.RangeMismatch(
              url, 206, asked, header == null ? "no Content-Range" : "Content-Range " + header));
    }
    byte[] body = r.body().bytes();
    if (r.body().overflowed() || body.length != range.length()) {
      String problem =
          r.body().overflowed() ? "body longer than" : "truncated body: " + body.length + " of";
      throw new TransientFailure(
          206, problem + " the " + range.length() + " bytes of Content-Range " + range);
    }
    return new HubHttp.RangeResult(body, range.total(), HubHttp.version(r.headers()));
  }

  /**
   * The asked-for part of a 200 that carries the whole file (a server that ignores Range): its size
   * must be declared, and reading stopped at the range's end.
   */
  private static HubHttp.RangeResult windowOfWhole(
      String url, HttpResponse<BoundedBody.Received> r, long start, int length)
      throws TransientFailure {
    long total =
        r.headers()
            .firstValueAsLong("Content-Length")
            .orElseThrow(
                () ->
                    new HubException(
                        url,
                        200,
                        "the server ignored the Range header and declared no"
                            + " Content-Length: the file's size is unknown"));
    long expected = Math.max(0, Math.min(start + length, total) - start);
    byte[] body = r.body().bytes();
    if (body.length != expected) {
      throw new TransientFailure(
          200,
          "truncated body: "
              + body.length
              + " of the "
              + expected
              + " bytes from "
              + start
              + " of a "
              + total
              + "-byte file");
    }
    return new HubHttp.RangeResult(body, total, HubHttp.version(r.headers()));
  }

  /** The file's size from a 416, which only a request starting at or past the end may get. */
  private static long beyondTheEnd(
      String url, HttpResponse<BoundedBody.Received> r, long start, String asked)
      throws TransientFailure {
    String header = contentRange(r);
    long total = ContentRange.unsatisfiedTotal(header).orElse(start);
    if (total > start) {
      throw new TransientFailure(
          416,
          "416 with Content-Range " + header + " for " + asked,
          null,
          new HubException.RangeMismatch(
              url, 416, asked, "416 (not satisfiable) for a " + total + "-byte file"));
    }
    return total;
  }

  private static String contentRange(HttpResponse<?> r) {
    return r.headers().firstValue("Content-Range").orElse(null);
  }
}
