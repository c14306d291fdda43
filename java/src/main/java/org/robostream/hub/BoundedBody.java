package org.robostream.hub;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * An answer's body read with a bound, in place of {@code BodyHandlers.ofByteArray()} (which holds
 * whatever arrives: an answer that never ends filled the heap). It keeps the bytes {@code [skip,
 * skip + keep)} of the body and never more; what happens past them is its {@link Limit}'s choice:
 * stop reading (a window into a longer body, e.g. a server that ignores Range and sends the whole
 * file) or report the body as too long (an API answer, a 206 longer than its range). A declared
 * Content-Length beyond an error limit is refused before reading. It also counts the bytes that
 * arrived and when its headers came, for the client's pace check, and can be aborted from another
 * thread.
 *
 * <p>Threading: the HTTP client delivers its signals one at a time (Reactive Streams); {@link
 * #received()}, {@link #headersNanos()} and {@link #abort()} may be called from any thread. One per
 * exchange.
 */
final class BoundedBody implements HttpResponse.BodySubscriber<BoundedBody.Received> {
  /**
   * What may be read of an answer's body.
   *
   * @param skip body bytes to pass over before keeping any
   * @param keep bytes to keep after them
   * @param longerIsAnError true: a body going on past {@code skip + keep} is reported ({@link
   *     Received#overflowed()}); false: reading stops there, as having all it needs
   */
  record Limit(long skip, long keep, boolean longerIsAnError) {
    /** The whole body, which must not exceed {@code bytes}. */
    static Limit atMost(long bytes) {
      return new Limit(0, bytes, true);
    }

    /** Bytes {@code [skip, skip + keep)} of a body that may go on. */
    static Limit window(long skip, long keep) {
      return new Limit(skip, keep, false);
    }

    long end() {
      return skip + keep;
    }
  }

  /**
   * What was read.
   *
   * @param bytes the kept bytes
   * @param overflowed the body went on past an error limit (reading stopped there)
   */
  record Received(byte[] bytes, boolean overflowed) {}

  private final Limit limit;
  private final OptionalLong declared;
  private final long headersNanos = System.nanoTime();
  private final ByteArrayOutputStream kept;
  private final AtomicLong received = new AtomicLong();
  private final CompletableFuture<Received> result = new CompletableFuture<>();
  private volatile Flow.Subscription subscription;

  private BoundedBody(Limit limit, OptionalLong declared) {
    this.limit = limit;
    this.declared = declared;
    this.kept = new ByteArrayOutputStream((int) Math.min(limit.keep(), 64 << 10));
  }

  /**
   * A handler that bounds each answer's body by {@code limitOf} (chosen from its status and
   * headers) and puts the body it made into {@code current}, where the caller watches its pace.
   */
  static HttpResponse.BodyHandler<Received> handler(
      Function<HttpResponse.ResponseInfo, Limit> limitOf, AtomicReference<BoundedBody> current) {
    return info -> {
      BoundedBody body =
          new BoundedBody(limitOf.apply(info), info.headers().firstValueAsLong("Content-Length"));
      current.set(body);
      return body;
    };
  }

  /** Body bytes that arrived so far (skipped ones included). */
  long received() {
    return received.get();
  }

  /** When the answer's headers arrived (System.nanoTime). */
  long headersNanos() {
    return headersNanos;
  }

  /** Stops reading now: the connection is closed and the answer fails. */
  void abort() {
    Flow.Subscription s = subscription;
    if (s != null) {
      s.cancel();
    }
    result.completeExceptionally(new IOException("aborted: the answer came too slowly"));
  }

  @Override
  public void onSubscribe(Flow.Subscription s) {
    subscription = s;
    if (limit.longerIsAnError() && declared.isPresent() && declared.getAsLong() > limit.end()) {
      s.cancel();
      result.complete(new Received(new byte[0], true));
      return;
    }
    s.request(1);
  }

  @Override
  public void onNext(List<ByteBuffer> items) {
    for (ByteBuffer b : items) {
      int n = b.remaining();
      long at = received.getAndAdd(n); // the body offset of b's first byte
      long from = Math.max(at, limit.skip());
      long to = Math.min(at + n, limit.end());
      if (to > from) {
        byte[] part = new byte[(int) (to - from)];
        b.position(b.position() + (int) (from - at)).get(part);
        kept.writeBytes(part);
      }
      if (at + n > limit.end() || (!limit.longerIsAnError() && at + n == limit.end())) {
        subscription.cancel();
        result.complete(
            new Received(kept.toByteArray(), at + n > limit.end() && limit.longerIsAnError()));
        return;
      }
    }
    subscription.request(1);
  }

  @Override
  public void onError(Throwable t) {
    result.completeExceptionally(t);
  }

  @Override
  public void onComplete() {
    result.complete(new Received(kept.toByteArray(), false));
  }

  @Override
  public CompletionStage<Received> getBody() {
    return result;
  }
}
