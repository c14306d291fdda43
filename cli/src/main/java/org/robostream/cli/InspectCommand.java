package org.robostream.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.robostream.RobostreamException;
import org.robostream.dataset.DatasetRoots;
import org.robostream.dataset.EpisodeInfo;
import org.robostream.dataset.Feature;
import org.robostream.dataset.LeRobotMetadata;
import org.robostream.dataset.LocalFileLookup;
import org.robostream.dataset.SourceOptions;
import org.robostream.dataset.SymlinkPolicy;
import org.robostream.dataset.TimestampReport;
import org.robostream.dataset.ToTimestamp;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code robostream inspect ROOT}: what a local LeRobot dataset holds. Each camera (video, depth or
 * image feature) shows its own declared shape, kind and pixel format, and for videos what the first
 * present file's header says ({@link InspectCamera}); for the episodes whose data files are here,
 * what their timestamps keep and whether their rows are the frames the tables say (the index
 * columns of each data file are read: the same check as opening the dataset; exit 1 when it
 * refuses, printing why).
 */
@Command(
    name = "inspect",
    mixinStandardHelpOptions = true,
    description =
        "Describe a local LeRobot dataset (v3.0, v2.1 or v2.0): features, cameras (each its own"
            + " shape, kind and pixel format), episodes,"
            + " frames, tasks, files.")
final class InspectCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "ROOT", description = "dataset root (holds meta/)")
  Path root;

  @Option(names = "--json", description = "print JSON instead of text")
  boolean json;

  @Mixin SelectionOptions selection;

  @Override
  public Integer call() throws Exception {
    SourceOptions selected = selection.applyTo(SourceOptions.defaults());
    // The metadata alone: inspect counts the files that are there instead of refusing the rest.
    LeRobotMetadata m =
        LeRobotMetadata.open(
            DatasetRoots.of(root, root, SymlinkPolicy.CONFINED),
            selected.episodes(),
            selected.cameras());
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("root", root.toString());
    out.put("codebase_version", m.info().codebaseVersion());
    out.put("robot_type", m.info().robotType());
    out.put("fps", m.info().fps());
    List<Map<String, Object>> features = new ArrayList<>();
    out.put("features", features);
    List<EpisodeInfo> episodes = m.episodes();
    // Files are counted once each: v3.0 episodes share them.
    java.util.Set<Path> dataFiles = new java.util.TreeSet<>();
    episodes.forEach(e -> dataFiles.add(e.dataFile()));
    int dataPresent = (int) dataFiles.stream().filter(Files::isRegularFile).count();
    List<InspectCamera> described = InspectCamera.of(m);
    List<Map<String, Object>> cameras = described.stream().map(InspectCamera::json).toList();
    out.put("cameras", cameras);
    out.put("episodes", episodes.size());
    out.put("frames", episodes.stream().mapToLong(EpisodeInfo::length).sum());
    out.put("tasks", m.tasks().size());
    out.put("data_files", dataFiles.size());
    out.put("data_files_present", dataPresent);
    Map<ToTimestamp, Integer> conventions = m.toTimestampConventions();
    if (m.info().majorVersion() == 3) {
      out.put(
          "to_timestamp",
          conventions.getOrDefault(ToTimestamp.LAST_FRAME, 0)
                  > conventions.getOrDefault(ToTimestamp.END, 0)
              ? "last_frame"
              : "end");
    }
    // The rows of the episodes whose data files are here: their timestamps, and whether they
    // are the frames the tables say (the same checks as opening the dataset for streaming).
    String refused = null;
    TimestampReport timestamps = TimestampReport.NONE;
    LeRobotMetadata declared = m; // with the LeRobot defaults the data files have, once read
    try {
      LeRobotMetadata present = presentEpisodes(m, selected).withDefaultFeatures();
      declared = present;
      timestamps = present.checkDataFiles();
    } catch (RobostreamException e) {
      refused = e.getMessage();
    }
    for (Feature f : declared.info().features().values()) {
      Map<String, Object> e = new LinkedHashMap<>();
      e.put("name", f.name());
      e.put("dtype", f.dtype());
      e.put("shape", f.shape());
      features.add(e);
    }
    out.put("assumed_default_features", declared.info().assumedDefaults());
    out.put("timestamps", timestamps.summary());
    out.put("timestamp_warnings", timestamps.warnings());
    out.put("data_check", refused == null ? "ok" : refused);
    if (json) {
      System.out.println(Json.MAPPER.writeValueAsString(out));
      return refused == null ? 0 : 1;
    }
    System.out.printf(
        "%s  LeRobot %s, %d fps, robot %s%n",
        root, out.get("codebase_version"), m.info().fps(), m.info().robotType());
    System.out.printf(
        "episodes %d, frames %d, tasks %d, data files present %d/%d%n",
        episodes.size(), out.get("frames"), m.tasks().size(), dataPresent, dataFiles.size());
    described.forEach(c -> System.out.println(c.line()));
    for (Map<String, Object> f : features) {
      System.out.printf(
          "  %-32s %-8s %s%n",
          f.get("name"), f.get("dtype"), java.util.Arrays.toString((int[]) f.get("shape")));
    }
    if (!declared.info().assumedDefaults().isEmpty()) {
      System.out.println(
          "  (LeRobot defaults that info.json leaves out, read as LeRobot declares them: "
              + String.join(", ", declared.info().assumedDefaults())
              + ")");
    }
    if (out.containsKey("to_timestamp")) {
      System.out.println(
          "to_timestamp: "
              + (out.get("to_timestamp").equals("end")
                  ? "each episode's end (from + length / fps)"
                  : "each episode's last frame (from + (length - 1) / fps), a writer's"
                      + " convention: the same frames"));
    }
    System.out.println(
        timestamps.summary()
            + (timestamps.recorded()
                ? "; rows stream with their frames by position (--timestamps strict refuses)"
                : ""));
    timestamps.warnings().forEach(w -> System.out.println("warning: " + w));
    if (refused != null) {
      System.out.println("data files: refused: " + refused);
      return 1;
    }
    return 0;
  }

  /**
   * The selection's episodes whose data files are here, opened on their own: inspect describes a
   * dataset with missing files instead of refusing it.
   */
  private LeRobotMetadata presentEpisodes(LeRobotMetadata m, SourceOptions selected) {
    LocalFileLookup files = new LocalFileLookup();
    List<Integer> present =
        m.episodes().stream()
            .filter(e -> files.lookup(e.dataFile()).isPresent()) // not an LFS pointer either
            .map(EpisodeInfo::index)
            .toList();
    return LeRobotMetadata.open(
        DatasetRoots.of(root, root, SymlinkPolicy.CONFINED),
        java.util.Optional.of(present),
        selected.cameras());
  }
}
