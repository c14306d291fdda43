package org.robostream.stream;

import java.nio.file.Path;
import java.util.List;
import org.robostream.codec.VideoHeader;
import org.robostream.dataset.LeRobotMetadata;
import org.robostream.source.VideoSources;

/**
 * Checks, when a stream is built, that each camera's frames have the size info.json declares for
 * it, from the container header of the camera's first video file (no decoding, no packet scan).
 * Every batch's frame columns are sized from the declaration, so a declaration that does not match
 * the videos (a channels-first shape read the other way round, a camera re-recorded at another
 * size) is refused here, before any worker starts, instead of when the first sample of that camera
 * is decoded. Every file opened while streaming is still checked against the same declaration.
 * Stateless.
 */
final class DeclaredFrameSizes {
  private DeclaredFrameSizes() {}

  /**
   * @param cameras the video features the stream delivers
   * @param videos where the video bytes come from (local files, or the Hub's)
   * @return each camera's first file's header (cameras without kept episodes left out)
   * @throws org.robostream.dataset.DatasetException.BadMetadata naming the file, the camera and
   *     both sizes, when they differ
   */
  static java.util.Map<String, VideoHeader> check(
      LeRobotMetadata metadata, List<String> cameras, VideoSources videos) {
    java.util.Map<String, VideoHeader> headers = new java.util.LinkedHashMap<>();
    for (String camera : cameras) {
      List<Path> files = metadata.videoFiles(camera);
      if (files.isEmpty()) {
        continue; // no episodes kept: nothing will be decoded
      }
      VideoHeader header = VideoHeader.read(videos.open(files.get(0)));
      metadata
          .info()
          .features()
          .get(camera)
          .frameShape()
          .requireSize(camera, header.file(), header.width(), header.height());
      headers.put(camera, header);
    }
    return headers;
  }
}
