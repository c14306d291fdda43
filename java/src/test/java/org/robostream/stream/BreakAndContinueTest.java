package org.robostream.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.robostream.testing.Datasets;
import org.robostream.testing.LoaderSettings;

/**
 * Leaving a for-each over the dataset early, then looping again. {@link StreamingDataset} promises
 * that each new iteration continues from the current position and that the epoch advances once all
 * of its batches are delivered: so a loop after a {@code break} delivers the rest of the same
 * epoch, batch for batch what an uninterrupted loop would have delivered, and together the two
 * loops deliver every sample once.
 */
class BreakAndContinueTest {

  private static StreamingDataset open() {
    // Two workers, so the batches prefetched when the first loop stops come from both.
    return LoaderSettings.twoWorkerEpoch().build();
  }

  /** What one pass delivered: each batch's (epoch, index) and samples, frames checked. */
  private record Delivery(List<String> batches, List<Long> samples) {}

  /** Loops over {@code ds} once, stopping after {@code limit} batches (break) if it is reached. */
  private static Delivery loop(StreamingDataset ds, int limit) {
    List<String> cameras = ds.metadata().info().videoKeys();
    List<String> batches = new ArrayList<>();
    List<Long> samples = new ArrayList<>();
    for (Batch b : ds) {
      try (b) {
        batches.add(b.epoch() + "/" + b.index());
        samples.addAll(PatternSamples.checked(b, cameras));
      }
      if (batches.size() == limit) {
        break;
      }
    }
    return new Delivery(batches, samples);
  }

  private static List<String> indices(long epoch, int from, int to) {
    List<String> out = new ArrayList<>();
    for (int i = from; i < to; i++) {
      out.add(epoch + "/" + i);
    }
    return out;
  }

  @Test
  void aLoopAfterABreakContinuesTheSameEpochExactlyOnce() {
    Delivery whole;
    try (StreamingDataset uninterrupted = open()) {
      whole = loop(uninterrupted, Integer.MAX_VALUE);
    }
    try (StreamingDataset ds = open()) {
      int perEpoch = ds.batchesPerEpoch();
      assertTrue(perEpoch >= 6, "enough batches to break in the middle: " + perEpoch);
      int first = 3;
      Delivery before = loop(ds, first);
      assertEquals(indices(0, 0, first), before.batches());
      assertEquals(0, ds.epoch(), "a break does not end the epoch");

      Delivery after = loop(ds, Integer.MAX_VALUE);
      assertEquals(
          indices(0, first, perEpoch),
          after.batches(),
          "the next loop starts at the first batch not yet delivered");
      List<Long> joined = new ArrayList<>(before.samples());
      joined.addAll(after.samples());
      assertEquals(
          whole.samples(),
          joined,
          "both loops together deliver what one uninterrupted loop delivers, in its order");
      Set<Long> once = new HashSet<>(joined);
      assertEquals(joined.size(), once.size(), "no sample twice");
      assertEquals(Datasets.totalFrames(Datasets.patternV30()), once.size(), "every sample");
      assertEquals(1, ds.epoch(), "the epoch ends when its last batch was delivered");
      assertEquals(
          0,
          ds.outstandingBatchBytes(),
          "the batches prefetched for the first loop were freed, not handed out later");

      int perEpoch1 = ds.batchesPerEpoch();
      Delivery next = loop(ds, Integer.MAX_VALUE);
      assertEquals(indices(1, 0, perEpoch1), next.batches(), "then a loop walks epoch 1");
      assertEquals(once, new HashSet<>(next.samples()));
      assertEquals(next.samples().size(), once.size());
    }
  }

  @Test
  void aBreakAfterTheLastBatchLeavesAnEmptyRestOfTheEpoch() {
    // The epoch advances when the iterator finds no batch left, which a loop that breaks on
    // the last batch never asks: the next loop continues there, delivers nothing and ends the
    // epoch, and the loop after it walks the next epoch.
    try (StreamingDataset ds = open()) {
      int perEpoch = ds.batchesPerEpoch();
      Delivery all = loop(ds, perEpoch);
      assertEquals(indices(0, 0, perEpoch), all.batches());
      assertEquals(0, ds.epoch());
      assertEquals(List.of(), loop(ds, Integer.MAX_VALUE).batches());
      assertEquals(1, ds.epoch());
      int perEpoch1 = ds.batchesPerEpoch();
      assertEquals(indices(1, 0, perEpoch1), loop(ds, Integer.MAX_VALUE).batches());
    }
  }
}
