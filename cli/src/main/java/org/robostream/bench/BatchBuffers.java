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
import org.robostream.stream.Batch;

/**
 * The memory a consumer moves when it moves a batch to its training device: the batch's tensors, as
 * read-only views in column order — every numeric table column's values (windowed columns and their
 * {@code _is_pad} masks through their lists; booleans bit-packed as Arrow keeps them), then each
 * camera's frames unless the consumer keeps them where they are. Not moved, as a trainer turning
 * columns into tensors does not move them: validity bitmaps (an eighth of a frame tensor's size,
 * one bit per byte of it) and strings (the task, which the reference's consumer leaves on the host
 * too). Views, not copies: valid while the batch is open. Stateless.
 */
final class BatchBuffers {
  private BatchBuffers() {}

  /**
   * @param withFrames whether the frames are included; they must be in host memory then ({@link
   *     Batch#toHost()})
   */
  static List<ByteBuffer> of(Batch b, boolean withFrames) {
    List<ByteBuffer> out = new ArrayList<>();
    for (FieldVector column : b.root().getFieldVectors()) {
      addTensor(column, out);
    }
    if (withFrames) {
      for (String camera : b.cameras()) {
        out.add(b.frames(camera).data());
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
