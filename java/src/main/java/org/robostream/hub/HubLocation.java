package org.robostream.hub;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * A place on the Hub: a dataset repository at a revision, or a storage bucket (unversioned), with a
 * path prefix inside it. Parsed from {@code hf://datasets/<owner>/<name>[@<revision>][/path]} or
 * {@code hf://buckets/<owner>/<name>[/path]}. Immutable.
 *
 * @param kind dataset repository or bucket
 * @param id {@code owner/name}
 * @param revision the revision for datasets (null: to be resolved), null for buckets
 * @param prefix path inside the repository or bucket ("" for its root), no leading/trailing '/'
 */
public record HubLocation(Kind kind, String id, String revision, String prefix) {
  public enum Kind {
    DATASET,
    BUCKET
  }

  /** {@code owner/name} as the Hub allows them. */
  static final String ID = "[A-Za-z0-9][A-Za-z0-9._-]*/[A-Za-z0-9][A-Za-z0-9._-]*";

  public HubLocation {
    if (!id.matches(ID)) {
      throw new IllegalArgumentException("Hub id must be owner/name, got " + id);
    }
    prefix = strip(prefix == null ? "" : prefix);
    // The prefix becomes directories of the local mirror: a plain relative path only.
    String problem = prefix.isEmpty() ? null : ServerPath.problem(prefix);
    if (problem != null) {
      throw new IllegalArgumentException(
          "path inside " + id + " has " + problem + ": " + ServerPath.printable(prefix));
    }
  }

  public static HubLocation dataset(String repoId, String revision) {
    return new HubLocation(Kind.DATASET, repoId, revision, "");
  }

  /** Whether {@code text} is an {@code hf://} URL (else a local path). */
  public static boolean isHubUrl(String text) {
    return text != null && text.startsWith("hf://");
  }

  public static HubLocation parse(String url) {
    if (!isHubUrl(url)) {
      throw new IllegalArgumentException("not an hf:// URL: " + url);
    }
    String rest = url.substring("hf://".length());
    Kind kind;
    if (rest.startsWith("datasets/")) {
      kind = Kind.DATASET;
      rest = rest.substring("datasets/".length());
    } else if (rest.startsWith("buckets/")) {
      kind = Kind.BUCKET;
      rest = rest.substring("buckets/".length());
    } else {
      throw new IllegalArgumentException("hf:// URLs name datasets/ or buckets/, got " + url);
    }
    String[] parts = rest.split("/", 3);
    if (parts.length < 2) {
      throw new IllegalArgumentException("missing owner/name in " + url);
    }
    String name = parts[1];
    String revision = null;
    int at = name.indexOf('@');
    if (at >= 0) {
      if (kind == Kind.BUCKET) {
        throw new IllegalArgumentException("buckets have no revisions: " + url);
      }
      revision = decode(name.substring(at + 1));
      name = name.substring(0, at);
    }
    return new HubLocation(kind, parts[0] + "/" + name, revision, parts.length > 2 ? parts[2] : "");
  }

  public HubLocation withRevision(String rev) {
    return new HubLocation(kind, id, rev, prefix);
  }

  /** The location of {@code path} below this one. */
  public String pathOf(String relative) {
    String r = strip(relative);
    return prefix.isEmpty() ? r : r.isEmpty() ? prefix : prefix + "/" + r;
  }

  /**
   * The download URL of {@code relative}: {@code <endpoint>/datasets/<id>/resolve/<rev>/<path>}
   * (revision URL-encoded with no safe characters, path percent-encoded keeping '/') or {@code
   * <endpoint>/buckets/<id>/resolve/<path>}.
   */
  public String resolveUrl(String endpoint, String relative) {
    String path = encodePath(pathOf(relative));
    if (kind == Kind.BUCKET) {
      return endpoint + "/buckets/" + id + "/resolve/" + path;
    }
    requireRevision();
    return endpoint + "/datasets/" + id + "/resolve/" + encodeAll(revision) + "/" + path;
  }

  /** The tree listing URL of {@code relative} (recursive, unexpanded). */
  public String treeUrl(String endpoint, String relative) {
    String path = encodePath(pathOf(relative));
    String base =
        kind == Kind.BUCKET
            ? endpoint + "/api/buckets/" + id + "/tree/"
            : endpoint + "/api/datasets/" + id + "/tree/" + encodeAll(requireRevision()) + "/";
    return base + path + "?recursive=true&expand=false";
  }

  /** A file named by a download URL: where it is and its path there. */
  public record ResolvedFile(HubLocation location, String path) {}

  /**
   * The location (revision included) and path a download URL of {@code endpoint} names, as {@link
   * #resolveUrl} builds them; empty for any other URL.
   */
  public static java.util.Optional<ResolvedFile> ofResolveUrl(String endpoint, String url) {
    for (Kind kind : Kind.values()) {
      String base = endpoint + (kind == Kind.BUCKET ? "/buckets/" : "/datasets/");
      if (!url.startsWith(base)) {
        continue;
      }
      String[] parts = url.substring(base.length()).split("/", kind == Kind.BUCKET ? 4 : 5);
      int path = kind == Kind.BUCKET ? 3 : 4;
      if (parts.length <= path || !parts[2].equals("resolve")) {
        return java.util.Optional.empty();
      }
      String revision = kind == Kind.BUCKET ? null : decode(parts[3]);
      return java.util.Optional.of(
          new ResolvedFile(
              new HubLocation(kind, parts[0] + "/" + parts[1], revision, ""), decode(parts[path])));
    }
    return java.util.Optional.empty();
  }

  private static String decode(String s) {
    return java.net.URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
  }

  /** The refs (branches and tags) URL of a dataset repository. */
  public String refsUrl(String endpoint) {
    return endpoint + "/api/datasets/" + id + "/refs";
  }

  private String requireRevision() {
    if (revision == null) {
      throw new IllegalStateException("revision of " + id + " is not resolved");
    }
    return revision;
  }

  /** The {@code hf://} URL, revision URL-encoded: what {@link #parse} reads back. */
  @Override
  public String toString() {
    String base =
        "hf://"
            + (kind == Kind.BUCKET ? "buckets/" : "datasets/")
            + id
            + (revision != null ? "@" + encodeAll(revision) : "");
    return prefix.isEmpty() ? base : base + "/" + prefix;
  }

  static String encodeAll(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }

  static String encodePath(String path) {
    StringBuilder out = new StringBuilder();
    for (String segment : path.split("/", -1)) {
      if (out.length() > 0 || path.startsWith("/")) {
        out.append('/');
      }
      out.append(encodeAll(segment));
    }
    return out.toString();
  }

  private static String strip(String p) {
    String s = p;
    while (s.startsWith("/")) {
      s = s.substring(1);
    }
    while (s.endsWith("/")) {
      s = s.substring(0, s.length() - 1);
    }
    return s;
  }
}
