package org.robostream.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.robostream.stream.StreamingDataset;
import picocli.CommandLine.Option;

/**
 * The {@code --resize} flag of {@code bench}, {@code stream-bench} and {@code train} (a picocli
 * mixin): batch frames at {@code HxW} for every camera, or per camera ({@code
 * observation.images.top=224x224,...}; a plain {@code HxW} among them sizes the cameras not named).
 * Not thread-safe (filled by picocli, read once).
 */
final class ResizeOptions {
  @Option(
      names = "--resize",
      paramLabel = "HxW|CAMERA=HxW,...",
      description =
          "frames in the batches at HxW (height x width) for every camera, or per camera:"
              + " observation.images.top=224x224,...; scaled inside the colour conversion"
              + " (swscale on the CPU, the colour kernel with --video-decode-device cuda);"
              + " depth cameras are never resized")
  String resize;

  /** One camera's size ({@code camera} null: every camera's). */
  private record Entry(String camera, int height, int width) {}

  /** The parsed flag; call before any heavy work so a typo is an instant exit 2. */
  private List<Entry> entries() {
    List<Entry> out = new ArrayList<>();
    if (resize == null) {
      return out;
    }
    for (String item : resize.split(",")) {
      int eq = item.indexOf('=');
      String camera = eq < 0 ? null : item.substring(0, eq).strip();
      String[] hw = item.substring(eq + 1).strip().toLowerCase(Locale.ROOT).split("x");
      try {
        if (hw.length == 2 && (camera == null || !camera.isEmpty())) {
          out.add(new Entry(camera, Integer.parseInt(hw[0]), Integer.parseInt(hw[1])));
          continue;
        }
      } catch (NumberFormatException e) {
        // reported below with the item
      }
      throw new IllegalArgumentException(
          "--resize takes HxW or CAMERA=HxW,... (e.g. 224x224 or observation.images.top=224x224),"
              + " got "
              + item);
    }
    return out;
  }

  /** Checks the flag's syntax (the sizes and camera names are the library's to check). */
  void check() {
    entries();
  }

  void applyTo(StreamingDataset.Builder builder) {
    for (Entry e : entries()) {
      if (e.camera() == null) {
        builder.resize(e.height(), e.width());
      } else {
        builder.resize(e.camera(), e.height(), e.width());
      }
    }
  }
}
