/**
 * Frame devices: where a loader worker's decoded pictures are held while their samples wait in the
 * shuffle buffer, and how a held frame is written into its batch slot. One interface, {@link
 * org.robostream.frames.FrameDevice} (after torchcodec's {@code DeviceInterface}), owns a device's
 * held-frame memory ({@link org.robostream.frames.FrameMemory}), its stream and synchronisation,
 * and the two operations a frame needs: hold a decoded picture ({@link
 * org.robostream.frames.PictureHolder}, a {@code video.PictureReceiver}) and write a held frame
 * ({@link org.robostream.codec.HeldFrame}) into a slot. Two implementations: {@link
 * org.robostream.frames.CpuFrameDevice} (pictures held packed, converted into the slot when the
 * batch is built) and {@link org.robostream.frames.CudaFrameDevice} (converted when decoded into
 * the batch device's pool, copied into the slot). Internal (not exported); one device per worker
 * thread. Design: docs/ARCHITECTURE.md ("How a frame travels") and docs/LOADER.md.
 */
package org.robostream.frames;
