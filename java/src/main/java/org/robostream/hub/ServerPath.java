package org.robostream.hub;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * The one gate for file paths a server names — tree listing entries, and paths inside a repository
 * that its metadata builds — before they become files under a local directory. A server can list
 * {@code meta/../../alice/rec/data.parquet}; written as it is, that overwrites a user's file far
 * from the cache. So a server path must be a plain relative path: '/'-separated, no empty, {@code
 * .} or {@code ..} segment, no backslash, no control character (NUL included), no drive letter; and
 * the file it names must stay inside its destination directory, also after following the links that
 * already exist there (a link inside the mirror must not lead a write out of it). Anything else is
 * a {@link HubException.UnsafePath} naming the server and the path.
 *
 * <p>Stateless and thread-safe.
 */
final class ServerPath {
  private ServerPath() {}

  /** Why {@code path} is not a plain relative path, or null when it is one. */
  static String problem(String path) {
    if (path == null || path.isEmpty()) {
      return "an empty path";
    }
    if (path.startsWith("/")) {
      return "an absolute path";
    }
    if (path.indexOf('\\') >= 0) {
      return "a backslash";
    }
    if (path.length() >= 2 && path.charAt(1) == ':' && Character.isLetter(path.charAt(0))) {
      return "a drive letter";
    }
    for (int i = 0; i < path.length(); i++) {
      char c = path.charAt(i);
      if (c < 0x20 || c == 0x7f) {
        return String.format("a control character (U+%04X)", (int) c);
      }
    }
    for (String segment : path.split("/", -1)) {
      if (segment.isEmpty()) {
        return "an empty segment";
      }
      if (segment.equals(".") || segment.equals("..")) {
        return "a \"" + segment + "\" segment";
      }
    }
    return null;
  }

  /**
   * The file {@code path} names inside {@code root}.
   *
   * @param url what gave the path (a tree listing's URL, the download URL of the file), for the
   *     error
   * @param server the server ({@code scheme://host:port}) the path came from, for the error
   * @throws HubException.UnsafePath when the path is not plain or leads out of {@code root}
   */
  static Path resolveInside(Path root, String path, String url, String server) {
    String problem = problem(path);
    if (problem != null) {
      throw new HubException.UnsafePath(url, server, path, problem);
    }
    Path base = root.toAbsolutePath().normalize();
    Path target = base.resolve(path).normalize();
    // The rules above are written for POSIX names; containment is what must hold on any
    // file system.
    if (!target.startsWith(base) || target.equals(base)) {
      throw new HubException.UnsafePath(url, server, path, "it leaves " + base);
    }
    String link = linkOut(base, target);
    if (link != null) {
      throw new HubException.UnsafePath(url, server, path, link);
    }
    return target;
  }

  /**
   * Null when the deepest part of {@code target} that exists (the file, else its nearest existing
   * directory) really lies inside {@code base}; else why not. What does not exist yet is created by
   * the download as plain directories, so it cannot lead anywhere else.
   */
  private static String linkOut(Path base, Path target) {
    Path existing = target;
    while (existing.startsWith(base) && !Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
      existing = existing.getParent();
    }
    if (!existing.startsWith(base)) {
      return null; // nothing of the mirror exists yet
    }
    try {
      if (!existing.toRealPath().startsWith(base.toRealPath())) {
        return "a link at "
            + existing
            + " leads out of "
            + base
            + " (to "
            + existing.toRealPath()
            + ")";
      }
      return null;
    } catch (IOException e) {
      return "cannot follow "
          + existing
          + " ("
          + e.getClass().getSimpleName()
          + ": "
          + e.getMessage()
          + ")";
    }
  }

  /** {@code path} with control characters escaped, so that a message shows it on one line. */
  static String printable(String path) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < path.length(); i++) {
      char c = path.charAt(i);
      if (c < 0x20 || c == 0x7f) {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
