package org.robostream.video;

/** Which decoder handles AV1: dav1d (default, when present) or FFmpeg's libaom-av1. */
public enum Av1Backend {
  /** dav1d when it can be loaded, else libaom-av1 with a warning. */
  AUTO,
  DAV1D,
  LIBAOM
}
