package org.robostream.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.dataset.V30MetadataTestAccess;
import org.robostream.testing.Datasets;

/** Library messages name API options; what the CLI prints names its flags instead. */
class OptionFlagsTest {
  @TempDir Path tmp;

  @Test
  void apiOptionNamesBecomeFlagsAndPlainWordsStay() {
    assertEquals(
        "--video-decode-device cuda cannot be used: no driver (use cuda-or-cpu)",
        OptionFlags.inMessage("decodeDevice cuda cannot be used: no driver (use cuda-or-cpu)"));
    assertEquals(
        "links outside them are allowed (--allow-symlinks-outside-root)",
        OptionFlags.inMessage("links outside them are allowed (symlinks(SymlinkPolicy.FOLLOW))"));
    assertEquals(
        "stream it with --data-files-root hf://buckets/a/b",
        OptionFlags.inMessage("stream it with dataFilesRoot hf://buckets/a/b"));
    assertEquals(
        "--video-decoder-cache-size must be a positive integer, got 0",
        OptionFlags.inMessage("decoderCacheSize must be a positive integer, got 0"));
    String plain = "the decode device, a data files root, builder.decodeDeviceX(), a.decodeDevice";
    assertEquals(plain, OptionFlags.inMessage(plain));
  }

  @Test
  void selectionsWrittenAsCallsBecomeTheFlagWithTheirValues() {
    assertEquals(
        "select what is here with --cameras a.top,a.wrist (no file of a.side is here)",
        OptionFlags.inMessage(
            "select what is here with cameras(\"a.top\", \"a.wrist\") (no file of a.side is here)"));
    assertEquals(
        "with --episodes 1-2,4 and --cameras x",
        OptionFlags.inMessage("with episodes(\"1-2,4\") and cameras(\"x\")"));
    String plain = "3 of the 9 files of the selected episodes and cameras; builder.episodes(\"1\")";
    assertEquals(plain, OptionFlags.inMessage(plain));
  }

  @Test
  void aBudgetTooSmallForTheBatchesNamesTheFlagsToChange() {
    String err =
        BenchCliTest.captureErr(
            () ->
                assertEquals(
                    2,
                    Main.run(
                        "bench",
                        "--root",
                        Datasets.patternV30().toString(),
                        "--memory-budget-mb",
                        "1",
                        "--num-workers",
                        "2",
                        "--out-dir",
                        tmp.resolve("out").toString())));
    assertTrue(
        err.contains(
            "robostream: --memory-budget-mb (1048576 bytes) is too small for 2" + " workers"),
        err);
    assertTrue(err.contains("raise --memory-budget-mb or lower --batch-size or the workers"), err);
  }

  @Test
  void aLinkOutsideTheRootNamesTheFlagThatAllowsIt() throws Exception {
    Path root = tmp.resolve("ds");
    V30MetadataTestAccess.copyTree(Datasets.patternV30(), root);
    Path store = Files.createDirectories(tmp.resolve("store"));
    Files.move(root.resolve("videos"), store.resolve("videos"));
    Files.createSymbolicLink(root.resolve("videos"), store.resolve("videos"));
    String err =
        BenchCliTest.captureErr(
            () ->
                assertEquals(
                    1,
                    Main.run(
                        "bench",
                        "--root",
                        root.toString(),
                        "--num-batches",
                        "1",
                        "--out-dir",
                        tmp.resolve("out").toString())));
    assertTrue(
        err.contains("unless links outside them are allowed" + " (--allow-symlinks-outside-root)"),
        err);
    assertFalse(err.contains("SymlinkPolicy"), err);
  }
}
