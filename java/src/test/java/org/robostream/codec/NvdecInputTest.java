package org.robostream.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.bytedeco.ffmpeg.avcodec.AVPacket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.GpuUnavailableException;
import org.robostream.nativecore.Cuda;
import org.robostream.source.LocalFileByteSource;
import org.robostream.testing.Fixtures;
import org.robostream.testing.NativeLeakCheck;
import org.robostream.video.FrameLayout;
import org.robostream.video.VideoDecoderOptions;

/**
 * What the NVDEC path feeds and refuses, on every machine: the Annex-B packets equal the ffmpeg
 * CLI's (the form the GPU fixtures use), an unusable GPU is a typed error naming the cause, and
 * host/device destinations are never mixed up.
 */
@ExtendWith(NativeLeakCheck.class)
class NvdecInputTest {
  @TempDir Path tmp;

  @Test
  void annexBPacketsEqualTheFfmpegClisBitstreamFilter() throws Exception {
    for (String[] c :
        new String[][] {
          {"h264_g30.mp4", "h264_mp4toannexb", "h264"}, {"hevc_g30.mp4", "hevc_mp4toannexb", "hevc"}
        }) {
      Path file = Fixtures.video(c[0]);
      Path expected = tmp.resolve(c[0] + "." + c[2]);
      Process p =
          new ProcessBuilder(
                  "ffmpeg",
                  "-v",
                  "error",
                  "-y",
                  "-i",
                  file.toString(),
                  "-c",
                  "copy",
                  "-bsf:v",
                  c[1],
                  "-f",
                  c[2],
                  expected.toString())
              .redirectErrorStream(true)
              .start();
      p.getInputStream().readAllBytes();
      assertTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, "ffmpeg " + c[1]);
      ByteArrayOutputStream ours = new ByteArrayOutputStream();
      try (Demuxer d = new Demuxer(LocalFileByteSource.open(file));
          AnnexBFilter filter =
              AnnexBFilter.forStream(
                  file.toString(), d.stream().codecpar(), d.stream().time_base())) {
        for (AVPacket packet = d.next(); packet != null; packet = d.next()) {
          AVPacket out = filter.filter(packet);
          byte[] bytes = new byte[out.size()];
          out.data().get(bytes);
          ours.write(bytes);
        }
      }
      assertArrayEquals(Files.readAllBytes(expected), ours.toByteArray(), c[0]);
    }
    try (Demuxer d = new Demuxer(LocalFileByteSource.open(Fixtures.video("av1_g2.mp4")))) {
      assertNull(
          AnnexBFilter.forStream("av1", d.stream().codecpar(), d.stream().time_base()),
          "AV1 goes to NVDEC as demuxed OBUs");
    }
  }

  @Test
  void nvdecWithoutAUsableGpuIsATypedErrorNamingTheCause() {
    assumeFalse(Cuda.nvdecAvailable(0), "a GPU is present: the native GPU tests cover it");
    GpuUnavailableException e =
        assertThrows(
            GpuUnavailableException.class,
            () ->
                Decoder.open(
                    Fixtures.video("h264_g30.mp4"),
                    VideoDecoderOptions.defaults().withCudaDevice(0)));
    assertTrue(e.getMessage().contains("NVDEC decoding on cuda:0 is unavailable"), e.getMessage());
    assertTrue(e.getMessage().contains(Cuda.nvdecUnavailabilityCause(0)), e.getMessage());
    assertTrue(e.getMessage().contains("h264_g30.mp4"), e.getMessage());
  }

  @Test
  void aCpuDecoderRefusesADeviceDestination() {
    try (Decoder d = Decoder.open(Fixtures.video("h264_g30.mp4"))) {
      assertFalse(d.decodesOnGpu());
      assertNull(d.cpuFallbackReason());
      FrameDestination device =
          new FrameDestination() {
            public int width() {
              return d.info().width();
            }

            public int height() {
              return d.info().height();
            }

            public FrameLayout layout() {
              return FrameLayout.HWC;
            }

            public long slotAddress(int request) {
              throw new AssertionError("never written");
            }

            @Override
            public boolean onDevice() {
              return true;
            }
          };
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> d.decodeFrames(new int[] {0}, device));
      assertTrue(e.getMessage().contains("host destination"), e.getMessage());
    }
  }

  /** Encodes a short clip with the ffmpeg CLI; returns it. */
  private Path encode(String name, String... codecArgs) throws Exception {
    Path out = tmp.resolve(name);
    java.util.List<String> cmd =
        new java.util.ArrayList<>(
            java.util.List.of(
                "ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=64x64:r=10:d=0.5"));
    cmd.addAll(java.util.List.of(codecArgs));
    cmd.add(out.toString());
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String log = new String(p.getInputStream().readAllBytes());
    assertTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, log);
    return out;
  }

  private static String limitationOf(Path file) {
    try (Demuxer d = new Demuxer(LocalFileByteSource.open(file))) {
      return NvdecBackend.pathLimitation(d.stream().codecpar());
    }
  }

  private static int depthOf(Path file) {
    try (Demuxer d = new Demuxer(LocalFileByteSource.open(file))) {
      return NvdecBackend.bitDepth(d.stream().codecpar());
    }
  }

  @Test
  void streamsTheNvdecPathCannotTakeAreRefusedBeforeAnyPacket() throws Exception {
    assertNull(limitationOf(Fixtures.video("h264_g30.mp4")));
    assertNull(limitationOf(Fixtures.video("hevc_g30.mp4")));
    assertNull(limitationOf(Fixtures.video("av1_g2.mp4")));
    assertEquals(8, depthOf(Fixtures.video("h264_g30.mp4")));
    assertTrue(limitationOf(Fixtures.video("mpeg4_g12.mp4")).contains("MPEG-4 Part 2"));
    String yuv444 = limitationOf(encode("h264_444.mp4", "-c:v", "libx264", "-pix_fmt", "yuv444p"));
    assertTrue(yuv444 != null && yuv444.contains("yuv444p"), yuv444);
    Path tenBit =
        encode(
            "hevc_10bit.mp4",
            "-c:v",
            "libx265",
            "-x265-params",
            "log-level=error",
            "-pix_fmt",
            "yuv420p10le");
    assertNull(limitationOf(tenBit), "10-bit 4:2:0 is for the GPU's caps to decide");
    // x264 rounds odd sizes; VP9 keeps them.
    String odd =
        limitationOf(
            encode(
                "vp9_odd.webm",
                "-vf",
                "scale=63:64",
                "-c:v",
                "libvpx-vp9",
                "-deadline",
                "realtime",
                "-cpu-used",
                "8",
                "-pix_fmt",
                "yuv420p"));
    assertTrue(odd != null && odd.contains("63x64"), odd);
    assertEquals(10, depthOf(tenBit));
  }
}
