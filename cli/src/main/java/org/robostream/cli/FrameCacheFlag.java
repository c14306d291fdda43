package org.robostream.cli;

import org.robostream.framecache.FrameCacheOptions;
import org.robostream.stream.StreamingDataset;
import picocli.CommandLine.Option;

/**
 * The {@code --frame-cache SPEC} flag of {@code bench}, {@code stream-bench} and {@code train} (a
 * picocli mixin): decoded frames kept in private RAM ({@code memory:SIZE}) or in a folder every
 * process of the node shares ({@code DIR:SIZE}), so epochs after the first read them instead of
 * decoding. Not thread-safe (filled by picocli, read once).
 */
final class FrameCacheFlag {
  @Option(
      names = "--frame-cache",
      paramLabel = "shared:SIZE|memory:SIZE|DIR:SIZE",
      description =
          "keep decoded frames so later epochs read them instead of decoding: shared:64G (your"
              + " own folder in /dev/shm, shared by your processes on the node), memory:16G (this"
              + " process's RAM) or DIR:SIZE (a folder shared by every process that names it, used"
              + " only when no other user can write it); SIZE bounds its bytes")
  String spec;

  /** The parsed flag, null without it; call before any heavy work so a typo is an exit 2. */
  FrameCacheOptions options() {
    if (spec == null) {
      return null;
    }
    try {
      return FrameCacheOptions.parse(spec);
    } catch (IllegalArgumentException e) {
      // parse names the flag in its syntax errors; the size bound's message does not.
      String message = e.getMessage();
      throw new IllegalArgumentException(
          message.startsWith("--frame-cache") ? message : "--frame-cache " + spec + ": " + message,
          e);
    }
  }

  void applyTo(StreamingDataset.Builder builder) {
    FrameCacheOptions options = options();
    if (options != null) {
      builder.frameCache(options);
    }
  }
}
