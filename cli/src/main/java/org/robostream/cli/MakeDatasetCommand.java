package org.robostream.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.robostream.dataset.synth.CameraFormat;
import org.robostream.dataset.synth.CameraOptions;
import org.robostream.dataset.synth.FrameSize;
import org.robostream.dataset.synth.PixelFormatChoice;
import org.robostream.dataset.synth.SyntheticCamera;
import org.robostream.dataset.synth.SyntheticDatasetSpec;
import org.robostream.dataset.synth.SyntheticDatasetWriter;
import org.robostream.dataset.synth.VideoCodecChoice;
import org.robostream.dataset.synth.WriterConventions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code robostream make-dataset}: writes a synthetic LeRobot dataset (v3.0 or v2.1). */
@Command(
    name = "make-dataset",
    mixinStandardHelpOptions = true,
    description =
        "Write a valid synthetic LeRobot dataset: Parquet through arrow-dataset, "
            + "videos through the ffmpeg CLI. Defaults follow LeRobot (AV1, yuv420p, keyframe "
            + "every 2 frames, crf 30).")
final class MakeDatasetCommand implements Callable<Integer> {
  @Option(names = "--out", required = true, description = "output folder (absent or empty)")
  Path out;

  @Option(names = "--episodes", defaultValue = "4")
  int episodes;

  @Option(names = "--frames-per-episode", defaultValue = "60")
  int frames;

  @Option(
      names = "--length-jitter",
      defaultValue = "0",
      description = "vary episode lengths by up to this fraction (0 = all equal)")
  double jitter;

  @Option(names = "--cameras", defaultValue = "2")
  int cameras;

  @Option(
      names = "--size",
      defaultValue = "96x64",
      description =
          "WxH for every camera, or per camera: top=1280x720,wrist=640x480 (a camera's short"
              + " name or feature key; a plain WxH among them sizes the cameras not named)")
  String size;

  @Option(
      names = "--channels-first",
      description = "declare cameras [channels, height, width] (names too) instead of [H, W, C]")
  boolean channelsFirst;

  @Option(
      names = "--pix-fmt",
      defaultValue = "yuv420p",
      description = "what the colour cameras' encoder writes: yuv420p, yuv444p or yuv420p10le")
  String pixFmt;

  @Option(
      names = "--depth-cameras",
      defaultValue = "0",
      description =
          "depth cameras after the colour ones (observation.images.depth, depth_1, ...):"
              + " 12-bit HEVC gray12le, video.is_depth_map true")
  int depthCameras;

  @Option(names = "--fps", defaultValue = "20")
  int fps;

  @Option(names = "--codec", defaultValue = "av1", description = "av1, h264 or hevc")
  String codec;

  @Option(names = "--gop", defaultValue = "2", description = "keyframe interval in frames")
  int gop;

  @Option(names = "--crf", defaultValue = "-1", description = "quality (default per codec)")
  int crf;

  @Option(names = "--layout", defaultValue = "v3.0", description = "v3.0 or v2.1")
  String layout;

  @Option(names = "--data-files-size-mb", defaultValue = "100")
  double dataMb;

  @Option(names = "--video-files-size-mb", defaultValue = "200")
  double videoMb;

  @Option(
      names = "--content",
      defaultValue = "pattern",
      description =
          "pattern (each frame names itself), camera (noisy scenes) or learnable (a moving disc;"
              + " the action is where it is)")
  String content;

  @Option(
      names = "--action-shift",
      defaultValue = "0",
      description =
          "with --content learnable: each action is the disc's position this many frames later"
              + " (a misaligned dataset, for tests)")
  int actionShift;

  @Option(names = "--state-dim", defaultValue = "6")
  int stateDim;

  @Option(names = "--tasks", defaultValue = "3")
  int tasks;

  @Option(
      names = "--image-features",
      description =
          "store the cameras as image features (png or jpeg bytes inside the data Parquet,"
              + " info.json dtype image) instead of videos")
  String imageFeatures;

  @Option(
      names = "--row-timestamps",
      defaultValue = "frame",
      description =
          "what each row's timestamp holds: frame (frame_index / fps, LeRobot), frame-end"
              + " ((frame_index + 1) / fps) or recorded (wall-clock capture times that drift by"
              + " more than half a frame, as a robot records them)")
  String rowTimestamps;

  @Option(
      names = "--to-timestamp",
      defaultValue = "end",
      description =
          "what a v3.0 episodes table's to_timestamp marks: end (from + length / fps, LeRobot) or"
              + " last-frame (from + (length - 1) / fps)")
  String toTimestamp;

