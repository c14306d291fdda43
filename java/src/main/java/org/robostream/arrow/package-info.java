/**
 * Batches in Arrow's memory model: {@link org.robostream.arrow.FrameBatch} (the frames of a batch,
 * one {@code arrow.fixed_shape_tensor} column per camera, exported through the Arrow C Data or C
 * Device interface, host or CUDA memory), {@link org.robostream.arrow.Tensor} (any column as a
 * shaped, zero-copy view), {@link org.robostream.arrow.BatchMemoryPool} (pooled native batch
 * memory) and the builder the loader fills. Ownership: a batch owns its memory until closed or
 * exported; the consumer of an export releases its share. Design: docs/NATIVE.md, "One batch
 * model".
 */
package org.robostream.arrow;
