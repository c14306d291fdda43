package org.robostream.dataset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code meta/info.json}, parsed tolerantly: unknown keys are ignored (logged at debug), video
 * features may carry {@code info} or {@code video_info}, and {@code names} may be a list, a nested
 * list or a dict. Immutable, thread-safe.
 */
public record DatasetInfo(
    String codebaseVersion,
    String robotType,
    int fps,
    int totalEpisodes,
    long totalFrames,
    int chunksSize,
    PathTemplate dataPath,
    PathTemplate videoPath,
    Map<String, Feature> features) {
  private static final Logger LOG = LoggerFactory.getLogger(DatasetInfo.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Set<String> KNOWN = Set.of("codebase_version", "robot_type", "fps",
      "total_episodes", "total_frames", "total_tasks", "chunks_size", "data_path", "video_path",
      "features", "splits", "data_files_size_in_mb", "video_files_size_in_mb", "total_videos",
      "total_chunks", "tools");

  public DatasetInfo {
    features = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(features));
  }

  /** The major version: 2 for "v2.1", 3 for "v3.0". */
  public int majorVersion() {
    String v = codebaseVersion.startsWith("v") ? codebaseVersion.substring(1) : codebaseVersion;
    try {
      return Integer.parseInt(v.split("\\.")[0]);
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** Names of the video features, in declaration order (the cameras). */
  public List<String> videoKeys() {
    return features.values().stream().filter(Feature::isVideo).map(Feature::name).toList();
  }

  public static DatasetInfo read(Path infoJson) {
    JsonNode root;
    try {
      root = JSON.readTree(infoJson.toFile());
    } catch (java.io.FileNotFoundException | NoSuchFileException e) {
      throw new DatasetException.MissingFile(infoJson.toString(), "info.json does not exist");
    } catch (IOException e) {
      throw new DatasetException.BadMetadata(infoJson.toString(), "not valid JSON: "
          + e.getMessage(), e);
    }
    return parse(root, infoJson.toString());
  }

  static DatasetInfo parse(JsonNode root, String source) {
    if (root == null || !root.isObject()) {
      throw new DatasetException.BadMetadata(source, "info.json must hold a JSON object");
    }
    for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
      String key = it.next();
      if (!KNOWN.contains(key)) {
        LOG.debug("{}: ignoring unknown key {}", source, key);
      }
    }
    String version = text(root, "codebase_version", source, true);
    int fps = root.path("fps").asInt(0);
    if (fps <= 0) {
      throw new DatasetException.BadMetadata(source, "fps must be a positive integer, got "
          + root.path("fps"));
    }
    String dataPath = text(root, "data_path", source, true);
    String videoPath = text(root, "video_path", source, false);
    JsonNode featuresNode = root.path("features");
    if (!featuresNode.isObject()) {
      throw new DatasetException.BadMetadata(source, "features must be an object");
    }
    Map<String, Feature> features = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = featuresNode.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      features.put(e.getKey(), feature(e.getKey(), e.getValue(), source));
    }
    boolean hasVideo = features.values().stream().anyMatch(Feature::isVideo);
    if (hasVideo && videoPath == null) {
      throw new DatasetException.BadMetadata(source, "video features but no video_path");
    }
    return new DatasetInfo(version, root.path("robot_type").asText(null), fps,
        root.path("total_episodes").asInt(0), root.path("total_frames").asLong(0),
        root.path("chunks_size").asInt(1000), new PathTemplate(dataPath, source),
        videoPath == null ? null : new PathTemplate(videoPath, source), features);
  }

  private static Feature feature(String name, JsonNode node, String source) {
    String dtype = node.path("dtype").asText(null);
    if (dtype == null) {
      throw new DatasetException.BadMetadata(source, "feature " + name + " has no dtype");
    }
    JsonNode shapeNode = node.path("shape");
    int[] shape = new int[shapeNode.isArray() ? shapeNode.size() : 0];
    for (int i = 0; i < shape.length; i++) {
      shape[i] = shapeNode.get(i).asInt();
    }
    List<String> names = new ArrayList<>();
    flattenNames(node.path("names"), names);
    JsonNode info = node.has("info") ? node.get("info") : node.path("video_info");
    Map<String, Object> videoInfo = info.isObject()
        ? JSON.convertValue(info, JSON.getTypeFactory().constructMapType(LinkedHashMap.class,
            String.class, Object.class))
        : Map.of();
    videoInfo.values().removeIf(java.util.Objects::isNull);
    return new Feature(name, dtype, shape, names, videoInfo);
  }

  private static void flattenNames(JsonNode node, List<String> out) {
    if (node.isTextual()) {
      out.add(node.asText());
    } else if (node.isArray()) {
      node.forEach(n -> flattenNames(n, out));
    } else if (node.isObject()) {
      node.fields().forEachRemaining(e -> flattenNames(e.getValue(), out));
    }
  }

  private static String text(JsonNode root, String key, String source, boolean required) {
    JsonNode n = root.get(key);
    if (n == null || n.isNull()) {
      if (required) {
        throw new DatasetException.BadMetadata(source, "missing " + key);
      }
      return null;
    }
    return n.asText();
  }
}
