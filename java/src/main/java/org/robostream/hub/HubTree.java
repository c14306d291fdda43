package org.robostream.hub;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Lists the files under a path of a Hub dataset or bucket through the tree API (recursive,
 * following {@code Link: <...>; rel="next"} pages). The listing is the server's word: every entry
 * must be a plain relative path under the listed directory ({@link ServerPath}), else the listing
 * is refused whole before anything is fetched; pages that loop, or more than {@link #MAX_ENTRIES}
 * files, end it too. Thread-safe (stateless).
 */
final class HubTree {
  /**
   * The most files one listing may name: far more than any dataset's {@code meta/} holds, and a
   * bound on a server that pages without end.
   */
  public static final int MAX_ENTRIES = 100_000;

  private static final ObjectMapper JSON = new ObjectMapper();

  private HubTree() {}

  /** One file: its path inside the repository or bucket, and size. */
  public record Entry(String path, long size) {}

  public static List<Entry> files(HubHttp http, HubLocation location, String relative) {
    String dir = location.pathOf(relative);
    List<Entry> out = new ArrayList<>();
    Set<String> pages = new HashSet<>();
    String url = location.treeUrl(http.config().endpoint(), relative);
    while (url != null) {
      if (!pages.add(url)) {
        throw new HubException(url, 200, "the tree listing's next-page links loop back here");
      }
      HubHttp.TextResult page = http.getText(url);
      for (JsonNode e : list(url, page.body())) {
        if ("file".equals(e.path("type").asText())) {
          out.add(new Entry(checked(url, dir, e.path("path").asText()), e.path("size").asLong()));
        }
      }
      if (out.size() > MAX_ENTRIES) {
        throw new HubException(
            url, 200, "the tree listing names more than " + MAX_ENTRIES + " files");
      }
      url = page.next();
    }
    return out;
  }

  private static JsonNode list(String url, String body) {
    JsonNode list;
    try {
      list = JSON.readTree(body);
    } catch (java.io.IOException e) {
      throw new HubException(url, 200, "tree answer is not a JSON list: " + e.getMessage());
    }
    if (list == null || !list.isArray()) {
      throw new HubException(url, 200, "tree answer is not a JSON list");
    }
    return list;
  }

  /** {@code path}, when it is a plain relative path under {@code dir}. */
  private static String checked(String url, String dir, String path) {
    String problem = ServerPath.problem(path);
    if (problem == null && !dir.isEmpty() && !path.startsWith(dir + "/")) {
      problem = "not under the listed directory " + dir;
    }
    if (problem != null) {
      throw new HubException.UnsafePath(url, HubHttp.authority(URI.create(url)), path, problem);
    }
    return path;
  }
}
