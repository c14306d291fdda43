package org.robostream.bench;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;
import org.robostream.arrow.DeviceBatch;
import org.robostream.stream.Batch;

/**
 * The memory a consumer moves when it moves a batch to its training device, as read-only views
 * in a fixed order: every buffer of every table column (validity, offsets, values; a column's
 * children after it), which for host batches includes the frame tensors; then, for device
 * batches, each camera's frames unless the consumer keeps them where they are. Views, not copies:
 * valid while the batch is open. Stateless.
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
      addColumn(column, out);
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

  private static void addColumn(FieldVector column, List<ByteBuffer> out) {
    // getFieldBuffers sets each buffer's writer index to the bytes its values use, so
    // readableBytes is the column's content, not the allocation (which is rounded up).
    for (ArrowBuf buffer : column.getFieldBuffers()) {
      long bytes = buffer.readableBytes();
      if (bytes > 0) {
        out.add(buffer.nioBuffer(buffer.readerIndex(), Math.toIntExact(bytes))
            .asReadOnlyBuffer());
      }
    }
    for (FieldVector child : column.getChildrenFromFields()) {
      addColumn(child, out);
    }
  }
}
