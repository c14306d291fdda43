package org.robostream.stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import org.robostream.FileException;
import org.robostream.JsonFields;

/**
 * Where a stream stands: the epoch and, per segment of it, the (world, workers) it ran with and how
 * many batches every rank consumed. No frame data and no buffers: the sample order is a pure
 * function of the plan parameters, so the position is enough to rebuild everything (see {@link
 * ResumePlanner}). Every rank of one checkpoint has the same state. Immutable.
 *
 * @param episodesFingerprint a hash of the (episode, length) list, to refuse resuming a different
 *     dataset view
 * @param datasetFingerprint a hash of what tells the dataset from another of the same episode
 *     lengths ({@link DatasetIdentity}); 0 in states saved before it was recorded (not compared)
 */
public record StreamState(
    long epoch,
    List<Segment> segments,
    PlanParameters params,
    long episodesFingerprint,
    long datasetFingerprint) {
  /**
   * Version 2 records each segment's shuffle buffer, which the memory budget may size below {@code
   * buffer_size}: a reader of version 1 would resume such a segment with the wrong buffer, so it
   * must refuse the state rather than misread it. Version 1 states still read (their segments held
   * {@code buffer_size}).
   */
  static final String FORMAT = "robostream.stream-state/2";

  static final String FORMAT_V1 = "robostream.stream-state/1";

  /**
   * Most segments a state may hold: one is added per resume with another world, worker count or
   * buffer, so thousands are already far more than any run has.
   */
  static final int MAX_SEGMENTS = 4096;

  /** Most ranks and workers a segment may record (far beyond any cluster and machine). */
  static final int MAX_WORLD = 1 << 20;

  static final int MAX_WORKERS = 4096;

  /**
   * Highest epoch: 2^53 - 1, the largest whole number every JSON reader keeps exactly, far beyond
   * any run; the next epoch of any accepted one still fits a {@code long}.
   */
  public static final long MAX_EPOCH = (1L << 53) - 1;

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
    checkEpoch(epoch);
  }

  /** A state of the epoch, segments, parameters and episodes, for any dataset. */
  public StreamState(
      long epoch, List<Segment> segments, PlanParameters params, long episodesFingerprint) {
    this(epoch, segments, params, episodesFingerprint, 0);
  }

  /**
   * @throws IllegalArgumentException when {@code epoch} is outside 0..{@link #MAX_EPOCH}
   */
  public static long checkEpoch(long epoch) {
    if (epoch < 0 || epoch > MAX_EPOCH) {
      throw new IllegalArgumentException(
          "epoch " + epoch + " is outside 0.." + MAX_EPOCH + " (2^53 - 1)");
    }
    return epoch;
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
    if (datasetFingerprint != 0) {
      root.put("dataset_fingerprint", Long.toHexString(datasetFingerprint));
    }
    return root.toString();
  }

  /**
   * Parses {@link #toJson()} output: the state {@code json} holds, every field type-checked and
   * bounded before use (a checkpoint is input: a state claiming 2147483647 workers must be an error
   * naming the field, not an allocation).
   *
   * @throws IllegalArgumentException naming the field, its range and what it got
   */
  public static StreamState fromJson(String json) {
    JsonNode root;
    try {
      root = JsonFields.parse(json, "stream state");
    } catch (FileException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
    JsonNode format = root.get("format");
    if (format == null || !(FORMAT.equals(format.asText()) || FORMAT_V1.equals(format.asText()))) {
      throw new IllegalArgumentException(
          "not a robostream stream state (format "
              + JsonFields.describe(format)
              + ", expected "
              + FORMAT
              + ")");
    }
    List<Segment> segments = new ArrayList<>();
    JsonNode list = JsonFields.list(root, "segments", "segments", MAX_SEGMENTS);
    for (int i = 0; i < list.size(); i++) {
      JsonNode s = list.get(i);
      String at = "segments[" + i + "]";
      if (!s.isObject()) {
        throw new IllegalArgumentException(
            at + " must be an object, got " + JsonFields.describe(s));
      }
      segments.add(
          new Segment(
              JsonFields.wholeInt(s, "world", at + ".world", 1, MAX_WORLD),
              JsonFields.wholeInt(s, "workers", at + ".workers", 1, MAX_WORKERS),
              JsonFields.wholeInt(s, "batches", at + ".batches", 0, Integer.MAX_VALUE),
              s.has("buffer")
                  ? JsonFields.wholeInt(s, "buffer", at + ".buffer", 1, Integer.MAX_VALUE)
                  : 0));
    }
    String balance = // states of version 1 saved before it existed balanced by padding
        root.has("rank_balance")
            ? JsonFields.text(root, "rank_balance", "rank_balance", 16)
            : "pad";
    PlanParameters.RankBalance rankBalance;
    try {
      rankBalance = PlanParameters.RankBalance.valueOf(balance.toUpperCase(java.util.Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "rank_balance must be one of "
              + java.util.Arrays.toString(PlanParameters.RankBalance.values())
                  .toLowerCase(java.util.Locale.ROOT)
              + ", got another string");
    }
    PlanParameters params =
        new PlanParameters(
            JsonFields.whole(root, "seed", "seed", Long.MIN_VALUE, Long.MAX_VALUE),
            JsonFields.bool(root, "shuffle", "shuffle"),
            JsonFields.wholeInt(root, "buffer_size", "buffer_size", 1, Integer.MAX_VALUE),
            JsonFields.wholeInt(root, "max_num_shards", "max_num_shards", 1, Integer.MAX_VALUE),
            JsonFields.wholeInt(root, "batch_size", "batch_size", 1, Integer.MAX_VALUE),
            JsonFields.bool(root, "drop_last", "drop_last"),
            rankBalance);
    long episodes = hex(root, "episodes_fingerprint");
    long dataset = root.has("dataset_fingerprint") ? hex(root, "dataset_fingerprint") : 0;
    return new StreamState(
        JsonFields.whole(root, "epoch", "epoch", 0, MAX_EPOCH),
        segments,
        params,
        episodes,
        dataset);
  }

  private static long hex(JsonNode root, String field) {
    String text = JsonFields.text(root, field, field, 16);
    try {
      return Long.parseUnsignedLong(text, 16);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          field + " must be up to 16 hexadecimal digits, got another string");
    }
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
