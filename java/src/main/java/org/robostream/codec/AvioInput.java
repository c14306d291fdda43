package org.robostream.codec;

import static org.bytedeco.ffmpeg.global.avformat.AVSEEK_SIZE;
import static org.bytedeco.ffmpeg.global.avformat.avio_alloc_context;
import static org.bytedeco.ffmpeg.global.avformat.avio_context_free;
import static org.bytedeco.ffmpeg.global.avformat.avio_flush;
import static org.bytedeco.ffmpeg.global.avutil.AVERROR_EOF;
import static org.bytedeco.ffmpeg.global.avutil.av_free;
import static org.bytedeco.ffmpeg.global.avutil.av_malloc;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.bytedeco.ffmpeg.avformat.AVIOContext;
import org.bytedeco.ffmpeg.avformat.Read_packet_Pointer_BytePointer_int;
import org.bytedeco.ffmpeg.avformat.Seek_Pointer_long_int;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.LongPointer;
import org.bytedeco.javacpp.Pointer;
import org.robostream.source.ByteSource;

/**
 * A custom FFmpeg AVIOContext reading from a {@link ByteSource}.
 *
 * <p>JavaCPP allocates only a few native thunks per callback class, so one static read and one
 * static seek callback serve every input; FFmpeg's opaque pointer (a one-word native allocation per
 * input) identifies the input in a registry. Exceptions never cross into FFmpeg: a failing read is
 * remembered ({@link #takeFailure()}) and reported to FFmpeg as an I/O error.
 *
 * <p>Not thread-safe: used by the one decoder that owns it. Owns the source: {@link #close()} frees
 * the AVIOContext and closes the source.
 */
final class AvioInput implements AutoCloseable {
  private static final int BUFFER_SIZE = 256 * 1024;
  private static final int AVERROR_EIO = -5;
  private static final ConcurrentHashMap<Long, AvioInput> REGISTRY = new ConcurrentHashMap<>();
  private static final AtomicLong NEXT_ID = new AtomicLong(1);
  private static final ReadCallback READ = new ReadCallback();
  private static final SeekCallback SEEK = new SeekCallback();

  private final ByteSource source;
  private final LongPointer opaque;
  private final long id;
  private AVIOContext context;
  private long position;
  private IOException failure;
  private long bytesRead;
  private long bytesSkipped;
  private boolean payloadFree;

  AvioInput(ByteSource source) {
    this.source = source;
    this.id = NEXT_ID.getAndIncrement();
    this.opaque = new LongPointer(1);
    opaque.put(id);
    REGISTRY.put(opaque.address(), this);
    BytePointer buffer = new BytePointer(av_malloc(BUFFER_SIZE));
    if (buffer.isNull()) {
      REGISTRY.remove(opaque.address());
      opaque.close();
      throw new OutOfMemoryError("av_malloc of the AVIO buffer failed");
    }
    context = avio_alloc_context(buffer, BUFFER_SIZE, 0, opaque, READ, null, SEEK);
    if (context == null || context.isNull()) {
      av_free(buffer);
      REGISTRY.remove(opaque.address());
      opaque.close();
      throw new OutOfMemoryError("avio_alloc_context failed");
    }
  }

  AVIOContext context() {
    return context;
  }

  /** Bytes delivered to FFmpeg so far (for bytes-per-frame accounting). */
  long bytesRead() {
    return bytesRead;
  }

  /** The I/O error behind the last failed read, cleared by the call; null when none. */
  IOException takeFailure() {
    IOException f = failure;
    failure = null;
    return f;
  }

  /**
   * While on, reads are answered with zeros without touching the source (up to its end): for the
   * packet scan of an MP4, whose demuxer takes timing and flags from the moov box and never looks
   * at the sample data it reads. Turning it off drops what the buffer holds, so no zero byte is
   * ever returned as data afterwards.
   */
  void payloadFree(boolean on) {
    // Either way the buffer goes: on, so that every later read comes here (and is skipped);
    // off, so that no zero byte is ever returned as data.
    if (on != payloadFree && context != null) {
      avio_flush(context);
    }
    payloadFree = on;
  }

  /** Forwards a read-ahead hint to the source (see {@link ByteSource#prefetch}). */
  void prefetch(long position) {
    source.prefetch(position);
  }

  /** Bytes answered with zeros instead of being read, since this input was opened. */
  long bytesSkipped() {
    return bytesSkipped;
  }

  private int read(BytePointer buf, int size) {
    if (payloadFree) {
      try {
        long n = Math.min(size, source.size() - position);
        if (n <= 0) {
          return AVERROR_EOF;
        }
        buf.capacity(size).fill(0);
        position += n;
        bytesSkipped += n;
        return (int) n;
      } catch (IOException e) {
        failure = e;
        return AVERROR_EIO;
      }
    }
    try {
      ByteBuffer dst = buf.capacity(size).asByteBuffer();
      int n = source.read(position, dst);
      if (n <= 0) {
        return AVERROR_EOF;
      }
      position += n;
      bytesRead += n;
      return n;
    } catch (IOException e) {
      failure = e;
      return AVERROR_EIO;
    } catch (RuntimeException e) {
      failure = new IOException(e);
      return AVERROR_EIO;
    }
  }

  private long seek(long offset, int whence) {
    try {
      if ((whence & AVSEEK_SIZE) != 0) {
        return source.size();
      }
      long target;
      switch (whence & 3) {
        case 0 -> target = offset; // SEEK_SET
        case 1 -> target = position + offset; // SEEK_CUR
        case 2 -> target = source.size() + offset; // SEEK_END
        default -> {
          return -22; // EINVAL
        }
      }
      if (target < 0) {
        return -22;
      }
      position = target;
      return target;
    } catch (IOException e) {
      failure = e;
      return AVERROR_EIO;
    }
  }

  @Override
  public void close() throws IOException {
    if (context != null) {
      // FFmpeg may have replaced the buffer; free whatever the context holds now.
      av_free(context.buffer());
      context.buffer(null);
      avio_context_free(context);
      context = null;
      REGISTRY.remove(opaque.address());
      opaque.close();
      source.close();
    }
  }

  private static AvioInput lookup(Pointer opaque) {
    return opaque == null ? null : REGISTRY.get(opaque.address());
  }

  private static final class ReadCallback extends Read_packet_Pointer_BytePointer_int {
    @Override
    public int call(Pointer opaque, BytePointer buf, int size) {
      AvioInput input = lookup(opaque);
      return input == null ? AVERROR_EIO : input.read(buf, size);
    }
  }

  private static final class SeekCallback extends Seek_Pointer_long_int {
    @Override
    public long call(Pointer opaque, long offset, int whence) {
      AvioInput input = lookup(opaque);
      return input == null ? AVERROR_EIO : input.seek(offset, whence);
    }
  }
}
