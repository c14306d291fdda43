package org.robostream.bench;

import org.robostream.stream.StreamCounters;
import org.robostream.stream.StreamingDataset;

/**
 * How much work a loader had done by one moment, read from its counters. {@code frames}: the frames
 * its decoders produced for samples; a frame decoded only to reach another (the decode
 * amplification) is not counted, nor is a frame read from the frame cache: a rate of these frames
 * never credits wasted decoding or cached frames, so set against the ffmpeg CLI, which decodes each
 * frame once, it cannot overstate. {@code framesFromCache}: frames the frame cache served instead.
 * {@code samples}: the samples whose frames were fetched (decoded or read from the frame cache)
 * into the shuffle buffer on entry, or at delivery. The difference of two moments ({@link #since})
 * is the work done between them. Immutable.
 */
public record DecodeWork(long frames, long framesFromCache, long samples) {
  public static final DecodeWork NONE = new DecodeWork(0, 0, 0);

  public static DecodeWork of(StreamingDataset ds) {
    StreamCounters.Snapshot s = ds.stats();
    // framesDelivered counts the frames served from the cache too (see StreamCounters.Snapshot).
    return new DecodeWork(
        s.framesDelivered() - s.framesFromCache(),
        s.framesFromCache(),
        s.samplesDecodedOnEntry() + s.samplesDecodedOnExit());
  }

  /**
   * Frames the decoders produced per frame delivered by decoding: the library's amplification with
   * the frames the frame cache served left out of the delivered ones (they cost no decoding), so a
   * cached run reads 1.0 where every decoded frame was delivered, not the share of frames decoded.
   */
  public static double amplification(StreamCounters.Snapshot s) {
    long decodedForDelivery = s.framesDelivered() - s.framesFromCache();
    return decodedForDelivery == 0 ? 0.0 : s.framesDecoded() / (double) decodedForDelivery;
  }

  /** Frames decoded or served from the frame cache: what the loader fetched for samples. */
  public long framesServed() {
    return frames + framesFromCache;
  }

  /** The work done after {@code earlier}. */
  public DecodeWork since(DecodeWork earlier) {
    return new DecodeWork(
        frames - earlier.frames,
        framesFromCache - earlier.framesFromCache,
        samples - earlier.samples);
  }
}
