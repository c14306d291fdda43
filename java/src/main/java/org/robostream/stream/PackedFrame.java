package org.robostream.stream;

import org.robostream.video.ColorSpec;

/** One decoded picture held packed in a {@link FrameStore} block. Immutable. */
record PackedFrame(long address, long bytes, int width, int height, int pixelFormat,
    ColorSpec color) {}
