package org.robostream.bench;

import java.nio.ByteBuffer;
import java.util.List;
import org.robostream.stream.Batch;

/**
 * {@code --device cpu}: copies every buffer of a batch into one reused host buffer, so every byte
 * the loader delivered is read once by the consumer. (The reference's {@code .to("cpu")} of a host
 * tensor copies nothing; a consumer that reads nothing would let a benchmark time batches whose
 * memory was never touched.) GPU-decoded frames come to the host first ({@link Batch#toHost()}: a
 * device-to-host copy, then this one).
 *
 * <p>Ownership: the destination is a direct buffer of this object, grown when a batch is larger,
 * freed with it by the garbage collector. Not thread-safe: one per consumer thread.
 */
public final class HostBatchCopy implements BatchTransfer {
  private ByteBuffer destination = ByteBuffer.allocateDirect(0);

  @Override
  public long copy(Batch batch) {
    List<ByteBuffer> buffers = BatchBuffers.of(batch.toHost(), true);
    long bytes = BatchBuffers.bytes(buffers);
    if (bytes > destination.capacity()) {
      destination = ByteBuffer.allocateDirect(Math.toIntExact(bytes));
    }
    destination.clear();
    for (ByteBuffer buffer : buffers) {
      destination.put(buffer);
    }
    destination.flip();
    return bytes;
  }

  /** The bytes of the last batch copied (what a CPU trainer would read), read-only. */
  public ByteBuffer lastCopy() {
    return destination.asReadOnlyBuffer();
  }

  @Override
  public void close() {
    destination = ByteBuffer.allocateDirect(0);
  }
}
