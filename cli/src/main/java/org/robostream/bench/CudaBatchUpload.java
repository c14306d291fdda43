package org.robostream.bench;

import java.nio.ByteBuffer;
import java.util.List;
import org.bytedeco.javacpp.BytePointer;
import org.robostream.arrow.BatchMemoryPool;
import org.robostream.arrow.FrameBatch;
import org.robostream.nativecore.NativeAddress;
import org.robostream.nativecore.NativeCore;
import org.robostream.nativecore.NativeHandle;
import org.robostream.nativecore.NativeStatus;
import org.robostream.stream.Batch;

/**
 * {@code --device cuda[:N]}: moves a batch to a GPU as a trainer's input pipeline does ({@code
 * pin_memory=True} plus {@code tensor.to(device, non_blocking=True)}): buffers go into pinned host
 * memory, then to the device in one asynchronous copy on a stream of its own. Unlike the reference,
 * {@link #copy} waits for the copy, so its time is inside the measured loop.
 *
 * <p>Frames NVDEC decoded on this GPU are not copied (like {@code .to()} of a tensor already
 * there); only table columns move. Frames of another GPU come through the host.
 *
 * <p>Owns the native transfer, freed by {@link #close()} (idempotent). Not thread-safe: one per
 * consumer thread.
 */
public final class CudaBatchUpload implements BatchTransfer {
  private final int device;
  private final NativeHandle transfer;

  /**
   * Throws {@link org.robostream.GpuUnavailableException} naming the cause when {@code cuda:device}
   * cannot be used here (no driver, no such GPU).
   */
  public CudaBatchUpload(int device) {
    org.robostream.nativecore.Cuda.requireDevice(device, "moving batches to cuda:" + device);
    long[] out = new long[1];
    NativeStatus.check(
        NativeCore.rs_transfer_open(device, out), "cannot move batches to cuda:" + device);
    this.device = device;
    this.transfer =
        new NativeHandle(this, out[0], NativeCore::rs_transfer_close, "transfer to cuda:" + device);
  }

  @Override
  public long copy(Batch batch) {
    FrameBatch frames = batch.deviceFrames();
    boolean framesAlreadyHere =
        frames.deviceType() == BatchMemoryPool.DEVICE_CUDA && frames.deviceId() == device;
    List<ByteBuffer> buffers =
        framesAlreadyHere
            ? BatchBuffers.of(batch, false)
            : BatchBuffers.of(batch.toHost(), true); // another GPU's frames come through the host
    long bytes = BatchBuffers.bytes(buffers);
    if (bytes == 0) {
      return 0;
    }
    long[] address = new long[1];
    NativeStatus.check(
        NativeCore.rs_transfer_staging(transfer.get(), bytes, address),
        "cannot get " + bytes + " bytes of pinned memory for cuda:" + device);
    ByteBuffer staging = NativeAddress.bytesAt(address[0], bytes).asByteBuffer();
    for (ByteBuffer buffer : buffers) {
      staging.put(buffer);
    }
    NativeStatus.check(
        NativeCore.rs_transfer_upload(transfer.get(), bytes),
        "cannot copy " + bytes + " bytes to cuda:" + device);
    return bytes;
  }

  /**
   * Copies the first {@code into.remaining()} bytes of the last batch's device copy back into
   * {@code into} (a direct buffer): what the GPU received, to compare with what was sent.
   */
  public void readBack(ByteBuffer into) {
    NativeStatus.check(
        NativeCore.rs_transfer_read_back(
            transfer.get(), new BytePointer(into).address(), into.remaining()),
        "cannot read back from cuda:" + device);
  }

  @Override
  public void close() {
    transfer.close();
  }
}
