package org.robostream.arrow;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.robostream.nativecore.NativeException;
import org.robostream.nativecore.NativeResources;
import org.robostream.testing.Fixtures;
import org.robostream.testing.NativeLeakCheck;
import org.robostream.video.FrameLayout;
import org.robostream.video.HostFrameBuffer;
import org.robostream.video.VideoDecoder;

/** Decoded batches leave the native side through the Arrow C Data interface, zero copy. */
@ExtendWith(NativeLeakCheck.class)
class ArrowExportTest {
  @Test
  void decodedBatchImportsAsFixedShapeTensorColumnsWithoutLeaks() {
    long objectsBefore = NativeResources.liveObjects();
    try (BufferAllocator allocator = new RootAllocator();
        VideoDecoder av1 = VideoDecoder.open(Fixtures.video("av1_g2.mp4"));
        VideoDecoder h264 = VideoDecoder.open(Fixtures.video("h264_g30.mp4"))) {
      double[] q = {0.5, 0.0, 9.9666667 - 0.00000003, 0.5};
      NativeFrameBatch batch = new NativeFrameBatch(q.length);
      NativeFrameBatch.Column cam1 = batch.addFrameColumn("observation.images.front",
          av1.info().height(), av1.info().width(), FrameLayout.CHW);
      NativeFrameBatch.Column cam2 = batch.addFrameColumn("observation.images.wrist",
          h264.info().height(), h264.info().width(), FrameLayout.HWC);
      av1.decode(q, cam1);
      long nativeSlot = cam1.slotAddress(1);
      h264.decode(q, cam2);
      HostFrameBuffer expected = HostFrameBuffer.forVideo(av1.info(), q.length, FrameLayout.CHW);
      av1.decode(q, expected);

      try (VectorSchemaRoot root = batch.toJava(allocator)) {
        assertEquals(q.length, root.getRowCount());
        assertEquals(List.of("observation.images.front", "observation.images.front.pts",
                "observation.images.front.frame_index", "observation.images.wrist",
                "observation.images.wrist.pts", "observation.images.wrist.frame_index"),
            root.getSchema().getFields().stream().map(f -> f.getName()).toList());
        FixedShapeTensorVector front = assertInstanceOf(FixedShapeTensorVector.class,
            root.getVector("observation.images.front"));
        FixedShapeTensorType type = front.tensorType();
        assertArrayEquals(new int[] {3, 120, 160}, type.shape());
        assertEquals(List.of("C", "H", "W"), type.dimNames());
        FixedShapeTensorType wristType = ((FixedShapeTensorVector) root.getVector(
            "observation.images.wrist")).tensorType();
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
        assertEquals(objectsBefore + 2, NativeResources.liveObjects(), "dav1d decoder + batch");
        // Export moved ownership: the batch can no longer be touched.
        assertThrows(IllegalStateException.class, () -> cam1.slotAddress(0));
      }
      assertEquals(0, allocator.getAllocatedMemory(), "allocator bytes after close");
    }
    assertEquals(objectsBefore, NativeResources.liveObjects());
  }

  @Test
  void rawExportIsReleasedByTheConsumersCallback() {
    long bytesBefore = NativeResources.liveBytes();
    try (BufferAllocator allocator = new RootAllocator();
        ArrowArray array = ArrowArray.allocateNew(allocator);
        ArrowSchema schema = ArrowSchema.allocateNew(allocator)) {
      NativeFrameBatch batch = new NativeFrameBatch(2);
      batch.addFrameColumn("cam", 4, 4, FrameLayout.HWC);
      assertTrue(NativeResources.liveBytes() > bytesBefore);
      batch.exportTo(array.memoryAddress(), schema.memoryAddress());
      batch.close(); // no-op: ownership moved
      assertTrue(NativeResources.liveBytes() > bytesBefore);
      assertEquals(2, array.snapshot().length);
      array.release();
      schema.release();
    }
    assertEquals(bytesBefore, NativeResources.liveBytes());
  }

  @Test
  void aFailedExportLeavesTheBatchWithTheCaller() {
    long bytesBefore = NativeResources.liveBytes();
    try (BufferAllocator allocator = new RootAllocator();
        ArrowArray array = ArrowArray.allocateNew(allocator);
        ArrowSchema schema = ArrowSchema.allocateNew(allocator)) {
      NativeFrameBatch batch = new NativeFrameBatch(2);
      NativeFrameBatch.Column cam = batch.addFrameColumn("cam", 4, 4, FrameLayout.HWC);
      long slot = cam.slotAddress(1);
      // Any node of the exported struct array: the third allocation is the frame values' node.
      DeviceBatchTest.withFailingAllocation(2, NativeException.OutOfMemory.class,
          () -> batch.exportTo(array.memoryAddress(), schema.memoryAddress()));
      assertEquals(0, array.snapshot().release, "nothing was exported");
      assertEquals(slot, cam.slotAddress(1), "the batch is still ours");
      batch.close(); // the only free; before the ownership rule the core had freed it already
    }
    assertEquals(bytesBefore, NativeResources.liveBytes());
  }

  @Test
  void unexportedBatchIsFreedByClose() {
    long before = NativeResources.liveObjects();
    NativeFrameBatch batch = new NativeFrameBatch(3);
    batch.addFrameColumn("a", 8, 8, FrameLayout.CHW);
    assertThrows(RuntimeException.class, () -> batch.addFrameColumn("a", 8, 8, FrameLayout.CHW));
    batch.close();
    batch.close();
    assertEquals(before, NativeResources.liveObjects());
  }

  @Test
  void tensorTypeRoundTripsItsMetadata() {
    FixedShapeTensorType t = FixedShapeTensorType.uint8(new int[] {3, 2, 5}, List.of("C", "H", "W"));
    assertEquals("{\"shape\":[3,2,5],\"dim_names\":[\"C\",\"H\",\"W\"]}", t.serialize());
    assertEquals(t, t.deserialize(t.storageType(), t.serialize()));
    assertThrows(IllegalArgumentException.class,
        () -> t.deserialize(new org.apache.arrow.vector.types.pojo.ArrowType.FixedSizeList(7),
            t.serialize()));
  }

  @Test
  void anUnclosedBatchIsFreedByTheSafetyNet() throws InterruptedException {
    long before = NativeResources.liveObjects();
    leakOneBatch();
    long deadline = System.nanoTime() + 20_000_000_000L;
    while (NativeResources.liveObjects() != before && System.nanoTime() < deadline) {
      System.gc();
      Thread.sleep(20);
    }
    assertEquals(before, NativeResources.liveObjects(), "the Cleaner freed the leaked batch");
  }

  private static void leakOneBatch() {
    new NativeFrameBatch(2).addFrameColumn("leaked", 4, 4, FrameLayout.HWC);
  }
}
