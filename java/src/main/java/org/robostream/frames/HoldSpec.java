package org.robostream.frames;

import org.robostream.video.FrameLayout;
import org.robostream.video.FrameSamples;

/**
 * What one decode call's frames of a camera become in a batch, which a {@link FrameDevice} needs to
 * hold them: the batch's frame size and layout, the values its column holds, and, for a depth
 * camera, its video file (its pictures must be depth maps). Immutable.
 *
 * @param depthFile the depth camera's video file, or null for a colour camera
 */
public record HoldSpec(
    FrameSize size, FrameSamples samples, FrameLayout layout, String depthFile) {}
