package org.robostream.stream;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.robostream.RobostreamException;
import org.robostream.dataset.EpisodeInfo;
import org.robostream.dataset.VideoSpan;
import org.robostream.video.DecodeResult;
import org.robostream.video.DecoderCache;
import org.robostream.video.Device;
import org.robostream.video.PictureSink;
import org.robostream.video.VideoDecoder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decodes the frames of episode-local frame numbers for one camera into given addresses.
 * Inside a file whose frame count matches the metadata, a frame is addressed by its position
 * (frames of the episodes before it plus its number) and its pts is checked against
 * {@code from_timestamp + frame / fps}: drift is recorded, and a frame more than half a frame
 * period off is an error. Otherwise frames are looked up by pts within the tolerance (warned
 * once per file). Errors come out as {@link SampleException} naming file, episode and camera.
 * Not thread-safe: one per worker.
 */
final class FrameFetcher {
  private static final Logger LOG = LoggerFactory.getLogger(FrameFetcher.class);

  private final DecoderCache cache;
  private final Device device;
  private final int fps;
  private final double tolerance;
  private final StreamCounters counters;
  private final Map<Path, Boolean> byPosition = new HashMap<>();

  FrameFetcher(DecoderCache cache, Device device, int fps, double tolerance,
      StreamCounters counters) {
    this.cache = cache;
    this.device = device;
    this.fps = fps;
    this.tolerance = tolerance;
    this.counters = counters;
  }

  /**
   * Before decoding a run of {@code episode} starting at frame {@code frame}: tells every
   * camera's file where that run's decoding will start reading, so the blocks of all cameras of
   * a remote dataset download at once instead of one camera after the other (decoding one
   * camera takes as long as fetching the next one's block). A hint: decodes nothing, never fails.
   */
  void prefetch(EpisodeInfo episode, java.util.List<String> cameras, int frame) {
    for (String camera : cameras) {
      VideoSpan span = episode.video(camera);
      cache.prefetch(span.file().toString(), device, span.frameOffset() + frame);
    }
  }

  /** Decodes {@code frames} (episode-local) of {@code camera}; request i goes to the sink as i. */
  void fetch(EpisodeInfo episode, String camera, int[] frames, PictureSink sink, long reader) {
    VideoSpan span = episode.video(camera);
    String file = span.file().toString();
    try {
      VideoDecoder decoder = cache.get(file, device, reader);
      boolean positions = byPosition.computeIfAbsent(span.file(), p -> {
        boolean match = decoder.info().frameCount() == span.fileFrames();
        if (!match) {
          LOG.warn("{}: {} frames but the episode table puts {} there; addressing frames by pts"
              + " (tolerance {} s)", file, decoder.info().frameCount(), span.fileFrames(),
              tolerance);
        }
        return match;
      });
      long before = decoder.stats().framesDecoded();
      double first = decoder.info().firstPtsSeconds();
      if (positions) {
        int[] at = new int[frames.length];
        for (int i = 0; i < frames.length; i++) {
          at[i] = span.frameOffset() + frames[i];
        }
        DecodeResult r = decoder.decodeFrames(at, sink);
        for (int i = 0; i < frames.length; i++) {
          double expected = first + span.fromTimestamp() + frames[i] / (double) fps;
          double drift = r.ptsSeconds(i) - expected;
          counters.drift(drift);
          if (Math.abs(drift) >= 0.5 / fps) {
            throw new SampleException(file, episode.index(), camera, "frame " + frames[i]
                + " (position " + at[i] + ") has pts " + r.ptsSeconds(i) + " s but the metadata"
                + " puts it at " + expected + " s", null);
          }
        }
      } else {
        double[] at = new double[frames.length];
        for (int i = 0; i < frames.length; i++) {
          at[i] = first + span.fromTimestamp() + frames[i] / (double) fps;
        }
        decoder.decode(at, sink);
      }
      counters.framesDecoded.addAndGet(decoder.stats().framesDecoded() - before);
      counters.framesDelivered.addAndGet(frames.length);
    } catch (SampleException e) {
      throw e;
    } catch (RobostreamException | IllegalArgumentException e) {
      throw new SampleException(file, episode.index(), camera, e.getMessage(), e);
    }
  }
}
