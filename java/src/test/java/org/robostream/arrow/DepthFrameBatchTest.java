package org.robostream.arrow;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.robostream.codec.Decoder;
import org.robostream.testing.FfmpegReference;
import org.robostream.testing.NativeLeakCheck;
import org.robostream.testing.PixelFormatVideos;
import org.robostream.testing.PixelFormatVideos.DepthKind;
import org.robostream.video.FrameLayout;
import org.robostream.video.FrameSamples;
import org.robostream.video.VideoDecoderOptions;

/**
 * Depth columns of a frame batch: one channel ([B, 1, H, W] / [B, H, W, 1]), uint16 or float32,
 * decoded straight into the slots; the values are the file's 12-bit samples, through the tensor and
 * through Arrow Java (the canonical fixed_shape_tensor over uint16).
 */
@ExtendWith(NativeLeakCheck.class)
class DepthFrameBatchTest {
  private static final int W = PixelFormatVideos.WIDTH;
  private static final int H = PixelFormatVideos.HEIGHT;

  @ParameterizedTest
  @EnumSource(FrameLayout.class)
  void depthColumnsHoldOneChannelOfTheDecodedValues(FrameLayout layout) {
    Path file = PixelFormatVideos.video(DepthKind.FFV1_GRAY12LE);
    ByteBuffer samples =
        ByteBuffer.wrap(FfmpegReference.allFramesRaw(file, "gray12le"))
            .order(ByteOrder.LITTLE_ENDIAN);
    int frame = 3;
    try (Decoder decoder = Decoder.open(file, VideoDecoderOptions.defaults());
        BatchMemoryPool pool = BatchMemoryPool.host();
        BufferAllocator allocator = new RootAllocator()) {
      FrameBatchBuilder builder = new FrameBatchBuilder(pool, 1);
      FrameBatchBuilder.Column shorts =
          builder.addColumn(FrameColumn.of("depth", 1, H, W, layout, FrameSamples.DEPTH_UINT16));
      FrameBatchBuilder.Column floats =
          builder.addColumn(FrameColumn.of("depth_m", 1, H, W, layout, FrameSamples.DEPTH_FLOAT32));
      decoder.decodeFrames(new int[] {frame}, shorts);
      decoder.decodeFrames(new int[] {frame}, floats);
      try (FrameBatch batch = builder.export(0)) {
        Tensor u16 = batch.tensor("depth");
        Tensor f32 = batch.tensor("depth_m");
        long[] shape =
            layout == FrameLayout.CHW ? new long[] {1, 1, H, W} : new long[] {1, H, W, 1};
        assertArrayEquals(shape, u16.shape());
        assertArrayEquals(shape, f32.shape());
        assertEquals(DType.UINT16, u16.dtype());
        assertEquals(DType.FLOAT32, f32.dtype());
        for (int i = 0; i < W * H; i++) {
          int want = samples.getShort(2 * (frame * W * H + i)) & 0xffff;
          assertEquals(want, u16.data().getShort(2 * i) & 0xffff, "pixel " + i);
          assertEquals(want, f32.data().getFloat(4 * i), 0f, "pixel " + i);
        }
        try (VectorSchemaRoot root = batch.toVectorSchemaRoot(allocator)) {
          FixedShapeTensorVector arrow = (FixedShapeTensorVector) root.getVector("depth");
          assertArrayEquals(
              layout == FrameLayout.CHW ? new int[] {1, H, W} : new int[] {H, W, 1},
              arrow.tensorType().shape());
          ByteBuffer viaArrow = arrow.tensorBytes(0).order(ByteOrder.LITTLE_ENDIAN);
          for (int i = 0; i < W * H; i++) {
            int want = samples.getShort(2 * (frame * W * H + i)) & 0xffff;
            assertEquals(want, viaArrow.getShort(2 * i) & 0xffff, "pixel " + i + " via Arrow");
          }
        }
      }
    }
  }

  @ParameterizedTest
  @EnumSource(FrameLayout.class)
  void aDepthColumnIsOneChannelOfUint16OrFloat32(FrameLayout layout) {
    assertThrows(
        IllegalArgumentException.class,
        () -> new FrameColumn("d", 1, H, W, layout, DType.UINT8, 1));
    assertThrows(
        IllegalArgumentException.class,
        () -> new FrameColumn("d", 1, H, W, layout, DType.UINT16, 3));
  }
}
