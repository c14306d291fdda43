/**
 * The decoder for those who decode video files alone ({@link org.robostream.decode.VideoDecoder}):
 * frames by pts or position into a {@link org.robostream.arrow.FrameBatch}. A facade over the
 * unexported {@code codec} package, where the loader's decode machinery lives; its options, stream
 * description and errors are in {@code video}.
 */
package org.robostream.decode;
