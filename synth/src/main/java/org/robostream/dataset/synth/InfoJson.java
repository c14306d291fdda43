package org.robostream.dataset.synth;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code meta/info.json} of a generated dataset, with the fields LeRobot writes. Stateless. */
final class InfoJson {
  private InfoJson() {}

  static Map<String, Object> build(
      SyntheticDatasetSpec spec,
      CameraFormat cameras,
      long totalFrames,
      String dataPath,
      String videoPath) {
    Map<String, Object> info = new LinkedHashMap<>();
    info.put("codebase_version", spec.layout().version());
    info.put("robot_type", "robostream_synthetic");
    info.put("total_episodes", spec.episodes());
    info.put("total_frames", totalFrames);
    info.put("total_tasks", Math.min(spec.tasks(), spec.episodes()));
    info.put("chunks_size", 1000);
    info.put("fps", spec.fps());
    info.put("splits", Map.of("train", "0:" + spec.episodes()));
    info.put("data_path", dataPath);
    info.put("video_path", spec.cameraList().isEmpty() || cameras.isImage() ? null : videoPath);
    Map<String, Object> features = new LinkedHashMap<>();
    List<String> motors = new java.util.ArrayList<>();
    for (int j = 0; j < spec.stateDimension(); j++) {
      motors.add("motor_" + j);
    }
    features.put("action", feature("float32", List.of(spec.stateDimension()), motors));
    features.put("observation.state", feature("float32", List.of(spec.stateDimension()), motors));
    for (SyntheticCamera camera : spec.cameraList()) {
      features.put(camera.key(), cameraFeature(spec, camera, cameras));
    }
    features.put("timestamp", feature("float32", List.of(1), null));
    features.put("frame_index", feature("int64", List.of(1), null));
    features.put("episode_index", feature("int64", List.of(1), null));
    features.put("index", feature("int64", List.of(1), null));
    features.put("task_index", feature("int64", List.of(1), null));
    if (spec.languageColumns()) {
      features.put(LanguageColumnWriter.PERSISTENT, LanguageColumnWriter.feature());
      features.put(LanguageColumnWriter.EVENTS, LanguageColumnWriter.feature());
    }
    info.put("features", features);
    return info;
  }

  /**
   * A camera's feature: shape and names in the declared axis order ({@code [height, width,
   * channels]}, or {@code [channels, height, width]} with {@link CameraOptions#channelsFirst()}),
   * its own size, codec and pixel format in {@code info}.
   */
  private static Map<String, Object> cameraFeature(
      SyntheticDatasetSpec spec, SyntheticCamera camera, CameraFormat format) {
    int h = camera.size().height();
    int w = camera.size().width();
    int c = camera.channels();
    String dtype = format.isImage() ? "image" : "video";
    Map<String, Object> f =
        spec.cameraOptions().channelsFirst()
            ? feature(dtype, List.of(c, h, w), List.of("channels", "height", "width"))
            : feature(dtype, List.of(h, w, c), List.of("height", "width", "channels"));
    if (format.isImage()) {
      return f; // image features carry no video info
    }
    Map<String, Object> video = new LinkedHashMap<>();
    video.put("video.height", h);
    video.put("video.width", w);
    video.put("video.codec", camera.codec().canonicalName());
    video.put("video.pix_fmt", camera.pixelFormat());
    video.put("video.is_depth_map", camera.depth());
    video.put("video.fps", spec.fps());
    video.put("video.channels", c);
    video.put("video.g", spec.gop());
    video.put("video.crf", spec.effectiveCrf(camera));
    video.put("has_audio", false);
    f.put("info", video);
    return f;
  }

  private static Map<String, Object> feature(String dtype, List<Integer> shape, Object names) {
    Map<String, Object> f = new LinkedHashMap<>();
    f.put("dtype", dtype);
    f.put("shape", shape);
    f.put("names", names);
    return f;
  }
}
