package org.robostream.stream;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import org.robostream.dataset.EpisodeInfo;
import org.robostream.dataset.LeRobotMetadata;
import org.robostream.dataset.VideoSpan;
import org.robostream.framecache.FrameCache;
import org.robostream.framecache.FrameSpans;

/**
 * Which frame positions of each video file the loader reads: the spans of the kept episodes, for
 * every kept video camera. In a v3.0 dataset many episodes share one MP4; told these, the frame
 * cache reserves the selected episodes' frames of a file rather than the whole file, so a cache
 * sized for the selection holds it. The selection, not a rank's share: the node's ranks share the
 * cache's files, each reading its own episodes of them. Immutable.
 */
final class CachedPositions {
  private final Map<Path, FrameSpans> byFile;

  private CachedPositions(Map<Path, FrameSpans> byFile) {
    this.byFile = Map.copyOf(byFile);
  }

  /** The positions the kept episodes of {@code metadata}'s kept video cameras occupy. */
  static CachedPositions of(LeRobotMetadata metadata) {
    Map<Path, FrameSpans.Builder> spans = new HashMap<>();
    for (String camera : metadata.videoCameras()) {
      for (EpisodeInfo e : metadata.episodes()) {
        VideoSpan span = e.video(camera);
        if (span != null && e.length() > 0) {
          spans
              .computeIfAbsent(span.file(), f -> FrameSpans.builder())
              .add(span.frameOffset(), e.length());
        }
      }
    }
    Map<Path, FrameSpans> built = new HashMap<>();
    spans.forEach((file, b) -> built.put(file, b.build()));
    return new CachedPositions(built);
  }

  /** The positions read of {@code file}, or null for a file no kept episode reads. */
  FrameSpans of(Path file) {
    return byFile.get(file);
  }

  /**
   * {@code identities}, telling {@code cache} what is read of each file whose identity it gives: a
   * worker asks a file's identity before its first lookup of it.
   */
  Function<Path, String> tellingWhatIsRead(FrameCache cache, Function<Path, String> identities) {
    return file -> {
      String identity = identities.apply(file);
      FrameSpans read = byFile.get(file);
      if (identity != null && read != null) {
        cache.expect(identity, read);
      }
      return identity;
    };
  }
}
