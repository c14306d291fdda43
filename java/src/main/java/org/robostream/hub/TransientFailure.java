package org.robostream.hub;

import java.time.Duration;

/**
 * A failed exchange worth trying again (429, 5xx, a reset, a stall, a truncated or shifted answer);
 * {@link HubHttp} retries the whole request. Immutable; no stack trace (it is control flow, and the
 * message says what happened).
 */
final class TransientFailure extends Exception {
  /** The answer's HTTP status, 0 when there was none. */
  final int status;

  /** The server's Retry-After, null when it sent none. */
  final Duration retryAfter;

  /** The typed error to raise when this is the last failure (null: RetriesExhausted). */
  final HubException giveUp;

  TransientFailure(int status, String message) {
    this(status, message, null, null);
  }

  TransientFailure(int status, String message, Duration retryAfter, HubException giveUp) {
    super(message, null, false, false);
    this.status = status;
    this.retryAfter = retryAfter;
    this.giveUp = giveUp;
  }
}
