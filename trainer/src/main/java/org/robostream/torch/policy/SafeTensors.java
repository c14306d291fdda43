package org.robostream.torch.policy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.robostream.FileException;
import org.robostream.JsonFields;

/**
 * Named float32 arrays in Hugging Face's safetensors format (an 8-byte little-endian header length,
 * a JSON header naming each tensor's dtype, shape and byte range, then the raw little-endian
 * values): what a checkpoint's weights and Adam moments are stored as, so {@code
 * safetensors.torch.load_file} reads a robostream policy in Python.
 *
 * <p>Reading treats the file as hostile: a regular file (no link) of at most {@code maxBytes}, the
 * header bounded and parsed strictly, every tensor F32 with a shape whose size matches its byte
 * range, ranges inside the data and neither overlapping nor leaving holes; anything else is a
 * {@link FileException} naming the file and the tensor. Stateless.
 */
public final class SafeTensors {
  /** A tensor: its shape and values (row-major). */
  public record Entry(long[] shape, float[] values) {
    public Entry {
      long n = 1;
      for (long d : shape) {
        n *= d;
      }
      if (n != values.length) {
        throw new IllegalArgumentException(
            "shape " + Arrays.toString(shape) + " holds " + n + " values, not " + values.length);
      }
    }
  }

  /** The tensors of a file in its header's order, and its {@code __metadata__} strings. */
  public record Contents(Map<String, Entry> tensors, Map<String, String> metadata) {}

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long MAX_HEADER_BYTES = 16L << 20;

  private SafeTensors() {}

  /** Writes {@code tensors} (in this order) and {@code metadata} to {@code file}. */
  public static void write(Path file, Map<String, Entry> tensors, Map<String, String> metadata)
      throws IOException {
    ObjectNode header = JSON.createObjectNode();
    if (!metadata.isEmpty()) {
      ObjectNode meta = header.putObject("__metadata__");
      // Sorted: the same contents give the same bytes in every JVM (Map.of has no fixed order).
      new java.util.TreeMap<>(metadata).forEach(meta::put);
    }
    long offset = 0;
    for (Map.Entry<String, Entry> e : tensors.entrySet()) {
      ObjectNode t = header.putObject(e.getKey());
      t.put("dtype", "F32");
      ArrayNode shape = t.putArray("shape");
      for (long d : e.getValue().shape()) {
        shape.add(d);
      }
      long end = offset + 4L * e.getValue().values().length;
      t.putArray("data_offsets").add(offset).add(end);
      offset = end;
    }
    byte[] json = JSON.writeValueAsBytes(header);
    // The data starts 8-byte aligned, as the reference writer pads its header with spaces.
    int padded = (json.length + 7) / 8 * 8;
    ByteBuffer head = ByteBuffer.allocate(8 + padded).order(ByteOrder.LITTLE_ENDIAN);
    head.putLong(padded).put(json);
    while (head.hasRemaining()) {
      head.put((byte) ' ');
    }
    try (OutputStream out = new java.io.BufferedOutputStream(Files.newOutputStream(file))) {
      out.write(head.array());
      for (Entry e : tensors.values()) {
        ByteBuffer b = ByteBuffer.allocate(4 * e.values().length).order(ByteOrder.LITTLE_ENDIAN);
        b.asFloatBuffer().put(e.values());
        out.write(b.array());
      }
    }
  }

