package org.robostream.dataset.synth;

/**
 * What a generated camera shows, whether it is stored as video or as image features: the {@link
 * PatternCode} of (episode, frame, camera), {@link CameraContent}'s noisy scene or the {@link
 * LearnableTask}'s disc. Stateless.
 */
final class CameraFrames {
  private CameraFrames() {}

  /**
   * Paints the frames of {@code camera} (its index) in {@code episode}. Frames must be asked for in
   * order: camera content carries its noise from frame to frame.
   */
  static FfmpegVideoWriter.FramePainter painter(
      SyntheticDatasetSpec spec, int episode, int camera) {
    return painter(spec, episode, camera, spec.width(), spec.height());
  }

  /** Like {@link #painter(SyntheticDatasetSpec, int, int)} at a camera's own size. */
  static FfmpegVideoWriter.FramePainter painter(
      SyntheticDatasetSpec spec, int episode, int camera, int width, int height) {
    if (spec.content() == SyntheticDatasetSpec.Content.PATTERN) {
      return (rgb, f) -> PatternCode.paint(rgb, width, height, episode, f, camera);
    }
    if (spec.content() == SyntheticDatasetSpec.Content.LEARNABLE) {
      return (rgb, f) -> LearnableTask.paint(rgb, width, height, episode, f, camera);
    }
    return new CameraContent(width, height, episode, camera)::paint;
  }
}
