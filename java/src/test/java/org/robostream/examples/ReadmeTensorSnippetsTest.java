package org.robostream.examples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.FloatBuffer;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.robostream.arrow.BatchMemoryPool;
import org.robostream.arrow.DType;
import org.robostream.arrow.FrameBatch;
import org.robostream.arrow.Tensor;
import org.robostream.codec.Decoder;
import org.robostream.codec.HostFrameBuffer;
import org.robostream.decode.VideoDecoder;
import org.robostream.stream.Batch;
import org.robostream.stream.StreamingDataset;
import org.robostream.testing.Datasets;
import org.robostream.testing.Fixtures;
import org.robostream.testing.GpuTests;
import org.robostream.testing.NativeLeakCheck;
import org.robostream.video.DecodeDeviceSpec;
import org.robostream.video.FrameLayout;

/**
 * The README's direct-decoding and shaped-tensor snippets, verbatim between the {@code README}
 * markers (in a package of their own: only the public API), run on fixtures; the lines after the
 * markers check what they read against the plain decoder and the flattened accessors.
 */
@ExtendWith(NativeLeakCheck.class)
class ReadmeTensorSnippetsTest {
  @Test
  void directDecodingAtTimestamps() {
    Path video = Fixtures.video("h264_g30.mp4");
    HostFrameBuffer expected;
    try (Decoder plain = Decoder.open(video)) {
      expected = HostFrameBuffer.forVideo(plain.info(), 3, FrameLayout.CHW);
      plain.decode(new double[] {0.0, 1.0, 0.5}, expected);
    }
    // spotless:off (README.md shows this block as it is)
    // README begin: direct decoding
    try (VideoDecoder decoder = VideoDecoder.open(video);
         FrameBatch frames = decoder.frames(0.0, 1.0, 0.5)) {  // sorted, de-duplicated, GOP-aware
      Tensor t = frames.tensor();                                         // [3, 3, H, W] uint8, no copy
      ByteBuffer pixels = t.data();                                       // native order; t.address() too
    // README end
    // spotless:on
      assertArrayEquals(new long[] {3, 3, 120, 160}, t.shape());
      assertEquals(DType.UINT8, t.dtype());
      for (int i = 0; i < 3; i++) {
        ByteBuffer frame = pixels.slice(i * 3 * 120 * 160, 3 * 120 * 160);
        assertEquals(ByteBuffer.wrap(expected.frameBytes(i)), frame, "frame " + i);
      }
      assertEquals(
          30, frames.tensor("frames.frame_index").data().getLong(8), "1.0 s at 30 fps is frame 30");
    }
  }

  @Test
  void shapedTensorsOfAStreamedBatch() {
    Path root = Datasets.patternV30();
    int batches = 0;
    // spotless:off (README.md shows this block as it is)
    // README begin: streaming
    try (StreamingDataset ds = StreamingDataset.builder(root)
            .batchSize(64).workers(4).returnUint8(true)          // float32 in [0,1] by default
            .deltaTimestamps(Map.of("action", new double[] {0, 0.05, 0.1}))
            .build()) {                                           // rank/world from SLURM_*/RANK/...
      for (Batch b : ds) {                                        // one epoch; the next loop is the next epoch
        try (b) {
          Tensor action = b.tensor("action");                     // [B, 3, D] float32, zero copy
          FloatBuffer values = action.data().asFloatBuffer();     // row-major: get((i * 3 + t) * D + d)
          Tensor pad = b.tensor("action_is_pad");                 // [B, 3] bool: bytes 0/1
          Tensor top = b.tensor("observation.images.top");        // [B, 3, H, W] uint8, host or GPU
          Batch.Frames frames = b.frames("observation.images.top"); // host frames, no copy
    // README end
    // spotless:on
          int n = b.size();
          assertArrayEquals(new long[] {n, 3, 4}, action.shape());
          double[] flat = b.doubles("action");
          assertEquals(flat.length, values.remaining());
          for (int i = 0; i < flat.length; i++) {
            assertEquals(flat[i], values.get(i), 0.0);
          }
          assertArrayEquals(new long[] {n, 3}, pad.shape());
          boolean[] padFlat = b.booleans("action_is_pad");
          for (int i = 0; i < padFlat.length; i++) {
            assertEquals(padFlat[i] ? 1 : 0, pad.data().get(i));
          }
          assertArrayEquals(new long[] {n, 3, 64, 64}, top.shape());
          assertEquals(frames.data(), top.data());
          batches++;
        }
      }
      assertEquals(ds.batchesPerEpoch(), batches);
    }
  }

  /** The README's GPU snippet, on a GPU machine only (it has not run yet: none was lent). */
  @Test
  @Tag("cuda")
  void gpuFramesStayOnTheDevice() {
    GpuTests.requireNvdec();
    Path root = Datasets.patternV30();
    int batches = 0;
    // spotless:off (README.md shows this block as it is)
    // README begin: gpu
    try (StreamingDataset ds = StreamingDataset.builder(root).batchSize(64).workers(2)
            .decodeDevice(DecodeDeviceSpec.parse("cuda:0"))       // "cuda-or-cpu" falls back
            .build()) {
      for (Batch b : ds) {
        try (b) {
          FrameBatch frames = b.deviceFrames();                   // ArrowDeviceArray, device_type CUDA
          long top = b.tensor("observation.images.top").address(); // device pointer
          long event = frames.syncEvent();                        // CUevent* to wait on (C Device spec)
          Batch onHost = b.toHost();                              // explicit copy; b.frames() refuses
    // README end
    // spotless:on
          assertEquals(BatchMemoryPool.DEVICE_CUDA, frames.deviceType());
          assertTrue(top != 0 && event != 0);
          frames.makeStreamWait(
              0); // the legacy default stream waits on the event (the bridge's way)
          assertEquals(onHost.size(), onHost.frames("observation.images.top").shape()[0]);
          batches++;
        }
      }
      assertEquals(ds.batchesPerEpoch(), batches);
    }
  }
}
