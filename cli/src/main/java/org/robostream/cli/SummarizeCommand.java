package org.robostream.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.robostream.bench.NodeTotals;
import org.robostream.bench.ResultSummary;
import org.robostream.bench.SummaryChart;
import org.robostream.bench.WindowFidelity;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code robostream summarize [DIR]}: compares benchmark results; summary.csv, summary.png. */
@Command(
    name = "summarize",
    mixinStandardHelpOptions = true,
    description =
        "Table of every benchmark result JSON under DIR; writes summary.csv and"
            + " summary.png there, and for a job's tasks frames/s per node and for the job"
            + " (summary_nodes.csv).")
final class SummarizeCommand implements Callable<Integer> {
  @Parameters(index = "0", arity = "0..1", defaultValue = "bench-results", paramLabel = "DIR")
  Path dir;

  @Override
  public Integer call() throws Exception {
    List<ResultSummary.Row> rows = ResultSummary.collect(dir);
    if (rows.isEmpty()) {
      System.out.println("no benchmark results under " + dir + " (run robostream bench first)");
      return 0;
    }
    System.out.print(ResultSummary.table(rows));
    if (ResultSummary.anyFromMemory(rows)) {
      // A footnote, indented: readers of the table (and its parsers) take it for no row.
      System.out.printf(
          java.util.Locale.ROOT,
          "  from_memory YES: the window was served from"
              + " the shuffle buffer (under %.0f%% of its samples decoded inside it); its"
              + " frames/s/node time memory, not decoding; decoded_frames/s is what its decoders"
              + " did.%n",
          100 * WindowFidelity.THRESHOLD);
    }
    if (ResultSummary.anyFrameCache(rows)) {
      System.out.println(
          "  served_frames/s: frames decoded or read from the frame cache per second in the"
              + " window; a frame cache row's frames/s/node is not a decode rate (decoded_frames/s"
              + " and baseline_ratio are).");
    }
    // A job's tasks (several nodes, several ranks): what each node and the job streamed.
    List<NodeTotals.Total> totals = NodeTotals.collect(dir);
    System.out.print(NodeTotals.text(totals));
    Path csv = dir.resolve("summary.csv");
    Path png = dir.resolve("summary.png");
    ResultSummary.writeCsv(rows, csv);
    SummaryChart.write(rows, png);
    if (totals.isEmpty()) {
      System.out.println("wrote " + csv + " and " + png);
      return 0;
    }
    Path nodes = dir.resolve("summary_nodes.csv");
    NodeTotals.writeCsv(totals, nodes);
    System.out.println("wrote " + csv + ", " + nodes + " and " + png);
    return 0;
  }
}
