package org.robostream.decode;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.robostream.arrow.BatchMemoryPool;
import org.robostream.arrow.FrameBatch;
import org.robostream.testing.Fixtures;
import org.robostream.testing.NativeLeakCheck;
import org.robostream.video.FrameLayout;
import org.robostream.video.FrameTimestampException;

/** The facade users decode files with: frames by time or position, into a pool or its own. */
@ExtendWith(NativeLeakCheck.class)
class VideoDecoderTest {
  @Test
  void batchesReuseAGivenPoolAndRefuseEmptyRequests() {
    try (BatchMemoryPool pool = BatchMemoryPool.host();
        VideoDecoder decoder = VideoDecoder.open(Fixtures.video("h264_g30.mp4"))) {
      assertThrows(IllegalArgumentException.class, () -> decoder.frames(pool, FrameLayout.HWC));
      ByteBuffer byIndex;
      long allocations;
      try (FrameBatch first = decoder.framesAt(pool, FrameLayout.HWC, 30, 0)) {
        assertArrayEquals(new long[] {2, 120, 160, 3}, first.tensor().shape());
        assertEquals(30, first.tensor("frames.frame_index").data().getLong(0));
        assertEquals(1.0, first.tensor("frames.pts").data().getDouble(0), 1e-9);
        byIndex = ByteBuffer.allocate(2 * 120 * 160 * 3).put(first.tensor().data()).flip();
        allocations = pool.stats().allocations();
      }
      try (FrameBatch second = decoder.frames(pool, FrameLayout.HWC, 1.0, 0.0)) {
        assertEquals(allocations, pool.stats().allocations(), "the pool's buffers again");
        assertEquals(byIndex, second.tensor().data(), "by time or by index: the same frames");
      }
      assertEquals(0, pool.stats().outstandingBytes());
    }
  }

  @Test
  void describesTheFileAndNamesATimeWithoutAFrame() {
    try (VideoDecoder decoder = VideoDecoder.open(Fixtures.video("h264_g30.mp4"))) {
      assertEquals(160, decoder.info().width());
      double[] pts = decoder.framePtsSeconds();
      assertEquals(decoder.info().frameCount(), pts.length);
      assertEquals(1.0, pts[30], 1e-9);
      assertFalse(decoder.decodesOnGpu());
      FrameTimestampException e =
          assertThrows(FrameTimestampException.class, () -> decoder.frames(1e6));
      assertEquals(Fixtures.video("h264_g30.mp4").toString(), e.file());
      try (FrameBatch one = decoder.frames(0.5)) {
        assertArrayEquals(new long[] {1, 3, 120, 160}, one.tensor().shape(), "CHW by default");
        assertTrue(decoder.stats().framesDelivered() >= 1, "the facade reports its decoder's work");
      }
    }
  }
}
