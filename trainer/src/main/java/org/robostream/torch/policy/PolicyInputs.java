package org.robostream.torch.policy;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.pytorch.Device;
import org.bytedeco.pytorch.Tensor;
import org.bytedeco.pytorch.TensorOptions;
import org.bytedeco.pytorch.global.torch;
import org.robostream.arrow.DType;
import org.robostream.policy.CameraInput;
import org.robostream.policy.PolicyConfig;
import org.robostream.stream.Batch;

/**
 * What one training step reads, as libtorch tensors on the policy's device: each camera's frames
 * [B, C, H, W] as decoded, the raw state [B, D] (or null), the raw action chunk [B, T, D] and its
 * padding mask [B, T] (or null: nothing is padding). Normalisation is the trainer's.
 *
 * <p>From a {@link Batch} ({@link #of}): on the CPU, views of the batch's memory, valid while it is
 * open; on a GPU, one copy per column. GPU-decoded frames go through the host (no device hand-off
 * yet). Tests build it from tensors ({@link #PolicyInputs}).
 *
 * <p>Ownership: the caller owns the tensors (close them, or use a {@code PointerScope}). Immutable.
 */
public record PolicyInputs(List<Tensor> frames, Tensor state, Tensor action, Tensor actionIsPad) {
  public PolicyInputs {
    frames = List.copyOf(frames);
  }

  /** Rows in the batch. */
  public long rows() {
    return action.size(0);
  }

  /**
   * The columns {@code config} reads from {@code batch}, checked against its shapes.
   *
   * @throws IllegalArgumentException when the batch lacks a column the policy reads or has another
   *     shape than its configuration, naming both
   */
  public static PolicyInputs of(Batch batch, PolicyConfig config, Device device) {
    if (!batch.deviceFrames().onHost()) {
      batch.toHost();
    }
    int rows = batch.size();
    List<Tensor> frames = new ArrayList<>();
    for (CameraInput camera : config.cameras()) {
      frames.add(
          copy(
              batch.tensor(camera.name()),
              new long[] {rows, camera.channels(), camera.height(), camera.width()},
              device));
    }
    Tensor state = null;
    if (config.stateStats() != null) {
      String key = config.stateStats().key();
      state = copy(column(batch, key), new long[] {rows, config.stateDimension()}, device);
    }
    String key = config.actionStats().key();
    Tensor action =
        copy(
            column(batch, key),
            new long[] {rows, config.actionSteps(), config.actionDimension()},
            device);
    Tensor pad = null;
    if (batch.columnNames().contains(key + "_is_pad")) {
      pad = copy(batch.tensor(key + "_is_pad"), new long[] {rows, config.actionSteps()}, device);
    }
    return new PolicyInputs(frames, state, action, pad);
  }

  private static org.robostream.arrow.Tensor column(Batch batch, String key) {
    if (!batch.columnNames().contains(key)) {
      throw new IllegalArgumentException(
          "the batch has no "
              + key
              + " (the policy reads it); its columns: "
              + batch.columnNames());
    }
    return batch.tensor(key);
  }

  /** The host tensor {@code t} on {@code device} (a view on the CPU), checked for shape. */
  private static Tensor copy(org.robostream.arrow.Tensor t, long[] want, Device device) {
    if (!Arrays.equals(t.shape(), want)) {
      throw new IllegalArgumentException(
          t.name()
              + " is "
              + Arrays.toString(t.shape())
              + " but the policy takes "
              + Arrays.toString(want));
    }
    ByteBuffer data = t.data();
    try (BytePointer memory = new BytePointer(data)) {
      Tensor view = torch.from_blob(memory, want, new TensorOptions(scalarType(t.dtype())));
      // The batch's memory is read only: nothing writes into an input (the policy converts frames
      // into its own buffer).
      if (!device.is_cpu()) {
        return view.to(device, view.scalar_type());
      }
      // Booleans are expanded from Arrow's bitmaps into a buffer of their own, which nothing
      // keeps once this returns: copied (a few bytes). Other columns view the batch's memory.
      return t.dtype() == DType.BOOL ? view.clone() : view;
    }
  }

  private static torch.ScalarType scalarType(DType dtype) {
    return switch (dtype) {
      case UINT8 -> torch.ScalarType.Byte;
      case UINT16 -> torch.ScalarType.UInt16;
      case FLOAT32 -> torch.ScalarType.Float;
      case FLOAT64 -> torch.ScalarType.Double;
      case INT64 -> torch.ScalarType.Long;
      case BOOL -> torch.ScalarType.Bool;
    };
  }
}
