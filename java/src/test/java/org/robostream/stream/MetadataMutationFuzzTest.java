package org.robostream.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.dataset.LeRobotMetadata;
import org.robostream.dataset.V30MetadataTestAccess;
import org.robostream.testing.Datasets;
import org.robostream.testing.Fixtures;

/**
 * Mutation fuzz of metadata and tables, the counterpart of {@code video.MutationFuzzTest} for what
 * describes the videos: three small pattern datasets (v3.0 in one file per camera, v3.0 rolling
 * over to two files, v2.1), several hundred deterministic mutations of info.json, the episodes
 * table, a data file and the tasks table ({@link MetadataMutations}), each streamed for a whole
 * epoch in process and judged by {@link MetadataFuzzJudge}: a typed error naming a file, or every
 * frame exactly the one its sample names. Prints the counts per seed, target and outcome, and
 * requires a minimum of each outcome so neither side can become vacuous, and that every typed error
 * comes when the dataset is built: none first appears half way through an epoch.
 */
class MetadataMutationFuzzTest {
  private static final long CASE_TIMEOUT_S = 60;

  @TempDir Path tmp;

  @Test
  void everyMutationIsATypedErrorOrExactFrames() throws Exception {
    Map<String, Path> seeds = new java.util.LinkedHashMap<>();
    seeds.put("v3.0", Datasets.tinyPatternV30());
    seeds.put("v3.0-2files", Datasets.tinyPatternV30TwoFiles());
    seeds.put("v2.1", Datasets.tinyPatternV21());
    Map<String, EnumMap<MetadataFuzzJudge.Outcome, Integer>> counts = new TreeMap<>();
    EnumMap<MetadataFuzzJudge.Outcome, Integer> totals =
        new EnumMap<>(MetadataFuzzJudge.Outcome.class);
    List<String> failures = new ArrayList<>();
    List<String> whileStreaming = new ArrayList<>();
    long start = System.nanoTime();
    int cases = 0;
    ExecutorService runner =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "metadata-fuzz-case");
              t.setDaemon(true);
              return t;
            });
    try {
      for (Map.Entry<String, Path> seed : seeds.entrySet()) {
        List<String> cameras =
            LeRobotMetadata.open(seed.getValue(), Optional.empty()).info().videoKeys();
        for (MetadataMutations.Mutation m : MetadataMutations.of(seed.getKey(), seed.getValue())) {
          Path root = tmp.resolve("case-" + cases++);
          V30MetadataTestAccess.copyTree(seed.getValue(), root);
          m.change().apply(root);
          Future<MetadataFuzzJudge.Verdict> run =
              runner.submit(() -> MetadataFuzzJudge.judge(root, cameras));
          MetadataFuzzJudge.Verdict v;
          try {
            v = run.get(CASE_TIMEOUT_S, TimeUnit.SECONDS);
          } catch (java.util.concurrent.TimeoutException e) {
            failures.add(m + ": no outcome within " + CASE_TIMEOUT_S + " s");
            break;
          }
          if (v.failure() != null) {
            failures.add(m + " (" + v.outcome() + "): " + v.failure());
          }
          if (v.outcome() == MetadataFuzzJudge.Outcome.TYPED_WHILE_STREAMING) {
            whileStreaming.add(m.toString());
          }
          counts
              .computeIfAbsent(
                  m.seed() + " " + m.target(), k -> new EnumMap<>(MetadataFuzzJudge.Outcome.class))
              .merge(v.outcome(), 1, Integer::sum);
          totals.merge(v.outcome(), 1, Integer::sum);
          Fixtures.deleteTree(root);
        }
      }
    } finally {
      runner.shutdownNow();
    }
    System.out.printf(
        "metadata mutation fuzz: %d cases in %.1f s%n", cases, (System.nanoTime() - start) / 1e9);
    counts.forEach((k, c) -> System.out.printf("  %-22s %s%n", k, c));
    System.out.println("  total                  " + totals);
    failures.stream().limit(15).forEach(f -> System.out.println("FAILED " + f));
    whileStreaming.forEach(w -> System.out.println("  while streaming: " + w));
    int all = cases;
    assertTrue(
        failures.isEmpty(),
        () -> failures.size() + " of " + all + " cases failed; first: " + failures.get(0));
    assertTrue(cases >= 500, "only " + cases + " mutations");
    for (Map.Entry<String, EnumMap<MetadataFuzzJudge.Outcome, Integer>> c : counts.entrySet()) {
      int typed =
          c.getValue().getOrDefault(MetadataFuzzJudge.Outcome.TYPED_AT_BUILD, 0)
              + c.getValue().getOrDefault(MetadataFuzzJudge.Outcome.TYPED_WHILE_STREAMING, 0);
      assertTrue(typed >= 4, c.getKey() + ": only " + typed + " typed errors");
      assertTrue(
          c.getValue().getOrDefault(MetadataFuzzJudge.Outcome.EXACT, 0) >= 2,
          c.getKey() + ": too few exact epochs " + c.getValue());
    }
    assertTrue(
        totals.getOrDefault(MetadataFuzzJudge.Outcome.TYPED_AT_BUILD, 0) >= 200,
        "typed errors at build " + totals);
    // Everything a damaged table or info.json can say is checked when the dataset is built: no
    // refusal first appears half way through an epoch.
    assertEquals(
        List.of(), whileStreaming, "found only while streaming, not when built: " + totals);
    assertTrue(
        totals.getOrDefault(MetadataFuzzJudge.Outcome.EXACT, 0) >= 80, "exact epochs " + totals);
  }
}
