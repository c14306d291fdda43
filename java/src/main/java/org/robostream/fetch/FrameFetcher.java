package org.robostream.fetch;

import java.nio.file.Path;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import org.robostream.RobostreamException;
import org.robostream.codec.DecodeResult;
import org.robostream.codec.Decoder;
import org.robostream.codec.DecoderCache;
import org.robostream.codec.DecoderSlot;
import org.robostream.dataset.DatasetInfo;
import org.robostream.dataset.EpisodeInfo;
import org.robostream.dataset.VideoSpan;
import org.robostream.frames.PictureHolder;
import org.robostream.video.Device;

/**
 * Decodes one camera's frames, by episode-local frame number, into given addresses, where {@link
 * FramePlacement} says they are. By position, a frame's pts must be within half a frame plus the
 * earlier episodes' concatenation shift ({@link
 * org.robostream.dataset.VideoSpan#maxPositionDrift}); by time, within the tolerance; under {@link
 * org.robostream.dataset.TimestampRule#LEROBOT}, the frame picked by the row's timestamp. Placement
 * is checked before an episode's first frame is decoded. Image cameras go to {@link ImageFrames}.
 *
 * <p>Errors are {@link FetchException}s naming file, episode and camera. Not thread-safe: one per
 * worker.
 */
public final class FrameFetcher {
  private final DecoderCache cache;
  private final Device device;
  private final DatasetInfo info;
  private final int fps;
  private final FetchCounters counters;
  private final ImageFrames images;
  private final CachedFetch cached; // null: no frame cache
  private final FramePlacement placement;
  private final java.util.function.ToIntFunction<String> positions; // frames per sample, by camera

  /**
   * {@code images}: the worker's frames of image-feature cameras; {@code cached}: the worker's way
   * through the frame cache, or null; {@code positions}: a camera's frames per sample (its window
   * length), so a decode call's lookups are counted per sample as the reference counts them.
   */
  public FrameFetcher(
      DecoderCache cache,
      Device device,
      DatasetInfo info,
      FetchCounters counters,
      ImageFrames images,
      CachedFetch cached,
      FramePlacement placement,
      java.util.function.ToIntFunction<String> positions) {
    this.placement = placement;
    this.positions = positions;
    this.images = images;
    this.cached = cached;
    this.cache = cache;
    this.device = device;
    this.info = info;
    this.fps = info.fps();
    this.counters = counters;
  }

  /**
   * Before decoding a run of {@code episode} starting at frame {@code frame}: tells every camera's
   * file where that run's decoding will start reading, so the blocks of all cameras of a remote
   * dataset download at once instead of one camera after the other (decoding one camera takes as
   * long as fetching the next one's block). A hint: decodes nothing, never fails.
   */
  public void prefetch(EpisodeInfo episode, java.util.List<String> cameras, int frame) {
    for (String camera : cameras) {
      if (images.isImageCamera(camera)) {
        continue; // read from the data file when decoded
      }
      VideoSpan span = episode.video(camera);
      cache.prefetch(span.file().toString(), device, span.frameOffset() + frame);
    }
  }

  /**
   * Decodes {@code frames} (episode-local) of {@code camera}; request i goes to {@code holder} as
   * i. Frames NVDEC decodes stay on the GPU: they are not cached (see docs/HUB-AND-CACHE.md, frame
   * cache).
   */
  public void fetch(
      EpisodeInfo episode, String camera, int[] frames, PictureHolder holder, DecoderSlot reader) {
    if (images.isImageCamera(camera)) {
      fetchImages(episode, camera, frames, holder);
      return;
    }
    fetch(
        episode,
        camera,
        frames,
        reader,
        (decoder, at) -> {
          if (at.positions() == null) {
            return decoder.get().deliver(at.times(), holder);
          }
          return cached == null || at.facts().decodesOnGpu()
              ? decoder.get().deliverFrames(at.positions(), holder)
              : decodeFrames(decoder, at, holder);
        });
  }

  /**
   * Decodes the frames at {@code positions} of {@code decoder}'s file to {@code holder} through the
   * frame cache: served from it where it holds them, else decoded and stored.
   */
  private DecodeResult decodeFrames(OnDemand decoder, Addresses at, PictureHolder holder) {
    int[] positions = at.positions();
    // The dataset's path, not the decoder's name: a Hub video is read through its URL.
    String identity = cached.identity(at.file());
    if (identity == null) {
      return decoder.get().deliverFrames(positions, holder);
    }
    double[] pts =
        cached.fetch(
            identity,
            at.facts().info().frameCount(),
            at.facts().expected(),
            positions,
            holder,
            (misses, receiver) -> decoder.get().deliverFrames(misses, receiver));
    long[] frameIndices = new long[positions.length];
    for (int i = 0; i < positions.length; i++) {
      frameIndices[i] = positions[i];
    }
    return new DecodeResult(pts, frameIndices);
  }

