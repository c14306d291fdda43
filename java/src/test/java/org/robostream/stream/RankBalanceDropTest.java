package org.robostream.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
 * {@link PlanParameters.RankBalance#DROP} through the dataset: two ranks whose shares differ (whole
 * episodes of 20..40 frames split over 2 ranks x 2 workers) yield the same number of batches,
 * without padding, disjoint, and together exactly the samples the plan keeps: the surplus of the
 * larger share is dropped, nothing else.
 */
class RankBalanceDropTest {
  private static final int WORLD = 2;
  private static final int WORKERS = 2;
  private static final PlanParameters PARAMS =
      new PlanParameters(42, true, 20, 3, 8, false, PlanParameters.RankBalance.DROP);

  /** One rank's epoch: its batch count and its samples in delivery order, frames checked. */
  private record RankEpoch(int batches, int batchesPerEpoch, List<Long> samples) {}

  private static RankEpoch epochOf(Path root, int rank) {
    try (StreamingDataset ds =
        StreamingDataset.builder(root)
            .environment(Map.of())
            .rank(rank, WORLD)
            .workers(WORKERS)
            .seed(PARAMS.seed())
            .bufferSize(PARAMS.bufferSize())
            .maxNumShards(PARAMS.maxNumShards())
            .batchSize(PARAMS.batchSize())
            .rankBalance(PARAMS.rankBalance())
            .returnUint8(true)
            .layout(FrameLayout.HWC)
            .build()) {
      int perEpoch = ds.batchesPerEpoch();
      int batches = 0;
      List<Long> samples = new ArrayList<>();
      for (Batch b : ds) {
        try (b) {
          boolean[] padding = b.booleans("is_padding");
          for (int i = 0; i < padding.length; i++) {
            assertFalse(
                padding[i], "rank " + rank + " batch " + b.index() + " row " + i + " is padding");
          }
          samples.addAll(PatternSamples.checked(b, ds.metadata().info().videoKeys()));
          batches++;
        }
      }
      return new RankEpoch(batches, perEpoch, samples);
    }
  }

  /** The samples the plan gives {@code rank}, in delivery order (none are padding with DROP). */
  private static List<Long> planned(SegmentPlan plan, int rank) {
    List<Long> out = new ArrayList<>();
    for (RankSchedule.Batch b : plan.schedule(rank).batches()) {
      assertFalse(b.padding());
      Arrays.stream(b.samples()).forEach(out::add);
    }
    return out;
  }

  @Test
  void everyRankYieldsTheSameBatchesWithoutPaddingAndTogetherExactlyWhatThePlanKeeps() {
    Path root = Datasets.patternV30();
    List<EpisodePiece> episodes = new ArrayList<>();
    for (EpisodeInfo e : LeRobotMetadata.open(root, java.util.Optional.empty()).episodes()) {
      episodes.add(EpisodePiece.whole(e.index(), e.length()));
    }
    SegmentPlan plan = new SegmentPlan(episodes, PARAMS, 0, 0, WORLD, WORKERS);

    RankEpoch rank0 = epochOf(root, 0);
    RankEpoch rank1 = epochOf(root, 1);
    assertEquals(rank0.batchesPerEpoch(), rank0.batches());
    assertEquals(rank1.batchesPerEpoch(), rank1.batches());
    assertEquals(rank0.batches(), rank1.batches(), "every rank yields the same number");

    assertEquals(planned(plan, 0), rank0.samples(), "rank 0 delivers what the plan keeps");
    assertEquals(planned(plan, 1), rank1.samples(), "rank 1 delivers what the plan keeps");
    Set<Long> union = new HashSet<>(rank0.samples());
    assertEquals(rank0.samples().size(), union.size(), "no sample twice on rank 0");
    for (long s : rank1.samples()) {
      assertTrue(union.add(s), "on both ranks, or twice on rank 1: " + Samples.toString(s));
    }
    int total = Datasets.totalFrames(root);
    assertTrue(
        union.size() < total,
        "the shares were uneven, so DROP dropped samples: kept " + union.size() + " of " + total);
    // The smaller share is kept whole: the rank that sets the batch count loses nothing.
    assertTrue(
        plannedShare(plan, 0).equals(new HashSet<>(rank0.samples()))
            || plannedShare(plan, 1).equals(new HashSet<>(rank1.samples())),
        "one rank delivers every frame of its episodes");
  }

  /** Every frame of the episodes the plan assigns to {@code rank}'s workers. */
  private static Set<Long> plannedShare(SegmentPlan plan, int rank) {
    Set<Long> share = new HashSet<>();
    for (int w = 0; w < WORKERS; w++) {
      for (EpisodePiece p : plan.piecesOf(rank, w)) {
        for (int f : p.frames()) {
          share.add(Samples.of(p.episode(), f));
        }
      }
    }
    return share;
  }
}
