package org.robostream.framecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * {@code --frame-cache} specs as users write them (the README's {@code memory:2GiB}), and the
 * refusals, each naming the whole spec.
 */
class FrameCacheOptionsTest {
  private static final long GI = 1L << 30;

  @Test
  void theSizesUsersWriteAreAcceptedAndAllBinary() {
    String[] sizes = {"2G", "2GB", "2GiB", "2gib", "2 GiB", "2Gi", "2g", "2048M", "2147483648"};
    for (String size : sizes) {
      FrameCacheOptions o = FrameCacheOptions.parse("memory:" + size);
      assertEquals(2 * GI, o.maxBytes(), size);
      assertNull(o.directory(), size);
    }
    assertEquals(3 * GI / 2, FrameCacheOptions.parse("memory:1.5G").maxBytes());
    assertEquals(8 * GI, FrameCacheOptions.parse("shared:8GiB").maxBytes());
    FrameCacheOptions dir = FrameCacheOptions.parse("/local/nvme/frames:200GiB");
    assertEquals(Path.of("/local/nvme/frames"), dir.directory());
    assertEquals(200 * GI, dir.maxBytes());
  }

  @Test
  void aBadSizeIsRefusedNamingTheSpecAndTheValue() {
    String[][] cases = {
      {"memory:lots", "--frame-cache memory:lots: lots is not a size (write 512M, 2GiB"},
      {"memory:0", "--frame-cache memory:0: 0 is not a size: it is less than 1 byte"},
      {"memory:-2G", "--frame-cache memory:-2G: -2G is not a size: sizes are positive"},
      {"memory:9999999999T", "--frame-cache memory:9999999999T: 9999999999T is more than"},
      {"memory:2XB", "--frame-cache memory:2XB: 2XB is not a size"},
      {"memory:1.5", "--frame-cache memory:1.5: 1.5 is not a whole number of bytes"},
      {"memory:1K", "--frame-cache memory:1K: a frame cache needs at least 1 MiB"},
      {"memory:1023.9K", "--frame-cache memory:1023.9K: a frame cache needs at least 1 MiB"},
      {"memory", "--frame-cache memory: write shared:SIZE, memory:SIZE or DIR:SIZE"},
      {"memory:", "--frame-cache memory:: write shared:SIZE, memory:SIZE or DIR:SIZE"},
      {":4G", "--frame-cache :4G: write shared:SIZE, memory:SIZE or DIR:SIZE"}
    };
    for (String[] c : cases) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> FrameCacheOptions.parse(c[0]), c[0]);
      assertTrue(e.getMessage().startsWith(c[1]), c[0] + ": " + e.getMessage());
    }
  }

  @Test
  void exactlyOneMibIsTheSmallestCache() {
    assertEquals(1L << 20, FrameCacheOptions.parse("memory:1MiB").maxBytes());
    assertEquals(1L << 20, FrameCacheOptions.parse("memory:1024K").maxBytes());
  }
}
