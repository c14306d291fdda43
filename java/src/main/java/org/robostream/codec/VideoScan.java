package org.robostream.codec;

import org.robostream.nativecore.NativeCore;
import org.robostream.source.ByteSource;
import org.robostream.video.VideoNotFoundException;
import org.robostream.video.VideoStreamInfo;

/**
 * A video's stream information and frame table, read from its container without opening a decoder
 * (no codec is initialised, nothing is decoded): what a dataset needs to check, when it is opened,
 * that each video holds the frames its metadata puts there. For an MP4 with a sample index this
 * reads the header and the index only. Immutable, thread-safe.
 */
public record VideoScan(VideoStreamInfo info, FrameTable table) {
  /**
   * Reads the video over {@code source}, which it closes.
   *
   * @throws VideoException naming the file when the bytes are not a readable video, or its frame
   *     size is outside 1..8192
   */
  public static VideoScan read(ByteSource source) {
    long size;
    try {
      NativeCore.ensureLoaded();
      size = source.size();
    } catch (java.io.IOException e) {
      closeQuietly(source);
      throw new VideoNotFoundException(source.name(), "cannot read size: " + e.getMessage(), e);
    } catch (RuntimeException | Error e) {
      closeQuietly(source); // the demuxer would own it; it was never made
      throw e;
    }
    try (Demuxer demuxer = new Demuxer(source)) {
      Decoder.checkFrameSize(demuxer);
      FrameIndex index = demuxer.scanIndex();
      return new VideoScan(
          index.streamInfo(demuxer.file(), demuxer.stream(), size),
          new FrameTable(index, demuxer.file(), size));
    }
  }

  private static void closeQuietly(ByteSource source) {
    try {
      source.close();
    } catch (Exception ignored) {
      // the first error is the one to report
    }
  }
}
