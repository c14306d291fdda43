package org.robostream.dataset.synth;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@link SyntheticDatasetWriter} produces. Defaults follow LeRobot's recorder (AV1, yuv420p,
 * keyframe every 2 frames, crf 30, 100 MB data files, 200 MB video files). Immutable.
 *
 * @param lengthJitter 0 for equal episodes; otherwise episode e has {@code framesPerEpisode * (1 +
 *     jitter * u(e))} frames with u(e) in [-1, 1) deterministic
 * @param crf encoder quality; -1 for the codec's default (30 for AV1)
 */
public record SyntheticDatasetSpec(
    Path out,
    int episodes,
    int framesPerEpisode,
    double lengthJitter,
    int cameras,
    int width,
    int height,
    int fps,
    VideoCodecChoice codec,
    int gop,
    int crf,
    Layout layout,
    double dataFilesSizeMb,
    double videoFilesSizeMb,
    Content content,
    int stateDimension,
    int tasks) {

  /** On-disk layout. */
  public enum Layout {
    V30("v3.0"),
    V21("v2.1");

    private final String version;

    Layout(String version) {
      this.version = version;
    }

    public String version() {
      return version;
    }

    public static Layout parse(String s) {
      for (Layout l : values()) {
        if (l.version.equals(s) || l.version.substring(1).equals(s)) {
          return l;
        }
      }
      throw new IllegalArgumentException("unknown layout " + s + " (v3.0 or v2.1)");
    }
  }

  /** Image content. */
  public enum Content {
    /** Noisy, camera-like images: realistic encode and decode cost. */
    CAMERA,
    /** {@link PatternCode}: every frame says which (episode, frame, camera) it is. */
    PATTERN
  }

  public SyntheticDatasetSpec {
    require(episodes >= 1, "episodes must be >= 1");
    require(framesPerEpisode >= 1, "frames per episode must be >= 1");
    require(lengthJitter >= 0 && lengthJitter < 1, "length jitter must be in [0, 1)");
    require(cameras >= 0 && cameras <= 16, "cameras must be 0..16");
    require(fps >= 1, "fps must be >= 1");
    require(gop >= 1, "gop must be >= 1");
    require(width % 2 == 0 && height % 2 == 0, "width and height must be even (yuv420p)");
    require(
        width >= codec.minSize() && height >= codec.minSize(),
        codec.canonicalName() + " needs at least " + codec.minSize() + "x" + codec.minSize());
    require(
        content != Content.PATTERN || PatternCode.fits(width, height),
        "the pattern content needs at least 64x48 pixels");
    require(dataFilesSizeMb > 0 && videoFilesSizeMb > 0, "file size limits must be > 0");
    require(stateDimension >= 1 && tasks >= 1, "state dimension and tasks must be >= 1");
  }

  /** The defaults for everything but the output folder. */
  public static SyntheticDatasetSpec defaults(Path out) {
    return new SyntheticDatasetSpec(
        out,
        4,
        60,
        0.0,
        2,
        96,
        64,
        20,
        VideoCodecChoice.AV1,
        2,
        -1,
        Layout.V30,
        100,
        200,
        Content.PATTERN,
        6,
        3);
  }

  /** Frames of episode {@code e}. */
  public int length(int e) {
    if (lengthJitter == 0) {
      return framesPerEpisode;
    }
    long h = (e + 1) * 0x9E3779B97F4A7C15L;
    h ^= h >>> 31;
    double u = ((h >>> 11) & ((1L << 52) - 1)) / (double) (1L << 52) * 2 - 1;
    return Math.max(1, (int) Math.round(framesPerEpisode * (1 + lengthJitter * u)));
  }

  /** Camera feature names: {@code observation.images.top}, {@code .wrist}, {@code .side}, ... */
  public List<String> cameraKeys() {
    String[] names = {"top", "wrist", "side"};
    List<String> keys = new ArrayList<>();
    for (int k = 0; k < cameras; k++) {
      keys.add("observation.images." + (k < names.length ? names[k] : "cam_" + k));
    }
    return keys;
  }

  public int effectiveCrf() {
    return crf >= 0 ? crf : codec.defaultCrf();
  }

  public SyntheticDatasetSpec withOut(Path o) {
    return new SyntheticDatasetSpec(
        o,
        episodes,
        framesPerEpisode,
        lengthJitter,
        cameras,
        width,
        height,
        fps,
        codec,
        gop,
        crf,
        layout,
        dataFilesSizeMb,
        videoFilesSizeMb,
        content,
        stateDimension,
        tasks);
  }

  private static void require(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException(message);
    }
  }
}
