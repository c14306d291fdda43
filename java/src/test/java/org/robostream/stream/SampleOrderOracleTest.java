package org.robostream.stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The sample order is a pure function of (seed, epoch, rank, world, workers, buffer_size,
 * max_num_shards, batch_size): an independent oracle, written from the documented algorithm
 * (SegmentPlan / SlotSampler / SplitMix64 javadoc) with its own data structures, reproduces it
 * batch for batch; sharding is disjoint and complete for 1-4 ranks x 1-4 workers.
 */
class SampleOrderOracleTest {
  static final PlanParameters SHUFFLED =
      new PlanParameters(42, true, 7, 3, 5, false, PlanParameters.RankBalance.PAD);

  /** 11 episodes of uneven lengths 3..25. */
  static List<EpisodePiece> episodes() {
    List<EpisodePiece> list = new ArrayList<>();
    int[] lengths = {12, 3, 25, 8, 17, 9, 14, 4, 21, 6, 10};
    for (int e = 0; e < lengths.length; e++) {
      list.add(EpisodePiece.whole(e, lengths[e]));
    }
    return list;
  }

  // ---- the oracle --------------------------------------------------------------------------

  static final class Rng {
    long s;

    Rng(long seed) {
      s = seed;
    }

    static long mix(long z) {
      z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
      z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
      return z ^ (z >>> 31);
    }

    static long derive(long... parts) {
      long h = 0;
      for (long p : parts) {
        h = mix(h + 0x9E3779B97F4A7C15L + p);
      }
      return h;
    }

    int below(int n) {
      s += 0x9E3779B97F4A7C15L;
      return (int) (((mix(s) >>> 32) * n) >>> 32);
    }

    void shuffle(List<?> list) {
      for (int k = list.size() - 1; k > 0; k--) {
        java.util.Collections.swap(list, k, below(k + 1));
      }
    }
  }

  /** Oracle: per rank the list of batches, each a list of "e:f" strings, "*" marks padding. */
  static List<List<List<String>>> oracle(
      List<int[]> eps, PlanParameters p, long epoch, int segment, int world, int workers) {
    List<int[]> order = new ArrayList<>(eps); // {episode, length}
    if (p.shuffle()) {
      new Rng(Rng.derive(p.seed(), epoch, segment)).shuffle(order);
    }
    int slots = world * workers;
    List<List<int[]>> assigned = new ArrayList<>();
    long[] load = new long[slots];
    for (int s = 0; s < slots; s++) {
      assigned.add(new ArrayList<>());
    }
    for (int[] e : order) {
      int best = 0;
      for (int s = 0; s < slots; s++) {
        if (load[s] < load[best]) {
          best = s;
        }
      }
      assigned.get(best).add(e);
      load[best] += e[1];
    }
    List<List<List<String>>> ranks = new ArrayList<>();
    for (int r = 0; r < world; r++) {
      List<List<List<String>>> perWorker = new ArrayList<>();
      for (int w = 0; w < workers; w++) {
        int slot = r * workers + w;
        List<String> out = new ArrayList<>();
        Rng rng = new Rng(Rng.derive(p.seed(), epoch, segment, world, workers, slot));
        List<int[]> queue = new ArrayList<>(assigned.get(slot));
        if (!p.shuffle()) {
          for (int[] e : queue) {
            for (int f = 0; f < e[1]; f++) {
              out.add(e[0] + ":" + f);
            }
          }
        } else {
          List<int[]> live = new ArrayList<>(); // {episode, length, next}
          while (live.size() < p.maxNumShards() && !queue.isEmpty()) {
            int[] e = queue.remove(0);
            live.add(new int[] {e[0], e[1], 0});
          }
          List<String> buffer = new ArrayList<>();
          while (!live.isEmpty()) {
            int i = rng.below(live.size());
            int[] st = live.get(i);
            String sample = st[0] + ":" + st[2]++;
            if (st[2] == st[1]) {
              if (!queue.isEmpty()) {
                int[] e = queue.remove(0);
                live.set(i, new int[] {e[0], e[1], 0});
              } else {
                live.remove(i);
              }
            }
            if (buffer.size() < p.bufferSize()) {
              buffer.add(sample);
            } else {
              int j = rng.below(p.bufferSize());
              out.add(buffer.get(j));
              buffer.set(j, sample);
            }
          }
          rng.shuffle(buffer);
          out.addAll(buffer);
        }
        List<List<String>> batches = new ArrayList<>();
        for (int i = 0; i < out.size(); i += p.batchSize()) {
          List<String> b = out.subList(i, Math.min(out.size(), i + p.batchSize()));
          if (b.size() == p.batchSize() || !p.dropLast()) {
            batches.add(new ArrayList<>(b));
          }
        }
        perWorker.add(batches);
      }
      List<List<String>> rank = new ArrayList<>();
      for (int round = 0; ; round++) {
        boolean any = false;
        for (List<List<String>> wb : perWorker) {
          if (round < wb.size()) {
            rank.add(wb.get(round));
            any = true;
          }
        }
        if (!any) {
          break;
        }
      }
      ranks.add(rank);
    }
    int target =
        p.rankBalance() == PlanParameters.RankBalance.PAD
            ? ranks.stream().mapToInt(List::size).max().orElse(0)
            : ranks.stream().mapToInt(List::size).min().orElse(0);
    for (List<List<String>> rank : ranks) {
      while (rank.size() > target) {
        rank.remove(rank.size() - 1);
      }
      List<String> flat = rank.stream().flatMap(List::stream).toList();
      int next = 0;
      while (rank.size() < target) {
        List<String> pad = new ArrayList<>();
        for (int i = 0; i < p.batchSize(); i++) {
          pad.add("*" + flat.get(next++ % flat.size()));
        }
        rank.add(pad);
      }
    }
    return ranks;
  }

