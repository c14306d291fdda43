package org.robostream.bench;

import org.robostream.stream.StreamCounters;
import org.robostream.stream.StreamingDataset;

/**
 * How much decoding a loader had done by one moment, read from its counters: the frames its
 * decoders produced for samples, and the samples whose frames were decoded (into the shuffle buffer
 * on entry, or at delivery). A frame decoded only to reach another (the decode amplification) is
 * not counted: a rate of these frames never credits wasted decoding, so set against the ffmpeg CLI,
 * which decodes each frame once, it cannot overstate. The difference of two moments ({@link
 * #since}) is the work done between them. Immutable.
 */
public record DecodeWork(long frames, long samples) {
  public static DecodeWork of(StreamingDataset ds) {
    StreamCounters.Snapshot s = ds.stats();
    return new DecodeWork(
        s.framesDelivered(), s.samplesDecodedOnEntry() + s.samplesDecodedOnExit());
  }

  /** The work done after {@code earlier}. */
  public DecodeWork since(DecodeWork earlier) {
    return new DecodeWork(frames - earlier.frames, samples - earlier.samples);
  }
}
