package org.robostream.jmh;

import static org.bytedeco.ffmpeg.global.avutil.AV_PIX_FMT_YUV420P;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.bytedeco.javacpp.BytePointer;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.robostream.codec.ColorSpec;
import org.robostream.codec.HeldForm;
import org.robostream.codec.HeldFrame;
import org.robostream.framecache.FrameCache;
import org.robostream.framecache.FrameCacheOptions;
import org.robostream.framecache.FrameTarget;
import org.robostream.nativecore.NativeCore;

/**
 * Frame-cache read: one op is one {@link FrameCache.Entry#readFrame} hit, a 640x480 yuv420p picture
 * (460,800 bytes) copied from the cache file into a block of the reader's memory and checked
 * against its checksum. The cache is a folder under java/target (its file in the page cache after
 * the first pass), 64 frames stored before the measurement and read in turn; a miss fails the op.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(value = 1, jvmArgsAppend = "--add-opens=java.base/java.nio=ALL-UNNAMED")
public class FrameCacheReadBenchmark {
  private static final int FRAMES = 64;
  private static final int WIDTH = 640;
  private static final int HEIGHT = 480;
  private static final long PICTURE = (long) WIDTH * HEIGHT * 3 / 2;

  private Path dir;
  private FrameCache cache;
  private FrameCache.Entry entry;
  private BytePointer source;
  private BytePointer block;
  private FrameTarget target;
  private int next;

  /** What the ops did, reported beside the time (JMH secondary results). */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.EVENTS)
  public static class Counts {
    public long frames;
    public long bytes;

    @Setup(Level.Iteration)
    public void reset() {
      frames = 0;
      bytes = 0;
    }
  }

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    NativeCore.ensureLoaded();
    Path base = BenchFixtures.root().resolve("java/target");
    Files.createDirectories(base);
    dir = Files.createTempDirectory(base, "jmh-frame-cache");
    cache = FrameCache.open(FrameCacheOptions.directory(dir.resolve("cache"), 256L << 20));
    entry = cache.acquireOrCreate("jmh-640x480", FRAMES, PICTURE);
    source = new BytePointer(PICTURE);
    ColorSpec color = new ColorSpec(ColorSpec.Matrix.BT601, false);
    for (int f = 0; f < FRAMES; f++) {
      for (long i = 0; i < PICTURE; i++) {
        source.put(i, (byte) (i * 31 + f));
      }
      entry.store(
          f,
          new HeldFrame(
              source.address(),
              PICTURE,
              WIDTH,
              HEIGHT,
              new HeldForm.Packed(AV_PIX_FMT_YUV420P),
              color,
              f / 30.0,
              f));
    }
    // One block the reads land in, as a worker's frame memory would hand out.
    block = new BytePointer(PICTURE);
    target =
        new FrameTarget() {
          @Override
          public long take(long bytes) {
            return block.address();
          }

          @Override
          public void giveBack(long address, long bytes) {
            // the one block is reused by the next read
          }
        };
  }

  @Benchmark
  public long readFrame(Counts counts) {
    int position = next;
    next = (next + 1) % FRAMES;
    HeldFrame f = entry.readFrame(position, target);
    if (f == null || f.frameIndex() != position) {
      throw new IllegalStateException("frame " + position + " was not served from the cache");
    }
    counts.frames++;
    counts.bytes += f.bytes();
    return f.bytes();
  }

  @TearDown(Level.Trial)
  public void tearDown() throws Exception {
    entry.release();
    cache.close();
    source.close();
    block.close();
    BenchFixtures.deleteTree(dir);
  }
}
