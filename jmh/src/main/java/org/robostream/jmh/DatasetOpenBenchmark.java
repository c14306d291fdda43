package org.robostream.jmh;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.robostream.stream.StreamingDataset;

/**
 * What opening a local dataset costs: {@code StreamingDataset.builder(root).build()} and {@code
 * close()}, which read the metadata, check that every file of the selection is there, read every
 * data file's index columns and every video's container and packet index, and allocate the batch
 * pools. The dataset is {@code -Drobostream.dataset=PATH} (e.g. the default dataset that {@code
 * scripts/demo.sh} generates, or a real one), else the benchmarks' camera dataset ({@link
 * BenchFixtures#cameraDataset()}); {@code -Drobostream.episodes=0-4} selects episodes.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 10)
@Fork(value = 1, jvmArgsAppend = "--add-opens=java.base/java.nio=ALL-UNNAMED")
public class DatasetOpenBenchmark {
  @Benchmark
  public int openAndClose() throws IOException {
    String dataset = System.getProperty("robostream.dataset");
    Path root = dataset == null ? BenchFixtures.cameraDataset() : Path.of(dataset);
    StreamingDataset.Builder b = StreamingDataset.builder(root);
    String episodes = System.getProperty("robostream.episodes");
    if (episodes != null) {
      b.episodes(episodes);
    }
    try (StreamingDataset ds = b.build()) {
      return ds.metadata().episodes().size();
    }
  }
}
