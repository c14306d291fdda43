package org.robostream.dataset.synth;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@link SyntheticDatasetWriter} produces. Defaults follow LeRobot's recorder (AV1, yuv420p,
 * keyframe every 2 frames, crf 30, 100/200 MB data/video files). Immutable.
 *
 * @param lengthJitter 0: equal episodes; else {@code framesPerEpisode * (1 + jitter * u(e))}
 *     frames, u(e) in [-1, 1) deterministic
 * @param crf encoder quality; -1 for the codec's default (30 for AV1)
 * @param cameraOptions per-camera size, axes, format, depth; the rest use width x height
 * @param actionShift for {@link Content#LEARNABLE}: action f is the disc at f + shift; else 0
 * @param conventions how tables record frames: {@link WriterConventions#LEROBOT} or another's
 * @param languageColumns also write LeRobot's language columns ({@link LanguageColumnWriter})
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
    int tasks,
    CameraOptions cameraOptions,
    int actionShift,
    WriterConventions conventions,
    boolean languageColumns) {

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
    PATTERN,
    /**
     * {@link LearnableTask}: a disc on a dark background, and the action is where it is; a policy
     * learns it only from the right frames.
     */
    LEARNABLE
  }

  public SyntheticDatasetSpec {
    require(episodes >= 1, "episodes must be >= 1");
    require(framesPerEpisode >= 1, "frames per episode must be >= 1");
    require(lengthJitter >= 0 && lengthJitter < 1, "length jitter must be in [0, 1)");
    require(cameras >= 0 && cameras <= 16, "cameras must be 0..16");
    require(fps >= 1, "fps must be >= 1");
    require(gop >= 1, "gop must be >= 1");
    require(cameraOptions != null, "camera options must not be null");
    require(conventions != null, "writer conventions must not be null");
    require(
        codec != VideoCodecChoice.AV1 || cameraOptions.pixelFormat() != PixelFormatChoice.YUV444P,
        "av1 (libsvtav1) cannot write yuv444p; use codec h264 or hevc");
    require(dataFilesSizeMb > 0 && videoFilesSizeMb > 0, "file size limits must be > 0");
    require(stateDimension >= 1 && tasks >= 1, "state dimension and tasks must be >= 1");
    require(
        actionShift == 0 || (content == Content.LEARNABLE && actionShift > 0),
        "an action shift is for the learnable content only, and positive");
    List<String> keys = new ArrayList<>();
    for (SyntheticCamera c : cameraList(cameras, width, height, codec, cameraOptions)) {
      checkSize(c, content);
      keys.add(c.key());
    }
    for (String named : cameraOptions.sizes().keySet()) {
      require(
          keys.contains(named) || keys.contains("observation.images." + named),
          "a size is given for camera " + named + ", which is not one of " + keys);
    }
  }

  /** The spec with LeRobot's writer conventions and no language columns. */
  public SyntheticDatasetSpec(
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
      int tasks,
      CameraOptions cameraOptions,
      int actionShift) {
    this(
        out,
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
        tasks,
        cameraOptions,
        actionShift,
        WriterConventions.LEROBOT,
        false);
  }

  /** The spec with its actions aligned to its frames (no shift). */
  public SyntheticDatasetSpec(
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
      int tasks,
      CameraOptions cameraOptions) {
    this(
        out,
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
        tasks,
        cameraOptions,
        0);
  }

  /** The spec before per-camera options: every camera {@code width} x {@code height}, colour. */
  public SyntheticDatasetSpec(
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
    this(
        out,
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
        tasks,
        CameraOptions.DEFAULTS);
  }

  private static void checkSize(SyntheticCamera c, Content content) {
    int w = c.size().width();
    int h = c.size().height();
    int min = c.codec().minSize();
    require(
        w % 2 == 0 && h % 2 == 0,
        c.key() + ": width and height must be even (" + c.size() + "; 4:2:0 chroma)");
    require(
        w >= min && h >= min,
        c.key() + ": " + c.codec().canonicalName() + " needs at least " + min + "x" + min);
    require(
        content != Content.PATTERN || PatternCode.fits(w, h),
        c.key() + ": the pattern content needs at least 64x48 pixels, not " + c.size());
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

  /**
   * Camera feature keys, colour cameras first: {@code observation.images.top}, {@code .wrist},
   * {@code .side}, {@code .cam_3}, ..., then the depth cameras {@code .depth}, {@code .depth_1},
   * ...
   */
  public List<String> cameraKeys() {
    return cameraList().stream().map(SyntheticCamera::key).toList();
  }

  /** Every camera as it is encoded and declared, in {@link #cameraKeys()} order. */
  public List<SyntheticCamera> cameraList() {
    return cameraList(cameras, width, height, codec, cameraOptions);
  }

  private static List<SyntheticCamera> cameraList(
      int colour, int width, int height, VideoCodecChoice codec, CameraOptions options) {
    String[] names = {"top", "wrist", "side"};
    List<SyntheticCamera> list = new ArrayList<>();
    for (int k = 0; k < colour + options.depthCameras(); k++) {
      boolean depth = k >= colour;
      int d = k - colour;
      String name = depth ? (d == 0 ? "depth" : "depth_" + d) : k < 3 ? names[k] : "cam_" + k;
      String key = "observation.images." + name;
      FrameSize size =
          options
              .sizes()
              .getOrDefault(key, options.sizes().getOrDefault(name, new FrameSize(width, height)));
      list.add(
          depth
              ? new SyntheticCamera(
                  key, k, size, true, VideoCodecChoice.HEVC, SyntheticCamera.DEPTH_PIXEL_FORMAT)
              : new SyntheticCamera(
                  key, k, size, false, codec, options.pixelFormat().ffmpegName()));
    }
    return list;
  }

  public int effectiveCrf() {
    return crf >= 0 ? crf : codec.defaultCrf();
  }

  /** {@code camera}'s encoder quality: the spec's, or its own codec's default (depth cameras). */
  public int effectiveCrf(SyntheticCamera camera) {
    return camera.codec() == codec ? effectiveCrf() : camera.codec().defaultCrf();
  }

  public SyntheticDatasetSpec withOut(Path o) {
    return with(o, cameraOptions, actionShift, conventions, languageColumns);
  }

  public SyntheticDatasetSpec withCameraOptions(CameraOptions o) {
    return with(out, o, actionShift, conventions, languageColumns);
  }

  /** The learnable content with its actions {@code frames} later than its frames. */
  public SyntheticDatasetSpec withActionShift(int frames) {
    return with(out, cameraOptions, frames, conventions, languageColumns);
  }

  /** The spec whose tables another writer's conventions record. */
  public SyntheticDatasetSpec withConventions(WriterConventions c) {
    return with(out, cameraOptions, actionShift, c, languageColumns);
  }

  /** The spec whose data files carry LeRobot's language columns, or not. */
  public SyntheticDatasetSpec withLanguageColumns(boolean language) {
    return with(out, cameraOptions, actionShift, conventions, language);
  }

  private SyntheticDatasetSpec with(
      Path o, CameraOptions options, int shift, WriterConventions c, boolean language) {
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
        tasks,
        options,
        shift,
        c,
        language);
  }

  private static void require(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException(message);
    }
  }
}
