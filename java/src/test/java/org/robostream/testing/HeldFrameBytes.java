package org.robostream.testing;

import org.robostream.codec.HeldFrame;
import org.robostream.nativecore.NativeAddress;

/** The bytes of a held frame's block, copied into the heap for assertions. Stateless. */
public final class HeldFrameBytes {
  private HeldFrameBytes() {}

  public static byte[] of(HeldFrame f) {
    byte[] b = new byte[(int) f.bytes()];
    NativeAddress.bytesAt(f.address(), f.bytes()).get(b);
    return b;
  }
}
