package org.robostream.dataset.synth;

/**
 * The table values of generated datasets, functions of (episode, frame) so tests can check every
 * row they receive. Exact in float32 for episodes < 100 and frames < 10000. Stateless.
 */
public final class SyntheticValues {
  private SyntheticValues() {}

  public static float action(int episode, int frame, int j) {
    return episode * 10000f + frame + j / 8f;
  }

  public static float state(int episode, int frame, int j) {
    return -(episode * 10000f + frame) - j / 8f;
  }

  public static int taskIndex(int episode, int tasks) {
    return episode % tasks;
  }

  public static String task(int taskIndex) {
    String[] verbs = {
      "Pick up the red cube.",
      "Open the top drawer.",
      "Stack the blue cups.",
      "Wipe the table.",
      "Hand over the bottle."
    };
    return taskIndex < verbs.length ? verbs[taskIndex] : "Task number " + taskIndex + ".";
  }
}
