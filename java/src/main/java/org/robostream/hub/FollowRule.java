package org.robostream.hub;

import java.net.URI;
import java.util.Locale;

/**
 * Where a server may send the client next: a redirect's Location or a listing's next-page link.
 * Only to http and https URLs with a host (the JDK client would throw on any other scheme, and a
 * {@code file:} target is no place for a download), and never from https down to plain http — a
 * downgrade would let anyone on the path read or change what follows. The Authorization header is a
 * separate rule (only the endpoint's own origin gets it, see {@link HubHttp}). Stateless,
 * thread-safe.
 */
final class FollowRule {
  private FollowRule() {}

  /**
   * The URL {@code target} (relative to {@code from}, the URL that named it) leads to.
   *
   * @param url the request's URL, for the error
   * @param status the answer's status, for the error
   * @throws HubException.UnsafeUrl when the target is refused
   */
  static URI follow(String url, int status, URI from, String target) {
    URI to;
    try {
      to = from.resolve(target.trim());
    } catch (IllegalArgumentException e) {
      throw new HubException.UnsafeUrl(url, status, target, "not a URL (" + e.getMessage() + ")");
    }
    String scheme = to.getScheme() == null ? "" : to.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https")) {
      throw new HubException.UnsafeUrl(url, status, target, "only http and https are followed");
    }
    if (to.getHost() == null) {
      throw new HubException.UnsafeUrl(url, status, target, "no host");
    }
    if (scheme.equals("http") && "https".equalsIgnoreCase(from.getScheme())) {
      throw new HubException.UnsafeUrl(url, status, target, "a downgrade from https to http");
    }
    return to;
  }
}
