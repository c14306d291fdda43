package org.robostream.source;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** A {@link ByteSource} over a local file (positional reads, no shared file pointer). */
public final class LocalFileByteSource implements ByteSource {
  private final Path path;
  private final FileChannel channel;
  private final long size;

  private LocalFileByteSource(Path path, FileChannel channel, long size) {
    this.path = path;
    this.channel = channel;
    this.size = size;
  }

  /** Opens {@code path}; a missing or unreadable file is a {@link UnreadableFileException}. */
  public static LocalFileByteSource open(Path path) {
    try {
      FileChannel channel = FileChannel.open(path, StandardOpenOption.READ);
      try {
        return new LocalFileByteSource(path, channel, channel.size());
      } catch (IOException | RuntimeException e) {
        channel.close();
        throw e;
      }
    } catch (NoSuchFileException e) {
      throw new UnreadableFileException(path.toString(), "file does not exist", e);
    } catch (AccessDeniedException e) {
      throw new UnreadableFileException(path.toString(), "permission denied", e);
    } catch (IOException e) {
      throw new UnreadableFileException(path.toString(), "cannot open: " + e.getMessage(), e);
    }
  }

  @Override
  public long size() {
    return size;
  }

  @Override
  public int read(long position, ByteBuffer dst) throws IOException {
    if (position >= size) {
      return -1;
    }
    return channel.read(dst, position);
  }

  @Override
  public String name() {
    return path.toString();
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
