package org.robostream.stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.robostream.dataset.LeRobotMetadata;
import org.robostream.dataset.synth.PatternCode;
import org.robostream.dataset.synth.SyntheticValues;
import org.robostream.testing.Datasets;
import org.robostream.video.FrameLayout;

/** Windows for table and video keys, clamps and padding masks at episode edges. */
class StreamingWindowsTest {
  static final int[] ACTION = {-2, 0, 1, 120};
  static final int[] CAMERA = {-1, 0, 1};

  @Test
  void tableAndVideoWindowsClampToTheEpisodeAndFlagPadding() {
    var root = Datasets.patternV30();
    int checked = 0;
    int padded = 0;
    try (StreamingDataset ds =
        StreamingDataset.builder(root)
            .batchSize(7)
            .shuffle(false)
            .returnUint8(true)
            .layout(FrameLayout.HWC)
            .deltaTimestamps(
                Map.of(
                    "action", new double[] {-0.1, 0, 0.05, 6.0},
                    "observation.images.top", new double[] {-0.05, 0, 0.05}))
            .build()) {
      LeRobotMetadata m = ds.metadata();
      for (Batch b : ds) {
        try (b) {
          long[] episode = b.longs("episode_index");
          long[] frame = b.longs("frame_index");
          double[] action = b.doubles("action");
          boolean[] actionPad = b.booleans("action_is_pad");
          boolean[] cameraPad = b.booleans("observation.images.top_is_pad");
          Batch.Frames top = b.frames("observation.images.top");
          assertArrayEquals(new int[] {b.size(), 3, 64, 64, 3}, top.shape());
          assertEquals(b.size(), b.frames("observation.images.wrist").shape()[0]);
          assertEquals(4, b.frames("observation.images.wrist").shape().length, "not windowed");
          for (int i = 0; i < b.size(); i++) {
            int e = (int) episode[i];
            int f = (int) frame[i];
            int length = m.episode(e).length();
            for (int t = 0; t < ACTION.length; t++) {
              int want = Math.max(0, Math.min(length - 1, f + ACTION[t]));
              boolean pad = f + ACTION[t] < 0 || f + ACTION[t] > length - 1;
              assertEquals(pad, actionPad[i * ACTION.length + t]);
              for (int j = 0; j < 4; j++) {
                assertEquals(
                    SyntheticValues.action(e, want, j),
                    action[(i * ACTION.length + t) * 4 + j],
                    0.0);
              }
              padded += pad ? 1 : 0;
            }
            ByteBuffer frames = top.sample(i);
            for (int t = 0; t < CAMERA.length; t++) {
              int want = Math.max(0, Math.min(length - 1, f + CAMERA[t]));
              assertEquals(
                  f + CAMERA[t] < 0 || f + CAMERA[t] > length - 1,
                  cameraPad[i * CAMERA.length + t]);
              ByteBuffer one =
                  frames.duplicate().position(t * 64 * 64 * 3).limit((t + 1) * 64 * 64 * 3).slice();
              assertEquals(
                  new PatternCode.Identity(e, want, 0),
                  PatternCode.read(one, 64, 64, false),
                  "episode " + e + " frame " + f + " t " + t);
            }
            checked++;
          }
        }
      }
      assertEquals(StreamingDatasetTest.totalFrames(root), checked, "first and last frames too");
      assertTrue(padded > 0);
    }
  }

  @Test
  void aHorizonOfMoreThanAHundredFramesIsNotPadded() {
    try (StreamingDataset ds =
        StreamingDataset.builder(Datasets.longEpisode())
            .batchSize(50)
            .shuffle(false)
            .episodes(java.util.List.of(0))
            .deltaTimestamps(Map.of("action", new double[] {0, 5.0}))
            .build()) {
      Batch b = ds.iterator().next();
      try (b) {
        boolean[] pad = b.booleans("action_is_pad");
        double[] action = b.doubles("action");
        for (int i = 0; i < b.size(); i++) {
          assertTrue(!pad[i * 2] && !pad[i * 2 + 1], "frame " + i + " + 150 is inside 300");
          assertEquals(SyntheticValues.action(0, i + 150, 0), action[(i * 2 + 1) * 2], 0.0);
        }
      }
    }
  }

  @Test
  void presetsAndBadKeys() {
    var info = LeRobotMetadata.open(Datasets.patternV30(), java.util.Optional.empty()).info();
    assertArrayEquals(
        new int[] {0, 20, 40, 60, 80, 100, 120, 140},
        Windows.preset(Windows.Preset.SARM_BENCH, info).offsets("action"));
    Windows sarm = Windows.preset(Windows.Preset.SARM, info);
    assertArrayEquals(
        new int[] {-120, -90, -60, -30, 0, 30, 60, 90, 120, -30, -60, -90, -120},
        sarm.offsets("observation.images.top"));
    assertEquals(13, sarm.offsets("observation.state").length);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> Windows.fromDeltaTimestamps(Map.of("actions", new double[] {0}), info));
    assertTrue(e.getMessage().contains("action"), e.getMessage());
  }

  @Test
  void anOffsetBeyondWhatAFramePositionHoldsIsRefusedNotWrapped() {
    var info = LeRobotMetadata.open(Datasets.patternV30(), java.util.Optional.empty()).info();
    // Before: 1e18 s wrapped to an offset inside the episode (its frames delivered, not padded).
    for (double seconds : new double[] {1e18, -1e18, 1e308, -1e308}) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> Windows.fromDeltaTimestamps(Map.of("action", new double[] {seconds}), info));
      assertTrue(e.getMessage().contains("a window may reach"), e.getMessage());
    }
    // A day at 20 fps (1.7 M frames) is far past any episode: padded, not refused.
    assertArrayEquals(
        new int[] {1_728_000},
        Windows.fromDeltaTimestamps(Map.of("action", new double[] {86_400}), info)
            .offsets("action"));
  }

  @Test
  void aWindowOnACameraTheSelectionLeavesOutIsRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                StreamingDataset.builder(Datasets.patternV30())
                    .cameras("observation.images.top")
                    .deltaTimestamps(Map.of("observation.images.wrist", new double[] {-0.05, 0}))
                    .build());
    assertTrue(
        e.getMessage()
            .contains(
                "deltaTimestamps has a window for observation.images.wrist, a camera the"
                    + " cameras(...) selection leaves out"),
        e.getMessage());
  }

  @Test
  void aCameraSelectionStreamsOnlyThatCameraWithItsWindow() {
    try (StreamingDataset ds =
        StreamingDataset.builder(Datasets.patternV30())
            .cameras("observation.images.wrist")
            .deltaTimestamps(Map.of("observation.images.wrist", new double[] {-0.05, 0}))
            .batchSize(4)
            .returnUint8(true)
            .layout(FrameLayout.HWC)
            .build()) {
      for (Batch b : ds) {
        try (b) {
          assertEquals(java.util.List.of("observation.images.wrist"), b.cameras());
          assertEquals(2, b.frameShape("observation.images.wrist")[1]);
        }
      }
    }
  }
}