  /**
   * The tensors in {@code file}.
   *
   * @throws FileException naming the file and what is wrong with it
   */
  public static Contents read(Path file, long maxBytes) {
    String where = file.toString();
    if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
      throw new FileException(
          where,
          Files.exists(file, LinkOption.NOFOLLOW_LINKS)
              ? "is not a regular file"
              : "does not exist");
    }
    try (FileChannel ch =
        FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
      long size = ch.size();
      if (size > maxBytes) {
        throw new FileException(where, "is " + size + " bytes; at most " + maxBytes + " are read");
      }
      if (size < 8) {
        throw new FileException(where, "is not safetensors: " + size + " bytes, no header");
      }
      ByteBuffer lengthBytes = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
      readFully(ch, lengthBytes, 0, where);
      long headerLength = lengthBytes.getLong(0);
      if (headerLength < 2 || headerLength > Math.min(MAX_HEADER_BYTES, size - 8)) {
        throw new FileException(
            where,
            "is not safetensors: its header length "
                + headerLength
                + " does not fit the file's "
                + size
                + " bytes");
      }
      ByteBuffer headerBytes = ByteBuffer.allocate((int) headerLength);
      readFully(ch, headerBytes, 8, where);
      JsonNode header =
          JsonFields.parse(new String(headerBytes.array(), StandardCharsets.UTF_8), where);
      long dataStart = 8 + headerLength;
      long dataBytes = size - dataStart;
      Map<String, String> metadata = new LinkedHashMap<>();
      List<String> names = new ArrayList<>();
      List<long[]> ranges = new ArrayList<>();
      List<long[]> shapes = new ArrayList<>();
      for (Iterator<Map.Entry<String, JsonNode>> it = header.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> f = it.next();
        if (f.getKey().equals("__metadata__")) {
          if (!f.getValue().isObject()) {
            throw new FileException(where, "has a __metadata__ that is not an object");
          }
          f.getValue()
              .fields()
              .forEachRemaining(
                  m -> {
                    if (!m.getValue().isTextual()) {
                      throw new FileException(where, "has a __metadata__ value that is not text");
                    }
                    metadata.put(m.getKey(), m.getValue().asText());
                  });
          continue;
        }
        JsonNode t = f.getValue();
        String name = f.getKey();
        if (!t.isObject() || !"F32".equals(t.path("dtype").asText(null))) {
          throw new FileException(where, "tensor " + name + " is not F32");
        }
        long[] shape = longs(t.get("shape"), where, name, "shape", 8);
        long[] range = longs(t.get("data_offsets"), where, name, "data_offsets", 2);
        if (range.length != 2 || range[0] > range[1] || range[1] > dataBytes) {
          throw new FileException(
              where, "tensor " + name + " has byte range outside the file's " + dataBytes);
        }
        long count = 1;
        for (long d : shape) {
          // One Java array per tensor: at most Integer.MAX_VALUE / 4 floats' bytes.
          if (d > Integer.MAX_VALUE / 4 || (d > 0 && count > Integer.MAX_VALUE / 4 / d)) {
            throw new FileException(where, "tensor " + name + " is too large");
          }
          count *= d;
        }
        if (4 * count != range[1] - range[0]) {
          throw new FileException(
              where,
              "tensor "
                  + name
                  + " of shape "
                  + Arrays.toString(shape)
                  + " needs "
                  + 4 * count
                  + " bytes, its range holds "
                  + (range[1] - range[0]));
        }
        names.add(name);
        ranges.add(range);
        shapes.add(shape);
      }
      requireContiguous(names, ranges, dataBytes, where);
      Map<String, Entry> tensors = new LinkedHashMap<>();
      for (int i = 0; i < names.size(); i++) {
        long[] r = ranges.get(i);
        ByteBuffer b = ByteBuffer.allocate((int) (r[1] - r[0])).order(ByteOrder.LITTLE_ENDIAN);
        readFully(ch, b, dataStart + r[0], where);
        float[] values = new float[(int) ((r[1] - r[0]) / 4)];
        b.flip();
        b.asFloatBuffer().get(values);
        tensors.put(names.get(i), new Entry(shapes.get(i), values));
      }
      return new Contents(tensors, metadata);
    } catch (IOException e) {
      throw new FileException(where, "cannot be read: " + e, e);
    }
  }

  /** The ranges tile the data exactly: no overlap (two names, one set of bytes), no hole. */
  private static void requireContiguous(
      List<String> names, List<long[]> ranges, long dataBytes, String where) {
    Integer[] order = new Integer[names.size()];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    // By start, then end: an empty tensor at the offset where another begins comes first.
    Arrays.sort(
        order,
        (a, b) -> {
          int byStart = Long.compare(ranges.get(a)[0], ranges.get(b)[0]);
          return byStart != 0 ? byStart : Long.compare(ranges.get(a)[1], ranges.get(b)[1]);
        });
    long expected = 0;
    for (int i : order) {
      if (ranges.get(i)[0] != expected) {
        throw new FileException(
            where,
            "tensor "
                + names.get(i)
                + (ranges.get(i)[0] < expected ? " overlaps another" : " leaves a hole before it"));
      }
      expected = ranges.get(i)[1];
    }
    if (expected != dataBytes) {
      throw new FileException(
          where, "has " + (dataBytes - expected) + " bytes after its last tensor");
    }
  }

  private static long[] longs(JsonNode node, String where, String name, String field, int max) {
    if (node == null || !node.isArray() || node.size() > max) {
      throw new FileException(
          where, "tensor " + name + " has no " + field + " (an array of at most " + max + ")");
    }
    long[] out = new long[node.size()];
    for (int i = 0; i < out.length; i++) {
      JsonNode v = node.get(i);
      if (!v.isIntegralNumber() || !v.canConvertToLong() || v.asLong() < 0) {
        throw new FileException(
            where, "tensor " + name + "'s " + field + " holds something else than sizes");
      }
      out[i] = v.asLong();
    }
    return out;
  }

  private static void readFully(FileChannel ch, ByteBuffer b, long at, String where)
      throws IOException {
    long pos = at;
    while (b.hasRemaining()) {
      int n = ch.read(b, pos);
      if (n < 0) {
        throw new FileException(where, "ended early: it was cut while being read");
      }
      pos += n;
    }
  }
}
