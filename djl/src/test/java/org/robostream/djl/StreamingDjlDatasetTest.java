package org.robostream.djl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.training.dataset.Batch;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.bytedeco.javacpp.Pointer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.robostream.arrow.Tensor;
import org.robostream.stream.StreamingDataset;
import org.robostream.testing.Datasets;

class StreamingDjlDatasetTest {
  private static final String TOP = "observation.images.top";

  private static StreamingDataset.Builder stream(boolean uint8) {
    return StreamingDataset.builder(Datasets.tinyPatternV30())
        .batchSize(4)
        .workers(2)
        .bufferSize(8)
        .seed(3)
        .returnUint8(uint8);
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void camerasStateAndActionsAreNamedViewsOfTheBatch(boolean uint8) throws Exception {
    try (StreamingDataset ds = stream(uint8).build();
        NDManager manager = NDManager.newBaseManager()) {
      StreamingDjlDataset djl = StreamingDjlDataset.over(ds).build();
      int batches = 0;
      for (Batch b : djl.getData(manager)) {
        try (b) {
          org.robostream.stream.Batch source = ((DjlBatch) b).source();
          List<String> cameras = source.cameras();
          assertEquals(2, cameras.size());
          List<String> dataNames = new ArrayList<>(cameras);
          dataNames.add("observation.state");
          assertEquals(dataNames, names(b.getData()));
          assertEquals(List.of("action"), names(b.getLabels()));
          for (String camera : cameras) {
            NDArray frames = b.getData().get(camera);
            assertArrayEquals(new long[] {b.getSize(), 3, 64, 64}, frames.getShape().getShape());
            assertEquals(uint8 ? DataType.UINT8 : DataType.FLOAT32, frames.getDataType());
            assertViews(source.tensor(camera), frames);
          }
          NDArray state = b.getData().get("observation.state");
          assertArrayEquals(new long[] {b.getSize(), 2}, state.getShape().getShape());
          assertEquals(DataType.FLOAT32, state.getDataType());
          assertViews(source.tensor("observation.state"), state);
          assertArrayEquals(
              toFloats(source.doubles("action")), b.getLabels().get("action").toFloatArray());
          batches++;
        }
      }
      assertEquals(ds.batchesPerEpoch(), batches);
      assertEquals(0, ds.outstandingBatchBytes(), "every robostream batch closed");
      assertEquals(0, manager.getManagedArrays().size(), "every array closed");
    }
  }

  @Test
  void windowsAreStackedWithTheirPaddingMasks() throws Exception {
    double[] steps = {0, 0.05, 0.10, 0.15, 0.20};
    try (StreamingDataset ds =
            stream(true)
                .deltaTimestamps(Map.of("action", steps, TOP, new double[] {-0.05, 0}))
                .build();
        NDManager manager = NDManager.newBaseManager()) {
      StreamingDjlDataset djl = StreamingDjlDataset.over(ds).build();
      boolean sawPad = false;
      for (Batch b : djl.getData(manager)) {
        try (b) {
          int n = b.getSize();
          assertEquals(
              List.of(TOP, TOP + "_is_pad", "observation.images.wrist", "observation.state"),
              names(b.getData()));
          assertArrayEquals(
              new long[] {n, 2, 3, 64, 64}, b.getData().get(TOP).getShape().getShape());
          NDArray topPad = b.getData().get(TOP + "_is_pad");
          assertEquals(DataType.BOOLEAN, topPad.getDataType());
          assertArrayEquals(new long[] {n, 2}, topPad.getShape().getShape());
          assertEquals(List.of("action", "action_is_pad"), names(b.getLabels()));
          assertArrayEquals(
              new long[] {n, 5, 2}, b.getLabels().get("action").getShape().getShape());
          NDArray pad = b.getLabels().get("action_is_pad");
          assertEquals(DataType.BOOLEAN, pad.getDataType());
          boolean[] expected = ((DjlBatch) b).source().booleans("action_is_pad");
          boolean[] got = pad.toBooleanArray();
          assertArrayEquals(expected, got);
          for (boolean p : got) {
            sawPad |= p;
          }
        }
      }
      assertTrue(sawPad, "some action windows run past their episode's end");
    }
  }

  @Test
  void chosenColumnsInTheirOrderAndUnknownOnesNamed() throws Exception {
    try (StreamingDataset ds = stream(true).build();
        NDManager manager = NDManager.newBaseManager()) {
      StreamingDjlDataset djl =
          StreamingDjlDataset.over(ds)
              .data("observation.state", TOP)
              .labels("action", "episode_index")
              .build();
      var it = djl.getData(manager).iterator();
      try (Batch b = it.next()) {
        assertEquals(List.of("observation.state", TOP), names(b.getData()));
        assertEquals(DataType.INT64, b.getLabels().get("episode_index").getDataType());
      }
      StreamingDjlDataset wrong = StreamingDjlDataset.over(ds).data("observation.nope").build();
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class, () -> wrong.getData(manager).iterator().next());
      assertTrue(e.getMessage().contains("observation.nope"), e.getMessage());
      assertTrue(e.getMessage().contains("observation.state"), e.getMessage());
    }
  }

