package org.robostream.stream;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.robostream.testing.Datasets;
import org.robostream.testing.GpuTests;
import org.robostream.video.DecodeDeviceSpec;
import org.robostream.video.FrameLayout;

/**
 * {@code resize(...)} on the device path: a CPU decoder ({@code deviceBatches(true)}) scales each
 * frame in the swscale call that converts it into the held slot, so the device path's batches equal
 * the host path's (which {@link ResizeTest} checks against the ffmpeg CLI) byte for byte, across a
 * resume; NVDEC ({@code decodeDevice cuda}) scales in its colour kernel (tagged {@code cuda}).
 */
class DeviceResizeTest {
  private static final UnaryOperator<StreamingDataset.Builder> RESIZED =
      b ->
          b.resize(72, 96) // top 320x240 down
              .resize(ResizeTest.WRIST, 60, 80) // with a window
              .resize(ResizeTest.SIDE, 112, 128) // 96x96 up
              .deltaTimestamps(Map.of(ResizeTest.WRIST, new double[] {-0.1, 0}));

  @ParameterizedTest
  @CsvSource({"HWC, true", "HWC, false", "CHW, true", "CHW, false"})
  void deviceBatchesGiveTheHostPathsResizedFramesAcrossAResume(FrameLayout layout, boolean uint8) {
    UnaryOperator<StreamingDataset.Builder> options =
        b -> RESIZED.apply(b.returnUint8(uint8).layout(layout));
    DevicePathResume.matchesTheHostPath(
        () -> ResizeTest.builder(options),
        () -> ResizeTest.builder(b -> options.apply(b).deviceBatches(true)),
        List.of(ResizeTest.TOP, ResizeTest.WRIST, ResizeTest.SIDE));
  }

  @Test
  void theBudgetCountsFramesScaledUpAtTheBatchSize() {
    // The device path holds RGB already scaled: side's 96x96 frames held at 112x128.
    long held = 3L * (320 * 240 + 160 * 120 + 112 * 128);
    long batch = 4 * held;
    UnaryOperator<StreamingDataset.Builder> upscaled =
        b -> b.deviceBatches(true).returnUint8(true).resize(ResizeTest.SIDE, 112, 128);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                ResizeTest.builder(
                        b -> upscaled.apply(b).memoryBudgetBytes(2 * (2 * batch + held - 1)))
                    .build()
                    .close());
    assertTrue(e.getMessage().contains("one held sample of " + held + " bytes"), e.getMessage());
    ResizeTest.builder(b -> upscaled.apply(b).memoryBudgetBytes(2 * (2 * batch + held)))
        .build()
        .close();
  }

  /**
   * NVDEC's colour kernel scales in its conversion (bilinear, swscale's centre mapping): its
   * batches are close to the CPU path's resized ones, down and up, HWC and CHW. Unrun where this
   * was written (no GPU): the kernel and this test were reviewed; the tolerance is the unscaled
   * comparison's 1.5 doubled, for swscale's fixed-point weights and its chroma siting.
   */
  @ParameterizedTest
  @CsvSource({"HWC, 32, 40", "CHW, 72, 96"})
  @Tag("cuda")
  void nvdecScalesInItsColourKernelLikeTheCpuPath(FrameLayout layout, int height, int width) {
    GpuTests.requireNvdec();
    DeviceBatchStreamingTest.sameAsHostBatches(
        Datasets.patternV21(),
        b -> b.returnUint8(true).layout(layout).resize(height, width),
        b -> b.decodeDevice(DecodeDeviceSpec.parse("cuda")),
        3.0);
  }
}
