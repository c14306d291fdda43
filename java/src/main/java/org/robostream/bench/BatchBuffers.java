package org.robostream.bench;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.ExtensionTypeVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.robostream.arrow.DeviceBatch;
import org.robostream.stream.Batch;

/**
 * The memory a consumer moves when it moves a batch to its training device: the batch's tensors,
 * as read-only views in column order — every numeric column's values (the frame tensors of a
 * host batch included; windowed columns and their {@code _is_pad} masks through their lists;
 * booleans bit-packed as Arrow keeps them), then, for a device batch, each camera's frames unless
 * the consumer keeps them where they are. Not moved, as a trainer turning columns into tensors
 * does not move them: validity bitmaps (an eighth of a frame tensor's size, one bit per byte of
 * it) and strings (the task, which the reference's consumer leaves on the host too). Views, not
 * copies: valid while the batch is open. Stateless.
 */
final class BatchBuffers {
  private BatchBuffers() {}

  /**
   * @param withDeviceFrames whether a device batch's frames are included (as host memory: a GPU
   *     batch's frames are copied to the host once, by {@link Batch#frames})
   */
  static List<ByteBuffer> of(Batch b, boolean withDeviceFrames) {
    List<ByteBuffer> out = new ArrayList<>();
    for (FieldVector column : b.root().getFieldVectors()) {
      addTensor(column, out);
    }
    DeviceBatch frames = b.deviceFrames();
    if (frames != null && withDeviceFrames) {
      for (String camera : frames.frameColumns()) {
        out.add(b.frames(camera).data().duplicate());
      }
    }
    return out;
  }

  static long bytes(List<ByteBuffer> buffers) {
    long n = 0;
    for (ByteBuffer buffer : buffers) {
      n += buffer.remaining();
    }
    return n;
  }

  private static void addTensor(ValueVector column, List<ByteBuffer> out) {
    if (column instanceof ExtensionTypeVector<?> extension) {
      addTensor(extension.getUnderlyingVector(), out);
    } else if (column instanceof FixedSizeListVector list) {
      addTensor(list.getDataVector(), out);
    } else if (column instanceof BaseFixedWidthVector values) {
      long count = values.getValueCount();
      long bytes = values instanceof BitVector ? (count + 7) / 8 : count * values.getTypeWidth();
      if (bytes > 0) {
        out.add(values.getDataBuffer().nioBuffer(0, Math.toIntExact(bytes)).asReadOnlyBuffer());
      }
    }
  }
}
