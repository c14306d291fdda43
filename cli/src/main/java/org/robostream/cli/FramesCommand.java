package org.robostream.cli;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.robostream.arrow.FrameBatch;
import org.robostream.decode.VideoDecoder;
import org.robostream.video.FrameLayout;
import org.robostream.video.VideoDecoderOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code robostream frames FILE --at ...}: decoded frames as raw RGB24 files plus frames.json. */
@Command(
    name = "frames",
    mixinStandardHelpOptions = true,
    description = "Decode the frames nearest to timestamps into <n>.rgb files and frames.json.")
final class FramesCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "FILE", description = "video file")
  Path file;

  @Option(
      names = "--at",
      required = true,
      split = ",",
      paramLabel = "SECONDS",
      description = "timestamps in seconds, comma-separated (any order, repeats allowed)")
  double[] at;

  @Option(names = "--layout", defaultValue = "hwc", description = "hwc (default) or chw")
  String layout;

  @Option(names = "--out", required = true, paramLabel = "DIR", description = "output folder")
  Path out;

  @Option(
      names = {"--tolerance-s", "--tolerance_s"},
      defaultValue = "1e-4",
      description = "largest allowed |query - pts| in seconds (default ${DEFAULT-VALUE})")
  double tolerance;

  @Option(names = "--threads", defaultValue = "1", description = "decoder threads")
  int threads;

  @Override
  public Integer call() throws Exception {
    FrameLayout frameLayout = FrameLayout.parse(layout);
    VideoDecoderOptions options =
        VideoDecoderOptions.defaults().withThreads(threads).withTolerance(tolerance);
    Files.createDirectories(out);
    try (VideoDecoder decoder = VideoDecoder.open(file, options);
        FrameBatch batch = decoder.frames(null, frameLayout, at)) {
      ByteBuffer frames = batch.tensor().data();
      ByteBuffer pts = batch.tensor("frames.pts").data();
      ByteBuffer index = batch.tensor("frames.frame_index").data();
      int frameBytes = frames.capacity() / at.length;
      List<Map<String, Object>> entries = new ArrayList<>();
      for (int i = 0; i < at.length; i++) {
        byte[] rgb = new byte[frameBytes];
        frames.get(i * frameBytes, rgb);
        Files.write(out.resolve(i + ".rgb"), rgb);
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("file", i + ".rgb");
        entry.put("query", at[i]);
        entry.put("pts", pts.getDouble(8 * i));
        entry.put("frame_index", index.getLong(8 * i));
        entry.put("width", decoder.info().width());
        entry.put("height", decoder.info().height());
        entry.put("layout", frameLayout.name().toLowerCase(java.util.Locale.ROOT));
        entries.add(entry);
      }
      Json.MAPPER.writeValue(out.resolve("frames.json").toFile(), entries);
      System.out.println("wrote " + at.length + " frames to " + out);
    }
    return 0;
  }
}
