package org.robostream.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.Supplier;

/** The device path against the host path across a resume, for the pixel-format tests. */
final class DevicePathResume {
  private DevicePathResume() {}

  /**
   * Streams {@code host} to the end, then {@code device} (a device-path stream of the same options)
   * for two batches, saves its state and resumes a new one from it: every batch's frames of {@code
   * cameras} equal the host path's, and the resumed stream ends where the host one did.
   */
  static void matchesTheHostPath(
      Supplier<StreamingDataset.Builder> host,
      Supplier<StreamingDataset.Builder> device,
      List<String> cameras) {
    List<List<ByteBuffer>> expected = new ArrayList<>();
    try (StreamingDataset ds = host.get().build()) {
      for (Batch b : ds) {
        try (b) {
          expected.add(cameras.stream().map(c -> copy(b.frames(c).data())).toList());
        }
      }
    }
    String state;
    try (StreamingDataset ds = device.get().build()) {
      Iterator<Batch> it = ds.iterator();
      for (int i = 0; i < 2; i++) {
        try (Batch b = it.next()) {
          assertFrames(expected.get(i), b, cameras);
        }
      }
      state = ds.state();
    }
    int index = 2;
    try (StreamingDataset resumed = device.get().resumeFrom(state).build()) {
      for (Batch b : resumed) {
        try (b) {
          assertFrames(expected.get(index++), b, cameras);
        }
      }
    }
    assertEquals(expected.size(), index, "the resumed stream ends where the host one did");
  }

  private static void assertFrames(List<ByteBuffer> expected, Batch b, List<String> cameras) {
    for (int c = 0; c < cameras.size(); c++) {
      assertEquals(
          expected.get(c),
          b.frames(cameras.get(c)).data(),
          cameras.get(c) + " of batch " + b.index());
    }
  }

  private static ByteBuffer copy(ByteBuffer frames) {
    ByteBuffer out = ByteBuffer.allocate(frames.remaining());
    out.put(frames.duplicate()).flip();
    return out;
  }
}
