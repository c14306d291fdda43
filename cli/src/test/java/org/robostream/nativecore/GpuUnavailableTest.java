package org.robostream.nativecore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.GpuUnavailableException;
import org.robostream.arrow.BatchMemoryPool;
import org.robostream.bench.CudaBatchUpload;
import org.robostream.cli.Main;
import org.robostream.codec.Decoder;
import org.robostream.stream.StreamingDataset;
import org.robostream.testing.Datasets;
import org.robostream.testing.Fixtures;
import org.robostream.video.DecodeDeviceSpec;
import org.robostream.video.VideoDecoderOptions;

/**
 * An unusable GPU is one exception type whoever asks for it: the decode device, a decoder, a CUDA
 * pool, the batch upload and the loader. A GPU that does not exist is unusable on every machine, so
 * this runs with and without a GPU.
 */
class GpuUnavailableTest {
  /** An ordinal past every GPU of this machine. */
  private static final int MISSING = Cuda.deviceCount() + 7;

  @Test
  void everyRequestForAnUnusableGpuIsAGpuUnavailableExceptionNamingTheCause() {
    String cause = Cuda.deviceUnavailabilityCause(MISSING);
    Map<String, Executable> requests =
        Map.of(
            "decode device", () -> DecodeDeviceSpec.parse("cuda:" + MISSING).resolve(),
            "decoder",
                () ->
                    Decoder.open(
                            Fixtures.video("h264_g30.mp4"),
                            VideoDecoderOptions.defaults().withCudaDevice(MISSING))
                        .close(),
            "pool", () -> BatchMemoryPool.cuda(MISSING).close(),
            "upload", () -> new CudaBatchUpload(MISSING).close(),
            "loader",
                () ->
                    StreamingDataset.builder(Datasets.patternV30())
                        .decodeDevice(DecodeDeviceSpec.parse("cuda:" + MISSING))
                        .build()
                        .close());
    for (var request : requests.entrySet()) {
      GpuUnavailableException e =
          assertThrows(GpuUnavailableException.class, request.getValue(), request.getKey());
      assertEquals(MISSING, e.device(), request.getKey());
      assertEquals(cause, e.reason(), request.getKey());
      assertTrue(e.getMessage().contains(cause), request.getKey() + ": " + e.getMessage());
    }
  }

  @Test
  void theDecodeDeviceNamesItsOptionAndTheCliItsFlag(@TempDir Path tmp) {
    GpuUnavailableException e =
        assertThrows(
            GpuUnavailableException.class,
            () -> DecodeDeviceSpec.parse("cuda:" + MISSING).resolve());
    assertTrue(
        e.getMessage().startsWith("decodeDevice cuda:" + MISSING + " cannot be used: "),
        e.getMessage());
    java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
    java.io.PrintStream saved = System.err;
    System.setErr(new java.io.PrintStream(err, true));
    int exit;
    try {
      exit =
          Main.run(
              "train",
              "--root",
              Datasets.patternV30().toString(),
              "--steps",
              "1",
              "--video-decode-device",
              "cuda:" + MISSING,
              "--output-dir",
              tmp.toString());
    } finally {
      System.setErr(saved);
    }
    assertEquals(1, exit);
    assertTrue(
        err.toString()
            .contains(
                "robostream: --video-decode-device cuda:"
                    + MISSING
                    + " cannot be used: "
                    + Cuda.deviceUnavailabilityCause(MISSING)),
        err.toString());
    assertTrue(
        List.of(err.toString().split("\n")).stream().noneMatch(l -> l.contains("decodeDevice")),
        "the CLI shows its flag, not the API option: " + err);
  }
}
