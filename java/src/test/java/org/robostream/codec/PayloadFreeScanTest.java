package org.robostream.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.robostream.source.LocalFileByteSource;
import org.robostream.testing.Datasets;
import org.robostream.testing.Fixtures;
import org.robostream.video.FrameLayout;

/**
 * Opening an MP4 builds its frame table without reading the sample data (which for a remote file
 * would mean downloading all of it): the table must equal the one built from the real packets, for
 * every codec, GOP structure, B-frames, variable frame rate and v3.0 files with many episodes.
 */
class PayloadFreeScanTest {
  static List<Path> mp4s() throws IOException {
    List<Path> files = new ArrayList<>();
    for (String name :
        new String[] {
          "h264_g1.mp4",
          "h264_g2.mp4",
          "h264_g30.mp4",
          "h264_g250.mp4",
          "hevc_g30.mp4",
          "av1_g2.mp4",
          "mpeg4_g12.mp4",
          "vfr_h264.mp4",
          "h264_bt709_full.mp4",
          "camera_av1_640x480.mp4",
          "camera_h264_640x480.mp4"
        }) {
      files.add(Fixtures.video(name));
    }
    try (Stream<Path> s = Files.walk(Datasets.patternV30().resolve("videos"))) {
      s.filter(p -> p.toString().endsWith(".mp4")).forEach(files::add);
    }
    Optional<Path> real = Fixtures.sharedDatasetIfPresent();
    if (real.isPresent()) {
      try (Stream<Path> s = Files.walk(real.get())) {
        s.filter(p -> p.toString().endsWith(".mp4")).limit(4).forEach(files::add);
      }
    }
    return files;
  }

  @Test
  void theFrameTableEqualsTheOneFromRealPacketsWithoutReadingTheSamples() throws IOException {
    List<Path> files = mp4s();
    assertTrue(files.size() >= 10, "fixtures: " + files);
    int large = 0;
    for (Path f : files) {
      FrameIndex real;
      try (Demuxer d = new Demuxer(LocalFileByteSource.open(f))) {
        real = d.scanIndex(false);
      }
      FrameIndex free;
      long skipped;
      try (Demuxer d = new Demuxer(LocalFileByteSource.open(f))) {
        free = d.scanIndex(); // payload-free for every MP4 with a sample index
        skipped = d.bytesSkipped();
      }
      String name = f.getFileName().toString();
      assertEquals(real.frameCount(), free.frameCount(), name);
      assertEquals(real.packetCount(), free.packetCount(), name);
      for (int i = 0; i < real.frameCount(); i++) {
        assertEquals(real.framePts(i), free.framePts(i), name + " frame " + i);
        assertEquals(real.seekGop(i), free.seekGop(i), name + " frame " + i);
      }
      for (int p = 0; p < real.packetCount(); p++) {
        assertEquals(real.gopOfPacket(p), free.gopOfPacket(p), name + " packet " + p);
      }
      // Skipping shows clearly on the large files (small ones are mostly header and buffer).
      if (Files.size(f) > (2 << 20)) {
        assertTrue(
            skipped > Files.size(f) / 2,
            name + ": skipped only " + skipped + " of " + Files.size(f) + " bytes");
        large++;
      }
    }
    assertTrue(large >= 2, "the camera fixtures exercise the skipping");
  }

  @Test
  void decodingAfterAPayloadFreeScanReadsRealBytes() {
    decodesPatternFrames();
  }

  private static void decodesPatternFrames() {
    Path f = Fixtures.video("h264_g30.mp4");
    try (Decoder d = Decoder.open(f)) {
      HostFrameBuffer one = HostFrameBuffer.forVideo(d.info(), 1, FrameLayout.HWC);
      for (int frame : new int[] {0, 1, 45, 299}) {
        d.decodeFrames(new int[] {frame}, one);
        assertEquals(
            frame % 1024,
            org.robostream.testing.FrameCompare.patternFrameNumber(
                one.frameBytes(0), d.info().width()));
      }
    }
  }
}
