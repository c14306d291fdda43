package org.robostream.bridge;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.robostream.JsonFields;
import org.robostream.dataset.TimestampRule;
import org.robostream.framecache.FrameCacheOptions;
import org.robostream.stream.PlanParameters;
import org.robostream.stream.StreamingDataset;
import org.robostream.transform.ImageTransformsConfig;
import org.robostream.video.DecodeDeviceSpec;

/**
 * The Python side's options (snake_case keys, as its constructor names them) applied to a {@link
 * StreamingDataset.Builder}. Unknown keys are refused: a misspelt option must not be ignored.
 * Stateless.
 */
final class BridgeOptions {
  private static final Set<String> KEYS =
      Set.of(
          "location",
          "data_files_root",
          "environment",
          "rank",
          "world_size",
          "workers",
          "batch_size",
          "drop_last",
          "rank_balance",
          "buffer_size",
          "max_num_shards",
          "seed",
          "shuffle",
          "return_uint8",
          "tolerance_s",
          "delta_timestamps",
          "episodes",
          "cameras",
          "decoder_cache_size",
          "video_decode_device",
          "frame_cache",
          "memory_budget_mb",
          "timestamps",
          "image_transforms",
          "resume",
          "epoch");

  /** Longest string option: a location, a path or a resume state. */
  private static final int MAX_TEXT = 1 << 20;

  private BridgeOptions() {}

