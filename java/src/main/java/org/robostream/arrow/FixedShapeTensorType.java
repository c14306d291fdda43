package org.robostream.arrow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Arrays;
import java.util.Objects;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.ExtensionTypeRegistry;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * Arrow's canonical extension type {@code arrow.fixed_shape_tensor} (storage {@code
 * FixedSizeList<value_type>[prod(shape)]}, metadata {@code {"shape":[...], "dim_names":[...]}}),
 * which Arrow Java does not ship. Immutable and thread-safe.
 *
 * <p>Call {@link #register()} once before importing batches so that imported frame columns come
 * back as {@link FixedShapeTensorVector}s rather than bare lists.
 */
public final class FixedShapeTensorType extends ArrowType.ExtensionType {
  public static final String NAME = "arrow.fixed_shape_tensor";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final ArrowType valueType;
  private final int[] shape;
  private final java.util.List<String> dimNames; // may be empty

  public FixedShapeTensorType(ArrowType valueType, int[] shape, java.util.List<String> dimNames) {
    this.valueType = Objects.requireNonNull(valueType);
    this.shape = shape.clone();
    this.dimNames = java.util.List.copyOf(dimNames);
    if (!this.dimNames.isEmpty() && this.dimNames.size() != shape.length) {
      throw new IllegalArgumentException("dim_names must match the shape's rank");
    }
    for (int d : shape) {
      if (d < 0) {
        throw new IllegalArgumentException(
            "negative tensor dimension in " + Arrays.toString(shape));
      }
    }
  }

  /** A uint8 tensor type, as robostream's frame columns use. */
  public static FixedShapeTensorType uint8(int[] shape, java.util.List<String> dimNames) {
    return new FixedShapeTensorType(new ArrowType.Int(8, false), shape, dimNames);
  }

  private static final FixedShapeTensorType PROTOTYPE = uint8(new int[] {0}, java.util.List.of());

  /** Registers the type with Arrow Java's extension registry (idempotent). */
  public static void register() {
    if (ExtensionTypeRegistry.lookup(NAME) == null) {
      ExtensionTypeRegistry.register(PROTOTYPE);
    }
  }

  public int[] shape() {
    return shape.clone();
  }

  public java.util.List<String> dimNames() {
    return dimNames;
  }

  public ArrowType valueType() {
    return valueType;
  }

  /** Number of values per tensor (the list size). */
  public int listSize() {
    long n = 1;
    for (int d : shape) {
      n *= d;
    }
    if (n > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("tensor of " + n + " values exceeds a list's size");
    }
    return (int) n;
  }

  @Override
  public ArrowType storageType() {
    return new ArrowType.FixedSizeList(listSize());
  }

  @Override
  public String extensionName() {
    return NAME;
  }

  @Override
  public boolean extensionEquals(ExtensionType other) {
    return other instanceof FixedShapeTensorType o
        && Arrays.equals(shape, o.shape)
        && dimNames.equals(o.dimNames)
        && valueType.equals(o.valueType);
  }

  @Override
  public String serialize() {
    ObjectNode node = JSON.createObjectNode();
    ArrayNode s = node.putArray("shape");
    for (int d : shape) {
      s.add(d);
    }
    if (!dimNames.isEmpty()) {
      ArrayNode names = node.putArray("dim_names");
      dimNames.forEach(names::add);
    }
    return node.toString();
  }

  @Override
  public ArrowType deserialize(ArrowType storageType, String serialized) {
    if (!(storageType instanceof ArrowType.FixedSizeList list)) {
      throw new IllegalArgumentException(NAME + " needs FixedSizeList storage, got " + storageType);
    }
    try {
      JsonNode node = JSON.readTree(serialized);
      JsonNode s = node.get("shape");
      if (s == null || !s.isArray()) {
        throw new IllegalArgumentException(NAME + " metadata lacks a shape: " + serialized);
      }
      int[] dims = new int[s.size()];
      for (int i = 0; i < dims.length; i++) {
        dims[i] = s.get(i).asInt();
      }
      java.util.List<String> names = new java.util.ArrayList<>();
      JsonNode n = node.get("dim_names");
      if (n != null && n.isArray()) {
        n.forEach(v -> names.add(v.asText()));
      }
      // The value type lives in the child field; frame columns are uint8.
      FixedShapeTensorType type = uint8(dims, names);
      if (type.listSize() != list.getListSize()) {
        throw new IllegalArgumentException(
            NAME
                + " shape "
                + Arrays.toString(dims)
                + " does not match list size "
                + list.getListSize());
      }
      return type;
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalArgumentException(NAME + " metadata is not JSON: " + serialized, e);
    }
  }

  @Override
  public FieldVector getNewVector(String name, FieldType fieldType, BufferAllocator allocator) {
    return new FixedShapeTensorVector(
        name,
        allocator,
        fieldType,
        new FixedSizeListVector(
            name, allocator, new FieldType(fieldType.isNullable(), storageType(), null), null));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FixedShapeTensorType t && extensionEquals(t);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(shape) * 31 + dimNames.hashCode();
  }
}
