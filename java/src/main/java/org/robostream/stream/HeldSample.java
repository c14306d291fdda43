package org.robostream.stream;

import org.robostream.codec.HeldFrame;
import org.robostream.dataset.EpisodeInfo;
import org.robostream.frames.FrameMemory;

/**
 * One sample of a batch being built: its episode, the episode's rows, and its decoded frames held
 * in a {@link FrameMemory} (per camera in context order, per window position in order). Immutable
 * record; the frames' blocks belong to the worker that holds them.
 */
record HeldSample(long sample, EpisodeInfo episode, EpisodeRows rows, HeldFrame[] frames) {}
