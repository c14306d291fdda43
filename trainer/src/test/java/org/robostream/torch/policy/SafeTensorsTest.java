package org.robostream.torch.policy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.FileException;

/**
 * safetensors as written here and as PyTorch's safetensors writes it, and every way a file from
 * elsewhere can be wrong: a typed error naming the file, before anything large is allocated.
 */
class SafeTensorsTest {
  @TempDir Path tmp;

  @Test
  void roundTripKeepsNamesShapesValuesAndMetadata() throws Exception {
    Map<String, SafeTensors.Entry> t = new LinkedHashMap<>();
    t.put("a.weight", new SafeTensors.Entry(new long[] {2, 3}, new float[] {1, 2, 3, 4, 5, -6}));
    t.put("b", new SafeTensors.Entry(new long[] {}, new float[] {0.5f}));
    t.put("empty", new SafeTensors.Entry(new long[] {0, 4}, new float[0]));
    Path f = tmp.resolve("x.safetensors");
    SafeTensors.write(f, t, Map.of("step", "7", "format", "pt"));
    SafeTensors.Contents c = SafeTensors.read(f, 1 << 20);
    assertEquals(t.keySet(), c.tensors().keySet());
    for (String name : t.keySet()) {
      assertArrayEquals(t.get(name).shape(), c.tensors().get(name).shape(), name);
      assertArrayEquals(t.get(name).values(), c.tensors().get(name).values(), name);
    }
    assertEquals(Map.of("step", "7", "format", "pt"), c.metadata());
  }

  /** A file laid out by hand, as another writer may: header JSON then the data bytes. */
  private Path file(String header, byte[] data) throws Exception {
    byte[] json = header.getBytes(StandardCharsets.UTF_8);
    ByteBuffer b =
        ByteBuffer.allocate(8 + json.length + data.length).order(ByteOrder.LITTLE_ENDIAN);
    b.putLong(json.length).put(json).put(data);
    Path f = tmp.resolve("hand-" + header.hashCode() + ".safetensors");
    Files.write(f, b.array());
    return f;
  }

  @Test
  void aFileFromPythonsWriterReads() throws Exception {
    // safetensors.torch.save_file pads the header with spaces to a multiple of 8.
    ByteBuffer v =
        ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putFloat(1.5f).putFloat(-2f);
    Path f =
        file("{\"w\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}      ", v.array());
    assertArrayEquals(
        new float[] {1.5f, -2f}, SafeTensors.read(f, 1 << 20).tensors().get("w").values());
  }

  @Test
  void anEmptyTensorMayStartWhereAnotherDoes() throws Exception {
    ByteBuffer v = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putFloat(3f);
    Path f =
        file(
            "{\"w\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]},"
                + "\"e\":{\"dtype\":\"F32\",\"shape\":[0],\"data_offsets\":[0,0]}}",
            v.array());
    SafeTensors.Contents c = SafeTensors.read(f, 1 << 20);
    assertEquals(0, c.tensors().get("e").values().length);
    assertArrayEquals(new float[] {3f}, c.tensors().get("w").values());
  }

  @Test
  void hostileFilesAreTypedErrorsNamingTheFile() throws Exception {
    byte[] eight = new byte[8];
    String[][] cases = {
      {"{\"w\":{\"dtype\":\"F64\",\"shape\":[1],\"data_offsets\":[0,8]}}", "is not F32"},
      {"{\"w\":{\"dtype\":\"F32\",\"shape\":[3],\"data_offsets\":[0,8]}}", "needs 12 bytes"},
      {"{\"w\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,16]}}", "outside the file"},
      {"{\"w\":{\"dtype\":\"F32\",\"shape\":[-2],\"data_offsets\":[0,8]}}", "something else"},
      {"{\"w\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}}", "bytes after its last"},
      {
        "{\"w\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},"
            + "\"v\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}",
        "overlaps"
      },
      {"{\"w\":{\"dtype\":\"F32\",\"shape\":[1073741824,4],\"data_offsets\":[0,8]}}", "too large"},
      {"{\"__metadata__\":{\"step\":3}}", "not text"},
      {"not json", ""},
    };
    for (String[] c : cases) {
      Path f = file(c[0], eight);
      FileException e = assertThrows(FileException.class, () -> SafeTensors.read(f, 1 << 20), c[0]);
      assertTrue(e.getMessage().contains(f.toString()), e.getMessage());
      assertTrue(e.getMessage().contains(c[1]), c[0] + ": " + e.getMessage());
    }
    // A header length past the file, a file over the cap, a link, a folder: refused before reading.
    Path huge = tmp.resolve("huge");
    Files.write(
        huge, ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putLong(1L << 40).array());
    assertTrue(
        assertThrows(FileException.class, () -> SafeTensors.read(huge, 1 << 20))
            .getMessage()
            .contains("header length"));
    Path big = file("{}", new byte[4096]);
    assertTrue(
        assertThrows(FileException.class, () -> SafeTensors.read(big, 1024))
            .getMessage()
            .contains("at most 1024"));
    Path link = tmp.resolve("link");
    Files.createSymbolicLink(link, big);
    assertTrue(
        assertThrows(FileException.class, () -> SafeTensors.read(link, 1 << 20))
            .getMessage()
            .contains("not a regular file"));
    assertTrue(
        assertThrows(FileException.class, () -> SafeTensors.read(tmp.resolve("none"), 1 << 20))
            .getMessage()
            .contains("does not exist"));
  }
}
