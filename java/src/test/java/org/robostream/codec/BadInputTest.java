package org.robostream.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.testing.Fixtures;
import org.robostream.testing.NativeLeakCheck;
import org.robostream.video.ColorConverterKind;
import org.robostream.video.CorruptVideoException;
import org.robostream.video.FrameLayout;
import org.robostream.video.NotAVideoException;
import org.robostream.video.UnsupportedVideoException;
import org.robostream.video.VideoDecoderOptions;
import org.robostream.video.VideoException;
import org.robostream.video.VideoNotFoundException;

/** Each kind of bad input is a typed exception naming the file and the problem. */
@ExtendWith(NativeLeakCheck.class)
class BadInputTest {
  @TempDir Path tmp;

  private static <T extends VideoException> T expect(Class<T> type, Path file, String words) {
    T e =
        assertThrows(
            type,
            () -> {
              try (Decoder d = Decoder.open(file)) {
                double[] pts = d.framePtsSeconds();
                d.decode(pts, HostFrameBuffer.forVideo(d.info(), pts.length, FrameLayout.HWC));
              }
            });
    assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
    assertTrue(e.getMessage().toLowerCase().contains(words), e.getMessage());
    FfmpegErrorsTest.assertPrintable(e.getMessage());
    return e;
  }

  @Test
  void missingFile() {
    expect(VideoNotFoundException.class, tmp.resolve("nope.mp4"), "does not exist");
  }

  @Test
  void emptyFile() throws IOException {
    Path f = Files.createFile(tmp.resolve("empty.mp4"));
    expect(NotAVideoException.class, f, "empty");
  }

  @Test
  void htmlPageInsteadOfVideo() throws IOException {
    Path f =
        Files.writeString(
            tmp.resolve("page.mp4"),
            "<!DOCTYPE html><html><body>Sign in to continue</body></html>");
    expect(NotAVideoException.class, f, "html");
  }

  @Test
  void jsonAnswerInsteadOfVideo() throws IOException {
    Path f = Files.writeString(tmp.resolve("err.mp4"), "{\"error\":\"Entry not found\"}");
    expect(NotAVideoException.class, f, "json");
  }

  @Test
  void randomBytes() throws IOException {
    byte[] junk = new byte[20000];
    new Random(1).nextBytes(junk);
    Path f = Files.write(tmp.resolve("junk.mp4"), junk);
    expect(NotAVideoException.class, f, "not a readable video container");
  }

  @Test
  void truncatedBeforeTheIndex() throws IOException {
    // LeRobot-style files keep the moov box at the end: cutting the tail loses the index.
    byte[] full = Files.readAllBytes(Fixtures.video("av1_g2.mp4"));
    Path f = Files.write(tmp.resolve("cut.mp4"), Arrays.copyOf(full, full.length / 2));
    VideoException e =
        assertThrows(
            VideoException.class,
            () -> {
              try (Decoder d = Decoder.open(f)) {
                double[] pts = d.framePtsSeconds();
                d.decode(pts, HostFrameBuffer.forVideo(d.info(), pts.length, FrameLayout.HWC));
              }
            });
    assertTrue(e instanceof NotAVideoException || e instanceof CorruptVideoException, e.toString());
    assertTrue(e.getMessage().contains(f.toString()));
  }

  @Test
  void truncatedMediaData() throws IOException {
    // moov first (faststart), then half of the samples: the index promises frames that are gone.
    Path faststart = tmp.resolve("fast.mp4");
    ffmpeg(
        "-i",
        Fixtures.video("h264_g30.mp4").toString(),
        "-c",
        "copy",
        "-movflags",
        "+faststart",
        faststart.toString());
    byte[] full = Files.readAllBytes(faststart);
    Path f = Files.write(tmp.resolve("halfdata.mp4"), Arrays.copyOf(full, full.length * 2 / 3));
    expect(CorruptVideoException.class, f, "truncated");
  }

  @Test
  void audioOnlyFileHasNoVideoStream() throws IOException {
    Path f = tmp.resolve("tone.m4a");
    ffmpeg("-f", "lavfi", "-i", "sine=frequency=440:duration=1", "-c:a", "aac", f.toString());
    expect(NotAVideoException.class, f, "no video stream");
  }

