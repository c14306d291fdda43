package org.robostream.dataset.synth;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Writes a valid LeRobot dataset (v3.0 or v2.1) from a {@link SyntheticDatasetSpec}: Parquet
 * through arrow-dataset, videos through the ffmpeg CLI (durations measured by ffprobe). In v3.0
 * each episode is encoded alone and appended to the current shared file of its camera by stream
 * copy (LeRobot's concat), with {@code from_timestamp} = the duration already in that file; data
 * and video files roll over at the size limits and an episode never spans two files. Cameras stored
 * as image features ({@link CameraFormat}) have no videos: their encoded frames are columns of the
 * data files. Not thread-safe; one per dataset.
 */
public final class SyntheticDatasetWriter {
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private final SyntheticDatasetSpec spec;
  private final Path root;
  private final List<SyntheticCamera> cameras; // every camera, as declared
  private final CameraFormat format;
  private final List<SyntheticCamera> videoCameras; // the cameras stored as MP4s

  private SyntheticDatasetWriter(SyntheticDatasetSpec spec, CameraFormat format) {
    this.spec = spec;
    this.format = format;
    this.root = spec.out();
    this.cameras = spec.cameraList();
    this.videoCameras = format.isImage() ? List.of() : cameras;
  }

  /** Writes the dataset; {@code spec.out()} must not exist or be an empty folder. */
  public static void write(SyntheticDatasetSpec spec) throws IOException {
    write(spec, CameraFormat.VIDEO);
  }

  /**
   * Writes the dataset with its cameras stored as {@code format}; {@code spec.out()} must not exist
   * or be an empty folder.
   */
  public static void write(SyntheticDatasetSpec spec, CameraFormat format) throws IOException {
    CameraOptions cameras = spec.cameraOptions();
    if (format.isImage()
        && (!cameras.sizes().isEmpty()
            || cameras.depthCameras() > 0
            || cameras.pixelFormat() != CameraOptions.DEFAULTS.pixelFormat())) {
      // Image features are painted and encoded at the spec's one size as RGB (ImageColumns).
      throw new IllegalArgumentException(
          "image features are written at one size as RGB images: per-camera sizes, a pixel"
              + " format and depth cameras are options of video cameras");
    }
    Path out = spec.out();
    if (Files.exists(out)) {
      try (var entries = Files.list(out)) {
        if (entries.findAny().isPresent()) {
          throw new IOException(out + " exists and is not empty");
        }
      }
    }
    Files.createDirectories(out.resolve("meta"));
    new SyntheticDatasetWriter(spec, format).run();
  }

  private void run() throws IOException {
    try (BufferAllocator allocator = new RootAllocator()) {
      FrameTables tables = new FrameTables(allocator, spec, format);
      if (spec.layout() == SyntheticDatasetSpec.Layout.V21) {
        writeV21(allocator, tables);
      } else {
        writeV30(allocator, tables);
      }
      writeJson(root.resolve("meta/stats.json"), StatsSummary.global(spec));
    }
  }

  // ---- v2.1: one Parquet and one MP4 per episode, jsonl metadata --------------------------

  private void writeV21(BufferAllocator allocator, FrameTables tables) throws IOException {
    StringBuilder episodes = new StringBuilder();
    StringBuilder stats = new StringBuilder();
    long index = 0;
    for (int e = 0; e < spec.episodes(); e++) {
      int chunk = e / 1000;
      int length = spec.length(e);
      try (VectorSchemaRoot rows = tables.episode(e, index)) {
        ParquetTableWriter.write(
            allocator,
            rows.getSchema(),
            List.of(rows),
            root.resolve(String.format("data/chunk-%03d/episode_%06d.parquet", chunk, e)));
      }
      for (int k = 0; k < videoCameras.size(); k++) {
        Path video =
            root.resolve(
                String.format(
                    "videos/chunk-%03d/%s/episode_%06d.mp4", chunk, videoCameras.get(k).key(), e));
        Files.createDirectories(video.getParent());
        encodeEpisode(video, e, k);
      }
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("episode_index", e);
      row.put("tasks", List.of(SyntheticValues.task(SyntheticValues.taskIndex(e, spec.tasks()))));
      row.put("length", length);
      episodes.append(new ObjectMapper().writeValueAsString(row)).append('\n');
      Map<String, Object> statRow = new LinkedHashMap<>();
      statRow.put("episode_index", e);
      statRow.put("stats", StatsSummary.episode(spec, e));
      stats.append(new ObjectMapper().writeValueAsString(statRow)).append('\n');
      index += length;
    }
    Files.writeString(root.resolve("meta/episodes.jsonl"), episodes);
    Files.writeString(root.resolve("meta/episodes_stats.jsonl"), stats);
    StringBuilder tasks = new StringBuilder();
    for (int t = 0; t < Math.min(spec.tasks(), spec.episodes()); t++) {
      tasks
          .append(
              new ObjectMapper()
                  .writeValueAsString(Map.of("task_index", t, "task", SyntheticValues.task(t))))
          .append('\n');
    }
    Files.writeString(root.resolve("meta/tasks.jsonl"), tasks);
    Map<String, Object> info =
        InfoJson.build(
            spec,
            format,
            index,
            "data/chunk-{episode_chunk:03d}/episode_{episode_index:06d}.parquet",
            "videos/chunk-{episode_chunk:03d}/{video_key}/episode_{episode_index:06d}.mp4");
    info.put("total_chunks", (spec.episodes() + 999) / 1000);
    info.put("total_videos", spec.episodes() * videoCameras.size());
    writeJson(root.resolve("meta/info.json"), info);
  }

  // ---- v3.0: shared files with rollover, Parquet metadata -------------------------------

  private void writeV30(BufferAllocator allocator, FrameTables tables) throws IOException {
    long limitData = (long) (spec.dataFilesSizeMb() * 1024 * 1024);
    long limitVideo = (long) (spec.videoFilesSizeMb() * 1024 * 1024);
    FileCursor dataCursor = new FileCursor();
    List<VectorSchemaRoot> pendingRows = new ArrayList<>();
    long pendingBytes = 0;
    List<VideoFileCursor> videoCursors = new ArrayList<>();
    for (int k = 0; k < videoCameras.size(); k++) {
      videoCursors.add(new VideoFileCursor(videoCameras.get(k).key()));
    }
    EpisodesTable episodesTable =
        new EpisodesTable(
            allocator, spec, videoCameras.stream().map(SyntheticCamera::key).toList());
    Path pieces = Files.createTempDirectory("robostream-pieces");
    long index = 0;
    try {
      for (int e = 0; e < spec.episodes(); e++) {
        int length = spec.length(e);
        long estimate = (long) length * tables.bytesPerRow();
        if (!pendingRows.isEmpty() && pendingBytes + estimate >= limitData) {
          flushData(allocator, dataCursor, pendingRows);
          pendingBytes = 0;
          dataCursor.advance();
        }
        pendingRows.add(tables.episode(e, index));
        pendingBytes += estimate;
        EpisodesTable.Row row =
            new EpisodesTable.Row(e, length, index, dataCursor.chunk, dataCursor.file);
        for (int k = 0; k < videoCameras.size(); k++) {
          Path piece = pieces.resolve("e" + e + "_c" + k + ".mp4");
          encodeEpisode(piece, e, k);
          VideoFileCursor v = videoCursors.get(k);
          long size = Files.size(piece);
          if (!v.pieces.isEmpty() && v.bytes + size >= limitVideo) {
            flushVideo(v);
            v.advance();
          }
          double duration = FfmpegVideoWriter.durationSeconds(piece);
          row.videos()
              .add(
                  new double[] {
                    v.chunk,
                    v.file,
                    v.duration,
                    spec.conventions().toTimestamp(v.duration, duration, spec.fps())
                  });
          v.pieces.add(piece);
          v.bytes += size;
          v.duration += duration;
        }
        episodesTable.add(row);
        index += length;
      }
      if (!pendingRows.isEmpty()) {
        flushData(allocator, dataCursor, pendingRows);
      }
      for (VideoFileCursor v : videoCursors) {
        if (!v.pieces.isEmpty()) {
          flushVideo(v);
        }
      }
    } finally {
      pendingRows.forEach(VectorSchemaRoot::close);
      try (var left = Files.list(pieces)) {
        for (Path p : left.toList()) {
          Files.deleteIfExists(p);
        }
      }
      Files.deleteIfExists(pieces);
    }
    episodesTable.write(root.resolve("meta/episodes/chunk-000/file-000.parquet"));
    TasksTable.write(allocator, spec, root.resolve("meta/tasks.parquet"));
    Map<String, Object> info =
        InfoJson.build(
            spec,
            format,
            index,
            "data/chunk-{chunk_index:03d}/file-{file_index:03d}.parquet",
            "videos/{video_key}/chunk-{chunk_index:03d}/file-{file_index:03d}.mp4");
    info.put("data_files_size_in_mb", spec.dataFilesSizeMb());
    info.put("video_files_size_in_mb", spec.videoFilesSizeMb());
    writeJson(root.resolve("meta/info.json"), info);
  }

  private void flushData(BufferAllocator allocator, FileCursor cursor, List<VectorSchemaRoot> rows)
      throws IOException {
    ParquetTableWriter.write(
        allocator,
        rows.get(0).getSchema(),
        rows,
        root.resolve(
            String.format("data/chunk-%03d/file-%03d.parquet", cursor.chunk, cursor.file)));
    rows.forEach(VectorSchemaRoot::close);
    rows.clear();
  }

  private void flushVideo(VideoFileCursor v) throws IOException {
    Path out =
        root.resolve(
            String.format("videos/%s/chunk-%03d/file-%03d.mp4", v.camera, v.chunk, v.file));
    Files.createDirectories(out.getParent());
    // Also a single piece is remuxed: that puts its moov at the front, like LeRobot's files.
    FfmpegVideoWriter.concatenate(v.pieces, out);
    for (Path p : v.pieces) {
      Files.deleteIfExists(p);
    }
    v.pieces.clear();
    v.bytes = 0;
    v.duration = 0;
  }

  private void encodeEpisode(Path out, int episode, int cameraIndex) throws IOException {
    SyntheticCamera camera = cameras.get(cameraIndex);
    int width = camera.size().width();
    int height = camera.size().height();
    FfmpegVideoWriter.FramePainter painter =
        CameraFrames.painter(spec, episode, cameraIndex, width, height);
    if (camera.depth()) {
      painter = new DepthContent(painter, width * height);
    }
    FfmpegVideoWriter.encode(
        out,
        camera,
        spec.fps(),
        spec.length(episode),
        spec.gop(),
        spec.effectiveCrf(camera),
        painter);
  }

  private static void writeJson(Path file, Object value) throws IOException {
    Files.createDirectories(file.getParent());
    JSON.writeValue(file.toFile(), value);
  }

  /** chunk/file indices, advanced with LeRobot's rule (chunks of {@code chunks_size} files). */
  private static class FileCursor {
    static final int CHUNKS_SIZE = 1000;
    int chunk;
    int file;

    void advance() {
      file++;
      if (file >= CHUNKS_SIZE) {
        chunk++;
        file = 0;
      }
    }
  }

  private static final class VideoFileCursor extends FileCursor {
    final String camera;
    final List<Path> pieces = new ArrayList<>();
    long bytes;
    double duration;

    VideoFileCursor(String camera) {
      this.camera = camera;
    }
  }
}
