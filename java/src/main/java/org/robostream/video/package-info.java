/**
 * Video and image decoding: {@link org.robostream.video.VideoDecoder} (frame-exact, pts-based,
 * planned decoding of a file's frames: sorted, de-duplicated, one pass per GOP) over its backends
 * (FFmpeg, dav1d, NVDEC), frame tables, colour conversion ({@link
 * org.robostream.video.SwscaleConverter}), the {@link org.robostream.video.DecoderCache} (an LRU of
 * open decoders per worker, keyed by file, device and {@link org.robostream.video.DecoderSlot}) and
 * the typed {@link org.robostream.video.VideoException}s naming the file. Decoders are not
 * thread-safe (one per worker); caches and counters are. Design: docs/LOADER.md and docs/NATIVE.md.
 */
package org.robostream.video;
