package org.robostream.cli;

import org.robostream.dataset.TimestampRule;
import org.robostream.stream.StreamingDataset;
import picocli.CommandLine.Option;

/**
 * The {@code --timestamps position|strict} flag of {@code bench}, {@code stream-bench} and {@code
 * train} (a picocli mixin): the library's {@code timestamps(TimestampRule)}. Not thread-safe
 * (filled by picocli, read once).
 */
final class TimestampsOption {
  @Option(
      names = "--timestamps",
      paramLabel = "position|strict",
      description =
          "position (default): rows pair with their videos' frames by position and timestamps as"
              + " a robot recorded them are reported, not refused; strict: a dataset whose"
              + " timestamps drift more than half a frame from frame_index / fps is refused")
  String rule;

  /** The rule; call before any heavy work so a typo is an instant exit 2. */
  TimestampRule rule() {
    return rule == null ? TimestampRule.POSITION : TimestampRule.parse(rule);
  }

  void applyTo(StreamingDataset.Builder builder) {
    builder.timestamps(rule());
  }
}
