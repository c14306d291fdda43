package org.robostream.dataset;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * LeRobot's default features ({@code DEFAULT_FEATURES}: {@code timestamp} float32, {@code
 * frame_index}, {@code episode_index}, {@code index}, {@code task_index} int64, each of shape [1]).
 * LeRobot's writers add them to every dataset, but some converters leave them out of info.json
 * while the data files hold the columns; LeRobot reads those columns all the same. So a default
 * info.json leaves out is read as LeRobot declares it, where the data files have the column.
 * Stateless.
 */
final class DefaultFeatures {
  /** The defaults, in LeRobot's order. */
  static final List<Feature> LEROBOT =
      List.of(
          scalar("timestamp", "float32"),
          scalar("frame_index", "int64"),
          scalar("episode_index", "int64"),
          scalar("index", "int64"),
          scalar("task_index", "int64"));

  private DefaultFeatures() {}

  /**
   * The defaults {@code info} does not declare that {@code columns} (a data file's) holds, in
   * LeRobot's order.
   */
  static List<Feature> omitted(DatasetInfo info, Collection<String> columns) {
    List<Feature> out = new ArrayList<>();
    for (Feature f : LEROBOT) {
      if (!info.features().containsKey(f.name()) && columns.contains(f.name())) {
        out.add(f);
      }
    }
    return out;
  }

  /** How a default is declared, for messages: "frame_index int64 [1]". */
  static String describe(Feature f) {
    return f.name() + " " + f.dtype() + " " + java.util.Arrays.toString(f.shape());
  }

  private static Feature scalar(String name, String dtype) {
    return new Feature(name, dtype, new int[] {1}, List.of(), Map.of());
  }
}