  static List<List<String>> actual(SegmentPlan plan, int rank) {
    List<List<String>> out = new ArrayList<>();
    for (RankSchedule.Batch b : plan.schedule(rank).batches()) {
      List<String> batch = new ArrayList<>();
      for (long s : b.samples()) {
        batch.add((b.padding() ? "*" : "") + Samples.episode(s) + ":" + Samples.frame(s));
      }
      out.add(batch);
    }
    return out;
  }

  static List<int[]> raw(List<EpisodePiece> pieces) {
    return pieces.stream().map(p -> new int[] {p.episode(), p.size()}).toList();
  }

  // ---- tests -------------------------------------------------------------------------------

  @Test
  void orderMatchesTheOracleForManyConfigurations() {
    List<EpisodePiece> eps = episodes();
    PlanParameters[] configs = {
      SHUFFLED,
      new PlanParameters(7, true, 1, 1, 4, false, PlanParameters.RankBalance.PAD),
      new PlanParameters(7, true, 50, 16, 8, true, PlanParameters.RankBalance.DROP),
      new PlanParameters(42, false, 1000, 16, 6, false, PlanParameters.RankBalance.PAD)
    };
    for (PlanParameters p : configs) {
      for (int world = 1; world <= 3; world++) {
        for (int workers = 1; workers <= 3; workers++) {
          for (long epoch = 0; epoch < 2; epoch++) {
            SegmentPlan plan = new SegmentPlan(eps, p, epoch, 0, world, workers);
            List<List<List<String>>> expected = oracle(raw(eps), p, epoch, 0, world, workers);
            for (int r = 0; r < world; r++) {
              assertEquals(
                  expected.get(r),
                  actual(plan, r),
                  p + " world " + world + " workers " + workers + " epoch " + epoch + " rank " + r);
            }
          }
        }
      }
    }
  }

  @Test
  void shuffleChangesOrderPerEpochAndNaturalOrderDoesNot() {
    List<EpisodePiece> eps = episodes();
    assertNotEquals(
        actual(new SegmentPlan(eps, SHUFFLED, 0, 0, 1, 1), 0),
        actual(new SegmentPlan(eps, SHUFFLED, 1, 0, 1, 1), 0));
    PlanParameters natural =
        new PlanParameters(42, false, 7, 3, 5, false, PlanParameters.RankBalance.PAD);
    List<List<String>> first = actual(new SegmentPlan(eps, natural, 0, 0, 1, 1), 0);
    assertEquals(first, actual(new SegmentPlan(eps, natural, 5, 0, 1, 1), 0));
    List<String> flat = first.stream().flatMap(List::stream).toList();
    assertEquals("0:0", flat.get(0));
    assertEquals("0:11", flat.get(11));
    assertEquals("1:0", flat.get(12), "natural order: episodes ascending, frames ascending");
  }

