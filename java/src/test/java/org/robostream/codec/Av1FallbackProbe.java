package org.robostream.codec;

import java.nio.file.Path;
import org.robostream.video.FrameLayout;

/** Child-JVM helper of Av1BackendTest: prints the AV1 backend chosen and the frame it decoded. */
public final class Av1FallbackProbe {
  private Av1FallbackProbe() {}

  public static void main(String[] args) {
    try (Decoder d = Decoder.open(Path.of(args[0]))) {
      DecodeResult r =
          d.decode(
              new double[] {d.framePtsSeconds()[5]},
              HostFrameBuffer.forVideo(d.info(), 1, FrameLayout.HWC));
      System.out.println("backend=" + d.backendDescription() + " frame=" + r.frameIndex(0));
    }
  }
}
