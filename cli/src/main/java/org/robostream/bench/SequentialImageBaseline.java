package org.robostream.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.robostream.codec.HostFrameBuffer;
import org.robostream.codec.ImageDecoder;
import org.robostream.dataset.EpisodeImages;
import org.robostream.dataset.EpisodeInfo;
import org.robostream.dataset.Feature;
import org.robostream.dataset.FrameShape;
import org.robostream.dataset.ImageSizes;
import org.robostream.dataset.LeRobotMetadata;
import org.robostream.video.FrameLayout;

/**
 * The image-feature counterpart of {@link SequentialDecodeBaseline}: for every episode and image
 * camera, its encoded images are read from the data file (as the loader reads them, {@link
 * EpisodeImages}) and every one decoded and converted to RGB in order into a reusable frame, one
 * decoder per pair, the (episode, camera) pairs spread over {@code threads} threads (the loader's
 * parallelism). The yardstick the loader's rate on an image-feature dataset is measured against.
 * Stateless.
 */
public final class SequentialImageBaseline {
  private SequentialImageBaseline() {}

  public static SequentialDecodeBaseline.Result run(
      LeRobotMetadata metadata, int threads, FrameLayout layout) throws Exception {
    List<String> cameras = metadata.imageCameras();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    int pairs = metadata.episodes().size() * cameras.size();
    long start = System.nanoTime();
    try (BufferAllocator allocator = new RootAllocator()) {
      List<Future<Long>> parts = new ArrayList<>();
      for (EpisodeInfo e : metadata.episodes()) {
        for (String camera : cameras) {
          Feature feature = metadata.info().features().get(camera);
          parts.add(pool.submit(() -> decodeAll(allocator, e, feature, layout)));
        }
      }
      long frames = 0;
      for (Future<Long> p : parts) {
        frames += p.get();
      }
      return new SequentialDecodeBaseline.Result(
          frames, (System.nanoTime() - start) / 1e9, DatasetVideos.perfectScaling(threads, pairs));
    } finally {
      pool.shutdownNow();
    }
  }

  private static long decodeAll(
      BufferAllocator allocator, EpisodeInfo episode, Feature feature, FrameLayout layout) {
    EpisodeImages images = EpisodeImages.read(allocator, episode, feature);
    FrameShape declared = feature.frameShape(); // axes as its names say (channels first or last)
    HostFrameBuffer frame = new HostFrameBuffer(1, declared.height(), declared.width(), layout);
    try (ImageDecoder decoder = new ImageDecoder()) {
      for (int f = 0; f < episode.length(); f++) {
        byte[] bytes = images.image(f);
        // The frame is the declared size: an image of another size is refused before decoding.
        ImageSizes.require(bytes, feature, images.file(), "frame " + f);
        decoder.decode(bytes, bytes.length, images.file(), "frame " + f);
        decoder.convertCurrent(frame.slotAddress(0), layout);
      }
    }
    return episode.length();
  }
}
