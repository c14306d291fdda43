package org.robostream.stream;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.robostream.frames.FrameSize;

/**
 * The size each camera's frames have in the batches: the size its files declare, or the builder's
 * {@code resize(...)} (a camera's own size before the one for all cameras). Checked when the
 * dataset is built: resize names cameras of the dataset, sides are 1..8192 (what a decoder
 * accepts). Frames are scaled inside their colour conversion, never by an extra pass: the CPU frame
 * device's swscale call when the batch is built; on the CUDA frame device the conversion into the
 * held block, swscale for a CPU decoder ({@code deviceBatches(true)}, files NVDEC cannot take) and
 * the colour kernel for NVDEC. Depth cameras are never resized (interpolating a depth map invents
 * depths at object edges): a resize that would change one is refused. Stateless.
 */
final class BatchFrameSizes {
  private static final int MAX_SIDE = 8192;

  private BatchFrameSizes() {}

  /**
   * @param declared each camera's size as info.json declares it (its files' size)
   * @param depthCameras the cameras whose frames are depth maps
   * @param all {@code resize(height, width)}, or null
   * @param perCamera {@code resize(camera, height, width)} by camera
   */
  static Map<String, FrameSize> resolve(
      Map<String, FrameSize> declared,
      List<String> cameras,
      java.util.Set<String> depthCameras,
      FrameSize all,
      Map<String, FrameSize> perCamera) {
    for (var e : perCamera.entrySet()) {
      if (!cameras.contains(e.getKey())) {
        throw new IllegalArgumentException(
            "resize(...) names "
                + e.getKey()
                + ", which is not a camera of this dataset; cameras: "
                + cameras);
      }
      checkSides(e.getKey(), e.getValue());
    }
    if (all != null) {
      checkSides("every camera", all);
    }
    Map<String, FrameSize> sizes = new HashMap<>();
    for (String c : cameras) {
      FrameSize size = perCamera.getOrDefault(c, all != null ? all : declared.get(c));
      if (depthCameras.contains(c) && !size.equals(declared.get(c))) {
        throw new IllegalArgumentException(
            "resize(...) would resize the depth camera "
                + c
                + ", whose values must not be interpolated; resize the colour cameras one by one"
                + " with resize(...) naming each");
      }
      sizes.put(c, size);
    }
    return sizes;
  }

  private static void checkSides(String what, FrameSize size) {
    if (size.height() < 1
        || size.width() < 1
        || size.height() > MAX_SIDE
        || size.width() > MAX_SIDE) {
      throw new IllegalArgumentException(
          "resize(...) of "
              + what
              + ": height "
              + size.height()
              + " and width "
              + size.width()
              + " must be 1.."
              + MAX_SIDE);
    }
  }
}
