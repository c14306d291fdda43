package org.robostream.video;

/**
 * Where frames are decoded. Part of a decoder cache key. Users name a device with {@link
 * DecodeDeviceSpec} ({@code cpu}, {@code cuda[:N]}, {@code cuda-or-cpu[:N]}).
 */
public enum Device {
  CPU,
  CUDA
}
