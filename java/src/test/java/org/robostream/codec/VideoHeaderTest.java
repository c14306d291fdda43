package org.robostream.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.source.ByteSource;
import org.robostream.source.LocalFileByteSource;
import org.robostream.testing.Datasets;
import org.robostream.testing.Ffprobe;
import org.robostream.testing.Fixtures;
import org.robostream.testing.NativeLeakCheck;
import org.robostream.video.NotAVideoException;

/**
 * A video's container header (codec, size, pixel format) as ffprobe and an opened decoder report
 * it, read from the header's bytes only: what the build's declared-size check and inspect use.
 */
@ExtendWith(NativeLeakCheck.class)
class VideoHeaderTest {
  @TempDir Path tmp;

  @Test
  void theHeaderSaysWhatFfprobeAndAnOpenedDecoderSay() {
    for (String name :
        new String[] {
          "av1_g2.mp4", "h264_g30.mp4", "hevc_g30.mp4", "mpeg4_g12.mp4", "camera_h264_640x480.mp4"
        }) {
      Path file = Fixtures.video(name);
      VideoHeader header = VideoHeader.read(file);
      Ffprobe.Stream probe = Ffprobe.stream(file);
      assertEquals(probe.codec(), header.codec(), name);
      assertEquals(probe.width(), header.width(), name);
      assertEquals(probe.height(), header.height(), name);
      assertEquals(probe.pixelFormat(), header.pixelFormat(), name);
      try (Decoder d = Decoder.open(file)) {
        assertEquals(d.info().pixelFormat(), header.pixelFormat(), name);
      }
    }
  }

  @Test
  void aLargeFileWithItsMoovAtTheEndIsReadOnlyAtItsEndsAndClosed() throws Exception {
    Path root = Datasets.cameraMoovAtEnd();
    Path file;
    try (var walk = Files.walk(root.resolve("videos"))) {
      file = walk.filter(p -> p.toString().endsWith(".mp4")).sorted().findFirst().orElseThrow();
    }
    CountingSource source = new CountingSource(LocalFileByteSource.open(file));
    VideoHeader header = VideoHeader.read(source);
    assertEquals(128, header.width());
    assertEquals(96, header.height());
    long size = Files.size(file);
    assertTrue(
        source.bytes.get() < size / 2,
        source.bytes.get() + " bytes read of a " + size + "-byte file");
    assertTrue(source.closed, "the header reader closes its source");
  }

  @Test
  void aPageInsteadOfAVideoIsATypedErrorNamingTheFile() throws Exception {
    Path page = tmp.resolve("episode_000000.mp4");
    Files.writeString(page, "<!DOCTYPE html><html><body>Not found</body></html>");
    NotAVideoException e = assertThrows(NotAVideoException.class, () -> VideoHeader.read(page));
    assertTrue(e.getMessage().contains(page.toString()), e.getMessage());
  }

  /** Counts the bytes read through it. */
  private static final class CountingSource implements ByteSource {
    private final ByteSource inner;
    final AtomicLong bytes = new AtomicLong();
    boolean closed;

    CountingSource(ByteSource inner) {
      this.inner = inner;
    }

    @Override
    public long size() throws IOException {
      return inner.size();
    }

    @Override
    public int read(long position, ByteBuffer dst) throws IOException {
      int n = inner.read(position, dst);
      if (n > 0) {
        bytes.addAndGet(n);
      }
      return n;
    }

    @Override
    public String name() {
      return inner.name();
    }

    @Override
    public void close() throws IOException {
      closed = true;
      inner.close();
    }
  }
}
