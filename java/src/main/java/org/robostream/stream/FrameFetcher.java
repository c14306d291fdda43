package org.robostream.stream;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import org.robostream.RobostreamException;
import org.robostream.dataset.DatasetException;
import org.robostream.dataset.DatasetInfo;
import org.robostream.dataset.EpisodeInfo;
import org.robostream.dataset.VideoSpan;
import org.robostream.video.DecodeResult;
import org.robostream.video.DecoderCache;
import org.robostream.video.Device;
import org.robostream.video.FrameDestination;
import org.robostream.video.PictureSink;
import org.robostream.video.VideoDecoder;
import org.robostream.video.VideoStreamInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decodes the frames of episode-local frame numbers for one camera into given addresses. Inside a
 * file whose frame count matches the metadata, a frame is addressed by its position (frames of the
 * episodes before it plus its number) and its pts is checked against {@code from_timestamp + frame
 * / fps}: drift is recorded, and a frame more than half a frame early, or later than half a frame
 * plus the concatenation shift of the episodes stored before it ({@link
 * org.robostream.dataset.VideoSpan#maxPositionDrift}), is an error. Otherwise frames are looked up
 * by pts within the tolerance (warned once per file). Before the first frame of an episode and
 * camera is decoded, all of the episode's frames are checked against the file's frame table ({@link
 * SpanFrames}), a file's frame size against the camera's declared shape and, looked up by pts, its
 * duration against the table's frames. Cameras that are image features go to {@link ImageFrames}.
 * Errors come out as {@link SampleException} naming file, episode and camera. Not thread-safe: one
 * per worker.
 */
final class FrameFetcher {
  private static final Logger LOG = LoggerFactory.getLogger(FrameFetcher.class);

  private final DecoderCache cache;
  private final Device device;
  private final DatasetInfo info;
  private final int fps;
  private final double tolerance;
  private final StreamCounters counters;
  private final ImageFrames images;
  private final CachedFetch cached; // null: no frame cache
  private final Map<Path, Boolean> byPosition = new HashMap<>();
  private final Set<CheckedSpan> checkedSpans = new HashSet<>();

  /** An episode's camera whose frames were checked against its file's frame table. */
  private record CheckedSpan(int episode, String camera) {}

  /**
   * Where a decode call writes: the destination for a file's decoder, which may decode on the GPU
   * or (a file NVDEC cannot decode, an image) on the CPU, and whether its source has more than 8
   * bits a sample (images: no, their frames are delivered as RGB uint8).
   */
  @FunctionalInterface
  interface Destinations {
    FrameDestination forDecoder(boolean decodesOnGpu, boolean deepSource);
  }

  /**
   * {@code images}: the worker's frames of image-feature cameras; {@code cached}: the worker's way
   * through the frame cache, or null.
   */
  FrameFetcher(
      DecoderCache cache,
      Device device,
      DatasetInfo info,
      double tolerance,
      StreamCounters counters,
      ImageFrames images,
      CachedFetch cached) {
    this.images = images;
    this.cached = cached;
    this.cache = cache;
    this.device = device;
    this.info = info;
    this.fps = info.fps();
    this.tolerance = tolerance;
    this.counters = counters;
  }

  /**
   * Before decoding a run of {@code episode} starting at frame {@code frame}: tells every camera's
   * file where that run's decoding will start reading, so the blocks of all cameras of a remote
   * dataset download at once instead of one camera after the other (decoding one camera takes as
   * long as fetching the next one's block). A hint: decodes nothing, never fails.
   */
  void prefetch(EpisodeInfo episode, java.util.List<String> cameras, int frame) {
    for (String camera : cameras) {
      if (images.isImageCamera(camera)) {
        continue; // read from the data file when decoded
      }
      VideoSpan span = episode.video(camera);
      cache.prefetch(span.file().toString(), device, span.frameOffset() + frame);
    }
  }

  /** Decodes {@code frames} (episode-local) of {@code camera}; request i goes to the sink as i. */
  void fetch(EpisodeInfo episode, String camera, int[] frames, PictureSink sink, long reader) {
    if (images.isImageCamera(camera)) {
      fetchImages(episode, camera, frames, sink);
      return;
    }
    fetch(
        episode,
        camera,
        frames,
        reader,
        (decoder, at) ->
            at.positions() != null
                ? decodeFrames(decoder, at, sink)
                : decoder.get().decode(at.times(), sink));
  }

  /**
   * Decodes {@code frames} (episode-local) of {@code camera} converted into the destination that
   * {@code destination} gives for the file's decoder (which may decode on the GPU or, for a file
   * NVDEC cannot decode and for images, on the CPU); request i goes to slot i.
   */
  void fetch(
      EpisodeInfo episode, String camera, int[] frames, Destinations destination, long reader) {
    if (images.isImageCamera(camera)) {
      FrameDestination d = destination.forDecoder(false, false);
      if (cached == null) {
        images.fetch(episode, camera, frames, d);
      } else {
        fetchImages(episode, camera, frames, cached.into(d));
      }
      return;
    }
    fetch(
        episode,
        camera,
        frames,
        reader,
        (decoder, at) -> {
          boolean onGpu = at.facts().decodesOnGpu();
          FrameDestination d = destination.forDecoder(onGpu, at.facts().deepSource());
          if (at.positions() == null) {
            return decoder.get().decode(at.times(), d);
          }
          // Frames NVDEC decodes stay on the GPU: not cached (see ARCHITECTURE, frame cache).
          return cached == null || onGpu
              ? decoder.get().decodeFrames(at.positions(), d)
              : decodeFrames(decoder, at, cached.into(d));
        });
  }

  /**
   * Decodes the frames at {@code positions} of {@code decoder}'s file to {@code sink}, through the
   * frame cache when there is one: served from it where it holds them, else decoded and stored.
   */
  private DecodeResult decodeFrames(OnDemand decoder, Addresses at, PictureSink sink) {
    int[] positions = at.positions();
    // The dataset's path, not the decoder's name: a Hub video is read through its URL.
    String identity = cached == null ? null : cached.identity(at.file());
    if (identity == null) {
      return decoder.get().decodeFrames(positions, sink);
    }
    double[] pts =
        cached.fetch(
            identity,
            at.facts().info().frameCount(),
            at.facts().expected(),
            positions,
            sink,
            (misses, s) -> decoder.get().decodeFrames(misses, s));
    long[] frameIndices = new long[positions.length];
    for (int i = 0; i < positions.length; i++) {
      frameIndices[i] = positions[i];
    }
    return new DecodeResult(pts, frameIndices);
  }

  /**
   * An image camera's frames to {@code sink}, through the frame cache when there is one (an entry
   * per episode and camera of the data file, a slot per frame).
   */
  private void fetchImages(EpisodeInfo episode, String camera, int[] frames, PictureSink sink) {
    String file = cached == null ? null : cached.dataFileIdentity(episode.dataFile());
    if (file == null) {
      images.fetch(episode, camera, frames, sink);
      return;
    }
    int[] decoded = {0};
    cached.fetch(
        file + "#image:" + camera + "#episode:" + episode.index(),
        episode.length(),
        CachedFetch.Expected.ANY, // an image's format varies; the batch converts it to its size
        frames,
        sink,
        (at, s) -> {
          images.fetch(episode, camera, at, s); // counts what it decodes and delivers
          decoded[0] += at.length;
          double[] pts = new double[at.length];
          long[] index = new long[at.length];
          for (int j = 0; j < at.length; j++) {
            pts[j] = at[j] / (double) fps;
            index[j] = at[j];
          }
          return new DecodeResult(pts, index);
        });
    counters.framesDelivered.addAndGet(frames.length - decoded[0]); // served from the cache
  }

  /**
   * Where frames are in {@code file} (the dataset's path of the video, whatever the decoder reads
   * it through): positions, or pts when the file does not match the table.
   */
  private record Addresses(Path file, VideoFacts facts, int[] positions, double[] times) {}

  /**
   * The decoder of one fetch, opened (from the worker's decoder cache) when a frame must be
   * decoded: a fetch the frame cache serves whole opens none. Counts what it decoded since.
   */
  private final class OnDemand implements Supplier<VideoDecoder> {
    private final String file;
    private final long reader;
    private VideoDecoder decoder;
    private long before;

    OnDemand(String file, long reader) {
      this.file = file;
      this.reader = reader;
    }

    @Override
    public VideoDecoder get() {
      if (decoder == null) {
        decoder = cache.get(file, device, reader);
        before = decoder.stats().framesDecoded();
      }
      return decoder;
    }

    long framesDecoded() {
      return decoder == null ? 0 : decoder.stats().framesDecoded() - before;
    }
  }

  /**
   * Whether episode-local {@code frame} of {@code camera} starts a new decoding pass (its GOP
   * differs from the previous frame's), so a run of frames that ends just before it wastes nothing
   * when the next run starts there. False when frames are looked up by pts.
   */
  boolean startsGop(EpisodeInfo episode, String camera, int frame, long reader) {
    if (images.isImageCamera(camera)) {
      return false; // every image stands alone
    }
    VideoSpan span = episode.video(camera);
    String file = span.file().toString();
    try {
      VideoDecoder decoder = cache.get(file, device, reader);
      if (frame == 0 || !addressedByPosition(span, decoder.info())) {
        return false;
      }
      int position = span.frameOffset() + frame;
      return decoder.seekGopOf(position) != decoder.seekGopOf(position - 1);
    } catch (RobostreamException | IllegalArgumentException e) {
      throw new SampleException(file, episode.index(), camera, e.getMessage(), e);
    }
  }

  private boolean addressedByPosition(VideoSpan span, VideoStreamInfo video) {
    return byPosition.computeIfAbsent(
        span.file(),
        p -> {
          requireDeclaredSize(span, video);
          boolean match = video.frameCount() == span.fileFrames();
          if (!match) {
            requireTableDuration(span, video);
            LOG.warn(
                "{}: {} frames but the episode table puts {} there; addressing frames by pts"
                    + " (tolerance {} s)",
                span.file(),
                video.frameCount(),
                span.fileFrames(),
                tolerance);
          }
          return match;
        });
  }

  /** The file's frames must have the size info.json declares for its camera. */
  private void requireDeclaredSize(VideoSpan span, VideoStreamInfo video) {
    info.features()
        .get(span.camera())
        .frameShape()
        .requireSize(span.camera(), span.file().toString(), video.width(), video.height());
  }

  /**
   * A file whose frames are looked up by pts (its frame count is not the table's) must still last
   * as long as the frames the table puts there: a file longer or shorter than its episodes' spans
   * holds episodes the table does not describe, and a lookup by pts could give another episode's
   * frame. (Addressed by position, each frame's pts is checked instead: LeRobot's concatenation
   * shifts each appended episode by up to a millisecond, so a long file's duration drifts from the
   * table's while every frame is still where its position says.)
   */
  private void requireTableDuration(VideoSpan span, VideoStreamInfo video) {
    double table = span.fileFrames() / (double) fps;
    double file = video.durationSeconds();
    if (!(Math.abs(file - table) < 0.5 / fps)) {
      throw new DatasetException.BadMetadata(
          span.file().toString(),
          "holds "
              + file
              + " s of"
              + " video ("
              + video.frameCount()
              + " frames) but the episodes table puts "
              + span.fileFrames()
              + " frames there, "
              + table
              + " s at "
              + fps
              + " fps");
    }
  }

  private void fetch(
      EpisodeInfo episode,
      String camera,
      int[] frames,
      long reader,
      BiFunction<OnDemand, Addresses, DecodeResult> decode) {
    VideoSpan span = episode.video(camera);
    String file = span.file().toString();
    try {
      OnDemand decoder = new OnDemand(file, reader);
      // With a frame cache, what a decoder of the file told before will do, so that a fetch the
      // cache serves whole opens no decoder; without one the decoder is needed anyway.
      VideoFacts facts = cached == null ? null : cached.known(file);
      if (facts == null) {
        facts = VideoFacts.of(decoder.get());
      }
      boolean positions = addressedByPosition(span, facts.info());
      double first = facts.info().firstPtsSeconds();
      CheckedSpan key = new CheckedSpan(episode.index(), camera);
      if (!checkedSpans.contains(key)) {
        SpanFrames.check(episode, span, facts.table(), first, fps, positions, tolerance);
        checkedSpans.add(key);
      }
      if (positions) {
        int[] at = new int[frames.length];
        for (int i = 0; i < frames.length; i++) {
          at[i] = span.frameOffset() + frames[i];
        }
        DecodeResult r = decode.apply(decoder, new Addresses(span.file(), facts, at, null));
        for (int i = 0; i < frames.length; i++) {
          double expected = first + span.fromTimestamp() + frames[i] / (double) fps;
          double drift = r.ptsSeconds(i) - expected;
          counters.drift(drift);
          if (!(drift > -0.5 / fps && drift <= span.maxPositionDrift(fps))) { // NaN fails too
            throw new SampleException(
                file,
                episode.index(),
                camera,
                "frame "
                    + frames[i]
                    + " (position "
                    + at[i]
                    + ") has pts "
                    + r.ptsSeconds(i)
                    + " s but the metadata"
                    + " puts it at "
                    + expected
                    + " s (allowed: "
                    + 0.5 / fps
                    + " s before to "
                    + span.maxPositionDrift(fps)
                    + " s after)",
                null);
          }
        }
      } else {
        double[] at = new double[frames.length];
        for (int i = 0; i < frames.length; i++) {
          at[i] = first + span.fromTimestamp() + frames[i] / (double) fps;
        }
        decode.apply(decoder, new Addresses(span.file(), facts, null, at));
      }
      counters.framesDecoded.addAndGet(decoder.framesDecoded());
      counters.framesDelivered.addAndGet(frames.length);
    } catch (SampleException e) {
      throw e;
    } catch (RobostreamException | IllegalArgumentException e) {
      throw new SampleException(file, episode.index(), camera, e.getMessage(), e);
    }
  }
}
