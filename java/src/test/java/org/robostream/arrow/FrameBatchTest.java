package org.robostream.arrow;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.robostream.NativeException;
import org.robostream.codec.Decoder;
import org.robostream.codec.HostFrameBuffer;
import org.robostream.nativecore.NativeAddress;
import org.robostream.nativecore.NativeCore;
import org.robostream.nativecore.NativeResources;
import org.robostream.testing.Fixtures;
import org.robostream.testing.NativeLeakCheck;
import org.robostream.video.FrameLayout;

/**
 * The frame batch on every machine, through a host pool (device_type CPU): the same structs, pool
 * and release path that carry NVDEC frames on a GPU.
 */
@ExtendWith(NativeLeakCheck.class)
class FrameBatchTest {
  @Test
  void decodedFramesLeaveThroughAHostDeviceArrayAndReturnToThePool() {
    double[] q = {0.5, 0.0, 3.0, 0.5};
    try (BufferAllocator allocator = new RootAllocator();
        BatchMemoryPool pool = BatchMemoryPool.host();
        Decoder decoder = Decoder.open(Fixtures.video("h264_g30.mp4"))) {
      HostFrameBuffer expected =
          HostFrameBuffer.forVideo(decoder.info(), q.length, FrameLayout.HWC);
      decoder.decode(q, expected);
      long allocations;
      try (FrameBatchBuilder builder = new FrameBatchBuilder(pool, q.length)) {
        FrameBatchBuilder.Column cam =
            builder.addFrameColumn(
                "observation.images.front",
                decoder.info().height(),
                decoder.info().width(),
                FrameLayout.HWC,
                DType.UINT8);
        builder.addFrameColumn("observation.images.wrist", 2, 3, FrameLayout.CHW, DType.FLOAT32);
        decoder.decode(q, cam);
        long slot = cam.frameAddress(0);
        try (FrameBatch batch = builder.export(0)) {
          assertEquals(BatchMemoryPool.DEVICE_CPU, batch.deviceType());
          assertEquals(0, batch.deviceId());
          assertEquals(0, batch.syncEvent(), "host batches carry no event (C Device spec)");
          batch.makeStreamWait(0); // written when exported: nothing to wait for, no driver needed
          assertEquals(q.length, batch.rows());
          assertEquals(
              List.of("observation.images.front", "observation.images.wrist"),
              batch.frameColumns());
          assertEquals(slot, batch.frameAddress(0), "the array points at the decoded slots");
          assertTrue(pool.stats().outstandingBytes() > 0);
          allocations = pool.stats().allocations();
          try (VectorSchemaRoot root = batch.toVectorSchemaRoot(allocator)) {
            assertFalse(batch.isLive(), "the root owns the batch now");
            assertThrows(IllegalStateException.class, () -> batch.makeStreamWait(0), "moved out");
            FixedShapeTensorVector front =
                assertInstanceOf(
                    FixedShapeTensorVector.class, root.getVector("observation.images.front"));
            for (int i = 0; i < q.length; i++) {
              assertEquals(ByteBuffer.wrap(expected.frameBytes(i)), front.tensorBytes(i));
            }
            FixedShapeTensorVector wrist =
                assertInstanceOf(
                    FixedShapeTensorVector.class, root.getVector("observation.images.wrist"));
            assertEquals(List.of("C", "H", "W"), wrist.tensorType().dimNames());
            BigIntVector index =
                (BigIntVector) root.getVector("observation.images.front.frame_index");
            assertEquals(15, index.get(0));
            assertEquals(90, index.get(2));
          }
          assertEquals(0, allocator.getAllocatedMemory());
        }
      }
      assertEquals(0, pool.stats().outstandingBytes(), "every buffer is back in the pool");
      // The next batch of the same shape is served from the pool.
      try (FrameBatchBuilder again = new FrameBatchBuilder(pool, q.length)) {
        again.addFrameColumn(
            "observation.images.front",
            decoder.info().height(),
            decoder.info().width(),
            FrameLayout.HWC,
            DType.UINT8);
        assertEquals(allocations, pool.stats().allocations());
        assertTrue(pool.stats().reuses() > 0);
      }
    }
  }

  /**
   * A host batch being built: two rows of a 2x2 HWC camera "cam" holding bytes 16 * row + i, pts
   * row / 4 and frame index row + 7.
   */
  static FrameBatchBuilder twoRows(BatchMemoryPool pool) {
    FrameBatchBuilder builder = new FrameBatchBuilder(pool, 2);
    FrameBatchBuilder.Column c = builder.addFrameColumn("cam", 2, 2, FrameLayout.HWC, DType.UINT8);
    for (int row = 0; row < 2; row++) {
      var slot = NativeAddress.bytesAt(c.frameAddress(row), c.frameBytes());
      for (int i = 0; i < c.frameBytes(); i++) {
        slot.put(i, (byte) (row * 16 + i));
      }
      c.setFrameInfo(row, row * 0.25, row + 7);
    }
    return builder;
  }

