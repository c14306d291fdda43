package org.robostream.codec;

/**
 * A decoded picture as the codec left it (planes, strides, FFmpeg pixel format) with its colour
 * matrix and range, before RGB conversion. Valid only inside the {@link PictureReceiver} call that
 * receives it: the memory belongs to the decoder. Immutable view.
 */
public record RawPicture(
    long[] planes, int[] strides, int width, int height, int pixelFormat, ColorSpec color) {}
