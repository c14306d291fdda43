package org.robostream.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.testing.Fixtures;

/**
 * The real datasets of shared/datasets through the CLI: what is absent is refused before anything
 * is measured, with the dataset error's exit code (1, not a flag error's 2) and the flags that
 * select what is there; with those flags the commands run. Skipped where the datasets are missing.
 */
class RealDatasetCliTest {
  static final String EGO_VIEW = "observation.images.ego_view";

  @TempDir Path tmp;

  @Test
  void benchOnGr00tWithoutCamerasIsADatasetErrorNamingTheCamerasFlag() {
    String root = Fixtures.sharedDataset(Fixtures.GR00T).toString();
    String err = BenchCliTest.captureErr(() -> assertEquals(1, bench("--root", root)));
    assertTrue(err.contains("--cameras " + EGO_VIEW), err);
    assertTrue(err.contains("observation.images.egoview/episode_000000.mp4"), err);
    assertTrue(err.contains("5 of the 15 files"), err);
  }

  @Test
  void benchOnGr00tWithTheCameraThatIsThereRuns() {
    String root = Fixtures.sharedDataset(Fixtures.GR00T).toString();
    assertEquals(0, bench("--root", root, "--cameras", EGO_VIEW));
  }

  @Test
  void streamBenchOnGr00tWithoutCamerasIsADatasetErrorAndWithThemRuns() {
    String root = Fixtures.sharedDataset(Fixtures.GR00T).toString();
    assertExitOneNamingTheCameras(() -> streamBench(root));
    assertEquals(0, streamBench(root, "--cameras", EGO_VIEW));
  }

  @Test
  void trainDiagnoseAndInspectOnGr00tTakeTheCameraSelection() {
    String root = Fixtures.sharedDataset(Fixtures.GR00T).toString();
    assertExitOneNamingTheCameras(() -> train(root));
    assertEquals(0, train(root, "--cameras", EGO_VIEW));
    String diagnosed =
        BenchCliTest.capture(
            () -> assertEquals(0, Main.run("diagnose", "--root", root, "--cameras", EGO_VIEW)));
    assertTrue(diagnosed.contains("cameras [" + EGO_VIEW + "]"), diagnosed);
    assertTrue(diagnosed.contains("ok    decoded frame 0"), diagnosed);
    String inspected =
        BenchCliTest.capture(
            () -> assertEquals(0, Main.run("inspect", root, "--cameras", EGO_VIEW, "--json")));
    assertTrue(inspected.contains("\"key\" : \"" + EGO_VIEW + "\""), inspected);
    assertTrue(!inspected.contains("\"key\" : \"observation.images.egoview\""), inspected);
  }

  @Test
  void benchOnG1WithoutEpisodesNamesTheEpisodesFlagWithTheEpisodesThatAreThere() {
    String root = Fixtures.sharedDataset(Fixtures.G1).toString();
    String err = BenchCliTest.captureErr(() -> assertEquals(1, bench("--root", root)));
    assertTrue(err.contains("--episodes 1-2,4"), err);
    assertTrue(err.contains("data/chunk-000/episode_000000.parquet"), err);
  }

  @Test
  void benchOnCr5StreamsItsRecordedTimestampsAndStrictRefusesThemNamingTheFlag() {
    String root = Fixtures.sharedDataset(Fixtures.CR5).toString();
    String err =
        BenchCliTest.captureErr(() -> assertEquals(0, bench("--root", root, "--episodes", "0-4")));
    assertTrue(err.contains("Rows as recorded in 5 of 5 episodes (0-4)"), err);
    assertEquals(1, err.lines().filter(l -> l.contains("--timestamps lerobot")).count(), err);
    err =
        BenchCliTest.captureErr(
            () ->
                assertEquals(
                    1, bench("--root", root, "--episodes", "0-4", "--timestamps", "strict")));
    assertTrue(err.contains("--timestamps position"), err);
    err =
        BenchCliTest.captureErr(
            () ->
                assertEquals(
                    1, bench("--root", root, "--episodes", "0-4", "--timestamps", "lerobot")));
    assertTrue(err.contains("row 0 has timestamp 0.031337 s: LeRobot looks for its frame"), err);
    assertTrue(err.contains("--timestamps position"), err);
    err =
        BenchCliTest.captureErr(
            () -> assertEquals(2, bench("--root", root, "--episodes", "0-4", "--timestamps", "x")));
    assertTrue(err.contains("timestamps must be position, strict or lerobot"), err);
  }

  @Test
  void aMalformedSelectionIsAFlagErrorNamingTheFlag() {
    String root = Fixtures.sharedDataset(Fixtures.G1).toString();
    String err =
        BenchCliTest.captureErr(() -> assertEquals(2, bench("--root", root, "--episodes", "4-1")));
    assertTrue(err.contains("--episodes 4-1: \"4-1\" is a range that goes down"), err);
    err =
        BenchCliTest.captureErr(
            () -> assertEquals(2, bench("--root", root, "--cameras", "observation.images.top")));
    assertTrue(
        err.contains(
            "--cameras observation.images.top: observation.images.top is not a camera of this"
                + " dataset"),
        err);
  }

  /** {@code command} fails as a dataset error (exit 1, not a flag error's 2) naming --cameras. */
  private static void assertExitOneNamingTheCameras(java.util.function.IntSupplier command) {
    String err = BenchCliTest.captureErr(() -> assertEquals(1, command.getAsInt()));
    assertTrue(err.contains("--cameras " + EGO_VIEW), err);
  }

  private int bench(String... dataset) {
    String[] common = {
      "bench",
      "--num-batches",
      "4",
      "--warmup-batches",
      "1",
      "--batch-size",
      "8",
      "--num-workers",
      "1",
      "--buffer-size",
      "16",
      "--device",
      "cpu",
      "--out-dir",
      tmp.toString()
    };
    return Main.run(concat(common, dataset));
  }

  private int train(String root, String... selection) {
    String[] common = {
      "train",
      "--root",
      root,
      "--dummy",
      "--steps",
      "2",
      "--batch-size",
      "8",
      "--num-workers",
      "1",
      "--buffer-size",
      "16",
      "--output-dir",
      tmp.resolve("train").toString()
    };
    return Main.run(concat(common, selection));
  }

  private static int streamBench(String root, String... selection) {
    String[] common = {
      "stream-bench",
      root,
      "--rounds",
      "1",
      "--warmup-batches",
      "0",
      "--workers",
      "1",
      "--batch-size",
      "16",
      "--buffer-size",
      "64"
    };
    return Main.run(concat(common, selection));
  }

  private static String[] concat(String[] a, String[] b) {
    String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
