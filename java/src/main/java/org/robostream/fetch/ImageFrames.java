package org.robostream.fetch;

import java.util.Arrays;
import java.util.LinkedHashMap;
import org.apache.arrow.memory.BufferAllocator;
import org.robostream.FileException;
import org.robostream.RobostreamException;
import org.robostream.codec.HostPicture;
import org.robostream.codec.ImageDecoder;
import org.robostream.codec.PictureReceiver;
import org.robostream.codec.RawPicture;
import org.robostream.codec.SwscaleConverter;
import org.robostream.dataset.DatasetInfo;
import org.robostream.dataset.EpisodeImages;
import org.robostream.dataset.EpisodeInfo;
import org.robostream.dataset.Feature;
import org.robostream.dataset.ImageSizes;
import org.robostream.frames.FrameMemory;

/**
 * The frames of image-feature cameras (PNG or JPEG bytes in the data Parquet): a worker reads an
 * episode's encoded images of a camera from its data file when it first needs them ({@link
 * EpisodeImages}) and keeps those of the last few (episode, camera) pairs, as many as its decoder
 * cache holds video decoders (one per live stream and camera) and at most half its memory budget
 * (their bytes count against it, so fewer frames are decoded ahead while they are held), then
 * decodes the requested frames with FFmpeg ({@link ImageDecoder}) and hands them to the same
 * receivers video frames go to. Each distinct frame of a call is decoded once; its pts is {@code
 * frame / fps}, its frame index the episode-local frame. An image whose header gives another size
 * than info.json declares is refused before it is decoded. Errors come out as {@link
 * FetchException} naming the data file, episode, camera and frame.
 *
 * <p>Not thread-safe: one per worker. {@link #close()} frees the decoder.
 */
public final class ImageFrames implements AutoCloseable {
  private final BufferAllocator allocator;
  private final DatasetInfo info;
  private final int cachedEpisodes;
  private final FetchCounters counters;
  private final FrameMemory budget;
  private final ImageDecoder decoder = new ImageDecoder();
  private final SwscaleConverter converter = new SwscaleConverter(); // as a CPU decoder converts
  private final LinkedHashMap<Key, EpisodeImages> cache = new LinkedHashMap<>(8, 0.75f, true);

  private record Key(int episode, String camera) {}

  /**
   * @param cachedEpisodes (episode, camera) pairs whose encoded images are kept at most
   * @param budget the worker's frame memory: the kept images' bytes are counted against its budget,
   *     and pairs are dropped (least recently used first, never the one in use) while they take
   *     more than half of it
   */
  public ImageFrames(
      BufferAllocator allocator,
      DatasetInfo info,
      int cachedEpisodes,
      FetchCounters counters,
      FrameMemory budget) {
    this.allocator = allocator;
    this.info = info;
    this.cachedEpisodes = Math.max(1, cachedEpisodes);
    this.counters = counters;
    this.budget = budget;
  }

  /** Whether {@code camera} is an image feature (else a video). */
  boolean isImageCamera(String camera) {
    Feature f = info.features().get(camera);
    return f != null && f.isImage();
  }

  /**
   * Decodes {@code frames} (episode-local) of {@code camera}; request i goes to {@code receiver} as
   * i (the requests of one frame one after the other, with the picture decoded once).
   */
  void fetch(EpisodeInfo episode, String camera, int[] frames, PictureReceiver receiver) {
    String file = episode.dataFile().toString();
    try {
      EpisodeImages images = images(episode, camera);
      int[] order = byFrame(frames);
      int decoded = 0;
      for (int i = 0; i < order.length; ) {
        int frame = frames[order[i]];
        int end = i;
        while (end < order.length && frames[order[end]] == frame) {
          end++;
        }
        int[] requests = Arrays.copyOfRange(order, i, end);
        byte[] bytes = images.image(frame);
        ImageSizes.require(bytes, info.features().get(camera), file, "frame " + frame);
        RawPicture raw = decoder.decode(bytes, bytes.length, file, "frame " + frame);
        HostPicture picture = new HostPicture(raw, converter);
        for (int request : requests) {
          receiver.accept(request, picture, frame / (double) info.fps(), frame);
        }
        decoded++;
        i = end;
      }
      counters.framesDecoded.addAndGet(decoded);
      counters.framesDelivered.addAndGet(frames.length);
    } catch (FetchException e) {
      throw e;
    } catch (FileException e) {
      throw new FetchException(e.file(), episode.index(), camera, e.problem(), e);
    } catch (RobostreamException | IllegalArgumentException e) {
      throw new FetchException(file, episode.index(), camera, e.getMessage(), e);
    }
  }

  /** Request indices ordered by the frame they ask for (stable: equal frames keep their order). */
  private static int[] byFrame(int[] frames) {
    return java.util.stream.IntStream.range(0, frames.length)
        .boxed()
        .sorted(java.util.Comparator.comparingInt(i -> frames[i]))
        .mapToInt(Integer::intValue)
        .toArray();
  }

  private EpisodeImages images(EpisodeInfo episode, String camera) {
    Key key = new Key(episode.index(), camera);
    EpisodeImages images = cache.get(key);
    if (images == null) {
      images = EpisodeImages.read(allocator, episode, info.features().get(camera));
      cache.put(key, images);
      budget.account(images.bytes());
      while (cache.size() > 1
          && (cache.size() > cachedEpisodes || cachedBytes() > budget.budgetBytes() / 2)) {
        budget.account(-cache.remove(cache.keySet().iterator().next()).bytes());
      }
    }
    return images;
  }

  private long cachedBytes() {
    return cache.values().stream().mapToLong(EpisodeImages::bytes).sum();
  }

  @Override
  public void close() {
    decoder.close();
    converter.close();
    budget.account(-cachedBytes());
    cache.clear();
  }
}
