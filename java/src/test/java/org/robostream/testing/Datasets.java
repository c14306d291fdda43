package org.robostream.testing;

import java.nio.file.Path;
import java.util.Map;
import org.robostream.dataset.synth.CameraFormat;
import org.robostream.dataset.synth.CameraOptions;
import org.robostream.dataset.synth.FrameSize;
import org.robostream.dataset.synth.SyntheticDatasetSpec;
import org.robostream.dataset.synth.SyntheticDatasetSpec.Content;
import org.robostream.dataset.synth.SyntheticDatasetSpec.Layout;
import org.robostream.dataset.synth.VideoCodecChoice;
import org.robostream.dataset.synth.WriterConventions;

/** The synthetic datasets tests share (generated once per build by {@link Fixtures#dataset}). */
public final class Datasets {
  private Datasets() {}

  /**
   * v3.0 pattern dataset, 7 episodes of 20..40 frames, 2 cameras 64x64 AV1 g2, small file limits so
   * data and video files roll over (several episodes per file, several files).
   */
  public static Path patternV30() {
    return Fixtures.dataset(
        "pattern-v30",
        new SyntheticDatasetSpec(
            Path.of("unused"),
            7,
            30,
            0.33,
            2,
            64,
            64,
            20,
            VideoCodecChoice.AV1,
            2,
            -1,
            Layout.V30,
            0.005,
            0.012,
            Content.PATTERN,
            4,
            3));
  }

  /**
   * v3.0 pattern dataset whose 2 cameras (64x64) are image features in {@code format} (PNG or JPEG
   * bytes in the data Parquet): 5 episodes of 12..20 frames, small data files so several episodes
   * share a file and the files roll over.
   */
  public static Path imagesV30(CameraFormat format) {
    return Fixtures.dataset(
        "images-v30-" + format.extension(),
        new SyntheticDatasetSpec(
            Path.of("unused"),
            5,
            16,
            0.25,
            2,
            64,
            64,
            20,
            VideoCodecChoice.AV1,
            2,
            -1,
            Layout.V30,
            0.05,
            200,
            Content.PATTERN,
            4,
            3),
        format);
  }

  /** v2.1 pattern dataset with 1 camera (64x48) as image features in {@code format}: 4 episodes. */
  public static Path imagesV21(CameraFormat format) {
    return Fixtures.dataset(
        "images-v21-" + format.extension(),
        new SyntheticDatasetSpec(
            Path.of("unused"),
            4,
            12,
            0.2,
            1,
            64,
            48,
            20,
            VideoCodecChoice.H264,
            4,
            -1,
            Layout.V21,
            100,
            200,
            Content.PATTERN,
            3,
            2),
        format);
  }

  /** v2.1 pattern dataset: 5 episodes of 16..24 frames, 1 camera 64x48 H.264 GOP 4. */
  public static Path patternV21() {
    return Fixtures.dataset(
        "pattern-v21",
        new SyntheticDatasetSpec(
            Path.of("unused"),
            5,
            20,
            0.2,
            1,
            64,
            48,
            20,
            VideoCodecChoice.H264,
            4,
            -1,
            Layout.V21,
            100,
            200,
            Content.PATTERN,
            3,
            2));
  }

  /**
   * Small v3.0 pattern dataset for metadata mutations: 3 episodes of 12 frames at 20 fps (equal
   * lengths, so swapped spans keep every count), 2 cameras 64x64 AV1 g2, one data file and one
   * video file per camera.
   */
  public static Path tinyPatternV30() {
    return Fixtures.dataset(
        "tiny-pattern-v30",
        new SyntheticDatasetSpec(
            Path.of("unused"),
            3,
            12,
            0.0,
            2,
            64,
            64,
            20,
            VideoCodecChoice.AV1,
            2,
            -1,
            Layout.V30,
            100,
            200,
            Content.PATTERN,
            2,
            2));
  }

  /**
   * Small v3.0 pattern dataset whose files roll over: 4 episodes of 8 frames at 20 fps, 2 cameras
   * 64x64 AV1 g2, two episodes per data file and per video file, so an episode can be pointed at
   * another existing file.
   */
  public static Path tinyPatternV30TwoFiles() {
    return Fixtures.dataset(
        "tiny-pattern-v30-two-files",
        new SyntheticDatasetSpec(
            Path.of("unused"),
            4,
            8,
            0.0,
            2,
            64,
            64,
            20,
            VideoCodecChoice.AV1,
            2,
            -1,
            Layout.V30,
            0.0009,
            0.0035,
            Content.PATTERN,
            2,
            2));
  }

