package org.robostream.arrow;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;
import org.apache.arrow.c.ArrowArray;
import org.apache.arrow.c.ArrowSchema;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.bytedeco.javacpp.Pointer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.robostream.codec.Decoder;
import org.robostream.codec.HostFrameBuffer;
import org.robostream.nativecore.NativeAddress;
import org.robostream.nativecore.NativeResources;
import org.robostream.testing.Fixtures;
import org.robostream.testing.NativeLeakCheck;
import org.robostream.video.FrameLayout;

/**
 * Decoded frame batches leave the native side through the Arrow C Data / C Device interfaces, zero
 * copy: imported into Arrow Java, viewed while the batch stays with its owner, or moved to another
 * consumer's structs.
 */
@ExtendWith(NativeLeakCheck.class)
class ArrowExportTest {
  @Test
  void decodedBatchImportsAsFixedShapeTensorColumnsWithoutLeaks() {
    long objectsBefore = NativeResources.liveObjects();
    try (BufferAllocator allocator = new RootAllocator();
        BatchMemoryPool pool = BatchMemoryPool.host();
        Decoder av1 = Decoder.open(Fixtures.video("av1_g2.mp4"));
        Decoder h264 = Decoder.open(Fixtures.video("h264_g30.mp4"))) {
      double[] q = {0.5, 0.0, 9.9666667 - 0.00000003, 0.5};
      FrameBatchBuilder batch = new FrameBatchBuilder(pool, q.length);
      FrameBatchBuilder.Column cam1 =
          batch.addFrameColumn(
              "observation.images.front",
              av1.info().height(),
              av1.info().width(),
              FrameLayout.CHW,
              DType.UINT8);
      FrameBatchBuilder.Column cam2 =
          batch.addFrameColumn(
              "observation.images.wrist",
              h264.info().height(),
              h264.info().width(),
              FrameLayout.HWC,
              DType.UINT8);
      av1.decode(q, cam1);
      long nativeSlot = cam1.slotAddress(1);
      h264.decode(q, cam2);
      HostFrameBuffer expected = HostFrameBuffer.forVideo(av1.info(), q.length, FrameLayout.CHW);
      av1.decode(q, expected);

      try (FrameBatch exported = batch.export(0);
          VectorSchemaRoot root = exported.toVectorSchemaRoot(allocator)) {
        assertEquals(q.length, root.getRowCount());
        assertEquals(
            List.of(
                "observation.images.front",
                "observation.images.front.pts",
                "observation.images.front.frame_index",
                "observation.images.wrist",
                "observation.images.wrist.pts",
                "observation.images.wrist.frame_index"),
            root.getSchema().getFields().stream().map(f -> f.getName()).toList());
        FixedShapeTensorVector front =
            assertInstanceOf(
                FixedShapeTensorVector.class, root.getVector("observation.images.front"));
        FixedShapeTensorType type = front.tensorType();
        assertArrayEquals(new int[] {3, 120, 160}, type.shape());
        assertEquals(List.of("C", "H", "W"), type.dimNames());
        FixedShapeTensorType wristType =
            ((FixedShapeTensorVector) root.getVector("observation.images.wrist")).tensorType();
        assertArrayEquals(new int[] {120, 160, 3}, wristType.shape());
        for (int i = 0; i < q.length; i++) {
          ByteBuffer actual = front.tensorBytes(i);
          assertEquals(ByteBuffer.wrap(expected.frameBytes(i)), actual, "row " + i);
        }
        Float8Vector pts = (Float8Vector) root.getVector("observation.images.front.pts");
        BigIntVector index = (BigIntVector) root.getVector("observation.images.front.frame_index");
        assertEquals(0.5, pts.get(0), 1e-9);
        assertEquals(15, index.get(0));
        assertEquals(0, index.get(1));
        assertEquals(299, index.get(2));
        assertEquals(nativeSlot, front.tensorAddress(1), "Java reads the native slot: zero copy");
        assertEquals(objectsBefore + 3, NativeResources.liveObjects(), "dav1d + pool + batch");
        assertFalse(exported.isLive(), "the root owns the batch now");
        // Export moved ownership: the batch can no longer be touched.
        assertThrows(IllegalStateException.class, () -> cam1.slotAddress(0));
      }
      assertEquals(0, allocator.getAllocatedMemory(), "allocator bytes after close");
      assertEquals(0, pool.stats().outstandingBytes(), "the buffers are back in the pool");
    }
    assertEquals(objectsBefore, NativeResources.liveObjects());
  }

