package org.robostream.stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.robostream.arrow.BatchMemoryPool;
import org.robostream.arrow.DType;
import org.robostream.arrow.Tensor;
import org.robostream.testing.Datasets;
import org.robostream.video.FrameLayout;

/**
 * Every column of a batch reads as a shaped tensor ({@link Batch#tensor}) whose values are the
 * flattened accessors' values, zero copy where Arrow's memory has the tensor's layout; the frames
 * are one pooled frame batch for both frame paths.
 */
class BatchTensorTest {
  private static StreamingDataset.Builder windowed(boolean devicePath) {
    // Windows past both episode ends: padding masks with both values, clamped frames.
    return StreamingDataset.builder(Datasets.patternV30())
        .batchSize(6)
        .workers(1)
        .bufferSize(8)
        .maxNumShards(2)
        .seed(5)
        .layout(FrameLayout.CHW)
        .deviceBatches(devicePath)
        .deltaTimestamps(
            Map.of(
                "observation.images.top",
                new double[] {-0.1, 0, 2.5},
                "action",
                new double[] {-0.1, 0, 0.05, 5}));
  }

  private static void assertValues(double[] want, Tensor t) {
    ByteBuffer data = t.data();
    for (int i = 0; i < want.length; i++) {
      double got =
          switch (t.dtype()) {
            case FLOAT32 -> data.getFloat(4 * i);
            case FLOAT64 -> data.getDouble(8 * i);
            case INT64 -> data.getLong(8 * i);
            case UINT8, BOOL -> data.get(i) & 0xFF;
            case UINT16 -> data.getShort(2 * i) & 0xFFFF;
          };
      assertEquals(want[i], got, 0.0, t + " value " + i);
    }
    assertEquals(want.length * t.dtype().bytes(), data.remaining(), t.toString());
  }

  @ParameterizedTest(name = "device path: {0}")
  @ValueSource(booleans = {false, true})
  void everyColumnIsAShapedTensorWithTheFlattenedValues(boolean devicePath) {
    try (StreamingDataset ds = windowed(devicePath).build();
        Batch b = ds.iterator().next()) {
      int n = b.size();
      Tensor action = b.tensor("action");
      assertArrayEquals(new long[] {n, 4, 4}, action.shape());
      assertEquals(DType.FLOAT32, action.dtype());
      assertValues(b.doubles("action"), action);
      FixedSizeListVector list = (FixedSizeListVector) b.column("action");
      FixedSizeListVector items = (FixedSizeListVector) list.getDataVector();
      assertEquals(
          items.getDataVector().getDataBuffer().memoryAddress(),
          action.address(),
          "the Arrow vector's memory: zero copy");

      Tensor state = b.tensor("observation.state");
      assertArrayEquals(new long[] {n, 4}, state.shape());
      assertValues(b.doubles("observation.state"), state);
      Tensor index = b.tensor("index");
      assertArrayEquals(new long[] {n}, index.shape());
      assertEquals(DType.INT64, index.dtype());
      assertValues(b.doubles("index"), index);
      Tensor timestamp = b.tensor("timestamp");
      assertArrayEquals(new long[] {n}, timestamp.shape());
      assertValues(b.doubles("timestamp"), timestamp);

      Tensor actionPad = b.tensor("action_is_pad");
      assertArrayEquals(new long[] {n, 4}, actionPad.shape());
      assertEquals(DType.BOOL, actionPad.dtype());
      assertValues(b.doubles("action_is_pad"), actionPad);
      assertTrue(contains(b.booleans("action_is_pad"), true), "the windows reach past the ends");
      Tensor padding = b.tensor("is_padding");
      assertArrayEquals(new long[] {n}, padding.shape());
      assertValues(b.doubles("is_padding"), padding);
      Tensor topPad = b.tensor("observation.images.top_is_pad");
      assertArrayEquals(new long[] {n, 3}, topPad.shape());
      assertValues(b.doubles("observation.images.top_is_pad"), topPad);

      Tensor top = b.tensor("observation.images.top");
      assertArrayEquals(new long[] {n, 3, 3, 64, 64}, top.shape());
      assertEquals(DType.FLOAT32, top.dtype());
      assertEquals(BatchMemoryPool.DEVICE_CPU, top.deviceType());
      assertEquals(b.frames("observation.images.top").data(), top.data());
      Tensor wrist = b.tensor("observation.images.wrist");
      assertArrayEquals(new long[] {n, 3, 64, 64}, wrist.shape(), "each camera its own shape");
      Tensor framePositions = b.tensor("observation.images.top.frame_index");
      assertArrayEquals(new long[] {n, 3}, framePositions.shape());
      assertEquals(DType.INT64, framePositions.dtype());

      assertThrows(IllegalArgumentException.class, () -> b.tensor("task"), "strings");
      assertThrows(IllegalArgumentException.class, () -> b.tensor("no.such.column"));
      assertSame(b, b.toHost(), "host frames stay where they are");
      b.close();
      assertThrows(IllegalStateException.class, action::data);
      assertThrows(IllegalStateException.class, actionPad::data);
      assertThrows(IllegalStateException.class, top::data);
      assertThrows(IllegalStateException.class, () -> b.tensor("action"));
    }
  }

  @ParameterizedTest(name = "device path: {0}")
  @ValueSource(booleans = {false, true})
  void bothFramePathsGiveOneKindOfBatch(boolean devicePath) {
    try (StreamingDataset ds = windowed(devicePath).build();
        Batch b = ds.iterator().next()) {
      assertEquals(BatchMemoryPool.DEVICE_CPU, b.deviceFrames().deviceType());
      assertEquals(0, b.deviceFrames().syncEvent());
      assertEquals(List.of("observation.images.top", "observation.images.wrist"), b.cameras());
      assertTrue(
          b.columnNames().stream().noneMatch(b.cameras()::contains),
          "frames are the frame batch's, not table columns");
      assertEquals(b.size(), b.deviceFrames().rows());
    }
  }

  private static boolean contains(boolean[] values, boolean v) {
    for (boolean b : values) {
      if (b == v) {
        return true;
      }
    }
    return false;
  }
}
