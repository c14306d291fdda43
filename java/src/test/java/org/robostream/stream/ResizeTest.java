package org.robostream.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.robostream.testing.Datasets;
import org.robostream.testing.FfmpegReference;
import org.robostream.video.FrameLayout;

/**
 * {@code resize(...)}: frames scaled inside the CPU path's swscale conversion (one {@code
 * sws_scale} call, bilinear) equal the ffmpeg CLI's {@code scale=W:H:flags=bilinear} of the same
 * pictures; the batch tensors have the resized shape. The device path's CPU decoders scale the same
 * way ({@link DeviceResizeTest}).
 */
class ResizeTest {
  static final String TOP = "observation.images.top";
  static final String WRIST = "observation.images.wrist";
  static final String SIDE = "observation.images.side";

  static StreamingDataset.Builder builder(UnaryOperator<StreamingDataset.Builder> options) {
    return options.apply(
        StreamingDataset.builder(Datasets.mixedSizesV30())
            .batchSize(4)
            .workers(2)
            .bufferSize(16)
            .maxNumShards(3)
            .seed(5));
  }

  @ParameterizedTest
  @EnumSource(FrameLayout.class)
  void resizedFramesEqualTheFfmpegScaleFilters(FrameLayout layout) {
    // Down for all (top 320x240 -> 96x72), and cameras of their own: wrist down with a window,
    // side up (96x96 -> 128x112).
    Map<String, int[]> heightWidth =
        Map.of(TOP, new int[] {72, 96}, WRIST, new int[] {60, 80}, SIDE, new int[] {112, 128});
    ReferenceFrames ffmpeg =
        new ReferenceFrames(
            heightWidth,
            (file, hw) ->
                layout == FrameLayout.HWC
                    ? FfmpegReference.allFramesRgbScaled(file, hw[1], hw[0], "bilinear")
                    : FfmpegReference.allFramesGbrpScaledAsRgb(file, hw[1], hw[0], "bilinear"),
            0);
    Set<Long> seen = new HashSet<>();
    try (StreamingDataset ds =
        builder(
                b ->
                    b.returnUint8(layout == FrameLayout.HWC) // CHW: float32
                        .layout(layout)
                        .resize(72, 96)
                        .resize(WRIST, 60, 80)
                        .resize(SIDE, 112, 128)
                        .deltaTimestamps(Map.of(WRIST, new double[] {-0.1, 0})))
            .build()) {
      for (Batch b : ds) {
        try (b) {
          seen.addAll(ffmpeg.checked(b, ds.metadata(), Map.of(WRIST, new int[] {-1, 0}), layout));
        }
      }
      assertEquals(Datasets.totalFrames(Datasets.mixedSizesV30()), seen.size());
    }
  }

  @Test
  void theBudgetHoldsSamplesAtTheFilesSizesAndBatchesAtTheResizedOnes() {
    // Pictures wait at their files' size until converted; only the batches are 8x8.
    long held = 3L * (320 * 240 + 160 * 120 + 96 * 96);
    long batch = 4 * 3L * (3 * 8 * 8);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                builder(
                        b ->
                            b.returnUint8(true)
                                .resize(8, 8)
                                .memoryBudgetBytes(2 * (2 * batch + held - 1)))
                    .build()
                    .close());
    assertTrue(e.getMessage().contains("batches of " + batch + " bytes"), e.getMessage());
    assertTrue(e.getMessage().contains("one held sample of " + held + " bytes"), e.getMessage());
    builder(b -> b.returnUint8(true).resize(8, 8).memoryBudgetBytes(2 * (2 * batch + held)))
        .build()
        .close();
  }

  @Test
  void resizeIsRefusedWhereItCannotBeDoneInTheConversion() {
    IllegalArgumentException unknown =
        assertThrows(
            IllegalArgumentException.class,
            () -> builder(b -> b.resize("observation.images.left", 64, 64)).build().close());
    assertTrue(unknown.getMessage().contains("observation.images.left"), unknown.getMessage());
    assertTrue(unknown.getMessage().contains(WRIST), unknown.getMessage());

    IllegalArgumentException empty =
        assertThrows(
            IllegalArgumentException.class, () -> builder(b -> b.resize(0, 64)).build().close());
    assertTrue(empty.getMessage().contains("1..8192"), empty.getMessage());
  }
}
