package org.robostream.codec;

import java.util.ArrayList;
import java.util.List;
import org.robostream.video.VideoDecoderOptions;

/**
 * Judges what a fuzz worker saw for one mutation against what the mutation changed. Allowed: a
 * typed error naming the file, or frames with the requested pts and the seed's size whose pixels
 * are the seed's frames. Pixels may differ from the seed's only where the mutation changed the
 * index (moov: which bytes and times a frame has) or a packet that decoding the frame reads; a file
 * the mutation left unchanged must decode exactly.
 */
final class FuzzJudge {
  /** The decoders' default pts tolerance, plus rounding. */
  static final double PTS_TOLERANCE = VideoDecoderOptions.defaults().toleranceSeconds() + 1e-9;

  enum Outcome {
    TYPED,
    EXACT,
    DAMAGED
  }

  /**
   * @param region what the mutation changed ({@link SeedLayout#regions})
   * @param outcomes one per requested frame; empty when opening failed
   * @param failures what broke the contract, each naming the case
   */
  record Verdict(
      String region, boolean openFailed, List<Outcome> outcomes, List<String> failures) {}

  private final SeedLayout seed;

  FuzzJudge(SeedLayout seed) {
    this.seed = seed;
  }

  Verdict judge(Mutations.Mutation mutation, ByteChanges changes, FuzzObservation seen) {
    String region = seed.regions(changes);
    String name = "case " + seen.caseNumber() + " (" + mutation.description() + ", " + region + ")";
    List<String> failures = new ArrayList<>();
    List<Outcome> outcomes = new ArrayList<>();
    if (seen.openError() != null) {
      checkError(seen.openError(), changes, name + " open", failures);
      return new Verdict(region, true, outcomes, failures);
    }
    for (FuzzObservation.Delivery d : seen.deliveries()) {
      String where = name + " " + d.call() + " frame " + d.frame();
      if (d.error() != null) {
        checkError(d.error(), changes, where, failures);
        outcomes.add(Outcome.TYPED);
        continue;
      }
      String broken = contractBroken(seen, d);
      if (broken != null) {
        failures.add(where + ": " + broken);
      } else if (d.pattern() == d.frame() && d.meanDiff() <= FrameExactnessTest.MEAN_TOLERANCE) {
        outcomes.add(Outcome.EXACT);
      } else if (seed.touchesIndex(changes) || seed.touchesPayloadOf(changes, d.frame())) {
        outcomes.add(Outcome.DAMAGED);
      } else {
        failures.add(
            where
                + ": damaged (pattern "
                + d.pattern()
                + ", mean diff "
                + d.meanDiff()
                + ") though the mutation changed neither the index nor a packet"
                + " the frame depends on");
      }
    }
    return new Verdict(region, false, outcomes, failures);
  }

  /** Wrong pts or size are never allowed, whatever the mutation did. */
  private String contractBroken(FuzzObservation seen, FuzzObservation.Delivery d) {
    if (seen.width() != seed.width() || seen.height() != seed.height()) {
      return "delivered "
          + seen.width()
          + "x"
          + seen.height()
          + ", the seed is "
          + seed.width()
          + "x"
          + seed.height();
    }
    double wanted = seed.framePts(d.frame());
    if (Math.abs(d.pts() - wanted) > PTS_TOLERANCE) {
      return "pts " + d.pts() + " for a query at " + wanted;
    }
    if (d.pts() != d.tablePts()) {
      return "pts " + d.pts() + " but the decoder's table says " + d.tablePts();
    }
    return null;
  }

  private static void checkError(
      String error, ByteChanges changes, String where, List<String> failures) {
    if (!error.startsWith("TYPED ")) {
      failures.add(where + ": " + error);
    } else if (changes.isEmpty()) {
      failures.add(where + ": " + error + " for a file equal to the seed");
    }
  }
}
