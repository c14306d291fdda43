package org.robostream.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.robostream.dataset.EpisodeInfo;
import org.robostream.dataset.LeRobotMetadata;
import org.robostream.testing.Datasets;
import org.robostream.video.FrameLayout;

/**
 * {@link PlanParameters.RankBalance#EVEN}: two ranks whose shares differ (whole episodes of 20..40
 * frames over 2 ranks x 2 workers) deliver the same number of samples not flagged {@code
 * is_padding}, each at most once, in PAD's batches; an elastic resume plans the flagged samples
 * again (they were not delivered).
 */
class RankBalanceEvenTest {
  private static final int WORLD = 2;
  private static final int WORKERS = 2;
  private static final PlanParameters EVEN =
      new PlanParameters(42, true, 20, 3, 8, false, PlanParameters.RankBalance.EVEN);
  private static final PlanParameters PAD =
      new PlanParameters(42, true, 20, 3, 8, false, PlanParameters.RankBalance.PAD);

  private static StreamingDataset.Builder builder(Path root, int rank, int world) {
    return StreamingDataset.builder(root)
        .environment(Map.of())
        .rank(rank, world)
        .workers(WORKERS)
        .seed(EVEN.seed())
        .bufferSize(EVEN.bufferSize())
        .maxNumShards(EVEN.maxNumShards())
        .batchSize(EVEN.batchSize())
        .rankBalance(EVEN.rankBalance())
        .returnUint8(true)
        .layout(FrameLayout.HWC);
  }

  /** The samples a loader delivers not flagged, frames checked; at most {@code batches}. */
  private static List<Long> delivered(StreamingDataset ds, int batches, List<Long> flagged) {
    List<Long> out = new ArrayList<>();
    int n = 0;
    for (Batch b : ds) {
      try (b) {
        boolean[] padding = b.booleans("is_padding");
        List<Long> samples = PatternSamples.checked(b, ds.metadata().info().videoKeys());
        for (int i = 0; i < padding.length; i++) {
          (padding[i] ? flagged : out).add(samples.get(i));
        }
      }
      if (++n == batches) {
        break;
      }
    }
    return out;
  }

  private static List<EpisodePiece> episodes(Path root) {
    List<EpisodePiece> out = new ArrayList<>();
    for (EpisodeInfo e : LeRobotMetadata.open(root, java.util.Optional.empty()).episodes()) {
      out.add(EpisodePiece.whole(e.index(), e.length()));
    }
    return out;
  }

  @Test
  void everyRankDeliversAsManySamplesEachAtMostOnceInPadsBatches() {
    Path root = Datasets.patternV30();
    SegmentPlan even = new SegmentPlan(episodes(root), EVEN, 0, 0, WORLD, WORKERS);
    SegmentPlan pad = new SegmentPlan(episodes(root), PAD, 0, 0, WORLD, WORKERS);
    assertEquals(pad.batchesPerRank(), even.batchesPerRank(), "PAD's batch count");
    List<List<Long>> ranks = new ArrayList<>();
    List<Long> flagged = new ArrayList<>();
    for (int r = 0; r < WORLD; r++) {
      List<RankSchedule.Batch> e = even.schedule(r).batches();
      List<RankSchedule.Batch> p = pad.schedule(r).batches();
      for (int b = 0; b < e.size(); b++) {
        assertTrue(Arrays.equals(p.get(b).samples(), e.get(b).samples()), "PAD's samples");
      }
      try (StreamingDataset ds = builder(root, r, WORLD).build()) {
        ranks.add(delivered(ds, Integer.MAX_VALUE, flagged));
      }
    }
    assertEquals(ranks.get(0).size(), ranks.get(1).size(), "as many samples on every rank");
    Set<Long> union = new HashSet<>();
    ranks.forEach(union::addAll);
    assertEquals(ranks.get(0).size() * 2, union.size(), "each sample at most once");
    int total = Datasets.totalFrames(root);
    assertTrue(union.size() < total, "the shares were uneven: some samples flagged");
    assertTrue(!flagged.isEmpty(), "the larger share's surplus (or a repeat) is flagged");
    Set<Long> everything = new HashSet<>(union);
    everything.addAll(flagged);
    assertEquals(total, everything.size(), "every sample is in some batch, flagged or not");
  }

  @Test
  void moreRanksThanEpisodesIsRefusedRatherThanEveryRankDeliveringNothing() {
    Path root = Datasets.patternV30();
    int episodes = episodes(root).size();
    IllegalArgumentException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class,
            () -> new SegmentPlan(episodes(root), EVEN, 0, 0, episodes + 1, 1));
    assertTrue(e.getMessage().contains("gets no samples"), e.getMessage());
    assertTrue(e.getMessage().contains("RankBalance.PAD"), e.getMessage());
    // As many ranks as episodes: each gets one, and delivers the shortest one's count.
    SegmentPlan fits = new SegmentPlan(episodes(root), EVEN, 0, 0, episodes, 1);
    assertTrue(fits.batchesPerRank() > 0);
  }

  @Test
  void anElasticResumePlansTheFlaggedSamplesAgain() {
    Path root = Datasets.patternV30();
    List<Long> first = new ArrayList<>();
    List<Long> flagged = new ArrayList<>();
    String state = null;
    for (int r = 0; r < WORLD; r++) {
      try (StreamingDataset ds = builder(root, r, WORLD).build()) {
        // All but the last batch: the larger share's flagged surplus is in what was consumed.
        first.addAll(delivered(ds, ds.batchesPerEpoch() - 1, flagged));
        state = ds.state();
      }
    }
    assertTrue(!flagged.isEmpty(), "the consumed batches held flagged samples");
    List<Long> rest;
    try (StreamingDataset alone = builder(root, 0, 1).resumeFrom(state).build()) {
      rest = delivered(alone, Integer.MAX_VALUE, new ArrayList<>());
    }
    Set<Long> all = new HashSet<>(first);
    for (long s : rest) {
      assertTrue(all.add(s), "delivered twice: " + Samples.toString(s));
    }
    assertEquals(Datasets.totalFrames(root), all.size(), "one rank alone delivers the rest");
    assertTrue(all.containsAll(flagged), "flagged samples were not consumed: planned again");
  }
}
