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
    info.put("video_path", spec.cameras() == 0 || cameras.isImage() ? null : videoPath);
    Map<String, Object> features = new LinkedHashMap<>();
    List<String> motors = new java.util.ArrayList<>();
    for (int j = 0; j < spec.stateDimension(); j++) {
      motors.add("motor_" + j);
    }
    features.put("action", feature("float32", List.of(spec.stateDimension()), motors));
    features.put("observation.state", feature("float32", List.of(spec.stateDimension()), motors));
    for (String camera : spec.cameraKeys()) {
      if (cameras.isImage()) {
        features.put(
            camera,
            feature(
                "image",
                List.of(spec.height(), spec.width(), 3),
                List.of("height", "width", "channels")));
        continue;
      }
      Map<String, Object> f =
          feature(
              "video",
              List.of(spec.height(), spec.width(), 3),
              List.of("height", "width", "channels"));
      Map<String, Object> video = new LinkedHashMap<>();
      video.put("video.height", spec.height());
      video.put("video.width", spec.width());
      video.put("video.codec", spec.codec().canonicalName());
      video.put("video.pix_fmt", "yuv420p");
      video.put("video.is_depth_map", false);
      video.put("video.fps", spec.fps());
      video.put("video.channels", 3);
      video.put("video.g", spec.gop());
      video.put("video.crf", spec.effectiveCrf());
      video.put("has_audio", false);
      f.put("info", video);
      features.put(camera, f);
    }
    features.put("timestamp", feature("float32", List.of(1), null));
    features.put("frame_index", feature("int64", List.of(1), null));
    features.put("episode_index", feature("int64", List.of(1), null));
    features.put("index", feature("int64", List.of(1), null));
    features.put("task_index", feature("int64", List.of(1), null));
    info.put("features", features);
    return info;
  }

  private static Map<String, Object> feature(String dtype, List<Integer> shape, Object names) {
    Map<String, Object> f = new LinkedHashMap<>();
    f.put("dtype", dtype);
    f.put("shape", shape);
    f.put("names", names);
    return f;
  }
}