  @Test
  void hostCopyEqualsTheOriginalAndBothRelease() {
    long bytesBefore = NativeResources.liveBytes();
    try (BatchMemoryPool pool = BatchMemoryPool.host()) {
      FrameBatchBuilder builder = twoRows(pool);
      FrameBatchBuilder.Column c = builder.columns().get(0);
      try (FrameBatch batch = builder.export(0);
          FrameBatch copy = batch.toHost(pool)) {
        assertThrows(
            IllegalStateException.class,
            () -> c.setFrameInfo(0, 0, 0),
            "the builder is spent after export");
        assertTrue(copy.frameAddress(0) != batch.frameAddress(0));
        byte[] a = new byte[12];
        byte[] b = new byte[12];
        NativeAddress.bytesAt(batch.frameAddress(0), 12).get(a);
        NativeAddress.bytesAt(copy.frameAddress(0), 12).get(b);
        assertEquals(ByteBuffer.wrap(a), ByteBuffer.wrap(b));
        assertEquals(11, b[11]);
      }
      assertEquals(0, pool.stats().outstandingBytes());
    }
    assertEquals(bytesBefore, NativeResources.liveBytes());
  }

  @Test
  void eachColumnIsATensorOfItsOwnShapeOnTheBatchDevice() {
    try (BatchMemoryPool pool = BatchMemoryPool.host()) {
      FrameBatchBuilder builder = new FrameBatchBuilder(pool, 2);
      FrameBatchBuilder.Column front =
          builder.addFrameColumn("front", 4, 6, FrameLayout.HWC, DType.UINT8);
      // Another size, a window of 3 frames per row, float32: nothing is shared with "front".
      FrameBatchBuilder.Column wrist =
          builder.addColumn(new FrameColumn("wrist", 3, 2, 2, FrameLayout.CHW, DType.FLOAT32));
      for (int slot = 0; slot < 2; slot++) {
        var bytes = NativeAddress.bytesAt(front.frameAddress(slot), front.frameBytes());
        for (int i = 0; i < front.frameBytes(); i++) {
          bytes.put(i, (byte) (slot * 100 + i));
        }
        front.setFrameInfo(slot, slot * 0.5, 40 + slot);
      }
      for (int slot = 0; slot < 6; slot++) {
        var floats =
            NativeAddress.bytesAt(wrist.frameAddress(slot), wrist.frameBytes())
                .asByteBuffer()
                .order(ByteOrder.nativeOrder())
                .asFloatBuffer();
        for (int i = 0; i < 12; i++) {
          floats.put(i, slot + i / 100f);
        }
        wrist.setFrameInfo(slot, slot * 0.25, slot);
      }
      Tensor frames;
      try (FrameBatch batch = builder.export(0)) {
        frames = batch.tensor("front");
        assertArrayEquals(new long[] {2, 4, 6, 3}, frames.shape());
        assertEquals(DType.UINT8, frames.dtype());
        assertEquals(BatchMemoryPool.DEVICE_CPU, frames.deviceType());
        assertEquals(batch.frameAddress(0), frames.address(), "the batch's memory: zero copy");
        ByteBuffer data = frames.data();
        assertEquals(2 * 72, data.remaining());
        assertEquals(100 + 71, data.get(72 + 71) & 0xFF);
        Tensor window = batch.tensor("wrist");
        assertArrayEquals(new long[] {2, 3, 3, 2, 2}, window.shape());
        assertEquals(DType.FLOAT32, window.dtype());
        assertEquals(5 + 0.07f, window.data().getFloat(4 * (5 * 12 + 7)));
        Tensor pts = batch.tensor("wrist.pts");
        assertArrayEquals(new long[] {2, 3}, pts.shape());
        assertEquals(DType.FLOAT64, pts.dtype());
        assertEquals(1.25, pts.data().getDouble(8 * 5));
        Tensor index = batch.tensor("front.frame_index");
        assertArrayEquals(new long[] {2}, index.shape());
        assertEquals(41, index.data().getLong(8));
        assertEquals(
            List.of(
                new FrameColumn("front", 1, 4, 6, FrameLayout.HWC, DType.UINT8),
                new FrameColumn("wrist", 3, 2, 2, FrameLayout.CHW, DType.FLOAT32)),
            batch.columns());
        assertThrows(IllegalArgumentException.class, () -> batch.tensor("rear"));
        assertThrows(IllegalArgumentException.class, batch::tensor, "two columns: name one");
      }
      assertThrows(IllegalStateException.class, frames::data, "the batch's memory is the pool's");
    }
  }