  @Option(
      names = "--store-vectors-as",
      defaultValue = "float32",
      description =
          "the type action and observation.state are stored as (float32 or float64); info.json"
              + " declares float32 either way")
  String vectorsStoredAs;

  @Option(
      names = "--language-columns",
      description =
          "also write LeRobot's language columns language_persistent and language_events"
              + " (lists of message structs, info.json dtype language), each row's messages a"
              + " function of its index and frame: null rows, empty lists, one or several"
              + " messages")
  boolean languageColumns;

  @Override
  public Integer call() throws Exception {
    FrameSize common = new FrameSize(96, 64);
    Map<String, FrameSize> perCamera = new LinkedHashMap<>();
    for (String entry : size.split(",")) {
      int eq = entry.indexOf('=');
      if (eq < 0) {
        common = FrameSize.parse(entry);
      } else {
        perCamera.put(entry.substring(0, eq).strip(), FrameSize.parse(entry.substring(eq + 1)));
      }
    }
    CameraOptions cameraOptions =
        CameraOptions.DEFAULTS
            .withSizes(perCamera)
            .withChannelsFirst(channelsFirst)
            .withPixelFormat(PixelFormatChoice.parse(pixFmt))
            .withDepthCameras(depthCameras);
    SyntheticDatasetSpec spec =
        new SyntheticDatasetSpec(
            out,
            episodes,
            frames,
            jitter,
            cameras,
            common.width(),
            common.height(),
            fps,
            VideoCodecChoice.parse(codec),
            gop,
            crf,
            SyntheticDatasetSpec.Layout.parse(layout),
            dataMb,
            videoMb,
            parseContent(content),
            stateDim,
            tasks,
            cameraOptions,
            actionShift,
            conventions(),
            languageColumns);
    long start = System.nanoTime();
    CameraFormat format =
        imageFeatures == null ? CameraFormat.VIDEO : CameraFormat.parseImage(imageFeatures);
    SyntheticDatasetWriter.write(spec, format);
    System.out.printf(
        "wrote %s: LeRobot %s, %d episodes, cameras %s%s%s, in %.1f s%n",
        out,
        spec.layout().version(),
        episodes,
        describe(spec),
        format.isImage()
            ? " as " + format.name().toLowerCase(java.util.Locale.ROOT) + " image features"
            : "",
        languageColumns ? ", language columns" : "",
        (System.nanoTime() - start) / 1e9);
    return 0;
  }

  private WriterConventions conventions() {
    WriterConventions.RowTimestamps rows =
        switch (rowTimestamps) {
          case "frame" -> WriterConventions.RowTimestamps.FRAME_START;
          case "frame-end" -> WriterConventions.RowTimestamps.FRAME_END;
          case "recorded" -> WriterConventions.RowTimestamps.RECORDED;
          default ->
              throw new IllegalArgumentException(
                  "--row-timestamps must be frame, frame-end or recorded, not " + rowTimestamps);
        };
    WriterConventions.ToTimestamp to =
        switch (toTimestamp) {
          case "end" -> WriterConventions.ToTimestamp.END;
          case "last-frame" -> WriterConventions.ToTimestamp.LAST_FRAME;
          default ->
              throw new IllegalArgumentException(
                  "--to-timestamp must be end or last-frame, not " + toTimestamp);
        };
    if (to != WriterConventions.ToTimestamp.END
        && SyntheticDatasetSpec.Layout.parse(layout) != SyntheticDatasetSpec.Layout.V30) {
      throw new IllegalArgumentException(
          "--to-timestamp is a v3.0 episodes table's column; --layout " + layout + " has none");
    }
    if (!vectorsStoredAs.equals("float32") && !vectorsStoredAs.equals("float64")) {
      throw new IllegalArgumentException(
          "--store-vectors-as must be float32 or float64, not " + vectorsStoredAs);
    }
    return new WriterConventions(rows, to, vectorsStoredAs.equals("float64"));
  }

  private static SyntheticDatasetSpec.Content parseContent(String text) {
    for (SyntheticDatasetSpec.Content c : SyntheticDatasetSpec.Content.values()) {
      if (c.name().equalsIgnoreCase(text)) {
        return c;
      }
    }
    throw new IllegalArgumentException(
        "--content must be pattern, camera or learnable, not " + text);
  }

  /** Each camera's short name, size, codec and pixel format, e.g. {@code top 96x64 av1 yuv420p}. */
  private static String describe(SyntheticDatasetSpec spec) {
    List<String> parts = new ArrayList<>();
    for (SyntheticCamera c : spec.cameraList()) {
      parts.add(
          c.name() + " " + c.size() + " " + c.codec().canonicalName() + " " + c.pixelFormat());
    }
    return parts.isEmpty() ? "none" : String.join(", ", parts);
  }
}
