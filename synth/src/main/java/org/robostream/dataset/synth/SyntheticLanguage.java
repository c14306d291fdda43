package org.robostream.dataset.synth;

import java.util.List;

/**
 * The language messages of generated datasets ({@link SyntheticDatasetSpec#languageColumns()}):
 * functions of a row's dataset {@code index} and {@code frame}, so tests can check every row they
 * receive. The rows hold every form LeRobot's annotation pipeline writes, from the first row on:
 * null rows, empty lists, several messages, null fields, nested tool calls, escapes and non-ASCII
 * text (the loader delivers a language column as one JSON text per row, whatever its declared shape
 * [1] says). Stateless.
 */
public final class SyntheticLanguage {
  private SyntheticLanguage() {}

  /** The persistent messages of the row with dataset index {@code index} and frame {@code f}. */
  public static List<LanguageMessage> persistent(long index, int f) {
    float t = f / 30f + 0.1f; // not a float a decimal writes exactly: read back as its double
    LanguageMessage subtask =
        new LanguageMessage("assistant", "reach for cup " + f, "subtask", t, null, null, null);
    return switch ((int) (index % 6)) {
      case 0 -> null;
      case 1 ->
          List.of(
              subtask,
              new LanguageMessage(
                  "assistant",
                  null,
                  "plan",
                  0f,
                  null,
                  List.of("{\"name\":\"say\",\"arguments\":{\"text\":\"hi \\\"there\\\"\"}}"),
                  null));
      case 2 ->
          List.of(
              new LanguageMessage(
                  "user",
                  "line1\nline2\t\"q\" \\ é 漢字 🤖 \u0001 end",
                  "memory",
                  -1.5f,
                  null,
                  null,
                  null));
      case 3 -> List.of();
      case 4 -> List.of(new LanguageMessage("assistant", "x", "motion", t, null, List.of(), null));
      default -> List.of(subtask, subtask, subtask);
    };
  }

  /** The events of the row with dataset index {@code index} and frame {@code f}. */
  public static List<LanguageMessage> events(long index, int f) {
    LanguageMessage vqa =
        new LanguageMessage(
            "user", "what is visible? ✓", "vqa", 0f, "observation.images.top", null, null);
    return switch ((int) (index % 6)) {
      case 2 ->
          List.of(
              new LanguageMessage(
                  "assistant",
                  null,
                  null,
                  0f,
                  null,
                  null,
                  List.of(new LanguageMessage.ToolCall("say", "héllo 🤖 frame " + f))));
      case 3 -> null;
      case 4 ->
          List.of(
              vqa,
              new LanguageMessage(
                  "assistant",
                  "two calls",
                  null,
                  0f,
                  null,
                  null,
                  List.of(
                      new LanguageMessage.ToolCall("say", "a"),
                      new LanguageMessage.ToolCall("say", null))));
      default -> List.of();
    };
  }
}
