package org.robostream.frames;

/** A camera's frame size, in pixels. Immutable. */
public record FrameSize(int height, int width) {}
