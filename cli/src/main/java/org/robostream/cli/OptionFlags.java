package org.robostream.cli;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one place where the library's option names become this command line's flags. Library messages
 * name API options as a library user writes them ({@code decodeDevice cuda cannot be used: ...},
 * {@code symlinks(SymlinkPolicy.FOLLOW)}); every message the CLI prints from an error goes through
 * {@link #inMessage}, so a user of the CLI reads the flag to change instead. The names are API
 * spellings (camelCase, a type, a call) that plain words never match; a selection written as a call
 * with its values ({@code episodes("1-2,4")}, {@code cameras("a", "b")}) becomes the flag with them
 * ({@code --episodes 1-2,4}, {@code --cameras a,b}). Stateless.
 */
final class OptionFlags {
  private static final Map<String, String> FLAGS =
      Map.ofEntries(
          Map.entry("decodeDevice", "--video-decode-device"),
          Map.entry("decoderCacheSize", "--video-decoder-cache-size"),
          Map.entry("dataFilesRoot", "--data-files-root"),
          Map.entry("symlinks(SymlinkPolicy.FOLLOW)", "--allow-symlinks-outside-root"),
          Map.entry("TrainingDevice", "--device"),
          Map.entry("memoryBudgetBytes", "--memory-budget-mb"),
          Map.entry("batchSize", "--batch-size"),
          Map.entry("bufferSize", "--buffer-size"),
          Map.entry("maxNumShards", "--max-num-shards"),
          Map.entry("resize(...)", "--resize"),
          Map.entry("frameCache(...)", "--frame-cache"));
  private static final Pattern NAMES =
      Pattern.compile(
          "(?<![\\w.])("
              + String.join("|", FLAGS.keySet().stream().map(Pattern::quote).toList())
              + ")(?![\\w(])");

  // Selections a message writes as a call a user can paste, episodes("0-9,12") and
  // cameras("a", "b"), become the flag with its value: --episodes 0-9,12, --cameras a,b.
  private static final Map<String, String> SELECTIONS =
      Map.of("episodes", "--episodes", "cameras", "--cameras");
  private static final Pattern SELECTION_CALLS =
      Pattern.compile("(?<![\\w.])(episodes|cameras)\\((\"[^\"]*\"(?:, \"[^\"]*\")*)\\)");

  private OptionFlags() {}

  /** {@code message} with every API option name replaced by its flag (null stays null). */
  static String inMessage(String message) {
    if (message == null) {
      return null;
    }
    Matcher m = NAMES.matcher(selectionsInMessage(message));
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(out, Matcher.quoteReplacement(FLAGS.get(m.group(1))));
    }
    return m.appendTail(out).toString();
  }

  private static String selectionsInMessage(String message) {
    Matcher m = SELECTION_CALLS.matcher(message);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String values = m.group(2).replace("\", \"", ",").replace("\"", "");
      m.appendReplacement(out, Matcher.quoteReplacement(SELECTIONS.get(m.group(1)) + " " + values));
    }
    return m.appendTail(out).toString();
  }
}
