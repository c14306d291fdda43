package org.robostream.dataset;

import com.fasterxml.jackson.databind.JsonNode;
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
 * {@code meta/info.json}, parsed tolerantly where LeRobot writers differ (unknown keys are ignored,
 * logged at debug; video features may carry {@code info} or {@code video_info}; {@code names} may
 * be a list, a nested list or a dict) and strictly where values drive the loader (fps, shapes,
 * counters, path templates: whole numbers, bounded). Immutable, thread-safe.
 *
 * @param features every feature, info.json's in its order, then the LeRobot defaults assumed
 * @param assumedDefaults the LeRobot default features info.json leaves out and the data files have,
 *     read as LeRobot declares them ({@link LeRobotMetadata#withDefaultFeatures()}); empty for
 *     info.json as read
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
    Map<String, Feature> features,
    List<String> assumedDefaults) {
  private static final Logger LOG = LoggerFactory.getLogger(DatasetInfo.class);
  private static final Set<String> KNOWN =
      Set.of(
          "codebase_version",
          "robot_type",
          "fps",
          "total_episodes",
          "total_frames",
          "total_tasks",
          "chunks_size",
          "data_path",
          "video_path",
          "features",
          "splits",
          "data_files_size_in_mb",
          "video_files_size_in_mb",
          "total_videos",
          "total_chunks",
          "tools");

  /** Highest frame rate accepted; robot cameras run far below it. */
  static final int MAX_FPS = 1000;

  /** Largest frame side, the decoders' limit too: camera sizes drive batch allocation. */
  static final int MAX_FRAME_SIDE = 8192;

  /** Largest element count of one feature value (product of its shape). */
  static final long MAX_FEATURE_ELEMENTS = 1L << 24;

  public DatasetInfo {
    features = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(features));
    assumedDefaults = List.copyOf(assumedDefaults);
  }

  /**
   * This info with {@code defaults} (LeRobot default features it does not declare) added after the
   * declared features, in the order given.
   */
  DatasetInfo withAssumedDefaults(List<Feature> defaults) {
    Map<String, Feature> all = new LinkedHashMap<>(features);
    List<String> assumed = new ArrayList<>(assumedDefaults);
    for (Feature f : defaults) {
      if (all.putIfAbsent(f.name(), f) != null) {
        throw new IllegalArgumentException(f.name() + " is declared already");
      }
      assumed.add(f.name());
    }
    return new DatasetInfo(
        codebaseVersion,
        robotType,
        fps,
        totalEpisodes,
        totalFrames,
        chunksSize,
        dataPath,
        videoPath,
        all,
        assumed);
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

  /**
   * Names of the image features (PNG or JPEG frames inside the data files), in declaration order.
   */
  public List<String> imageKeys() {
    return features.values().stream().filter(Feature::isImage).map(Feature::name).toList();
  }

  /** The cameras: video and image features, in declaration order. */
  public List<String> cameraKeys() {
    return features.values().stream()
        .filter(f -> f.isVideo() || f.isImage())
        .map(Feature::name)
        .toList();
  }

  /**
   * Refuses a {@code data_path} or {@code video_path} that uses a field the layout's reader does
   * not fill ({@code dataFields}, {@code videoFields}), naming the template and info.json.
   */
  void requireTemplateFields(List<String> dataFields, List<String> videoFields) {
    dataPath.requireFields(codebaseVersion, dataFields);
    if (videoPath != null) {
      videoPath.requireFields(codebaseVersion, videoFields);
    }
  }

  /**
   * Reads {@code infoJson}; numbers must be whole where LeRobot writes integers ({@code 30.0} is
   * 30, {@code 29.97} is refused), and values that size allocations are bounded.
   */
  public static DatasetInfo read(Path infoJson) {
    return parse(MetadataFiles.json(infoJson), infoJson.toString());
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
    // Frame times are frame_index / fps everywhere (LeRobot stores fps as an integer): a
    // fractional rate would put them between the video's frames, so it is refused, not rounded.
    int fps =
        (int)
            MetadataFiles.wholeNumber(
                root.get("fps"), "fps (frames per second)", source, 1, MAX_FPS);
    PathTemplate dataPath =
        new PathTemplate(text(root, "data_path", source, true), source, "data_path");
    String videoPath = text(root, "video_path", source, false);
    JsonNode featuresNode = root.path("features");
    if (!featuresNode.isObject()) {
      throw new DatasetException.BadMetadata(
          source, "features must be an object, got " + MetadataFiles.describe(featuresNode));
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
    return new DatasetInfo(
        version,
        root.path("robot_type").asText(null),
        fps,
        (int) count(root, "total_episodes", source, 0, Integer.MAX_VALUE, 0),
        count(root, "total_frames", source, 0, Long.MAX_VALUE, 0),
        (int) count(root, "chunks_size", source, 1, Integer.MAX_VALUE, 1000),
        dataPath,
        videoPath == null ? null : new PathTemplate(videoPath, source, "video_path"),
        features,
        List.of());
  }

  /** An optional counter, {@code absent} when missing. */
  private static long count(
      JsonNode root, String key, String source, long min, long max, long absent) {
    JsonNode n = root.get(key);
    if (n == null || n.isNull()) {
      return absent;
    }
    return MetadataFiles.wholeNumber(n, key, source, min, max);
  }

  private static Feature feature(String name, JsonNode node, String source) {
    JsonNode dtypeNode = node.path("dtype");
    if (!dtypeNode.isTextual()) {
      throw new DatasetException.BadMetadata(
          source,
          "feature "
              + name
              + " has no dtype string,"
              + " got "
              + MetadataFiles.describe(dtypeNode));
    }
    String dtype = dtypeNode.asText();
    JsonNode shapeNode = node.path("shape");
    int[] shape = new int[shapeNode.isArray() ? shapeNode.size() : 0];
    long elements = 1;
    for (int i = 0; i < shape.length; i++) {
      shape[i] =
          (int)
              MetadataFiles.wholeNumber(
                  shapeNode.get(i),
                  "features." + name + ".shape[" + i + "]",
                  source,
                  1,
                  MAX_FEATURE_ELEMENTS);
      elements *= shape[i];
      if (elements > MAX_FEATURE_ELEMENTS) {
        throw new DatasetException.BadMetadata(
            source,
            "features."
                + name
                + ".shape "
                + shapeNode
                + " has more than "
                + MAX_FEATURE_ELEMENTS
                + " elements");
      }
    }
    List<String> names = new ArrayList<>();
    flattenNames(node.path("names"), names);
    String infoKey = node.has("info") ? "info" : "video_info";
    JsonNode info = node.path(infoKey);
    if (dtype.equals("video") || dtype.equals("image")) {
      FrameShape frame = FrameShape.declared(name, shape, names, source);
      boolean depth =
          info.path("is_depth_map").asBoolean(false)
              || info.path("video.is_depth_map").asBoolean(false);
      requireFrameSides(name, frame, dtype.equals("video") ? (depth ? 1 : 3) : 0, source);
      requireVideoInfoAgrees("features." + name + "." + infoKey, frame, info, source);
    }
    Map<String, Object> videoInfo =
        info.isObject()
            ? MetadataFiles.JSON.convertValue(
                info,
                MetadataFiles.JSON
                    .getTypeFactory()
                    .constructMapType(LinkedHashMap.class, String.class, Object.class))
            : Map.of();
    videoInfo.values().removeIf(java.util.Objects::isNull);
    return new Feature(name, dtype, shape, names, videoInfo);
  }

  /**
   * A camera's sides size every batch's frame columns, so they are bounded; a video camera is
   * decoded to RGB, so it has 3 channels, or to one channel of sample values when it is a depth map
   * ({@code video.is_depth_map}); image features are decoded as their files say ({@code channels}
   * 0: any).
   */
  private static void requireFrameSides(
      String name, FrameShape frame, int channels, String source) {
    if (frame.height() > MAX_FRAME_SIDE
        || frame.width() > MAX_FRAME_SIDE
        || (channels != 0 && frame.channels() != channels)) {
      throw new DatasetException.BadMetadata(
          source,
          "features."
              + name
              + ".shape must be "
              + frame.axes()
              + (channels == 3 ? " with 3 channels (RGB)" : "")
              + (channels == 1 ? " with 1 channel (a depth map: video.is_depth_map is true)" : "")
              + " and sides up to "
              + MAX_FRAME_SIDE
              + ", got height "
              + frame.height()
              + ", width "
              + frame.width()
              + ", "
              + frame.channels()
              + " channels");
    }
  }

  /**
   * The feature's {@code info} ({@code video_info}) restates the size: {@code video.height}, {@code
   * video.width} and {@code video.channels}, where present, must be the shape's, or one of the two
   * is wrong and nothing says which.
   */
  private static void requireVideoInfoAgrees(
      String where, FrameShape frame, JsonNode info, String source) {
    long[] declared = {frame.height(), frame.width(), frame.channels()};
    String[] keys = {"video.height", "video.width", "video.channels"};
    for (int i = 0; i < keys.length; i++) {
      JsonNode n = info.get(keys[i]);
      if (n == null || n.isNull()) {
        continue;
      }
      String field = where + "." + keys[i];
      long value = MetadataFiles.wholeNumber(n, field, source, 1, MAX_FEATURE_ELEMENTS);
      if (value != declared[i]) {
        throw new DatasetException.BadMetadata(
            source,
            field
                + " is "
                + value
                + " but the shape declares "
                + frame.size()
                + " with "
                + frame.channels()
                + " channels (read as "
                + frame.axes()
                + ")");
      }
    }
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
    if (!n.isTextual()) {
      throw new DatasetException.BadMetadata(
          source, key + " must be a string, got " + MetadataFiles.describe(n));
    }
    return n.asText();
  }
}
