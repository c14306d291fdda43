package org.robostream.jmh;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;
import org.robostream.codec.Decoder;
import org.robostream.codec.HostFrameBuffer;
import org.robostream.video.FrameLayout;

/** Sequential decode + RGB conversion of a whole file, per codec (one op = one file). */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(value = 1, jvmArgsAppend = "--add-opens=java.base/java.nio=ALL-UNNAMED")
public class SequentialDecodeBenchmark {
  private static final int CHUNK = 32;

  @Param({
    "camera_h264_640x480.mp4",
    "camera_av1_640x480.mp4",
    "hevc_g30.mp4",
    "mpeg4_g12.mp4",
    "vp9_g30.webm"
  })
  public String file;

  private Path path;
  private double[] pts;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    path = BenchFixtures.video(file);
    try (Decoder d = Decoder.open(path)) {
      pts = d.framePtsSeconds();
    }
  }

  @Benchmark
  public void decodeWholeFile(Blackhole bh) {
    try (Decoder d = Decoder.open(path)) {
      HostFrameBuffer buffer = HostFrameBuffer.forVideo(d.info(), CHUNK, FrameLayout.CHW);
      for (int i = 0; i < pts.length; i += CHUNK) {
        bh.consume(d.decode(Arrays.copyOfRange(pts, i, Math.min(pts.length, i + CHUNK)), buffer));
      }
    }
  }
}
