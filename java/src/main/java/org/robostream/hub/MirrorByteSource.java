package org.robostream.hub;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.robostream.source.ByteSource;
import org.robostream.source.LocalFileByteSource;

/**
 * A video read from the local mirror, its bytes counted in the client's {@link HubTraffic} as local
 * disk: a result then says how much of a run came from disk rather than the network. Not
 * thread-safe (one decoder reads it), as the file it wraps.
 */
final class MirrorByteSource implements ByteSource {
  private final LocalFileByteSource file;
  private final HubTraffic traffic;

  private MirrorByteSource(LocalFileByteSource file, HubTraffic traffic) {
    this.file = file;
    this.traffic = traffic;
  }

  static MirrorByteSource open(Path path, HubTraffic traffic) {
    MirrorByteSource s = new MirrorByteSource(LocalFileByteSource.open(path), traffic);
    traffic.localOpen();
    return s;
  }

  @Override
  public long size() throws IOException {
    return file.size();
  }

  @Override
  public int read(long position, ByteBuffer dst) throws IOException {
    int n = file.read(position, dst);
    if (n > 0) {
      traffic.localRead(n);
    }
    return n;
  }

  @Override
  public void prefetch(long position) {
    file.prefetch(position);
  }

  @Override
  public String name() {
    return file.name();
  }

  @Override
  public void close() throws IOException {
    file.close();
  }
}