  /** Small v2.1 pattern dataset: 3 episodes of 10 frames at 20 fps, 2 cameras 64x48 H.264 GOP 4. */
  public static Path tinyPatternV21() {
    return Fixtures.dataset(
        "tiny-pattern-v21",
        new SyntheticDatasetSpec(
            Path.of("unused"),
            3,
            10,
            0.0,
            2,
            64,
            48,
            20,
            VideoCodecChoice.H264,
            4,
            -1,
            Layout.V21,
            100,
            200,
            Content.PATTERN,
            2,
            2));
  }

  /** No cameras, one 300-frame episode at 30 fps: long table windows (SARM horizon). */
  public static Path longEpisode() {
    return Fixtures.dataset(
        "long-episode",
        new SyntheticDatasetSpec(
            Path.of("unused"),
            2,
            300,
            0.0,
            0,
            64,
            64,
            30,
            VideoCodecChoice.AV1,
            2,
            -1,
            Layout.V30,
            100,
            200,
            Content.PATTERN,
            2,
            1));
  }

  /**
   * v3.0 camera-like dataset whose MP4s keep the moov box at the end (remuxed by stream copy
   * without faststart, as muxers write by default), large enough that opening one reads only its
   * ends: 6 episodes of 30 frames, 2 cameras 128x96 AV1 g2 at crf 2, one 1.3 MB file per camera
   * (the decoder's 256 KiB AVIO buffer would swallow a smaller file whole).
   */
  public static Path cameraMoovAtEnd() {
    Path faststart =
        Fixtures.dataset(
            "camera-faststart",
            new SyntheticDatasetSpec(
                Path.of("unused"),
                6,
                30,
                0.0,
                2,
                128,
                96,
                20,
                VideoCodecChoice.AV1,
                2,
                2,
                Layout.V30,
                100,
                100,
                Content.CAMERA,
                4,
                2));
    return Fixtures.derivedDataset(
        "camera-moov-at-end",
        faststart,
        root -> {
          try (var walk = java.nio.file.Files.walk(root.resolve("videos"))) {
            for (Path mp4 : walk.filter(p -> p.toString().endsWith(".mp4")).toList()) {
              Path moved = mp4.resolveSibling("moov-at-end.tmp.mp4");
              Mp4Boxes.remuxMoovAtEnd(mp4, moved);
              java.nio.file.Files.move(
                  moved, mp4, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
          }
        });
  }

  /**
   * v3.0 pattern dataset of 60 short episodes (4 frames at 30 fps, 1 camera 64x64 H.264 GOP 4,
   * B-frames) in one video file. The writer appends episodes as LeRobot does (docs/DESIGN.md,
   * "Semantics"): each piece is offset by the durations before it rounded up to whole milliseconds,
   * 133.33 ms to 134 ms here, so the k-th episode sits k x 0.67 ms after its table time and the
   * last ones more than half a frame (16.7 ms), while every frame is where its position says.
   */
  public static Path concatenationDrift() {
    return Fixtures.dataset(
        "concatenation-drift",
        new SyntheticDatasetSpec(
            Path.of("unused"),
            60,
            4,
            0.0,
            1,
            64,
            64,
            30,
            VideoCodecChoice.H264,
            4,
            -1,
            Layout.V30,
            100,
            100,
            Content.PATTERN,
            2,
            1));
  }

  /**
   * {@link #concatenationDrift} with its episode 1 shifted by another 300 ticks of 1/15360 s (19.5
   * ms): more than half a frame plus the shift one concatenation can explain.
   */
  public static Path episodeShiftedTooFar() {
    return Fixtures.derivedDataset(
        "episode-shifted-too-far",
        concatenationDrift(),
        root -> {
          try (var walk = java.nio.file.Files.walk(root.resolve("videos"))) {
            for (Path mp4 : walk.filter(p -> p.toString().endsWith(".mp4")).toList()) {
              Path shifted = mp4.resolveSibling("shifted.tmp.mp4");
              // Packets 4..7 in decode order are episode 1 (each episode a closed 4-frame GOP);
              // the expression has no comma, which would end the bitstream filter's arguments.
              String episode1 = "300*(1-abs(sgn(floor(N/4)-1)))";
              Fixtures.run(
                  "ffmpeg",
                  "-v",
                  "error",
                  "-y",
                  "-i",
                  mp4.toString(),
                  "-c",
                  "copy",
                  "-bsf:v",
                  "setts=pts=PTS+" + episode1 + ":dts=DTS+" + episode1,
                  "-movflags",
                  "+faststart",
                  shifted.toString());
              java.nio.file.Files.move(
                  shifted, mp4, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
          }
        });
  }

  /**
   * v3.0 pattern dataset whose cameras have three sizes, as published datasets mix a head camera
   * with smaller wrist cameras: top 320x240, wrist 160x120, side 96x96; 5 episodes of 9..15 frames
   * at 10 fps, AV1 g2 (LeRobot's encoding).
   */
  public static Path mixedSizesV30() {
    return Fixtures.dataset(
        "mixed-sizes-v30",
        new SyntheticDatasetSpec(
                Path.of("unused"),
                5,
                12,
                0.25,
                3,
                96,
                96,
                10,
                VideoCodecChoice.AV1,
                2,
                -1,
                Layout.V30,
                100,
                200,
                Content.PATTERN,
                3,
                2)
            .withCameraOptions(
                CameraOptions.DEFAULTS.withSizes(
                    Map.of("top", new FrameSize(320, 240), "wrist", new FrameSize(160, 120)))));
  }

  /**
   * v3.0 learnable dataset (the disc whose position is the action, {@code --content learnable}): 12
   * episodes of 80 frames, 2 cameras 64x64 AV1 g2, action dimension 2; {@code actionShift} frames
   * between each frame and the position its action gives (0: aligned, 5: the alignment test's
   * misaligned copy).
   */
  public static Path learnable(int actionShift) {
    return Fixtures.dataset(
        "learnable-shift" + actionShift,
        new SyntheticDatasetSpec(
                Path.of("unused"),
                12,
                80,
                0.0,
                2,
                64,
                64,
                20,
                VideoCodecChoice.AV1,
                2,
                -1,
                Layout.V30,
                100,
                200,
                Content.LEARNABLE,
                2,
                1)
            .withActionShift(actionShift));
  }

  /**
   * The twin of cr5-v21-sample: v2.1, 4 episodes of 20 frames at 10 fps, AV1 g2, one camera 64x64,
   * the rows stamped with wall-clock capture times that drift by more than half a frame,
   * differently per row ({@link WriterConventions.RowTimestamps#RECORDED}).
   */
  public static Path recordedTimestampsV21() {
    return Fixtures.dataset(
        "recorded-timestamps-v21",
        asRecorded(4, 20, 64, 64, 10, VideoCodecChoice.AV1, 2, Layout.V21, 200)
            .withConventions(
                WriterConventions.LEROBOT.withRowTimestamps(
                    WriterConventions.RowTimestamps.RECORDED)));
  }

  /**
   * The twin of a v3.0 writer's dataset: one H.264 file per episode (B-frames, one GOP an episode),
   * {@code to_timestamp} the last frame's time; 3 episodes of 24 frames at 10 fps, one camera
   * 64x48.
   */
  public static Path lastFrameToTimestampV30() {
    return Fixtures.dataset(
        "last-frame-to-timestamp-v30",
        asRecorded(3, 24, 64, 48, 10, VideoCodecChoice.H264, 250, Layout.V30, 0.00001)
            .withConventions(
                WriterConventions.LEROBOT.withToTimestamp(
                    WriterConventions.ToTimestamp.LAST_FRAME)));
  }

  /**
   * v2.1, 3 episodes of 12 frames, one camera 64x64 AV1 g2, {@code action} and {@code
   * observation.state} stored as float64 while info.json declares float32.
   */
  public static Path float64VectorsV21() {
    return Fixtures.dataset(
        "float64-vectors-v21",
        asRecorded(3, 12, 64, 64, 20, VideoCodecChoice.AV1, 2, Layout.V21, 200)
            .withConventions(WriterConventions.LEROBOT.withVectorsAsFloat64(true)));
  }

  /**
   * Long GOPs at the loader's scale: v3.0, 3 episodes of 120 frames, one camera 96x64 H.264 with a
   * keyframe every 60 frames (B-frames), one file.
   */
  public static Path longGopH264() {
    return Fixtures.dataset(
        "long-gop-h264",
        asRecorded(3, 120, 96, 64, 20, VideoCodecChoice.H264, 60, Layout.V30, 200));
  }

  /** A one-camera pattern dataset with LeRobot's conventions (the fixtures above change them). */
  private static SyntheticDatasetSpec asRecorded(
      int episodes,
      int frames,
      int width,
      int height,
      int fps,
      VideoCodecChoice codec,
      int gop,
      Layout layout,
      double videoFilesMb) {
    return new SyntheticDatasetSpec(
        Path.of("unused"),
        episodes,
        frames,
        0.0,
        1,
        width,
        height,
        fps,
        codec,
        gop,
        -1,
        layout,
        100,
        videoFilesMb,
        Content.PATTERN,
        3,
        1);
  }

  /** Frames of every episode of the dataset at {@code root}. */
  public static int totalFrames(Path root) {
    return org.robostream.dataset.LeRobotMetadata.open(root, java.util.Optional.empty())
        .episodes()
        .stream()
        .mapToInt(org.robostream.dataset.EpisodeInfo::length)
        .sum();
  }
}
