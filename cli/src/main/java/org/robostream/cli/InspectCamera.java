package org.robostream.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.robostream.codec.VideoHeader;
import org.robostream.dataset.CameraKind;
import org.robostream.dataset.Feature;
import org.robostream.dataset.FrameShape;
import org.robostream.dataset.LeRobotMetadata;

/**
 * One camera as {@code inspect} describes it: what info.json declares (its own frame shape, in
 * height x width x channels whatever axis order the declaration uses, codec, pixel format) and, for
 * a video camera with files present, what the first present file's container header says (codec,
 * size, pixel format; nothing is decoded). A camera whose files are all absent shows the declared
 * values and says so. Built once per camera, on the command's thread.
 */
final class InspectCamera {
  private final Feature feature;
  private final FrameShape shape;
  private final CameraKind kind;
  private final VideoHeader probed;
  private final int files;
  private final int present;

  private InspectCamera(
      Feature feature, CameraKind kind, VideoHeader probed, int files, int present) {
    this.feature = feature;
    this.shape = feature.frameShape();
    this.kind = kind;
    this.probed = probed;
    this.files = files;
    this.present = present;
  }

  /** Every camera (video and image features) of {@code m}, in info.json order. */
  static List<InspectCamera> of(LeRobotMetadata m) {
    return m.info().features().values().stream()
        .filter(f -> m.cameras().contains(f.name())) // the kept (selected) cameras
        .map(f -> describe(m, f))
        .toList();
  }

  private static InspectCamera describe(LeRobotMetadata m, Feature f) {
    if (f.isImage()) {
      return new InspectCamera(f, CameraKind.IMAGE, null, 0, 0);
    }
    List<Path> videoFiles = m.videoFiles(f.name());
    List<Path> present = videoFiles.stream().filter(Files::isRegularFile).toList();
    VideoHeader header = present.isEmpty() ? null : VideoHeader.read(present.get(0));
    return new InspectCamera(
        f,
        CameraKind.of(f, header == null ? null : header.pixelFormat()),
        header,
        videoFiles.size(),
        present.size());
  }

  /** The JSON object: declared values, and the probed ones where a file was read. */
  Map<String, Object> json() {
    Map<String, Object> c = new LinkedHashMap<>();
    c.put("key", feature.name());
    c.put("kind", kind.label());
    c.put("dtype", feature.dtype());
    Map<String, Object> declared = new LinkedHashMap<>();
    declared.put("height", shape.height());
    declared.put("width", shape.width());
    declared.put("channels", shape.channels());
    declared.put("shape", feature.shape());
    declared.put("axes", shape.channelsFirst() ? "CHW" : "HWC");
    declared.put("codec", feature.videoInfo().get("video.codec"));
    declared.put("pixel_format", feature.videoInfo().get("video.pix_fmt"));
    declared.put("is_depth_map", feature.videoInfo().get("video.is_depth_map"));
    c.put("declared", declared);
    c.put("declared_codec", feature.videoInfo().get("video.codec"));
    if (probed != null) {
      c.put("probed_file", probed.file());
      c.put("codec", probed.codec());
      c.put("width", probed.width());
      c.put("height", probed.height());
      c.put("pixel_format", probed.pixelFormat());
      c.put("size_matches_declared", sizeMatches());
    }
    if (feature.isVideo()) {
      c.put("video_files", files);
      c.put("video_files_present", present);
      c.put("files_absent", present == 0);
    }
    return c;
  }

  /** One line of text output. */
  String line() {
    StringBuilder s = new StringBuilder();
    s.append(
        String.format(
            "camera %s (%s): declared %d x %d x %d (H x W x C",
            feature.name(), kind.label(), shape.height(), shape.width(), shape.channels()));
    if (shape.channelsFirst()) {
      s.append("; info.json ").append(Arrays.toString(feature.shape())).append(" channels first");
    }
    s.append(")");
    if (feature.isImage()) {
      return s.append("; PNG/JPEG images in the data files").toString();
    }
    s.append(", ").append(declaredValue("video.codec")).append(' ');
    s.append(declaredValue("video.pix_fmt"));
    if (probed == null) {
      return s.append(
              String.format("; video files absent (0/%d present): declared values only", files))
          .toString();
    }
    return s.append(
            String.format(
                "; probed %s %dx%d %s%s; video files present %d/%d",
                probed.codec(),
                probed.width(),
                probed.height(),
                probed.pixelFormat(),
                sizeMatches() ? "" : " (NOT the declared size: streaming refuses it)",
                present,
                files))
        .toString();
  }

  /** Whether the probed file's frames have the declared size (the build refuses them if not). */
  private boolean sizeMatches() {
    return probed.width() == shape.width() && probed.height() == shape.height();
  }

  private String declaredValue(String key) {
    Object v = feature.videoInfo().get(key);
    return v == null ? "?" : v.toString();
  }
}
