/**
 * The decode machinery, not exported: {@link org.robostream.codec.Decoder} (frame-exact, pts-based,
 * planned decoding of a file's frames: sorted, de-duplicated, one pass per GOP) over its backends
 * (FFmpeg, dav1d, NVDEC), frame tables, colour conversion ({@link
 * org.robostream.codec.SwscaleConverter}), the held-frame records and the {@link
 * org.robostream.codec.DecoderCache} (an LRU of open decoders per worker). Users decode files
 * through {@code decode.VideoDecoder}; the loader's packages call this one. Decoders are not
 * thread-safe (one per worker); caches and counters are. Design: docs/LOADER.md and docs/NATIVE.md.
 */
package org.robostream.codec;
