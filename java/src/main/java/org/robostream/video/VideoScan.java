package org.robostream.video;

import org.robostream.nativecore.NativeCore;
import org.robostream.source.ByteSource;

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
    NativeCore.ensureLoaded();
    long size;
    try {
      size = source.size();
    } catch (java.io.IOException e) {
      try {
        source.close();
      } catch (Exception ignored) {
        // the size error is the one to report
      }
      throw new VideoNotFoundException(source.name(), "cannot read size: " + e.getMessage(), e);
    }
    try (Demuxer demuxer = new Demuxer(source)) {
      VideoDecoder.checkFrameSize(demuxer);
      FrameIndex index = demuxer.scanIndex();
      return new VideoScan(
          VideoStreamInfo.of(demuxer.file(), demuxer.stream(), index, size),
          new FrameTable(index, demuxer.file(), size));
    }
  }
}
