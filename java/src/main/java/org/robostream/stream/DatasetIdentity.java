package org.robostream.stream;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.robostream.dataset.LeRobotMetadata;

/**
 * What tells a dataset from another whose episodes have the same lengths, for a saved state: its
 * format version, robot type, frame rate, tasks and statistics (which hold what was recorded), but
 * not where it lies (a moved or re-downloaded copy is the same dataset) nor which cameras are read
 * (a state resumes with another camera selection: the samples are the same). Stateless.
 */
final class DatasetIdentity {
  private DatasetIdentity() {}

  /** A 64-bit hash of the identity; never 0 (0 marks a state saved before it was recorded). */
  static long of(LeRobotMetadata metadata) {
    MessageDigest sha = sha256();
    Set<String> cameras = Set.copyOf(metadata.cameras());
    add(sha, "version=" + metadata.info().codebaseVersion());
    add(sha, "robot=" + metadata.info().robotType());
    add(sha, "fps=" + metadata.info().fps());
    for (Map.Entry<Integer, String> task : new TreeMap<>(metadata.tasks()).entrySet()) {
      add(sha, "task " + task.getKey() + "=" + task.getValue());
    }
    metadata.stats().ifPresent(stats -> addStats(sha, "stats", stats, cameras));
    for (Map.Entry<Integer, JsonNode> e : new TreeMap<>(metadata.episodeStats()).entrySet()) {
      addStats(sha, "episode " + e.getKey(), e.getValue(), cameras);
    }
    long hash = ByteBuffer.wrap(sha.digest()).getLong();
    return hash != 0 ? hash : 1;
  }

  /** The statistics of every feature but the cameras (a selection leaves some out). */
  private static void addStats(MessageDigest sha, String where, JsonNode stats, Set<String> cams) {
    if (stats == null || !stats.isObject()) {
      return;
    }
    TreeMap<String, JsonNode> features = new TreeMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = stats.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> f = it.next();
      if (!cams.contains(f.getKey()) && !f.getKey().startsWith("observation.image")) {
        features.put(f.getKey(), f.getValue());
      }
    }
    for (Map.Entry<String, JsonNode> f : features.entrySet()) {
      add(sha, where + " " + f.getKey() + "=" + f.getValue());
    }
  }

  private static void add(MessageDigest sha, String text) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    sha.update(ByteBuffer.allocate(4).putInt(bytes.length).array());
    sha.update(bytes);
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }
}