  /** Decoders write a float32 column as floats (converted from the picture's own samples). */
  @Test
  void floatColumnsAskDecodersForFloats() {
    try (BatchMemoryPool pool = BatchMemoryPool.host();
        FrameBatchBuilder builder = new FrameBatchBuilder(pool, 1)) {
      FrameBatchBuilder.Column f =
          builder.addFrameColumn("cam", 2, 2, FrameLayout.HWC, DType.FLOAT32);
      assertEquals(org.robostream.video.FrameSamples.RGB_FLOAT32, f.samples());
      assertEquals(f.frameAddress(0), f.slotAddress(0));
      assertEquals(2 * 2 * 3 * Float.BYTES, f.frameBytes());
      assertThrows(IndexOutOfBoundsException.class, () -> f.frameAddress(1));
      assertThrows(
          RuntimeException.class,
          () -> builder.addFrameColumn("cam", 2, 2, FrameLayout.HWC, DType.UINT8));
    }
  }

  /** Slot 0 of two new batches of one shape: distinct unless the pool holds a buffer twice. */
  private static void assertPoolHandsOutDistinctBuffers(BatchMemoryPool pool) {
    try (FrameBatchBuilder a = new FrameBatchBuilder(pool, 2);
        FrameBatchBuilder b = new FrameBatchBuilder(pool, 2)) {
      long first = a.addFrameColumn("cam", 2, 3, FrameLayout.HWC, DType.UINT8).frameAddress(0);
      long second = b.addFrameColumn("cam", 2, 3, FrameLayout.HWC, DType.UINT8).frameAddress(0);
      assertNotEquals(first, second, "one buffer handed to two batches");
    }
    assertEquals(0, pool.stats().outstandingBytes());
  }

  /** Runs {@code call} with the native allocations after the first {@code succeed} failing. */
  static <T extends Throwable> T withFailingAllocation(
      long succeed, Class<T> expected, org.junit.jupiter.api.function.Executable call) {
    NativeCore.rs_debug_fail_allocations(succeed, 1);
    try {
      return assertThrows(expected, call);
    } finally {
      NativeCore.rs_debug_fail_allocations(0, 0);
    }
  }

  @Test
  void aFailedExportLeavesTheBatchWithTheBuilder() {
    try (BatchMemoryPool pool = BatchMemoryPool.host()) {
      FrameBatchBuilder builder = new FrameBatchBuilder(pool, 2);
      FrameBatchBuilder.Column cam =
          builder.addFrameColumn("cam", 2, 3, FrameLayout.HWC, DType.UINT8);
      long slot = cam.frameAddress(1);
      // A fresh pool: the export's first allocation is its pts buffer.
      withFailingAllocation(0, NativeException.OutOfMemory.class, () -> builder.export(0));
      assertEquals(slot, cam.frameAddress(1), "the builder still owns its batch");
      cam.setFrameInfo(1, 0.5, 3);
      builder.close(); // frees it once; before the ownership rule this was the second free
      assertPoolHandsOutDistinctBuffers(pool);
    }
  }

  @Test
  void aFailedHostCopyLeavesNothingBehind() {
    try (BatchMemoryPool pool = BatchMemoryPool.host();
        BatchMemoryPool hostPool = BatchMemoryPool.host()) {
      FrameBatchBuilder builder = new FrameBatchBuilder(pool, 2);
      builder.addFrameColumn("cam", 2, 3, FrameLayout.HWC, DType.UINT8);
      try (FrameBatch batch = builder.export(0)) {
        // The copy's frame buffer is allocated, then the export of the copy fails.
        withFailingAllocation(1, NativeException.OutOfMemory.class, () -> batch.toHost(hostPool));
        assertTrue(batch.isLive());
        assertEquals(0, hostPool.stats().outstandingBytes(), "the failed copy was freed");
        assertPoolHandsOutDistinctBuffers(hostPool);
        try (FrameBatch copy = batch.toHost(hostPool)) {
          assertEquals(2, copy.rows());
        }
      }
    }
  }

  @Test
  void columnsOfAnExportedOrClosedBuilderRefuseTheirSlots() {
    try (BatchMemoryPool pool = BatchMemoryPool.host()) {
      FrameBatchBuilder exported = new FrameBatchBuilder(pool, 1);
      FrameBatchBuilder.Column spent =
          exported.addFrameColumn("cam", 2, 2, FrameLayout.HWC, DType.UINT8);
      try (FrameBatch batch = exported.export(0)) {
        assertThrows(IllegalStateException.class, () -> spent.frameAddress(0));
        assertThrows(IllegalStateException.class, () -> spent.slotAddress(0));
        assertThrows(IllegalStateException.class, () -> spent.copySlot(0, 0));
      }
      FrameBatchBuilder closed = new FrameBatchBuilder(pool, 1);
      FrameBatchBuilder.Column stale =
          closed.addFrameColumn("cam", 2, 2, FrameLayout.HWC, DType.UINT8);
      closed.close();
      assertThrows(IllegalStateException.class, () -> stale.frameAddress(0));
      assertThrows(IllegalStateException.class, () -> stale.setFrameInfo(0, 0, 0));
    }
  }
}
