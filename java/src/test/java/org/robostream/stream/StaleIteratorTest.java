package org.robostream.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Iterator;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.robostream.testing.Datasets;

/**
 * An iterator the dataset stopped before its epoch ended (a newer iterator, setEpoch, close) throws
 * when used, instead of returning false as if the epoch were over; an iterator whose epoch ended
 * returns false.
 */
class StaleIteratorTest {
  static StreamingDataset open() {
    return StreamingDataset.builder(Datasets.patternV30())
        .batchSize(16)
        .bufferSize(16)
        .maxNumShards(2)
        .workers(1)
        .returnUint8(true)
        .build();
  }

  /** After one batch of an iterator, {@code supersede} acts on the dataset; then it is stale. */
  static void staleAfter(Consumer<StreamingDataset> supersede, String why) {
    StreamingDataset ds = open();
    try {
      Iterator<Batch> first = ds.iterator();
      first.next().close();
      supersede.accept(ds);
      IllegalStateException e = assertThrows(IllegalStateException.class, first::hasNext, why);
      assertTrue(
          e.getMessage().contains("stopped at batch 1 of") && e.getMessage().contains(why),
          e.getMessage());
      assertThrows(IllegalStateException.class, first::next, why);
    } finally {
      ds.close();
    }
  }

  @Test
  void aSupersededIteratorThrowsNamingWhatStoppedIt() {
    staleAfter(ds -> ds.iterator().next().close(), "a newer iterator of this dataset took over");
    staleAfter(ds -> ds.setEpoch(3), "setEpoch(3) moved the dataset");
    staleAfter(StreamingDataset::close, "the dataset was closed");
  }

  @Test
  void theNewIteratorContinuesAndAnIteratorWhoseEpochEndedReturnsFalse() {
    try (StreamingDataset ds = open()) {
      Iterator<Batch> first = ds.iterator();
      first.next().close();
      int rest = 0;
      for (Batch b : ds) {
        b.close();
        rest++;
      }
      assertEquals(ds.batchesPerEpoch() - 1, rest, "the new iterator continued the epoch");
      assertEquals(1, ds.epoch());
      Iterator<Batch> ended = ds.iterator();
      ended.next().close();
      while (ended.hasNext()) {
        ended.next().close();
      }
      ds.iterator().next().close(); // epoch 2 begins
      assertFalse(ended.hasNext(), "an iterator whose epoch ended is simply done");
    }
  }
}