  @Test
  void closingTheBatchReleasesTheArraysBeforeTheBatchMemory() throws Exception {
    try (StreamingDataset ds = stream(true).build();
        NDManager manager = NDManager.newBaseManager()) {
      Batch b = StreamingDjlDataset.over(ds).build().getData(manager).iterator().next();
      NDArray frames = b.getData().get(TOP);
      org.robostream.stream.Batch source = ((DjlBatch) b).source();
      assertFalse(frames.isReleased());
      b.close();
      assertTrue(frames.isReleased(), "the arrays go with the batch");
      assertThrows(IllegalStateException.class, source::size, "and so does the batch's memory");
      b.close(); // twice is harmless
      assertEquals(0, manager.getManagedArrays().size());
    }
  }

  @Test
  void eachPassContinuesWithTheNextEpoch() throws Exception {
    try (StreamingDataset ds = stream(true).build();
        NDManager manager = NDManager.newBaseManager()) {
      StreamingDjlDataset djl = StreamingDjlDataset.over(ds).build();
      List<Long> epochs = new ArrayList<>();
      for (int pass = 0; pass < 2; pass++) {
        long seen = -1;
        int count = 0;
        for (Batch b : djl.getData(manager)) {
          try (b) {
            seen = ((DjlBatch) b).source().epoch();
            count++;
            assertEquals(count, b.getProgress());
            assertEquals(ds.batchesPerEpoch(), b.getProgressTotal());
          }
        }
        epochs.add(seen);
      }
      assertEquals(List.of(0L, 1L), epochs);
    }
  }

  @Test
  void paddingBatchesAreSkippedUnlessKept() throws Exception {
    // 36 frames over 2 ranks in batches of 5: the ranks' shares differ, so one is padded.
    for (boolean keep : new boolean[] {false, true}) {
      int realRows = 0;
      int paddingBatches = 0;
      for (int rank = 0; rank < 2; rank++) {
        try (StreamingDataset ds = stream(true).rank(rank, 2).batchSize(5).build();
            NDManager manager = NDManager.newBaseManager()) {
          StreamingDjlDataset djl = StreamingDjlDataset.over(ds).keepPaddingBatches(keep).build();
          for (Batch b : djl.getData(manager)) {
            try (b) {
              boolean padding = ((DjlBatch) b).source().booleans("is_padding")[0];
              if (keep) {
                assertEquals(List.of("action", "is_padding"), names(b.getLabels()));
                assertEquals(padding, b.getLabels().get("is_padding").toBooleanArray()[0]);
              } else {
                assertEquals(List.of("action"), names(b.getLabels()));
              }
              if (padding) {
                paddingBatches++;
              } else {
                realRows += b.getSize();
              }
            }
          }
        }
      }
      assertEquals(36, realRows, "every sample once");
      if (keep) {
        assertTrue(paddingBatches > 0, "the plan pads a rank (else this test tests nothing)");
      } else {
        assertEquals(0, paddingBatches);
      }
    }
  }

  private static void assertViews(Tensor tensor, NDArray array) {
    ByteBuffer direct = array.toByteBuffer(true);
    assertEquals(
        tensor.address(), new Pointer(direct).address(), tensor.name() + " is a view, no copy");
    assertEquals(tensor.data(), direct.order(tensor.data().order()), tensor.name() + " values");
  }

  private static List<String> names(NDList list) {
    List<String> out = new ArrayList<>();
    for (NDArray a : list) {
      out.add(a.getName());
    }
    return out;
  }

  private static float[] toFloats(double[] values) {
    float[] out = new float[values.length];
    for (int i = 0; i < values.length; i++) {
      out[i] = (float) values[i];
    }
    return out;
  }
}
