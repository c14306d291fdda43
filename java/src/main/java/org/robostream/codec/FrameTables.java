package org.robostream.codec;

import java.util.concurrent.ConcurrentHashMap;
import org.robostream.source.ByteSource;
import org.robostream.video.VideoDecoderOptions;

/**
 * The frame tables of the video files that a group of decoders reads (the loader: every worker of
 * one dataset), so that each file's packets are scanned once. The loader opens a decoder per live
 * episode stream and camera in every worker, and a shared v3.0 file holds many episodes: without
 * the registry each of those decoders scanned the whole file again, which for a file of thousands
 * of frames is most of the cost of opening it.
 *
 * <p>Threading: thread-safe; decoders of one file may be opened on several threads at once (both
 * may scan, the first table kept wins; tables are immutable). Ownership: the registry keeps the
 * tables, never a decoder: the caller owns every decoder {@link #open} returns.
 */
public final class FrameTables {
  private final ConcurrentHashMap<String, FrameTable> byFile = new ConcurrentHashMap<>();

  /**
   * Opens a decoder over {@code source} with the table a decoder of the same file (by {@link
   * ByteSource#name()}) opened through this registry built, when that table still describes the
   * file's size; otherwise scanning its packets, and keeping the new table. The decoder owns the
   * source from now on, as with {@link Decoder#open(ByteSource, VideoDecoderOptions, FrameTable)}.
   */
  public Decoder open(ByteSource source, VideoDecoderOptions options) {
    Decoder decoder = Decoder.open(source, options, byFile.get(source.name()));
    byFile.putIfAbsent(decoder.file(), decoder.frameTable());
    return decoder;
  }

  /**
   * Keeps {@code table} (scanned without a decoder, {@link VideoScan}) for the decoders of its file
   * that open later: they skip the scan while it still describes the file's size.
   */
  public void remember(FrameTable table) {
    byFile.putIfAbsent(table.file, table);
  }
}
