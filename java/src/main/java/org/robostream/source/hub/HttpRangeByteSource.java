package org.robostream.source.hub;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;
import org.robostream.source.ByteSource;

/**
 * A remote file read through HTTP range requests in read-ahead blocks (default 5 MiB, as fsspec's
 * readahead cache), a few blocks kept (LRU) so that the demuxer's jumps between the head, an MP4
 * {@code moov} box at the end and the media data cost one request each. The first block is
 * fetched on open; it also tells the size and catches a web page served instead of the file.
 *
 * <p>Threading: not thread-safe (one decoder reads it). The shared {@link HubHttp} is.
 */
public final class HttpRangeByteSource implements ByteSource {
  private static final int BLOCKS_KEPT = 4;

  private final HubHttp http;
  private final String url;
  private final String what;
  private final int blockBytes;
  private final long size;
  private final Map<Long, byte[]> blocks = new LinkedHashMap<>(8, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<Long, byte[]> eldest) {
      return size() > BLOCKS_KEPT;
    }
  };

  private HttpRangeByteSource(HubHttp http, String url, String what, HubHttp.RangeResult first) {
    this.http = http;
    this.url = url;
    this.what = what;
    this.blockBytes = http.config().blockBytes();
    this.size = first.totalSize();
    blocks.put(0L, first.bytes());
  }

  /** Opens {@code url}; {@code what} ("an MP4 video") words the error for a web page instead. */
  public static HttpRangeByteSource open(HubHttp http, String url, String what) {
    HubHttp.RangeResult first = http.getRange(url, 0, http.config().blockBytes(), what);
    return new HttpRangeByteSource(http, url, what, first);
  }

  @Override
  public long size() {
    return size;
  }

  @Override
  public int read(long position, ByteBuffer dst) {
    if (position >= size) {
      return -1;
    }
    int copied = 0;
    long at = position;
    while (dst.hasRemaining() && at < size) {
      long block = at / blockBytes;
      byte[] bytes = block(block);
      int offset = (int) (at - block * blockBytes);
      int n = Math.min(dst.remaining(), bytes.length - offset);
      if (n <= 0) {
        break;
      }
      dst.put(bytes, offset, n);
      copied += n;
      at += n;
    }
    return copied;
  }

  private byte[] block(long index) {
    byte[] bytes = blocks.get(index);
    if (bytes == null) {
      long start = index * blockBytes;
      int length = (int) Math.min(blockBytes, size - start);
      bytes = http.getRange(url, start, length, what).bytes();
      if (bytes.length != length) {
        throw new HubException(url, 206, "the file changed size while being read (" + size
            + " bytes at first)");
      }
      blocks.put(index, bytes);
    }
    return bytes;
  }

  @Override
  public String name() {
    return url;
  }

  @Override
  public void close() {
    blocks.clear();
  }
}
