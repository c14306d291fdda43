package org.robostream.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.robostream.testing.Fixtures;
import org.robostream.testing.FrameCompare;
import org.robostream.testing.NativeLeakCheck;
import org.robostream.video.Av1Backend;
import org.robostream.video.FrameLayout;
import org.robostream.video.VideoDecoderOptions;

/** libaom-av1 (the fallback when dav1d is missing) delivers the same frames as dav1d. */
@ExtendWith(NativeLeakCheck.class)
class Av1BackendTest {
  @Test
  void libaomFallbackMatchesDav1d() {
    VideoDecoderOptions aom = VideoDecoderOptions.defaults().withAv1Backend(Av1Backend.LIBAOM);
    try (Decoder dav1d = Decoder.open(Fixtures.video("av1_g2.mp4"));
        Decoder libaom = Decoder.open(Fixtures.video("av1_g2.mp4"), aom)) {
      assertTrue(dav1d.backendDescription().startsWith("dav1d"));
      assertEquals("avcodec libaom-av1", libaom.backendDescription());
      double[] pts = dav1d.framePtsSeconds();
      double[] q = {pts[77], pts[3], pts[200]};
      HostFrameBuffer a = HostFrameBuffer.forVideo(dav1d.info(), 3, FrameLayout.HWC);
      HostFrameBuffer b = HostFrameBuffer.forVideo(libaom.info(), 3, FrameLayout.HWC);
      dav1d.decode(q, a);
      libaom.decode(q, b);
      for (int i = 0; i < 3; i++) {
        assertTrue(FrameCompare.meanAbsDiff(a.frameBytes(i), b.frameBytes(i), 0) < 0.5);
      }
    }
  }

  @Test
  void missingDav1dFallsBackToLibaomWithAWarning() throws Exception {
    ProcessBuilder pb =
        new ProcessBuilder(
            java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "--add-opens=java.base/java.nio=ALL-UNNAMED",
            "-cp",
            System.getProperty("java.class.path"),
            Av1FallbackProbe.class.getName(),
            Fixtures.video("av1_g2.mp4").toString());
    pb.environment().put("ROBOSTREAM_DAV1D_LIBRARY", "libdav1d-not-installed.so.6");
    pb.redirectErrorStream(true);
    Process p = pb.start();
    String out =
        new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    assertEquals(0, p.waitFor(), out);
    assertTrue(out.contains("backend=avcodec libaom-av1 frame=5"), out);
    assertTrue(out.contains("dav1d unavailable") && out.contains("libdav1d-not-installed"), out);
  }
}
