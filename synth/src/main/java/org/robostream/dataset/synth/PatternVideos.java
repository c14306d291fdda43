package org.robostream.dataset.synth;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Encodes pattern videos whose frames tests choose one by one (extra frames, other rates), as
 * make-dataset encodes its own: AV1 (libsvtav1), keyframe every 2 frames, LeRobot's crf.
 */
public final class PatternVideos {
  private PatternVideos() {}

  /** Writes {@code frames} at {@code fps}, each frame painted with its identity. */
  public static void encode(
      Path out, int width, int height, int fps, List<PatternCode.Identity> frames)
      throws IOException {
    VideoCodecChoice codec = VideoCodecChoice.AV1;
    SyntheticCamera camera =
        new SyntheticCamera(
            out.getFileName().toString(),
            0,
            new FrameSize(width, height),
            false,
            codec,
            PixelFormatChoice.YUV420P.ffmpegName());
    FfmpegVideoWriter.encode(
        out,
        camera,
        fps,
        frames.size(),
        2,
        codec.defaultCrf(),
        (rgb, f) ->
            PatternCode.paint(
                rgb,
                width,
                height,
                frames.get(f).episode(),
                frames.get(f).frame(),
                frames.get(f).camera()));
  }
}