  @Test
  void sharedVectorsKeepTheFramesUntilBothOwnersLetGo() {
    try (BufferAllocator allocator = new RootAllocator();
        BatchMemoryPool pool = BatchMemoryPool.host()) {
      FrameBatch batch = FrameBatchTest.twoRows(pool).export(0);
      long frames = batch.frameAddress(0);
      VectorSchemaRoot shared = batch.sharedVectors(allocator);
      assertTrue(batch.isLive(), "a view, not a move");
      FixedShapeTensorVector cam = (FixedShapeTensorVector) shared.getVector("cam");
      assertEquals(frames, cam.tensorAddress(0), "the same memory");
      assertEquals(8, ((BigIntVector) shared.getVector("cam.frame_index")).get(1));
      batch.close();
      assertTrue(pool.stats().outstandingBytes() > 0, "the view still holds the batch");
      assertEquals(16 + 11, cam.tensorBytes(1).get(11));
      shared.close();
      assertEquals(0, pool.stats().outstandingBytes());
      assertEquals(0, allocator.getAllocatedMemory());
      assertThrows(IllegalStateException.class, () -> batch.sharedVectors(allocator));
    }
  }

  @Test
  void framesMoveToAnotherCDeviceConsumer() {
    try (BatchMemoryPool pool = BatchMemoryPool.host()) {
      Pointer deviceArray = Pointer.calloc(1, FrameBatch.DEVICE_ARRAY_BYTES);
      Pointer schema = Pointer.calloc(1, 72);
      try {
        FrameBatch batch = FrameBatchTest.twoRows(pool).export(0);
        long frames = batch.frameAddress(0);
        batch.exportTo(deviceArray.address(), schema.address());
        assertFalse(batch.isLive(), "moved out");
        assertThrows(IllegalStateException.class, () -> batch.tensor("cam"));
        batch.close(); // frees only its own structs: the consumer holds the batch
        assertTrue(pool.stats().outstandingBytes() > 0);
        // The consumer's ArrowDeviceArray: device_type CPU, the same frames.
        var view = NativeAddress.bytesAt(deviceArray.address(), FrameBatch.DEVICE_ARRAY_BYTES);
        assertEquals(BatchMemoryPool.DEVICE_CPU, view.getInt(88));
        ArrowArray array = ArrowArray.wrap(deviceArray.address());
        assertEquals(2, array.snapshot().length);
        long tensor = NativeAddress.bytesAt(array.snapshot().children, 8).getLong(0);
        long values =
            NativeAddress.bytesAt(ArrowArray.wrap(tensor).snapshot().children, 8).getLong(0);
        long buffer =
            NativeAddress.bytesAt(ArrowArray.wrap(values).snapshot().buffers, 16).getLong(8);
        assertEquals(frames, buffer);
        array.release();
        ArrowSchema.wrap(schema.address()).release();
        assertEquals(0, pool.stats().outstandingBytes(), "released by the consumer");
      } finally {
        Pointer.free(deviceArray);
        Pointer.free(schema);
      }
    }
  }

  @Test
  void unexportedBatchIsFreedByClose() {
    try (BatchMemoryPool pool = BatchMemoryPool.host()) {
      long before = NativeResources.liveObjects();
      FrameBatchBuilder batch = new FrameBatchBuilder(pool, 3);
      batch.addFrameColumn("a", 8, 8, FrameLayout.CHW, DType.UINT8);
      assertThrows(
          RuntimeException.class,
          () -> batch.addFrameColumn("a", 8, 8, FrameLayout.CHW, DType.UINT8));
      batch.close();
      batch.close();
      assertEquals(before, NativeResources.liveObjects());
      assertEquals(0, pool.stats().outstandingBytes());
    }
  }

  @Test
  void tensorTypeRoundTripsItsMetadata() {
    FixedShapeTensorType t =
        FixedShapeTensorType.uint8(new int[] {3, 2, 5}, List.of("C", "H", "W"));
    assertEquals("{\"shape\":[3,2,5],\"dim_names\":[\"C\",\"H\",\"W\"]}", t.serialize());
    assertEquals(t, t.deserialize(t.storageType(), t.serialize()));
    assertThrows(
        IllegalArgumentException.class,
        () ->
            t.deserialize(
                new org.apache.arrow.vector.types.pojo.ArrowType.FixedSizeList(7), t.serialize()));
  }

  @Test
  void anUnclosedBatchIsFreedByTheSafetyNet() throws InterruptedException {
    long before = NativeResources.liveObjects();
    try (BatchMemoryPool pool = BatchMemoryPool.host()) {
      leakOneBatch(pool);
      leakOneExportedBatch(pool);
    }
    long deadline = System.nanoTime() + 20_000_000_000L;
    while (NativeResources.liveObjects() != before && System.nanoTime() < deadline) {
      System.gc();
      Thread.sleep(20);
    }
    assertEquals(before, NativeResources.liveObjects(), "the Cleaners freed the leaked batches");
  }

  private static void leakOneBatch(BatchMemoryPool pool) {
    new FrameBatchBuilder(pool, 2).addFrameColumn("leaked", 4, 4, FrameLayout.HWC, DType.UINT8);
  }

  private static void leakOneExportedBatch(BatchMemoryPool pool) {
    FrameBatchTest.twoRows(pool).export(0);
  }
}
