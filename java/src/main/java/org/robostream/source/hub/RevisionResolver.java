package org.robostream.source.hub;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Picks the one revision a Hub dataset is read at — metadata, Parquet and videos alike (the
 * reference read videos from main, a defect). No revision given: the {@code v3.0} tag, else the
 * highest {@code v3.x} tag, else {@code main} with a warning. A version given ({@code v3.1}): that
 * tag, else the highest tag of the same major version. Anything else (a branch, a commit) as
 * given. Thread-safe (stateless apart from the shared client).
 */
public final class RevisionResolver {
  private static final Logger LOG = LoggerFactory.getLogger(RevisionResolver.class);
  private static final Pattern VERSION = Pattern.compile("v(\\d+)\\.(\\d+)");
  private static final ObjectMapper JSON = new ObjectMapper();

  private RevisionResolver() {}

  public static String resolve(HubHttp http, HubLocation dataset, String requested) {
    if (requested != null && !VERSION.matcher(requested).matches()) {
      return requested;
    }
    String wanted = requested != null ? requested : "v3.0";
    List<String> tags = tags(http, dataset);
    if (tags.contains(wanted)) {
      return wanted;
    }
    Matcher w = VERSION.matcher(wanted);
    w.matches();
    int major = Integer.parseInt(w.group(1));
    String best = null;
    int bestMinor = -1;
    for (String t : tags) {
      Matcher m = VERSION.matcher(t);
      if (m.matches() && Integer.parseInt(m.group(1)) == major
          && Integer.parseInt(m.group(2)) > bestMinor) {
        best = t;
        bestMinor = Integer.parseInt(m.group(2));
      }
    }
    if (best != null) {
      return best;
    }
    if (requested == null) {
      LOG.warn("{} has no v{}.x tag (tags: {}); reading main", dataset.id(), major, tags);
      return "main";
    }
    throw new HubException.NotFound(dataset.refsUrl(http.config().endpoint()), "no tag "
        + wanted + " nor another v" + major + ".x tag (tags: " + tags + ")");
  }

  private static List<String> tags(HubHttp http, HubLocation dataset) {
    String body = http.getText(dataset.refsUrl(http.config().endpoint())).body();
    List<String> out = new ArrayList<>();
    try {
      JsonNode root = JSON.readTree(body);
      for (JsonNode tag : root.path("tags")) {
        out.add(tag.path("name").asText());
      }
    } catch (java.io.IOException e) {
      throw new HubException(dataset.refsUrl(http.config().endpoint()), 200,
          "refs answer is not JSON: " + e.getMessage());
    }
    return out;
  }
}
