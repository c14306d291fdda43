package org.robostream.codec;

/**
 * Which of a file's open decoders a read uses, in a {@link DecoderCache}: one decoder per live
 * episode stream and camera, so that streams reading one shared v3.0 file at different positions
 * never make each other seek, and one {@link #SHARED} decoder for reads that belong to no stream
 * (out of order: samples decoded when delivered). Immutable value; compared by its fields.
 *
 * @param stream the live stream's episode index, or -1 for {@link #SHARED}
 * @param camera the camera's position in the loader's camera list (0 for {@link #SHARED})
 */
public record DecoderSlot(long stream, int camera) {
  /** The decoder for reads that belong to no stream. */
  public static final DecoderSlot SHARED = new DecoderSlot(-1, 0);

  public DecoderSlot {
    if (stream < -1 || camera < 0) {
      throw new IllegalArgumentException(
          "a decoder slot's stream must be >= -1 and camera >= 0, got " + stream + ", " + camera);
    }
  }

  /** The decoder of episode {@code episode}'s live stream for the {@code camera}-th camera. */
  public static DecoderSlot of(int episode, int camera) {
    return new DecoderSlot(episode, camera);
  }
}