  /**
   * An image camera's frames to {@code holder}, through the frame cache when there is one (an entry
   * per episode and camera of the data file, a slot per frame).
   */
  private void fetchImages(EpisodeInfo episode, String camera, int[] frames, PictureHolder holder) {
    String file = cached == null ? null : cached.dataFileIdentity(episode.dataFile());
    if (file == null) {
      images.fetch(episode, camera, frames, holder);
      return;
    }
    int[] decoded = {0};
    cached.fetch(
        file + "#image:" + camera + "#episode:" + episode.index(),
        episode.length(),
        CachedFetch.Expected.ANY, // an image's format varies; the batch converts it to its size
        frames,
        holder,
        (at, receiver) -> {
          images.fetch(episode, camera, at, receiver); // counts what it decodes and delivers
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
  private static final class OnDemand implements Supplier<Decoder> {
    private final Supplier<Decoder> open;
    private Decoder decoder;
    private long before;

    /** {@code open}: takes the decoder from the worker's cache (counted as one lookup there). */
    OnDemand(Supplier<Decoder> open) {
      this.open = open;
    }

    @Override
    public Decoder get() {
      if (decoder == null) {
        decoder = open.get();
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
  public boolean startsGop(EpisodeInfo episode, String camera, int frame, DecoderSlot reader) {
    if (images.isImageCamera(camera)) {
      return false; // every image stands alone
    }
    VideoSpan span = episode.video(camera);
    String file = span.file().toString();
    try {
      // Uncounted: the reference's loader asks its cache nothing of the kind.
      Decoder decoder = cache.peek(file, device, reader);
      if (frame == 0) {
        return false;
      }
      if (placement.byTimestamp()) {
        TimestampFrames.Picked picked = placement.picked(episode.index(), camera);
        return picked != null
            && decoder.seekGopOf(picked.positions()[frame])
                != decoder.seekGopOf(picked.positions()[frame - 1]);
      }
      if (!placement.byPosition(span, decoder.info())) {
        return false;
      }
      int position = span.frameOffset() + frame;
      return decoder.seekGopOf(position) != decoder.seekGopOf(position - 1);
    } catch (RobostreamException | IllegalArgumentException e) {
      throw new FetchException(file, episode.index(), camera, e.getMessage(), e);
    }
  }

  /**
   * Decodes the frames {@link FramePlacement} picked for rows {@code frames} by their timestamps,
   * by their positions in the file, and checks each decoded pts against its row's time, as
   * LeRobot's decoders check it.
   */
  private void byTimestamp(
      EpisodeInfo episode,
      String camera,
      int[] frames,
      OnDemand decoder,
      VideoFacts facts,
      BiFunction<OnDemand, Addresses, DecodeResult> decode) {
    VideoSpan span = episode.video(camera);
    TimestampFrames.Picked picked = placement.picked(episode.index(), camera);
    int[] at = new int[frames.length];
    for (int i = 0; i < frames.length; i++) {
      at[i] = picked.positions()[frames[i]];
    }
    DecodeResult r = decode.apply(decoder, new Addresses(span.file(), facts, at, null));
    for (int i = 0; i < frames.length; i++) {
      double wanted = picked.times()[frames[i]];
      double drift = r.ptsSeconds(i) - wanted;
      counters.drift(drift);
      if (!(Math.abs(drift) < placement.tolerance())) { // NaN fails too
        throw new FetchException(
            span.file().toString(),
            episode.index(),
            camera,
            "row "
                + frames[i]
                + " (frame "
                + at[i]
                + " of the file) decoded with pts "
                + r.ptsSeconds(i)
                + " s, but its timestamp puts it at "
                + wanted
                + " s (tolerance "
                + placement.tolerance()
                + " s)",
            null);
      }
    }
  }

  private void fetch(
      EpisodeInfo episode,
      String camera,
      int[] frames,
      DecoderSlot reader,
      BiFunction<OnDemand, Addresses, DecodeResult> decode) {
    VideoSpan span = episode.video(camera);
    String file = span.file().toString();
    try {
      // The samples whose frames the call decodes: its lookups, as the reference counts them.
      int samples = Math.max(1, frames.length / positions.applyAsInt(camera));
      OnDemand decoder = new OnDemand(() -> cache.get(file, device, reader, samples));
      // With a frame cache, what a decoder of the file told before will do, so that a fetch the
      // cache serves whole opens no decoder; without one the decoder is needed anyway.
      VideoFacts facts = cached == null ? null : cached.known(file);
      if (facts == null) {
        facts = VideoFacts.of(decoder.get());
      }
      placement.checkSpan(episode, span, facts.info(), facts.table());
      boolean positions = placement.byPosition(span, facts.info());
      double first = facts.info().firstPtsSeconds();
      if (placement.byTimestamp()) {
        byTimestamp(episode, camera, frames, decoder, facts, decode);
      } else if (positions) {
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
            throw new FetchException(
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
    } catch (FetchException e) {
      throw e;
    } catch (RobostreamException | IllegalArgumentException e) {
      throw new FetchException(file, episode.index(), camera, e.getMessage(), e);
    }
  }
}