  @Test
  void shardingIsDisjointCompleteAndBalancedForOneToFourRanksAndWorkers() {
    List<EpisodePiece> eps = episodes();
    int total = eps.stream().mapToInt(EpisodePiece::size).sum();
    for (int world = 1; world <= 4; world++) {
      for (int workers = 1; workers <= 4; workers++) {
        SegmentPlan plan = new SegmentPlan(eps, SHUFFLED, 3, 0, world, workers);
        Set<Long> seen = new HashSet<>();
        int batches = -1;
        for (int r = 0; r < world; r++) {
          RankSchedule s = plan.schedule(r);
          if (batches >= 0) {
            assertEquals(batches, s.size(), "every rank yields the same number of batches");
          }
          batches = s.size();
          for (RankSchedule.Batch b : s.batches()) {
            if (b.padding()) {
              continue;
            }
            for (long sample : b.samples()) {
              assertTrue(seen.add(sample), "duplicate " + Samples.toString(sample));
            }
          }
          for (int w = 0; w < workers; w++) {
            if (eps.size() >= world * workers) {
              assertFalse(plan.piecesOf(r, w).isEmpty(), "idle worker " + r + "/" + w);
            }
            for (EpisodePiece piece : plan.piecesOf(r, w)) {
              assertEquals(eps.get(piece.episode()), piece, "whole episodes per worker");
            }
          }
        }
        assertEquals(total, seen.size(), world + " x " + workers + " covers every frame");
      }
    }
  }

  @Test
  void elasticResumeDeliversTheRestExactlyOnce() {
    List<EpisodePiece> eps = episodes();
    int total = eps.stream().mapToInt(EpisodePiece::size).sum();
    for (int k : new int[] {0, 1, 3, 6}) {
      SegmentPlan before = new SegmentPlan(eps, SHUFFLED, 2, 0, 2, 2);
      Set<Long> consumed = ResumePlanner.consumed(before, k);
      ResumePlanner.Position after =
          ResumePlanner.resolve(eps, SHUFFLED, 2, List.of(new StreamState.Segment(2, 2, k)), 3, 1);
      assertEquals(0, after.consumedBatches());
      assertEquals(1, after.plan().segment());
      Set<Long> rest = new HashSet<>();
      for (int r = 0; r < 3; r++) {
        for (RankSchedule.Batch b : after.plan().schedule(r).batches()) {
          if (!b.padding()) {
            for (long s : b.samples()) {
              assertFalse(consumed.contains(s), "delivered twice: " + Samples.toString(s));
              assertTrue(rest.add(s), "duplicate after resume: " + Samples.toString(s));
            }
          }
        }
      }
      assertEquals(total, consumed.size() + rest.size(), "k = " + k);
    }
    // Same world: the plan is the original one, positioned after the consumed batches.
    ResumePlanner.Position same =
        ResumePlanner.resolve(eps, SHUFFLED, 2, List.of(new StreamState.Segment(2, 2, 4)), 2, 2);
    assertEquals(4, same.consumedBatches());
    assertArrayEquals(
        new SegmentPlan(eps, SHUFFLED, 2, 0, 2, 2).schedule(1).batches().get(4).samples(),
        same.plan().schedule(1).batches().get(4).samples());
  }

  @Test
  void stateRoundTripsThroughJson() {
    StreamState s =
        new StreamState(
            3,
            List.of(new StreamState.Segment(2, 4, 17)),
            SHUFFLED,
            StreamState.fingerprint(episodes()));
    assertEquals(s, StreamState.fromJson(s.toJson()));
    assertTrue(s.toJson().length() < 400, "small JSON: " + s.toJson());
  }
}
