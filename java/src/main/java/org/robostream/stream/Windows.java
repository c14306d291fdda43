package org.robostream.stream;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;
import org.robostream.dataset.DatasetInfo;
import org.robostream.dataset.Feature;

/**
 * Time windows per key as frame offsets ({@code round(delta * fps)}), for video and table keys. A
 * neighbour outside the episode takes the nearest valid frame (first or last, never the episode's
 * duration) and is flagged in {@code <key>_is_pad}. Text columns (string, language) take no window.
 * Immutable.
 */
public final class Windows {
  /** Named windows of the reference. */
  public enum Preset {
    /** No windows: one frame per camera (the benchmark's {@code single} mode). */
    SINGLE,
    /** {@code action} at 0..7 s, one frame per camera (the benchmark's {@code sarm} mode). */
    SARM_BENCH,
    /**
     * The SARM reward model: 13 frames per camera and of {@code observation.state}: -120..+120
     * frames in steps of 30, then the rewind offsets -30, -60, -90, -120.
     */
    SARM
  }

  private static final int[] SARM_OFFSETS = {
    -120, -90, -60, -30, 0, 30, 60, 90, 120, -30, -60, -90, -120
  };

  private final Map<String, int[]> offsets;

  private Windows(Map<String, int[]> offsets) {
    this.offsets = Collections.unmodifiableMap(new LinkedHashMap<>(offsets));
  }

  /** The farthest a window position may lie from its sample, in frames (2^30). */
  static final int MAX_OFFSET_FRAMES = 1 << 30;

  public static Windows none() {
    return new Windows(Map.of());
  }

  /** From {@code delta_timestamps} (seconds); every key must be a feature. */
  public static Windows fromDeltaTimestamps(Map<String, double[]> deltas, DatasetInfo info) {
    Map<String, int[]> out = new LinkedHashMap<>();
    for (Map.Entry<String, double[]> e : deltas.entrySet()) {
      if (!info.features().containsKey(e.getKey())) {
        throw new IllegalArgumentException(
            "delta_timestamps key "
                + e.getKey()
                + " is not a feature; available: "
                + new TreeSet<>(info.features().keySet()));
      }
      refuseText(info.features().get(e.getKey()));
      double[] d = e.getValue();
      if (d.length == 0) {
        throw new IllegalArgumentException("delta_timestamps of " + e.getKey() + " is empty");
      }
      int[] o = new int[d.length];
      for (int i = 0; i < d.length; i++) {
        if (!Double.isFinite(d[i])) {
          throw new IllegalArgumentException(
              "delta_timestamps of " + e.getKey() + " holds " + d[i]);
        }
        double frames = d[i] * info.fps();
        // An offset is added to frame positions (ints): one this large would wrap and point
        // inside the episode instead of past it. No episode is this long.
        if (Math.abs(frames) > MAX_OFFSET_FRAMES) {
          throw new IllegalArgumentException(
              "delta_timestamps of "
                  + e.getKey()
                  + " holds "
                  + d[i]
                  + " s: "
                  + String.format(java.util.Locale.ROOT, "%.3g", Math.abs(frames))
                  + " frames at "
                  + info.fps()
                  + " fps, more than the "
                  + MAX_OFFSET_FRAMES
                  + " a window may reach");
        }
        o[i] = (int) Math.round(frames);
      }
      out.put(e.getKey(), o);
    }
    return new Windows(out);
  }

  /**
   * Windows stack a key's rows into a tensor [T, ...]; a column of text (a {@code string} column, a
   * {@code language} column or another one delivered as JSON text) has no tensor to stack, so a
   * window on it is refused when the stream is built rather than half supported.
   */
  private static void refuseText(Feature f) {
    boolean values =
        f.isVideo()
            || f.isImage()
            || f.dtype().equals("bool")
            || f.dtype().startsWith("float")
            || f.dtype().startsWith("int")
            || f.dtype().startsWith("uint");
    if (!values) {
      throw new IllegalArgumentException(
          "delta_timestamps key "
              + f.name()
              + " is a "
              + f.dtype()
              + " column, delivered as "
              + (f.dtype().equals("string") ? "text" : "one JSON text per sample")
              + ": windows (delta_timestamps) are taken of cameras and numeric or bool columns"
              + " only; leave "
              + f.name()
              + " out of delta_timestamps (each sample still carries its own row's value)");
    }
  }

  public static Windows preset(Preset preset, DatasetInfo info) {
    Map<String, double[]> deltas = new LinkedHashMap<>();
    switch (preset) {
      case SINGLE -> {
        return none();
      }
      case SARM_BENCH -> {
        double[] d = new double[8];
        for (int i = 0; i < 8; i++) {
          d[i] = i;
        }
        deltas.put("action", d);
      }
      case SARM -> {
        double[] d = new double[SARM_OFFSETS.length];
        for (int i = 0; i < d.length; i++) {
          d[i] = SARM_OFFSETS[i] / (double) info.fps();
        }
        for (String camera : info.cameraKeys()) {
          deltas.put(camera, d);
        }
        if (info.features().containsKey("observation.state")) {
          deltas.put("observation.state", d);
        }
      }
      default -> throw new IllegalStateException();
    }
    return fromDeltaTimestamps(deltas, info);
  }

  /** Offsets (frames) of {@code key}, or null when the key is not windowed. */
  public int[] offsets(String key) {
    int[] o = offsets.get(key);
    return o == null ? null : o.clone();
  }

  public boolean isWindowed(String key) {
    return offsets.containsKey(key);
  }

  public Map<String, int[]> all() {
    Map<String, int[]> copy = new LinkedHashMap<>();
    offsets.forEach((k, v) -> copy.put(k, v.clone()));
    return copy;
  }

  /** The frame a window position reads: {@code frame + offset} clamped to [0, length - 1]. */
  static int clampedFrame(int frame, int offset, int length) {
    return Math.max(0, Math.min(length - 1, frame + offset));
  }

  static boolean isPad(int frame, int offset, int length) {
    int f = frame + offset;
    return f < 0 || f > length - 1;
  }
}
