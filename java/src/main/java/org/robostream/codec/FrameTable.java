package org.robostream.codec;

/**
 * The frame table of one video file (every frame's pts, GOP structure), built when a decoder opens
 * the file by reading its packets. Immutable and thread-safe: decoders on other threads may open
 * the same file with it ({@link Decoder#open(org.robostream.source.ByteSource, VideoDecoderOptions,
 * FrameTable)}) and skip the packet scan, which for a shared v3.0 file of thousands of frames is
 * most of the opening cost.
 */
public final class FrameTable {
  final FrameIndex index;
  final String file;
  final long sizeBytes;

  FrameTable(FrameIndex index, String file, long sizeBytes) {
    this.index = index;
    this.file = file;
    this.sizeBytes = sizeBytes;
  }

  /** Whether this table describes {@code file} of {@code sizeBytes} bytes. */
  boolean describes(String otherFile, long otherSize) {
    return file.equals(otherFile) && sizeBytes == otherSize;
  }

  public int frameCount() {
    return index.frameCount();
  }

  /** pts in seconds of frame {@code frame} (0-based, presentation order). */
  public double ptsSeconds(int frame) {
    return index.frameSeconds(frame);
  }

  /** The frame whose pts is nearest to {@code seconds} (ties: the earlier one). */
  public int nearestFrame(double seconds) {
    return index.nearestFrame(seconds);
  }

  /**
   * Byte position in the file where decoding frame {@code frame} (0-based, presentation order)
   * starts reading: the keyframe packet of the GOP it is decoded from; -1 when the container does
   * not tell.
   */
  public long seekPosition(int frame) {
    return index.seekPosition(Math.max(0, Math.min(frame, index.frameCount() - 1)));
  }
}
