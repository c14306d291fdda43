package org.robostream.jmh;

import static org.bytedeco.ffmpeg.global.avutil.AV_PIX_FMT_YUV420P;
import static org.bytedeco.ffmpeg.global.avutil.av_frame_alloc;
import static org.bytedeco.ffmpeg.global.avutil.av_frame_free;
import static org.bytedeco.ffmpeg.global.avutil.av_frame_get_buffer;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.bytedeco.ffmpeg.avutil.AVFrame;
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
import org.robostream.nativecore.NativeCore;
import org.robostream.nativecore.NativeStatus;
import org.robostream.video.ColorSpec;
import org.robostream.video.FrameLayout;
import org.robostream.video.HostFrameBuffer;
import org.robostream.video.SwscaleConverter;

/** 640x480 yuv420p to RGB24 straight into a frame slot: libyuv (default) against swscale. */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(value = 1, jvmArgsAppend = "--add-opens=java.base/java.nio=ALL-UNNAMED")
public class ColorConversionBenchmark {
  @Param({"LIBYUV", "SWSCALE"})
  public String converter;

  @Param({"HWC", "CHW"})
  public String layout;

  private AVFrame frame;
  private HostFrameBuffer slot;
  private SwscaleConverter swscale;
  private FrameLayout frameLayout;
  private final ColorSpec color = new ColorSpec(ColorSpec.Matrix.BT601, false);

  @Setup(Level.Trial)
  public void setUp() {
    NativeCore.ensureLoaded();
    frame = av_frame_alloc();
    frame.format(AV_PIX_FMT_YUV420P);
    frame.width(640);
    frame.height(480);
    if (av_frame_get_buffer(frame, 64) < 0) {
      throw new IllegalStateException("av_frame_get_buffer failed");
    }
    SplittableRandom rng = new SplittableRandom(1);
    for (int plane = 0; plane < 3; plane++) {
      int rows = plane == 0 ? 480 : 240;
      long bytes = (long) frame.linesize(plane) * rows;
      for (long i = 0; i < bytes; i++) {
        frame.data(plane).put(i, (byte) (16 + rng.nextInt(220)));
      }
    }
    frameLayout = FrameLayout.valueOf(layout);
    slot = new HostFrameBuffer(1, 480, 640, frameLayout);
    swscale = new SwscaleConverter();
  }

  @Benchmark
  public void convert() {
    if (converter.equals("LIBYUV")) {
      NativeStatus.check(
          NativeCore.rs_convert_yuv8(
              frame.data(0).address(),
              frame.linesize(0),
              frame.data(1).address(),
              frame.linesize(1),
              frame.data(2).address(),
              frame.linesize(2),
              640,
              480,
              420,
              color.matrix().nativeCode(),
              0,
              slot.slotAddress(0),
              frameLayout.nativeCode()),
          "yuv");
    } else {
      swscale.convert(frame, color, slot.slotAddress(0), frameLayout);
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    swscale.close();
    av_frame_free(frame);
  }
}
