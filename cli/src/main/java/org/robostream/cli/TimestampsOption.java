package org.robostream.cli;

import org.robostream.dataset.TimestampRule;
import org.robostream.stream.StreamingDataset;
import picocli.CommandLine.Option;

/**
 * The {@code --timestamps position|strict|lerobot} flag of {@code bench}, {@code stream-bench} and
 * {@code train} (a picocli mixin): the library's {@code timestamps(TimestampRule)}. Not thread-safe
 * (filled by picocli, read once).
 */
final class TimestampsOption {
  @Option(
      names = "--timestamps",
      paramLabel = "position|strict|lerobot",
      description =
          "which frame a row gets. position (default): row k shows frame k of its episode,"
              + " whatever its timestamp says (one warning where LeRobot would show other frames);"
              + " strict: the same frames, and a row whose timestamp is not frame_index / fps"
              + " (within the tolerance) is refused; lerobot: the frame nearest each row's"
              + " timestamp, as LeRobot picks it, and a row with no frame within the tolerance is"
              + " refused")
  String rule;

  /** The rule; call before any heavy work so a typo is an instant exit 2. */
  TimestampRule rule() {
    return rule == null ? TimestampRule.POSITION : TimestampRule.parse(rule);
  }

  void applyTo(StreamingDataset.Builder builder) {
    builder.timestamps(rule());
  }
}
