package org.robostream.hub;

import org.robostream.FileException;

/**
 * A Hub or bucket request that failed for good: {@link #file()} is the URL (never with a token),
 * {@link #status()} the last HTTP status (0 for a network failure).
 */
public class HubException extends FileException {
  private final int status;

  public HubException(String url, int status, String problem) {
    super(url, problem);
    this.status = status;
  }

  public HubException(String url, int status, String problem, Throwable cause) {
    super(url, problem, cause);
    this.status = status;
  }

  public int status() {
    return status;
  }

  /** 404: the path does not exist at that revision. */
  public static final class NotFound extends HubException {
    public NotFound(String url, String problem) {
      super(url, 404, problem);
    }
  }

  /** 401/403: the token (or its absence) does not grant access. */
  public static final class Unauthorized extends HubException {
    public Unauthorized(String url, int status, String problem) {
      super(url, status, problem);
    }
  }

  /** A transient failure that outlasted the retry budget. */
  public static final class RetriesExhausted extends HubException {
    public RetriesExhausted(String url, int status, String problem, Throwable cause) {
      super(url, status, problem, cause);
    }
  }

  /**
   * The file changed on the server while being read (its version or size differs between two
   * requests): going on would mix bytes of two versions. Reading it again starts over.
   */
  public static final class Changed extends HubException {
    public Changed(String url, String first, String now) {
      super(
          url,
          206,
          "changed on the server while being read (" + first + " at first, now " + now + ")");
    }
  }

  /** The server answered with a web page or JSON where a media or Parquet file was expected. */
  public static final class NotAFile extends HubException {
    public NotAFile(String url, int status, String problem) {
      super(url, status, problem);
    }
  }

  /**
   * A file path a server gave (a tree listing entry, a path inside a repository) that is not a
   * plain relative path or would lead out of the local mirror: refused before anything is written.
   * {@link #file()} is what gave the path (the listing's URL, or the file's URL).
   */
  public static final class UnsafePath extends HubException {
    private final String server;
    private final String path;

    public UnsafePath(String url, String server, String path, String problem) {
      super(
          url,
          0,
          "refused the path \""
              + ServerPath.printable(path)
              + "\" from the server "
              + server
              + ": "
              + problem
              + " (nothing was written)");
      this.server = server;
      this.path = path;
    }

    /** The server the path came from: {@code scheme://host:port}. */
    public String server() {
      return server;
    }

    /** The path as the server gave it. */
    public String path() {
      return path;
    }
  }

  /**
   * A URL a server points to (a redirect's Location, a next-page link) that is not followed: not
   * http or https, https downgraded to http, no host, or not a URL at all.
   */
  public static final class UnsafeUrl extends HubException {
    public UnsafeUrl(String url, int status, String target, String problem) {
      super(url, status, "refused to follow \"" + ServerPath.printable(target) + "\": " + problem);
    }
  }

  /**
   * An answer longer than robostream accepts for it (API and metadata answers: {@link
   * HubHttp#MAX_API_BODY_BYTES}); reading stopped at the limit, nothing of it is used.
   */
  public static final class TooLarge extends HubException {
    public TooLarge(String url, int status, long limitBytes) {
      super(
          url,
          status,
          "the answer is longer than the "
              + limitBytes
              + " bytes accepted for"
              + " it; reading stopped there and nothing of it was used");
    }
  }

  /**
   * A range answer for other bytes than the ones asked for (its Content-Range start, end or total
   * do not fit the request): never used as file data. Raised when every retry got one.
   */
  public static final class RangeMismatch extends HubException {
    public RangeMismatch(String url, int status, String asked, String got) {
      super(
          url,
          status,
          "asked for " + asked + " but the answer holds " + got + " (refused, never used as data)");
    }
  }
}
