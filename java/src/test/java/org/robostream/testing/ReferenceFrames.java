package org.robostream.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Every frame of a video as the ffmpeg CLI decodes it (RGB24, HWC), written once to a file in
 * {@code dir} and read back one frame at a time: a real episode's frames (1 GB for three G1
 * episodes) do not fit a test's heap, and a shuffled stream asks for them in any order. Not
 * thread-safe.
 */
public final class ReferenceFrames implements AutoCloseable {
  private final FileChannel channel;
  private final int frameBytes;
  private final int frames;

  private ReferenceFrames(FileChannel channel, int frameBytes, int frames) {
    this.channel = channel;
    this.frameBytes = frameBytes;
    this.frames = frames;
  }

  /**
   * Decodes {@code video} (frames of {@code width} x {@code height}) into a file in {@code dir}.
   */
  public static ReferenceFrames decode(Path video, int width, int height, Path dir) {
    try {
      Path raw = Files.createTempFile(dir, "reference-", ".rgb");
      FfmpegReference.allFramesRgbTo(video, raw);
      int frameBytes = width * height * 3;
      long size = Files.size(raw);
      if (size % frameBytes != 0) {
        throw new IllegalStateException(
            video
                + ": ffmpeg wrote "
                + size
                + " bytes, not whole "
                + width
                + "x"
                + height
                + " frames");
      }
      return new ReferenceFrames(FileChannel.open(raw), frameBytes, (int) (size / frameBytes));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** How many frames the ffmpeg CLI decoded. */
  public int frames() {
    return frames;
  }

  /** Frame {@code index} (RGB24, HWC). */
  public byte[] frame(int index) {
    ByteBuffer out = ByteBuffer.allocate(frameBytes);
    try {
      while (out.hasRemaining()) {
        if (channel.read(out, (long) index * frameBytes + out.position()) < 0) {
          throw new IllegalArgumentException("no frame " + index + " (" + frames + " frames)");
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.array();
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
