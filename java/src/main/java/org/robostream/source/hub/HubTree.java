package org.robostream.source.hub;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;

/**
 * Lists the files under a path of a Hub dataset or bucket through the tree API (recursive,
 * following {@code Link: <...>; rel="next"} pages). Thread-safe (stateless).
 */
public final class HubTree {
  private static final ObjectMapper JSON = new ObjectMapper();

  private HubTree() {}

  /** One file: its path inside the repository or bucket, and size. */
  public record Entry(String path, long size) {}

  public static List<Entry> files(HubHttp http, HubLocation location, String relative) {
    List<Entry> out = new ArrayList<>();
    String url = location.treeUrl(http.config().endpoint(), relative);
    while (url != null) {
      HubHttp.TextResult page = http.getText(url);
      try {
        for (JsonNode e : JSON.readTree(page.body())) {
          if ("file".equals(e.path("type").asText())) {
            out.add(new Entry(e.path("path").asText(), e.path("size").asLong()));
          }
        }
      } catch (java.io.IOException | RuntimeException e) {
        throw new HubException(url, 200, "tree answer is not a JSON list: " + e.getMessage());
      }
      url = page.next();
    }
    return out;
  }
}
