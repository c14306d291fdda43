/**
 * The streaming loader: {@link org.robostream.stream.StreamingDataset} (the entry point: built from
 * a location, iterated as {@link org.robostream.stream.Batch}es) with its sharding over ranks and
 * worker threads, the seeded shuffle, windows with padding masks, exact and elastic resume ({@link
 * org.robostream.stream.StreamingDataset#state()}), the memory budget, and the one frame route from
 * decoder to batch slot ({@code FramePath}, through a worker's {@code frames.FrameDevice}). One
 * consumer thread per dataset; the workers are threads the dataset owns. Design: docs/LOADER.md
 * ("Streaming").
 */
package org.robostream.stream;
