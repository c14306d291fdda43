package org.robostream.hub;

import java.nio.ByteBuffer;
import org.robostream.source.ByteSource;

/**
 * A remote file read through HTTP range requests in read-ahead blocks (default 5 MiB, as fsspec's
 * readahead cache). Blocks live in the client's {@link SharedBlockCache}, so the many decoders a
 * loader opens on one file share them, and the demuxer's jumps between the head, an MP4 {@code
 * moov} box at the end and the media data cost one request per block. The first block is fetched on
 * open; it also tells the size and the server's version of the file (ETag, else Last-Modified) and
 * catches a web page served instead of the file. Every later block must come from the same version:
 * a file replaced on the server while a decoder reads it is a {@link HubException.Changed}, never a
 * mix of two versions.
 *
 * <p>Threading: not thread-safe (one decoder reads it). The shared {@link HubHttp} is.
 */
public final class HttpRangeByteSource implements ByteSource {
  private final HubHttp http;
  private final String url;
  private final String what;
  private final int blockBytes;
  private final long size;
  private final String version;

  private HttpRangeByteSource(HubHttp http, String url, String what, SharedBlockCache.Block first) {
    this.http = http;
    this.url = url;
    this.what = what;
    this.blockBytes = http.config().blockBytes();
    this.size = first.totalSize();
    this.version = first.version();
  }

  /** Opens {@code url}; {@code what} ("an MP4 video") words the error for a web page instead. */
  public static HttpRangeByteSource open(HubHttp http, String url, String what) {
    SharedBlockCache.Block first =
        http.blocks().get(url, 0, () -> fetch(http, url, 0, http.config().blockBytes(), what));
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
      // Reading on into the last quarter of a block looks sequential: fetch the next one now.
      if (offset + n > blockBytes - blockBytes / 4) {
        readAhead(block + 1);
      }
    }
    return copied;
  }

  /** Starts fetching the block holding {@code position} on the client's read-ahead threads. */
  @Override
  public void prefetch(long position) {
    readAhead(position / blockBytes);
  }

  private void readAhead(long index) {
    if (index * blockBytes < size) {
      http.blocks().prefetch(url, index, () -> fetch(index), http.readAhead());
    }
  }

  private SharedBlockCache.Block fetch(long index) {
    long start = index * blockBytes;
    return fetch(http, url, start, (int) Math.min(blockBytes, size - start), what);
  }

  private static SharedBlockCache.Block fetch(
      HubHttp http, String url, long start, int length, String what) {
    HubHttp.RangeResult r = http.getRange(url, start, length, what);
    return new SharedBlockCache.Block(r.bytes(), r.totalSize(), r.version());
  }

  private byte[] block(long index) {
    long start = index * blockBytes;
    int length = (int) Math.min(blockBytes, size - start);
    SharedBlockCache.Block b = http.blocks().get(url, index, () -> fetch(index));
    if (b.version() != null && version != null && !b.version().equals(version)) {
      http.blocks().forget(url);
      throw new HubException.Changed(url, "version " + version, "version " + b.version());
    }
    if (b.bytes().length != length) {
      http.blocks().forget(url);
      throw new HubException.Changed(url, size + " bytes", b.totalSize() + " bytes");
    }
    return b.bytes();
  }

  @Override
  public String name() {
    return url;
  }

  /** The server's version of the file when it was opened (ETag, else Last-Modified), or null. */
  public String version() {
    return version;
  }

  @Override
  public void close() {
    // Blocks belong to the shared cache; nothing is held per source.
  }
}
