package org.robostream.hub;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The pace rule of an exchange. The JDK's request timeout covers only the wait for the headers; a
 * body that stalls, or drips a byte now and then, would hold a worker for as long as the server
 * likes. So once the headers are in, every window of the timeout (HF_HUB_DOWNLOAD_TIMEOUT) must
 * bring {@link HubHttp#MIN_BYTES_PER_SECOND} of body, else the exchange is aborted (its connection
 * closed) as a {@link TransientFailure}. A slow but steady answer passes however long it takes;
 * with the body limits of {@link BoundedBody} no exchange lasts longer than its limit read at the
 * minimum pace. Failures of the exchange come out typed here too: an untrusted certificate is a
 * {@link HubException} at once (retrying cannot help), any other I/O failure is transient.
 * Stateless, thread-safe.
 */
final class PacedWait {
  private PacedWait() {}

  /**
   * Waits for a whole exchange, body included: the headers within the timeout (the JDK's request
   * timeout; twice that here as a backstop), then the body at the minimum pace.
   *
   * @param body where the exchange's body handler puts the body it made (with the headers)
   */
  static HttpResponse<BoundedBody.Received> await(
      String url,
      CompletableFuture<HttpResponse<BoundedBody.Received>> future,
      AtomicReference<BoundedBody> body,
      Duration timeout)
      throws IOException, TransientFailure {
    long window = timeout.toNanos();
    long minBytes = Math.max(1, HubHttp.MIN_BYTES_PER_SECOND * timeout.toMillis() / 1000);
    long sent = System.nanoTime();
    BoundedBody watched = null;
    long windowStart = 0;
    long windowBytes = 0;
    while (true) {
      // Before the headers, look often enough to start the body's first window with them.
      long wake =
          watched != null
              ? windowStart + window
              : Math.min(sent + 2 * window, System.nanoTime() + window / 10);
      try {
        return future.get(Math.max(0, wake - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (TimeoutException e) {
        if (watched == null) {
          watched = body.get();
          if (watched != null) {
            windowStart = watched.headersNanos();
          } else if (System.nanoTime() - sent >= 2 * window) {
            future.cancel(true);
            throw new TransientFailure(0, "no answer within " + 2 * timeout.toMillis() + " ms");
          }
          continue;
        }
        if (System.nanoTime() - windowStart < window) {
          continue;
        }
        long got = watched.received() - windowBytes;
        if (got < minBytes) {
          watched.abort();
          future.cancel(true);
          throw new TransientFailure(
              0,
              "too slow: "
                  + got
                  + " bytes in "
                  + timeout.toMillis()
                  + " ms, below the minimum of "
                  + HubHttp.MIN_BYTES_PER_SECOND
                  + " bytes/s"
                  + " (HF_HUB_DOWNLOAD_TIMEOUT is the window)");
        }
        windowStart += window;
        windowBytes += got;
      } catch (InterruptedException e) {
        future.cancel(true);
        Thread.currentThread().interrupt();
        throw new IOException("interrupted", e);
      } catch (ExecutionException e) {
        Throwable cause = e.getCause();
        if (cause instanceof javax.net.ssl.SSLHandshakeException tls) {
          // An untrusted certificate does not get better by retrying.
          throw new HubException(
              url,
              0,
              "TLS verification failed (the certificate is not"
                  + " trusted by this JVM): "
                  + tls.getMessage(),
              tls);
        }
        if (cause instanceof IOException io) {
          throw new TransientFailure(0, io.getClass().getSimpleName() + ": " + io.getMessage());
        }
        throw new IOException(cause);
      }
    }
  }
}
