package org.robostream.source;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Random-access bytes of one file, which a video decoder's demuxer reads through FFmpeg's custom
 * I/O. Two kinds: {@link LocalFileByteSource} (positional reads of a local file) and the Hub's
 * {@code HttpRangeByteSource} (HTTP range requests in read-ahead blocks that the client's block
 * cache shares between every decoder of the file, each block checked to be of the file's first
 * version). A dataset's {@link VideoSources} opens them. {@link #prefetch} is the read-ahead hint
 * the loader gives before decoding a run, so that the blocks of every camera's file download at
 * once; local files ignore it.
 *
 * <p>Threading: not thread-safe; one reader (one decoder) at a time. Ownership: whoever opens a
 * source closes it; a decoder that is handed a source owns it from then on.
 */
public interface ByteSource extends AutoCloseable {
  /** Total size in bytes. */
  long size() throws IOException;

  /**
   * Reads up to {@code dst.remaining()} bytes starting at {@code position} into {@code dst}.
   * Returns the number of bytes read, or -1 at or past the end.
   */
  int read(long position, ByteBuffer dst) throws IOException;

  /**
   * A hint that the bytes at {@code position} will be read soon: a remote source may start fetching
   * them in the background (so several files download at once); local files ignore it. Never fails:
   * a fetch that goes wrong is left for the read that needs the bytes.
   */
  default void prefetch(long position) {}

  /** The file's name for messages: a path or URL, never a credential. */
  String name();

  @Override
  void close() throws IOException;
}
