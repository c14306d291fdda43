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
import org.robostream.arrow.BatchMemoryPool;
import org.robostream.codec.ColorSpec;
import org.robostream.codec.HostFrameBuffer;
import org.robostream.codec.Slot;
import org.robostream.codec.SwscaleConverter;
import org.robostream.nativecore.NativeCore;
import org.robostream.nativecore.NativeStatus;
import org.robostream.video.FrameLayout;
import org.robostream.video.FrameSamples;

/**
 * One yuv420p picture (BT.601, limited range) to RGB straight into a frame slot, per converter,
 * layout, sample type and size, both converters in the same run. One op is one frame.
 *
 * <p>uint8: libyuv ({@code rs_convert_yuv8}, what {@code ColorConverterKind.LIBYUV} runs) against
 * swscale ({@link SwscaleConverter}, {@code AUTO}). float32 in [0, 1]: the library converts floats
 * with swscale only (libyuv writes uint8); the LIBYUV row is libyuv's uint8 frame expanded to
 * floats by the host pool ({@link BatchMemoryPool#expandToUnitFloats}), the way a libyuv float path
 * would have to work, measured for comparison only.
 */
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

  @Param({"UINT8", "FLOAT32"})
  public String dtype;

  @Param({"256x256", "640x480"})
  public String size;

  private int width;
  private int height;
  private AVFrame frame;
  private HostFrameBuffer slot;
  private HostFrameBuffer bytes; // libyuv's uint8 frame before the float expansion
  private BatchMemoryPool host;
  private SwscaleConverter swscale;
  private FrameLayout frameLayout;
  private boolean floats;
  private final ColorSpec color = new ColorSpec(ColorSpec.Matrix.BT601, false);

  @Setup(Level.Trial)
  public void setUp() {
    NativeCore.ensureLoaded();
    String[] wh = size.split("x");
    width = Integer.parseInt(wh[0]);
    height = Integer.parseInt(wh[1]);
    frame = av_frame_alloc();
    frame.format(AV_PIX_FMT_YUV420P);
    frame.width(width);
    frame.height(height);
    if (av_frame_get_buffer(frame, 64) < 0) {
      throw new IllegalStateException("av_frame_get_buffer failed");
    }
    SplittableRandom rng = new SplittableRandom(1);
    for (int plane = 0; plane < 3; plane++) {
      int rows = plane == 0 ? height : height / 2;
      long n = (long) frame.linesize(plane) * rows;
      for (long i = 0; i < n; i++) {
        frame.data(plane).put(i, (byte) (16 + rng.nextInt(220)));
      }
    }
    frameLayout = FrameLayout.valueOf(layout);
    floats = dtype.equals("FLOAT32");
    slot =
        new HostFrameBuffer(
            1,
            height,
            width,
            frameLayout,
            floats ? FrameSamples.RGB_FLOAT32 : FrameSamples.RGB_UINT8);
    bytes = new HostFrameBuffer(1, height, width, frameLayout);
    host = BatchMemoryPool.host();
    swscale = new SwscaleConverter();
  }

  @Benchmark
  public void convert() {
    if (converter.equals("LIBYUV")) {
      long dst = floats ? bytes.slotAddress(0) : slot.slotAddress(0);
      NativeStatus.check(
          NativeCore.rs_convert_yuv8(
              frame.data(0).address(),
              frame.linesize(0),
              frame.data(1).address(),
              frame.linesize(1),
              frame.data(2).address(),
              frame.linesize(2),
              width,
              height,
              420,
              color.matrix().nativeCode(),
              0,
              dst,
              frameLayout.nativeCode()),
          "yuv");
      if (floats) {
        host.expandToUnitFloats(slot.slotAddress(0), dst, 3L * width * height, 0);
      }
    } else {
      swscale.convert(
          frame,
          color,
          new Slot(
              slot.slotAddress(0),
              width,
              height,
              frameLayout,
              floats ? FrameSamples.RGB_FLOAT32 : FrameSamples.RGB_UINT8));
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    swscale.close();
    host.close();
    av_frame_free(frame);
  }
}
