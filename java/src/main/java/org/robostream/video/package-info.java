/**
 * The words of video decoding that users meet: the decode device ({@link
 * org.robostream.video.Device}, {@link org.robostream.video.DecodeDeviceSpec}), the frame layout
 * and samples, the decoder's options, what a stream is ({@link
 * org.robostream.video.VideoStreamInfo}), decode and decoder-cache statistics, and the typed {@link
 * org.robostream.video.VideoException}s that name the file. No code of the decoder is here: it is
 * in the unexported {@code codec} package, with {@code decode.VideoDecoder} as its facade.
 */
package org.robostream.video;
