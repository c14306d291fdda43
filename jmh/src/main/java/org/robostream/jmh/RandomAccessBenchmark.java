package org.robostream.jmh;

import java.util.SplittableRandom;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.robostream.codec.DecodeResult;
import org.robostream.codec.Decoder;
import org.robostream.codec.HostFrameBuffer;
import org.robostream.video.FrameLayout;

/** One shuffled frame per call (what a shuffling loader asks for), per GOP size. */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(value = 1, jvmArgsAppend = "--add-opens=java.base/java.nio=ALL-UNNAMED")
public class RandomAccessBenchmark {
  @Param({"h264_g1.mp4", "h264_g2.mp4", "h264_g30.mp4", "h264_g250.mp4", "av1_g2.mp4"})
  public String file;

  private Decoder decoder;
  private HostFrameBuffer one;
  private double[] pts;
  private SplittableRandom rng;
  private final double[] query = new double[1];

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    decoder = Decoder.open(BenchFixtures.video(file));
    one = HostFrameBuffer.forVideo(decoder.info(), 1, FrameLayout.CHW);
    pts = decoder.framePtsSeconds();
    rng = new SplittableRandom(42);
  }

  @Benchmark
  public DecodeResult decodeRandomFrame() {
    query[0] = pts[rng.nextInt(pts.length)];
    return decoder.decode(query, one);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    System.out.println(
        "\n"
            + file
            + ": "
            + decoder.stats()
            + " amplification "
            + decoder.stats().decodeAmplification());
    decoder.close();
  }
}
