package org.robostream.hub;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pins the one commit a Hub dataset is read at: metadata, Parquet and videos alike.
 *
 * <p>The revision, by the reference's "safe version" rule: the given version or {@link
 * #CODEBASE_VERSION}; its tag, else the highest older tag of the same major version; no v3 tag:
 * {@code main} with a warning; only newer tags: an error. A branch or commit given is taken as is.
 *
 * <p>That revision is then resolved once to its commit, and every file read at it, so a moving
 * branch or tag cannot mix versions; the mirror is keyed by the commit. A 40-hex revision is taken
 * as a commit. Thread-safe.
 */
final class RevisionResolver {
  /** The dataset format this code reads; the default wanted version. */
  public static final String CODEBASE_VERSION = "v3.0";

  private static final Logger LOG = LoggerFactory.getLogger(RevisionResolver.class);
  private static final Pattern VERSION = Pattern.compile("v(\\d+)\\.(\\d+)(?:\\.(\\d+))?");
  private static final Pattern COMMIT = Pattern.compile("[0-9a-f]{40}");
  private static final ObjectMapper JSON = new ObjectMapper();

  private RevisionResolver() {}

  /**
   * A revision pinned to its commit.
   *
   * @param name what was chosen: a tag, a branch or a commit
   * @param commit the commit every file is read at
   * @param warning why the choice is a fallback (null when it is not)
   */
  public record Pinned(String name, String commit, String warning) {
    /** A bucket's files: buckets have no revisions (no commit). */
    public static final Pinned UNVERSIONED = new Pinned("a bucket, unversioned", "", null);

    /** "v3.0 (commit 0123456789ab)" for messages and results. */
    public String describe() {
      if (commit.isEmpty()) {
        return name;
      }
      return name.equals(commit)
          ? "commit " + commit
          : name + " (commit " + commit.substring(0, Math.min(12, commit.length())) + ")";
    }
  }

  /**
   * Chooses the revision of {@code dataset} for {@code requested} (null: none given) and pins it.
   */
  public static Pinned resolve(HubHttp http, HubLocation dataset, String requested) {
    String name = requested;
    String warning = null;
    if (requested == null || VERSION.matcher(requested).matches()) {
      Choice c = choose(tags(http, dataset), requested);
      if (c.error() != null) {
        throw new HubException.NotFound(dataset.refsUrl(http.config().endpoint()), c.error());
      }
      name = c.revision();
      warning = c.warning();
      if (warning != null) {
        LOG.warn("{}: {}", dataset.id(), warning);
      }
    }
    String commit = COMMIT.matcher(name).matches() ? name : commitOf(http, dataset, name);
    http.nameRevision(commit, name);
    return new Pinned(name, commit, warning);
  }

  /** A chosen revision (with a warning when it is a fallback), or why there is none. */
  record Choice(String revision, String warning, String error) {}

  /** The version rule alone, over the repository's tag names. */
  static Choice choose(List<String> tags, String requested) {
    String wanted = requested != null ? requested : CODEBASE_VERSION;
    if (tags.contains(wanted)) {
      return new Choice(wanted, null, null);
    }
    int[] target = parse(wanted);
    String best = null;
    int[] bestVersion = null;
    List<String> newer = new ArrayList<>();
    for (String t : tags) {
      int[] v = VERSION.matcher(t).matches() ? parse(t) : null;
      if (v == null || v[0] != target[0]) {
        continue;
      }
      if (v[1] > target[1]) {
        newer.add(t);
      } else if (bestVersion == null || compare(v, bestVersion) > 0) {
        best = t;
        bestVersion = v;
      }
    }
    if (best != null) {
      return new Choice(best, best + " instead of " + wanted + " (no " + wanted + " tag)", null);
    }
    if (!newer.isEmpty()) {
      return new Choice(
          null,
          null,
          "no tag "
              + wanted
              + " nor an older v"
              + target[0]
              + ".x;"
              + " only newer ones "
              + newer
              + ", which this robostream (format "
              + CODEBASE_VERSION
              + ") may not read: ask for one of them as the revision to try");
    }
    if (requested == null) {
      return new Choice(
          "main", "no v" + target[0] + ".x tag (tags: " + tags + "); reading main", null);
    }
    return new Choice(
        null,
        null,
        "no tag " + wanted + " nor another v" + target[0] + ".x tag (tags: " + tags + ")");
  }

  private static int[] parse(String version) {
    Matcher m = VERSION.matcher(version);
    if (!m.matches()) {
      throw new IllegalArgumentException("not a version: " + version);
    }
    return new int[] {
      Integer.parseInt(m.group(1)),
      Integer.parseInt(m.group(2)),
      m.group(3) == null ? 0 : Integer.parseInt(m.group(3))
    };
  }

  private static int compare(int[] a, int[] b) {
    for (int i = 0; i < a.length; i++) {
      if (a[i] != b[i]) {
        return Integer.compare(a[i], b[i]);
      }
    }
    return 0;
  }

  private static String commitOf(HubHttp http, HubLocation dataset, String revision) {
    String url =
        http.config().endpoint()
            + "/api/datasets/"
            + dataset.id()
            + "/revision/"
            + HubLocation.encodeAll(revision);
    String sha;
    try {
      sha = JSON.readTree(http.getText(url).body()).path("sha").asText("");
    } catch (java.io.IOException e) {
      throw new HubException(url, 200, "revision answer is not JSON: " + e.getMessage());
    } catch (HubException.NotFound e) {
      throw new HubException.NotFound(
          url, "revision " + revision + " of " + dataset.id() + " does not exist");
    }
    if (!COMMIT.matcher(sha).matches()) {
      throw new HubException(url, 200, "revision answer has no commit sha: \"" + sha + "\"");
    }
    return sha;
  }

  private static List<String> tags(HubHttp http, HubLocation dataset) {
    String url = dataset.refsUrl(http.config().endpoint());
    List<String> out = new ArrayList<>();
    try {
      for (JsonNode tag : JSON.readTree(http.getText(url).body()).path("tags")) {
        out.add(tag.path("name").asText());
      }
    } catch (java.io.IOException e) {
      throw new HubException(url, 200, "refs answer is not JSON: " + e.getMessage());
    }
    return out;
  }
}
