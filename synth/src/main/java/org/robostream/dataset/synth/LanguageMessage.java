package org.robostream.dataset.synth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * One message of LeRobot's language columns (src/lerobot/datasets/language.py), as {@link
 * LanguageColumnWriter} stores it. The two columns carry tool calls differently: persistent
 * messages as JSON texts ({@code toolCallsJson}), events as structs ({@code toolCalls}); null is a
 * null list. {@code timestamp} is stored for persistent messages only. Immutable.
 */
public record LanguageMessage(
    String role,
    String content,
    String style,
    float timestamp,
    String camera,
    List<String> toolCallsJson,
    List<ToolCall> toolCalls) {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** A tool call as the events column stores it: a function name and its text argument. */
  public record ToolCall(String name, String text) {}

  /**
   * What Python's {@code json.loads} gives for a row of {@code messages} as the loader delivers it
   * (its JSON text), so that tests on either side of the bridge compare trees, not texts.
   */
  public static JsonNode json(List<LanguageMessage> messages, boolean persistent) {
    if (messages == null) {
      return NODES.nullNode();
    }
    ArrayNode out = NODES.arrayNode();
    for (LanguageMessage m : messages) {
      ObjectNode o = out.addObject();
      o.put("role", m.role());
      o.put("content", m.content());
      o.put("style", m.style());
      if (persistent) {
        o.put("timestamp", (double) m.timestamp());
      }
      o.put("camera", m.camera());
      List<?> calls = persistent ? m.toolCallsJson() : m.toolCalls();
      if (calls == null) {
        o.putNull("tool_calls");
        continue;
      }
      ArrayNode a = o.putArray("tool_calls");
      for (Object c : calls) {
        if (persistent) {
          a.add((String) c);
        } else {
          ToolCall t = (ToolCall) c;
          ObjectNode call = a.addObject();
          call.put("type", "function");
          ObjectNode function = call.putObject("function");
          function.put("name", t.name());
          function.putObject("arguments").put("text", t.text());
        }
      }
    }
    return out;
  }
}
