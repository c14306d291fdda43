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
import org.robostream.testing.GpuTests;
import org.robostream.video.DecodeDeviceSpec;
import org.robostream.video.FrameLayout;

/**
 * {@code resize(...)} on the device path: a CPU decoder ({@code deviceBatches(true)}) scales each
 * frame in the swscale call that converts it into the held slot, so the device path's batches equal
 * the host path's (which {@link ResizeTest} checks against the ffmpeg CLI) byte for byte, across a
 * resume. NVDEC's colour kernel does not scale yet: {@code decodeDevice cuda} still refuses it.
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
  @Tag("cuda")
  void nvdecStillRefusesAResizeNamingTheWayOut() {
    GpuTests.requireNvdec();
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                ResizeTest.builder(
                        b -> RESIZED.apply(b.decodeDevice(DecodeDeviceSpec.parse("cuda"))))
                    .build()
                    .close());
    assertTrue(e.getMessage().contains("decodeDevice cuda"), e.getMessage());
    assertTrue(e.getMessage().contains("deviceBatches(true)"), e.getMessage());
  }
}
