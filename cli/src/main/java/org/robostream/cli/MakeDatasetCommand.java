package org.robostream.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.robostream.dataset.synth.CameraFormat;
import org.robostream.dataset.synth.SyntheticDatasetSpec;
import org.robostream.dataset.synth.SyntheticDatasetWriter;
import org.robostream.dataset.synth.VideoCodecChoice;
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

  @Option(names = "--size", defaultValue = "96x64", description = "WxH")
  String size;

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

  @Option(names = "--content", defaultValue = "pattern", description = "camera or pattern")
  String content;

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

  @Override
  public Integer call() throws Exception {
    String[] wh = size.toLowerCase(java.util.Locale.ROOT).split("x");
    if (wh.length != 2) {
      throw new IllegalArgumentException("--size must be WxH, got " + size);
    }
    SyntheticDatasetSpec spec =
        new SyntheticDatasetSpec(
            out,
            episodes,
            frames,
            jitter,
            cameras,
            Integer.parseInt(wh[0]),
            Integer.parseInt(wh[1]),
            fps,
            VideoCodecChoice.parse(codec),
            gop,
            crf,
            SyntheticDatasetSpec.Layout.parse(layout),
            dataMb,
            videoMb,
            SyntheticDatasetSpec.Content.valueOf(content.toUpperCase(java.util.Locale.ROOT)),
            stateDim,
            tasks);
    long start = System.nanoTime();
    CameraFormat format =
        imageFeatures == null ? CameraFormat.VIDEO : CameraFormat.parseImage(imageFeatures);
    SyntheticDatasetWriter.write(spec, format);
    System.out.printf(
        "wrote %s: LeRobot %s, %d episodes, %d cameras %s %s, in %.1f s%n",
        out,
        spec.layout().version(),
        episodes,
        cameras,
        size,
        format.isImage()
            ? format.name().toLowerCase(java.util.Locale.ROOT) + " images"
            : spec.codec().canonicalName(),
        (System.nanoTime() - start) / 1e9);
    return 0;
  }
}
