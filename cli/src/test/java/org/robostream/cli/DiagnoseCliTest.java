package org.robostream.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.arrow.BatchMemoryPool;
import org.robostream.codec.Decoder;
import org.robostream.codec.HostFrameBuffer;
import org.robostream.dataset.V30MetadataTestAccess;
import org.robostream.nativecore.Cuda;
import org.robostream.source.VideoSources;
import org.robostream.testing.Datasets;
import org.robostream.video.FrameLayout;
import org.robostream.video.VideoDecoderOptions;

/** diagnose: passes on a good dataset, names the placeholder a bad download leaves. */
class DiagnoseCliTest {
  @TempDir Path tmp;

  @Test
  void aGoodDatasetPassesEveryStep() {
    String out =
        BenchCliTest.capture(
            () ->
                assertEquals(0, Main.run("diagnose", "--root", Datasets.patternV30().toString())));
    assertTrue(out.contains("dav1d"), out);
    assertTrue(out.contains("an ftyp box"), out);
    assertTrue(out.contains("ok    decoded frame 0 on the CPU in"), out);
    assertTrue(out.contains("no NVDEC support"), "AV1 codec limits explained: " + out);
    String driver = Cuda.driverVersion();
    assertTrue(
        out.contains(
            "cuda driver   "
                + (driver != null ? driver : "unavailable: " + Cuda.unavailabilityCause())),
        out);
  }

  @Test
  void aGpuRequestWithoutAGpuNamesTheCauseAndStillChecksTheCpu() {
    assumeFalse(Cuda.nvdecAvailable(0), "a GPU is here: the NVDEC half runs instead");
    String root = Datasets.patternV30().toString();
    String cuda =
        BenchCliTest.capture(
            () ->
                assertEquals(
                    1, Main.run("diagnose", "--root", root, "--video-decode-device", "cuda")));
    assertTrue(cuda.contains("ok    decoded frame 0 on the CPU in"), cuda);
    assertTrue(
        cuda.contains(
            "FAIL  --video-decode-device cuda cannot be used: " + Cuda.unavailabilityCause()),
        cuda);
    String fallback =
        BenchCliTest.capture(
            () ->
                assertEquals(
                    0,
                    Main.run("diagnose", "--root", root, "--video-decode-device", "cuda-or-cpu")));
    assertTrue(
        fallback.contains(
            "note  --video-decode-device cuda-or-cpu decodes on the CPU"
                + " here: "
                + Cuda.unavailabilityCause()),
        fallback);
    assertEquals(2, Main.run("diagnose", "--root", root, "--video-decode-device", "tpu"));
  }

  @Test
  void frameZeroThroughAHostPoolEqualsThePlainDecode() throws Exception {
    Path video =
        Datasets.patternV30().resolve("videos/observation.images.top/chunk-000/" + "file-000.mp4");
    try (BatchMemoryPool host = BatchMemoryPool.host();
        Decoder plain = Decoder.open(video)) {
      FrameZero.Decoded d =
          FrameZero.decode(VideoSources.local(), video, VideoDecoderOptions.defaults(), host);
      HostFrameBuffer one = HostFrameBuffer.forVideo(plain.info(), 1, FrameLayout.HWC);
      plain.decodeFrames(new int[] {0}, one);
      assertArrayEquals(one.frameBytes(0), d.rgb());
      assertArrayEquals(new double[] {0, 0}, FrameZero.difference(d.rgb(), one.frameBytes(0)));
      byte[] off = d.rgb().clone();
      off[0] = (byte) ((off[0] & 0xFF) > 127 ? 0 : 255);
      assertEquals(
          Math.abs((off[0] & 0xFF) - (d.rgb()[0] & 0xFF)), FrameZero.difference(d.rgb(), off)[0]);
    }
  }

  @Test
  void anHtmlPlaceholderInsteadOfTheVideoIsNamed() throws Exception {
    Path copy = tmp.resolve("ds");
    V30MetadataTestAccess.copyTree(Datasets.patternV30(), copy);
    Path video = copy.resolve("videos/observation.images.top/chunk-000/file-000.mp4");
    Files.writeString(video, "<!DOCTYPE html><html>Access denied</html>");
    String out =
        BenchCliTest.capture(
            () -> assertEquals(1, Main.run("diagnose", "--root", copy.toString())));
    // Opening the dataset names the placeholder before any step reads it.
    assertTrue(out.contains("FAIL  metadata: " + copy + ": 1 of the "), out);
    assertTrue(
        out.contains("videos/observation.images.top/chunk-000/file-000.mp4 is an HTML/XML page"),
        out);
  }
}
