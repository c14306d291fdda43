package org.robostream.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.robostream.GpuUnavailableException;
import org.robostream.arrow.BatchMemoryPool;
import org.robostream.nativecore.Cuda;
import org.robostream.stream.Batch;
import org.robostream.stream.StreamingDataset;
import org.robostream.testing.Datasets;
import org.robostream.testing.GpuTests;
import org.robostream.testing.NativeLeakCheck;
import org.robostream.video.DecodeDeviceSpec;

/**
 * bench's consumer moves every byte of a batch: the host copy (checked here on real batches of the
 * pattern dataset) and, on a GPU (tests tagged cuda), the pinned upload, read back from the device
 * and compared with the host copy of the same batch.
 */
@ExtendWith(NativeLeakCheck.class)
class BatchTransferTest {
  private static final int BATCHES = 4;
  private static final long FRAME_BYTES = 4L * 2 * 3 * 64 * 64; // batch x cameras x RGB x 64 x 64
  // The pattern dataset's other tensors (meta/info.json), 4 samples: action and
  // observation.state float32[4], timestamp float32, frame_index, episode_index, index and
  // task_index int64; plus is_padding, 4 bits in one byte. The task strings are no tensor.
  private static final long TABLE_BYTES = 4L * (4 * 4 + 4 * 4 + 4 + 4 * 8) + 1;

  static StreamingDataset pattern(String decodeDevice) {
    return StreamingDataset.builder(Datasets.patternV30())
        .batchSize(4)
        .workers(1)
        .bufferSize(8)
        .returnUint8(true)
        .decodeDevice(DecodeDeviceSpec.parse(decodeDevice))
        .build();
  }

  /** Where {@code needle}'s bytes stand in {@code hay}, or -1. */
  static int indexOf(ByteBuffer hay, ByteBuffer needle) {
    int n = needle.remaining();
    for (int at = 0; at + n <= hay.remaining(); at++) {
      if (hay.slice(hay.position() + at, n).equals(needle)) {
        return at;
      }
    }
    return -1;
  }

  @Test
  void theHostCopyHoldsEveryTensorOfTheBatch() {
    List<ByteBuffer> copies = new ArrayList<>();
    try (StreamingDataset ds = pattern("cpu");
        HostBatchCopy copy = new HostBatchCopy()) {
      for (Batch b : ds) {
        try (b) {
          long bytes = copy.copy(b);
          ByteBuffer copied = copy.lastCopy();
          assertEquals(FRAME_BYTES + TABLE_BYTES, bytes);
          assertEquals(bytes, copied.remaining());
          ByteBuffer index = ByteBuffer.allocate(8 * 4).order(ByteOrder.LITTLE_ENDIAN);
          for (double i : b.doubles("index")) {
            index.putLong((long) i);
          }
          assertTrue(indexOf(copied, index.flip()) >= 0, "the index column is in the copy");
          for (String camera : ds.metadata().info().videoKeys()) {
            ByteBuffer frames = b.frames(camera).data();
            assertEquals(FRAME_BYTES / 2, frames.remaining());
            assertTrue(indexOf(copied, frames) >= 0, camera + "'s frames are in the copy");
          }
          copies.add(ByteBuffer.allocate(copied.remaining()).put(copied).flip());
        }
        if (copies.size() == BATCHES) {
          break;
        }
      }
    }
    assertEquals(BATCHES, copies.size());
    assertNotEquals(copies.get(0), copies.get(1), "each batch is copied anew");
  }

  @Test
  void withoutAGpuTheUploadNamesTheCause() {
    assumeFalse(Cuda.isAvailable(), "a GPU is here");
    GpuUnavailableException e =
        assertThrows(GpuUnavailableException.class, () -> new CudaBatchUpload(0));
    assertTrue(e.getMessage().contains(Cuda.unavailabilityCause()), e.getMessage());
  }

  @Test
  @Tag("cuda")
  void theGpuReceivesExactlyTheBytesOfTheHostCopy() {
    GpuTests.requireCuda();
    int checked = 0;
    try (StreamingDataset ds = pattern("cpu");
        HostBatchCopy host = new HostBatchCopy();
        CudaBatchUpload gpu = new CudaBatchUpload(0)) {
      for (Batch b : ds) {
        try (b) {
          long bytes = gpu.copy(b);
          assertEquals(host.copy(b), bytes);
          ByteBuffer back = ByteBuffer.allocateDirect(Math.toIntExact(bytes));
          gpu.readBack(back);
          assertEquals(host.lastCopy(), back, "batch " + checked);
        }
        if (++checked == BATCHES) {
          break;
        }
      }
    }
    assertEquals(BATCHES, checked);
  }

  @Test
  @Tag("cuda")
  void framesDecodedOnTheTargetGpuAreNotCopiedAgain() {
    GpuTests.requireNvdec();
    try (StreamingDataset ds = pattern("cuda");
        HostBatchCopy host = new HostBatchCopy();
        CudaBatchUpload gpu = new CudaBatchUpload(0)) {
      for (Batch b : ds) {
        try (b) {
          assertEquals(BatchMemoryPool.DEVICE_CUDA, b.deviceFrames().deviceType());
          long moved = gpu.copy(b);
          assertEquals(host.copy(b) - FRAME_BYTES, moved, "only the table columns move");
          ByteBuffer back = ByteBuffer.allocateDirect(Math.toIntExact(moved));
          gpu.readBack(back);
          assertEquals(host.lastCopy().limit(Math.toIntExact(moved)), back);
        }
        break;
      }
    }
  }
}
