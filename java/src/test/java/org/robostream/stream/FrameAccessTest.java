package org.robostream.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.robostream.arrow.FixedShapeTensorVector;
import org.robostream.testing.Datasets;
import org.robostream.video.FrameLayout;

/**
 * How frames leave a batch: float32 frames (the default) read through every accessor equal the
 * uint8 frames of the same stream divided by 255 (a buffer in the wrong byte order reads 1.0 as
 * 4.6e-41), for host batches and device batches; and no accessor reads a closed batch's memory.
 */
class FrameAccessTest {
  private static StreamingDataset.Builder stream(boolean uint8, boolean deviceBatches) {
    return StreamingDataset.builder(Datasets.patternV30())
        .batchSize(4)
        .workers(1)
        .bufferSize(8)
        .maxNumShards(2)
        .seed(11)
        .returnUint8(uint8)
        .deviceBatches(deviceBatches)
        .layout(FrameLayout.CHW);
  }

  private static void assertUnitFloats(ByteBuffer bytes, ByteBuffer floats, String accessor) {
    assertEquals(bytes.remaining() * 4, floats.remaining(), accessor);
    for (int i = 0; i < bytes.remaining(); i++) {
      float want = (bytes.get(bytes.position() + i) & 0xFF) / 255f;
      float got = floats.getFloat(floats.position() + 4 * i);
      if (want != got) {
        assertEquals(want, got, accessor + ": value " + i);
      }
    }
  }

  @ParameterizedTest(name = "device batches: {0}")
  @ValueSource(booleans = {false, true})
  void float32FramesReadAsUint8FramesOver255ThroughEveryAccessor(boolean deviceBatches) {
    try (StreamingDataset bytes = stream(true, deviceBatches).build();
        StreamingDataset floats = stream(false, deviceBatches).build();
        BufferAllocator allocator = new RootAllocator();
        Batch u = bytes.iterator().next();
        Batch f = floats.iterator().next()) {
      List<String> cameras = floats.metadata().info().videoKeys();
      for (String camera : cameras) {
        assertUnitFloats(u.frames(camera).data(), f.frames(camera).data(), "data()");
        for (int i = 0; i < f.size(); i++) {
          assertUnitFloats(u.frames(camera).sample(i), f.frames(camera).sample(i), "sample()");
        }
      }
      // The Arrow vectors: the frame batch imported into Java.
      try (VectorSchemaRoot root = f.deviceFrames().toVectorSchemaRoot(allocator)) {
        for (String camera : cameras) {
          FixedShapeTensorVector vector = (FixedShapeTensorVector) root.getVector(camera);
          for (int i = 0; i < f.size(); i++) {
            assertUnitFloats(u.frames(camera).sample(i), vector.tensorBytes(i), "tensorBytes()");
          }
        }
      }
    }
  }

  @ParameterizedTest(name = "device batches: {0}")
  @ValueSource(booleans = {false, true})
  void framesCannotBeReadAfterTheirBatchIsClosed(boolean deviceBatches) {
    try (StreamingDataset ds = stream(false, deviceBatches).build()) {
      String camera = ds.metadata().info().videoKeys().get(0);
      Batch batch = ds.iterator().next();
      Batch.Frames frames = batch.frames(camera);
      assertEquals(frames.shape()[0] * 3 * 64 * 64 * 4, frames.data().remaining());
      batch.close(); // its memory goes back to a pool, for the next batch
      assertThrows(IllegalStateException.class, frames::data);
      assertThrows(IllegalStateException.class, () -> frames.sample(0));
    }
  }
}
