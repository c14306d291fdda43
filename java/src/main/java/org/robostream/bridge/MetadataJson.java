package org.robostream.bridge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.robostream.JsonFields;
import org.robostream.dataset.DatasetRoots;
import org.robostream.dataset.EpisodeInfo;
import org.robostream.dataset.Feature;
import org.robostream.dataset.LeRobotMetadata;
import org.robostream.dataset.SymlinkPolicy;
import org.robostream.dataset.VideoSpan;

/**
 * A dataset's metadata as the JSON the Python side builds {@code LeRobotDatasetMetadata} from:
 * info.json as written, the features the loader reads (info.json's, and LeRobot's defaults where it
 * leaves them out), tasks, every listed episode with its files and spans, and the statistics as
 * stored. Paths are relative to the data root, as LeRobot's {@code get_data_file_path} returns
 * them. Stateless.
 */
final class MetadataJson {
  static final ObjectMapper JSON = new ObjectMapper();

  /** info.json is bounded as the loader bounds it when the dataset is opened. */
  private static final long MAX_INFO_BYTES = 64L << 20;

  private MetadataJson() {}

  /**
   * {@code metadata}'s description, listing every episode of its episodes table (not only the kept
   * ones: LeRobot's {@code meta.episodes} lists them all).
   */
  static ObjectNode of(LeRobotMetadata metadata) {
    LeRobotMetadata all =
        LeRobotMetadata.open(
            DatasetRoots.of(metadata.root(), metadata.dataRoot(), SymlinkPolicy.CONFINED),
            Optional.empty(),
            Optional.empty());
    ObjectNode out = JSON.createObjectNode();
    out.put("root", metadata.root().toString());
    out.put("data_root", metadata.dataRoot().toString());
    out.set("info", JsonFields.read(metadata.root().resolve("meta/info.json"), MAX_INFO_BYTES));
    ObjectNode features = out.putObject("features");
    // The features the given metadata reads: for a loader's, LeRobot's defaults info.json
    // leaves out included (LeRobotMetadata.withDefaultFeatures), as its batches have them.
    for (Map.Entry<String, Feature> e : metadata.info().features().entrySet()) {
      Feature f = e.getValue();
      ObjectNode n = features.putObject(e.getKey());
      n.put("dtype", f.dtype());
      ArrayNode shape = n.putArray("shape");
      for (int d : f.shape()) {
        shape.add(d);
      }
    }
    out.set("depth_keys", strings(all.depthCameras()));
    ArrayNode tasks = out.putArray("tasks");
    all.tasks().forEach((index, task) -> tasks.addArray().add(index).add(task));
    ArrayNode episodes = out.putArray("episodes");
    for (EpisodeInfo e : all.episodes()) {
      episodes.add(episode(e, all.dataRoot()));
    }
    out.set("stats", all.stats().orElse(null));
    ObjectNode perEpisode = out.putObject("episodes_stats");
    all.episodeStats().forEach((index, stats) -> perEpisode.set(String.valueOf(index), stats));
    return out;
  }

  private static ObjectNode episode(EpisodeInfo e, Path dataRoot) {
    ObjectNode n = JSON.createObjectNode();
    n.put("episode_index", e.index());
    n.set("tasks", strings(e.tasks()));
    n.put("length", e.length());
    n.put("dataset_from_index", e.datasetFromIndex());
    n.put("dataset_to_index", e.datasetFromIndex() + e.length());
    n.put("data_file", relative(dataRoot, e.dataFile()));
    ObjectNode videos = n.putObject("videos");
    for (VideoSpan v : e.videos().values()) {
      ObjectNode span = videos.putObject(v.camera());
      span.put("file", relative(dataRoot, v.file()));
      span.put("from_timestamp", v.fromTimestamp());
      span.put("to_timestamp", v.toTimestamp());
    }
    return n;
  }

  private static String relative(Path root, Path file) {
    return file.startsWith(root) ? root.relativize(file).toString() : file.toString();
  }

  static ArrayNode strings(Iterable<String> values) {
    ArrayNode a = JSON.createArrayNode();
    values.forEach(a::add);
    return a;
  }

  static JsonNode text(String value) {
    return JSON.getNodeFactory().textNode(value);
  }
}
