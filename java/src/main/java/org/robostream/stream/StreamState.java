package org.robostream.stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a stream stands: the epoch and, per segment of it, the (world, workers) it ran with and how
 * many batches every rank consumed. No frame data and no buffers: the sample order is a pure
 * function of the plan parameters, so the position is enough to rebuild everything (see {@link
 * ResumePlanner}). Every rank of one checkpoint has the same state. Immutable.
 *
 * @param episodesFingerprint a hash of the (episode, length) list, to refuse resuming a different
 *     dataset view
 */
public record StreamState(
    long epoch, List<Segment> segments, PlanParameters params, long episodesFingerprint) {
  /**
   * Version 2 records each segment's shuffle buffer, which the memory budget may size below {@code
   * buffer_size}: a reader of version 1 would resume such a segment with the wrong buffer, so it
   * must refuse the state rather than misread it. Version 1 states still read (their segments held
   * {@code buffer_size}).
   */
  static final String FORMAT = "robostream.stream-state/2";

  static final String FORMAT_V1 = "robostream.stream-state/1";
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * A stretch of the epoch run with one world size, worker count and shuffle buffer.
   *
   * @param buffer samples each worker's reservoir held (the requested size, or fewer when the
   *     memory budget could not hold it: {@link ShuffleBufferSizing}); 0 in states saved before it
   *     was recorded, meaning the plan's {@code buffer_size}
   */
  public record Segment(int world, int workers, int batches, int buffer) {
    public Segment {
      if (world < 1 || workers < 1 || batches < 0 || buffer < 0) {
        throw new IllegalArgumentException(
            "bad segment " + world + "/" + workers + "/" + batches + "/" + buffer);
      }
    }

    /** A segment whose buffer is the plan's {@code buffer_size}. */
    public Segment(int world, int workers, int batches) {
      this(world, workers, batches, 0);
    }

    /** The reservoir size the segment's plan used, given the plan's parameters. */
    public int bufferOf(PlanParameters params) {
      return buffer > 0 ? buffer : params.bufferSize();
    }
  }

  public StreamState {
    segments = List.copyOf(segments);
  }

  public String toJson() {
    ObjectNode root = JSON.createObjectNode();
    root.put("format", FORMAT);
    root.put("epoch", epoch);
    ArrayNode segs = root.putArray("segments");
    for (Segment s : segments) {
      ObjectNode seg =
          segs.addObject()
              .put("world", s.world())
              .put("workers", s.workers())
              .put("batches", s.batches());
      if (s.buffer() > 0) {
        seg.put("buffer", s.buffer());
      }
    }
    root.put("seed", params.seed());
    root.put("shuffle", params.shuffle());
    root.put("buffer_size", params.bufferSize());
    root.put("max_num_shards", params.maxNumShards());
    root.put("batch_size", params.batchSize());
    root.put("drop_last", params.dropLast());
    root.put("rank_balance", params.rankBalance().name().toLowerCase(java.util.Locale.ROOT));
    root.put("episodes_fingerprint", Long.toHexString(episodesFingerprint));
    return root.toString();
  }

  /** Parses {@link #toJson()} output; an {@link IllegalArgumentException} says what is wrong. */
  public static StreamState fromJson(String json) {
    JsonNode root;
    try {
      root = JSON.readTree(json);
    } catch (IOException e) {
      throw new IllegalArgumentException("stream state is not JSON: " + e.getMessage(), e);
    }
    if (root == null
        || !(FORMAT.equals(root.path("format").asText())
            || FORMAT_V1.equals(root.path("format").asText()))) {
      throw new IllegalArgumentException(
          "not a robostream stream state (format "
              + (root == null ? "missing" : root.path("format"))
              + ", expected "
              + FORMAT
              + ")");
    }
    List<Segment> segments = new ArrayList<>();
    for (JsonNode s : root.path("segments")) {
      segments.add(
          new Segment(
              s.path("world").asInt(),
              s.path("workers").asInt(),
              s.path("batches").asInt(-1),
              s.path("buffer").asInt(0)));
    }
    PlanParameters params =
        new PlanParameters(
            root.path("seed").asLong(),
            root.path("shuffle").asBoolean(),
            root.path("buffer_size").asInt(),
            root.path("max_num_shards").asInt(),
            root.path("batch_size").asInt(),
            root.path("drop_last").asBoolean(),
            PlanParameters.RankBalance.valueOf(
                root.path("rank_balance").asText("pad").toUpperCase(java.util.Locale.ROOT)));
    return new StreamState(
        root.path("epoch").asLong(),
        segments,
        params,
        Long.parseUnsignedLong(root.path("episodes_fingerprint").asText("0"), 16));
  }

  /** Hash of the episode list a plan runs over. */
  public static long fingerprint(List<EpisodePiece> episodes) {
    long h = 17;
    for (EpisodePiece p : episodes) {
      h = SplitMix64.mix(h + SplitMix64.GOLDEN + Samples.of(p.episode(), p.size()));
    }
    return h;
  }
}
