package org.robostream.dataset.synth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each camera option of the writer yields a dataset whose videos are what info.json declares: the
 * stored size, codec and pixel format as ffprobe reads them from every video file, the declared
 * shape, names and {@code info} fields.
 */
class CameraOptionsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path tmp;

  /** Two episodes of three frames: small and quick to encode, still two pieces per v3.0 file. */
  private SyntheticDatasetSpec spec(
      String name, int cameras, VideoCodecChoice codec, SyntheticDatasetSpec.Layout layout) {
    return new SyntheticDatasetSpec(
        tmp.resolve(name),
        2,
        3,
        0.0,
        cameras,
        96,
        64,
        10,
        codec,
        2,
        -1,
        layout,
        100,
        200,
        SyntheticDatasetSpec.Content.PATTERN,
        3,
        1);
  }

  @Test
  void eachCameraHasItsOwnSizeInBothLayouts() throws IOException {
    for (SyntheticDatasetSpec.Layout layout : SyntheticDatasetSpec.Layout.values()) {
      SyntheticDatasetSpec spec =
          spec("sizes-" + layout, 3, VideoCodecChoice.H264, layout)
              .withCameraOptions(
                  CameraOptions.DEFAULTS.withSizes(
                      Map.of(
                          "top", new FrameSize(320, 240),
                          "observation.images.wrist", new FrameSize(160, 120))));
      SyntheticDatasetWriter.write(spec);
      Map<String, FrameSize> expected =
          Map.of(
              "observation.images.top", new FrameSize(320, 240),
              "observation.images.wrist", new FrameSize(160, 120),
              "observation.images.side", new FrameSize(96, 64));
      JsonNode features = info(spec).path("features");
      for (var e : expected.entrySet()) {
        FrameSize size = e.getValue();
        JsonNode f = features.path(e.getKey());
        assertEquals(List.of(size.height(), size.width(), 3), ints(f.path("shape")), e.getKey());
        assertEquals(size.height(), f.path("info").path("video.height").asInt());
        assertEquals(size.width(), f.path("info").path("video.width").asInt());
        List<Path> videos = videos(spec.out(), e.getKey());
        assertEquals(layout == SyntheticDatasetSpec.Layout.V21 ? 2 : 1, videos.size());
        for (Path v : videos) {
          JsonNode s = probe(v);
          assertEquals(size.width(), s.path("width").asInt(), v.toString());
          assertEquals(size.height(), s.path("height").asInt(), v.toString());
        }
      }
    }
  }

  @Test
  void channelsFirstDeclaresChannelsHeightWidthOverTheSameVideos() throws IOException {
    SyntheticDatasetSpec spec =
        spec("chw", 2, VideoCodecChoice.H264, SyntheticDatasetSpec.Layout.V30)
            .withCameraOptions(
                CameraOptions.DEFAULTS
                    .withChannelsFirst(true)
                    .withSizes(Map.of("wrist", new FrameSize(64, 48))));
    SyntheticDatasetWriter.write(spec);
    JsonNode features = info(spec).path("features");
    JsonNode top = features.path("observation.images.top");
    assertEquals(List.of(3, 64, 96), ints(top.path("shape")));
    assertEquals(List.of("channels", "height", "width"), texts(top.path("names")));
    JsonNode wrist = features.path("observation.images.wrist");
    assertEquals(List.of(3, 48, 64), ints(wrist.path("shape")));
    JsonNode s = probe(videos(spec.out(), "observation.images.wrist").get(0));
    assertEquals(64, s.path("width").asInt());
    assertEquals(48, s.path("height").asInt());
  }

  @Test
  void pixelFormatIsWhatTheEncoderStoresAndInfoDeclares() throws IOException {
    record Case(VideoCodecChoice codec, PixelFormatChoice format) {}
    for (Case c :
        List.of(
            new Case(VideoCodecChoice.H264, PixelFormatChoice.YUV444P),
            new Case(VideoCodecChoice.HEVC, PixelFormatChoice.YUV444P),
            new Case(VideoCodecChoice.AV1, PixelFormatChoice.YUV420P10LE),
            new Case(VideoCodecChoice.H264, PixelFormatChoice.YUV420P10LE))) {
      SyntheticDatasetSpec spec =
          spec("fmt-" + c.codec() + "-" + c.format(), 1, c.codec(), SyntheticDatasetSpec.Layout.V30)
              .withCameraOptions(CameraOptions.DEFAULTS.withPixelFormat(c.format()));
      SyntheticDatasetWriter.write(spec);
      JsonNode video = info(spec).path("features").path("observation.images.top").path("info");
      assertEquals(c.format().ffmpegName(), video.path("video.pix_fmt").asText(), c.toString());
      JsonNode s = probe(videos(spec.out(), "observation.images.top").get(0));
      assertEquals(c.format().ffmpegName(), s.path("pix_fmt").asText(), c.toString());
      assertEquals(c.codec().canonicalName(), s.path("codec_name").asText(), c.toString());
    }
  }

  @Test
  void depthCamerasAreTwelveBitGreyHevcDeclaredAsDepthMaps() throws IOException {
    SyntheticDatasetSpec spec =
        spec("depth", 1, VideoCodecChoice.AV1, SyntheticDatasetSpec.Layout.V30)
            .withCameraOptions(
                CameraOptions.DEFAULTS
                    .withDepthCameras(2)
                    .withSizes(Map.of("depth_1", new FrameSize(64, 48))));
    SyntheticDatasetWriter.write(spec);
    assertEquals(
        List.of("observation.images.top", "observation.images.depth", "observation.images.depth_1"),
        spec.cameraKeys());
    JsonNode features = info(spec).path("features");
    JsonNode top = features.path("observation.images.top").path("info");
    assertFalse(top.path("video.is_depth_map").asBoolean(true));
    assertEquals(
        "av1",
        probe(videos(spec.out(), "observation.images.top").get(0)).path("codec_name").asText());
    for (String key : List.of("observation.images.depth", "observation.images.depth_1")) {
      JsonNode f = features.path(key);
      FrameSize size = key.endsWith("_1") ? new FrameSize(64, 48) : new FrameSize(96, 64);
      assertEquals(List.of(size.height(), size.width(), 1), ints(f.path("shape")), key);
      JsonNode video = f.path("info");
      assertTrue(video.path("video.is_depth_map").asBoolean(), key);
      assertEquals("gray12le", video.path("video.pix_fmt").asText(), key);
      assertEquals("hevc", video.path("video.codec").asText(), key);
      assertEquals(1, video.path("video.channels").asInt(), key);
      JsonNode s = probe(videos(spec.out(), key).get(0));
      assertEquals("hevc", s.path("codec_name").asText(), key);
      assertEquals("gray12le", s.path("pix_fmt").asText(), key);
      assertEquals(size.width(), s.path("width").asInt(), key);
      assertEquals(size.height(), s.path("height").asInt(), key);
    }
  }

  @Test
  void optionsTheEncodersOrCamerasCannotMeetAreRefusedWithTheReason() {
    SyntheticDatasetSpec base =
        spec("refused", 2, VideoCodecChoice.AV1, SyntheticDatasetSpec.Layout.V30);
    var yuv444Av1 =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                base.withCameraOptions(
                    CameraOptions.DEFAULTS.withPixelFormat(PixelFormatChoice.YUV444P)));
    assertTrue(yuv444Av1.getMessage().contains("h264 or hevc"), yuv444Av1.getMessage());
    var unknown =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                base.withCameraOptions(
                    CameraOptions.DEFAULTS.withSizes(Map.of("left", new FrameSize(128, 96)))));
    assertTrue(unknown.getMessage().contains("camera left"), unknown.getMessage());
    assertTrue(unknown.getMessage().contains("observation.images.wrist"), unknown.getMessage());
    var odd =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                base.withCameraOptions(
                    CameraOptions.DEFAULTS.withSizes(Map.of("wrist", new FrameSize(129, 96)))));
    assertTrue(odd.getMessage().contains("observation.images.wrist"), odd.getMessage());
    assertTrue(odd.getMessage().contains("129x96"), odd.getMessage());
  }

  private static JsonNode info(SyntheticDatasetSpec spec) throws IOException {
    return JSON.readTree(spec.out().resolve("meta/info.json").toFile());
  }

  /** Every MP4 of {@code camera}, in either layout (v2.1 nests it under the chunk folder). */
  private static List<Path> videos(Path root, String camera) throws IOException {
    try (Stream<Path> walk = Files.walk(root.resolve("videos"))) {
      return walk.filter(p -> p.toString().endsWith(".mp4"))
          .filter(p -> root.relativize(p).toString().contains("/" + camera + "/"))
          .sorted()
          .toList();
    }
  }

  /** ffprobe's first video stream of {@code video}: codec_name, width, height, pix_fmt. */
  private static JsonNode probe(Path video) throws IOException {
    return FfmpegVideoWriter.probe(video, "stream=codec_name,width,height,pix_fmt")
        .path("streams")
        .path(0);
  }

  private static List<Integer> ints(JsonNode array) {
    List<Integer> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asInt()));
    return out;
  }

  private static List<String> texts(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }
}