  @Test
  void unsupportedPixelDepthForLibyuvOnlyIsReported() throws IOException {
    // The first frames of a pattern fixture at 10 bits: frames that say which they are.
    Path f = tmp.resolve("pattern10.mp4");
    ffmpeg(
        "-i",
        Fixtures.video("h264_g2.mp4").toString(),
        "-frames:v",
        "6",
        "-c:v",
        "libx264",
        "-g",
        "2",
        "-pix_fmt",
        "yuv420p10le",
        f.toString());
    VideoDecoderOptions libyuvOnly =
        VideoDecoderOptions.defaults().withConverter(ColorConverterKind.LIBYUV);
    UnsupportedVideoException e =
        assertThrows(
            UnsupportedVideoException.class,
            () -> {
              try (Decoder d = Decoder.open(f, libyuvOnly)) {
                d.decode(new double[] {0}, HostFrameBuffer.forVideo(d.info(), 1, FrameLayout.HWC));
              }
            });
    assertTrue(e.getMessage().contains("yuv420p10le"), e.getMessage());
    // AUTO falls back to swscale for it and decodes every frame as the ffmpeg CLI does.
    try (Decoder d = Decoder.open(f)) {
      FrameExactnessTest.Reference ref = FrameExactnessTest.reference(f, d.info());
      double[] pts = d.framePtsSeconds();
      assertEquals(6, pts.length);
      HostFrameBuffer frames = HostFrameBuffer.forVideo(d.info(), pts.length, FrameLayout.HWC);
      d.decode(pts, frames);
      for (int i = 0; i < pts.length; i++) {
        FrameExactnessTest.checkFrame("10-bit pattern", ref, i, frames.frameBytes(i));
      }
    }
  }

  @Test
  void unknownCodecIsUnsupported() throws IOException {
    // Rename the sample entry's fourcc (avc1 -> zzzz): a container FFmpeg reads, a codec it lacks.
    byte[] b = Files.readAllBytes(Fixtures.video("h264_g30.mp4"));
    int stsd = indexOf(b, "stsd".getBytes(StandardCharsets.US_ASCII), 0);
    int entry = indexOf(b, "avc1".getBytes(StandardCharsets.US_ASCII), stsd);
    assertTrue(stsd > 0 && entry > stsd);
    System.arraycopy("zzzz".getBytes(StandardCharsets.US_ASCII), 0, b, entry, 4);
    Path f = Files.write(tmp.resolve("zzzz.mp4"), b);
    expect(UnsupportedVideoException.class, f, "no decoder");
  }

  private static int indexOf(byte[] haystack, byte[] needle, int from) {
    outer:
    for (int i = Math.max(0, from); i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  @Test
  void closedDecoderRefusesWork() {
    Decoder d = Decoder.open(Fixtures.video("h264_g2.mp4"));
    HostFrameBuffer one = HostFrameBuffer.forVideo(d.info(), 1, FrameLayout.HWC);
    d.close();
    d.close(); // idempotent
    assertThrows(IllegalStateException.class, () -> d.decode(new double[] {0}, one));
  }

  // A destination of another size is scaled, or refused where the converter cannot scale:
  // ScaledDestinationTest.

  /** The ffmpeg CLI, quiet and overwriting, with {@code args}: a fixture made on the fly. */
  static void ffmpeg(String... args) throws IOException {
    List<String> command =
        new ArrayList<>(List.of("ffmpeg", "-hide_banner", "-loglevel", "error", "-y"));
    command.addAll(List.of(args));
    run(command.toArray(String[]::new));
  }

  static void run(String... command) throws IOException {
    try {
      Process p = new ProcessBuilder(command).inheritIO().start();
      if (p.waitFor() != 0) {
        throw new IOException("failed: " + String.join(" ", command));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
  }

  @Test
  void messagesNeverComeWithoutTheFileName() {
    VideoException e = new CorruptVideoException("x.mp4", "bad");
    assertTrue(e.getMessage().startsWith("x.mp4: "));
    assertTrue(e.file().equals("x.mp4"));
  }
}
