package org.robostream.testing;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * MP4 layout for tests: the order of an MP4's top-level boxes (where the moov box is decides which
 * blocks a remote reader fetches to open it), and a copy with the moov box moved to the end the way
 * a muxer without {@code +faststart} writes it (ffmpeg CLI, stream copy). Stateless.
 */
public final class Mp4Boxes {
  private Mp4Boxes() {}

  /** Types of the top-level boxes of {@code file}, in file order ("ftyp", "mdat", "moov"...). */
  public static List<String> topLevel(Path file) throws IOException {
    List<String> types = new ArrayList<>();
    try (FileChannel ch = FileChannel.open(file)) {
      long at = 0;
      ByteBuffer header = ByteBuffer.allocate(16);
      while (at + 8 <= ch.size()) {
        header.clear();
        ch.read(header, at);
        long size = Integer.toUnsignedLong(header.getInt(0));
        types.add(new String(header.array(), 4, 4, StandardCharsets.ISO_8859_1));
        if (size == 1) {
          size = header.getLong(8); // 64-bit size follows the type
        } else if (size == 0) {
          break; // the box runs to the end of the file
        }
        if (size < 8) {
          throw new IOException(file + ": box of " + size + " bytes at " + at);
        }
        at += size;
      }
    }
    return types;
  }

  /** Rewrites {@code in} into {@code out} by stream copy, moov box last (no faststart). */
  public static void remuxMoovAtEnd(Path in, Path out) throws IOException {
    Process p =
        new ProcessBuilder(
                "ffmpeg",
                "-nostdin",
                "-hide_banner",
                "-v",
                "error",
                "-y",
                "-i",
                in.toString(),
                "-map",
                "0",
                "-c",
                "copy",
                out.toString())
            .redirectErrorStream(true)
            .start();
    String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    try {
      if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
        throw new IOException("ffmpeg could not remux " + in + ": " + log);
      }
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while remuxing " + in, e);
    }
  }
}