  /** The options document, checked for unknown keys. */
  static JsonNode parse(String json) {
    JsonNode root = JsonFields.parse(json, "the bridge's options");
    for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
      String key = it.next();
      if (!KEYS.contains(key)) {
        throw new IllegalArgumentException("unknown option " + key);
      }
    }
    return root;
  }

  /** The dataset's location: a folder, {@code hf://datasets/...} or {@code hf://buckets/...}. */
  static String location(JsonNode o) {
    return JsonFields.text(o, "location", "location", MAX_TEXT);
  }

  /** This process's environment with the options' changes (a null value removes a variable). */
  static Map<String, String> environment(JsonNode o) {
    Map<String, String> env = new HashMap<>(System.getenv());
    JsonNode changes = o.path("environment");
    for (Iterator<Map.Entry<String, JsonNode>> it = changes.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      if (e.getValue().isNull()) {
        env.remove(e.getKey());
      } else {
        env.put(e.getKey(), e.getValue().asText());
      }
    }
    return env;
  }

  /** A builder with every option the document sets. */
  static StreamingDataset.Builder builder(JsonNode o) {
    StreamingDataset.Builder b = StreamingDataset.builder(location(o)).environment(environment(o));
    if (has(o, "data_files_root")) {
      b.dataFilesRoot(JsonFields.text(o, "data_files_root", "data_files_root", MAX_TEXT));
    }
    if (has(o, "rank") || has(o, "world_size")) {
      b.rank(
          JsonFields.wholeInt(o, "rank", "rank", 0, Integer.MAX_VALUE - 1),
          JsonFields.wholeInt(o, "world_size", "world_size", 1, Integer.MAX_VALUE));
    }
    if (has(o, "workers")) {
      b.workers(JsonFields.wholeInt(o, "workers", "workers", 1, 1024));
    }
    if (has(o, "batch_size")) {
      b.batchSize(JsonFields.wholeInt(o, "batch_size", "batch_size", 1, 1 << 20));
    }
    if (has(o, "drop_last")) {
      b.dropLast(JsonFields.bool(o, "drop_last", "drop_last"));
    }
    if (has(o, "rank_balance")) {
      b.rankBalance(
          PlanParameters.RankBalance.valueOf(
              JsonFields.text(o, "rank_balance", "rank_balance", 16)
                  .toUpperCase(java.util.Locale.ROOT)));
    }
    if (has(o, "buffer_size")) {
      b.bufferSize(JsonFields.wholeInt(o, "buffer_size", "buffer_size", 1, 1 << 24));
    }
    if (has(o, "max_num_shards")) {
      b.maxNumShards(JsonFields.wholeInt(o, "max_num_shards", "max_num_shards", 1, 1 << 20));
    }
    if (has(o, "seed")) {
      b.seed(o.get("seed").asLong());
    }
    if (has(o, "shuffle")) {
      b.shuffle(JsonFields.bool(o, "shuffle", "shuffle"));
    }
    if (has(o, "return_uint8")) {
      b.returnUint8(JsonFields.bool(o, "return_uint8", "return_uint8"));
    }
    if (has(o, "tolerance_s")) {
      b.toleranceSeconds(JsonFields.number(o, "tolerance_s", "tolerance_s", 0, 3600));
    }
    if (has(o, "delta_timestamps")) {
      b.deltaTimestamps(deltas(o.get("delta_timestamps")));
    }
    if (has(o, "episodes")) {
      b.episodes(integers(o.get("episodes"), "episodes"));
    }
    if (has(o, "cameras")) {
      b.cameras(texts(o.get("cameras"), "cameras").toArray(String[]::new));
    }
    if (has(o, "decoder_cache_size")) {
      b.decoderCacheSize(
          JsonFields.wholeInt(o, "decoder_cache_size", "decoder_cache_size", 1, 1 << 16));
    }
    if (has(o, "video_decode_device")) {
      String device = JsonFields.text(o, "video_decode_device", "video_decode_device", 64);
      if (!device.equals("cpu")) {
        b.decodeDevice(DecodeDeviceSpec.parse(device)).deviceBatches(true);
      }
    }
    if (has(o, "frame_cache")) {
      b.frameCache(FrameCacheOptions.parse(JsonFields.text(o, "frame_cache", "frame_cache", 4096)));
    }
    if (has(o, "memory_budget_mb")) {
      b.memoryBudgetBytes(
          JsonFields.whole(o, "memory_budget_mb", "memory_budget_mb", 1, 1L << 30) << 20);
    }
    if (has(o, "timestamps")) {
      b.timestamps(TimestampRule.parse(JsonFields.text(o, "timestamps", "timestamps", 32)));
    }
    if (has(o, "image_transforms")) {
      b.imageTransforms(transforms(o.get("image_transforms")));
    }
    if (has(o, "resume")) {
      b.resumeFrom(JsonFields.text(o, "resume", "resume", MAX_TEXT));
    } else if (has(o, "epoch")) {
      b.epoch(JsonFields.whole(o, "epoch", "epoch", 0, Long.MAX_VALUE));
    }
    return b;
  }

  private static boolean has(JsonNode o, String key) {
    return o.has(key) && !o.get(key).isNull();
  }

  private static Map<String, double[]> deltas(JsonNode node) {
    if (!node.isObject()) {
      throw new IllegalArgumentException("delta_timestamps must map feature keys to seconds");
    }
    Map<String, double[]> out = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      JsonNode list = e.getValue();
      if (!list.isArray() || list.size() > 1 << 16) {
        throw new IllegalArgumentException(
            "delta_timestamps[" + e.getKey() + "] must be a list of seconds");
      }
      double[] seconds = new double[list.size()];
      for (int i = 0; i < seconds.length; i++) {
        if (!list.get(i).isNumber()) {
          throw new IllegalArgumentException(
              "delta_timestamps[" + e.getKey() + "] must be a list of seconds");
        }
        seconds[i] = list.get(i).asDouble();
      }
      out.put(e.getKey(), seconds);
    }
    return out;
  }

  private static List<Integer> integers(JsonNode node, String name) {
    return list(node, name, "whole numbers", n -> n.isIntegralNumber() && n.canConvertToInt())
        .stream()
        .map(JsonNode::asInt)
        .toList();
  }

  private static List<String> texts(JsonNode node, String name) {
    return list(node, name, "strings", JsonNode::isTextual).stream().map(JsonNode::asText).toList();
  }

  /** The items of list {@code node}, each of which {@code ok} must accept. */
  private static List<JsonNode> list(
      JsonNode node, String name, String what, java.util.function.Predicate<JsonNode> ok) {
    List<JsonNode> out = new ArrayList<>();
    if (node.isArray()) {
      node.forEach(out::add);
    }
    if (!node.isArray() || !out.stream().allMatch(ok)) {
      throw new IllegalArgumentException(name + " must be a list of " + what);
    }
    return out;
  }

  /** {@code "default"} or {@code {"only": [...], "max_num_transforms": n, "random_order": b}}. */
  private static ImageTransformsConfig transforms(JsonNode node) {
    ImageTransformsConfig config = ImageTransformsConfig.lerobotDefaults();
    if (node.isTextual()) {
      return config;
    }
    if (node.has("only")) {
      config = config.only(texts(node.get("only"), "image_transforms.only").toArray(String[]::new));
    }
    if (node.has("max_num_transforms")) {
      config =
          config.withMaxNumTransforms(
              JsonFields.wholeInt(node, "max_num_transforms", "image_transforms", 1, 64));
    }
    if (node.has("random_order")) {
      config = config.withRandomOrder(JsonFields.bool(node, "random_order", "image_transforms"));
    }
    return config;
  }
}
