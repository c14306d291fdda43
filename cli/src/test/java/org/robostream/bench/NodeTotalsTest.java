package org.robostream.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.testing.SummaryTables;

/**
 * summarize's totals from result JSONs written by hand: a node's frames/s is the sum of its tasks',
 * the job's the sum of its nodes', per configuration; a node is named by the result's node, else
 * its host, whatever folder the file is in; a process alone is not totalled.
 */
class NodeTotalsTest {
  @TempDir Path tmp;

  /** A task's result: node (null outside a launcher that numbers nodes), host, rank of world. */
  static Map<String, Object> task(String mode, Integer node, String host, int rank, double fps) {
    Map<String, Object> r = ResultSummaryTest.result("hub", "cpu", "cpu", 0, fps, 3);
    r.put("mode", mode);
    r.put("node", node);
    r.put("hostname", host);
    r.put("task_rank", rank);
    r.put("task_world_size", 4);
    return r;
  }

  @Test
  void eachNodeAddsItsTasksAndTheJobItsNodes() throws Exception {
    // Two tasks per node, both in their node's folder; node 1's second task in node 0's folder
    // (one --out-dir for the job): nodes are told by the result, not by where it lies.
    ResultFiles.write(tmp.resolve("node0"), "a", task("single", 0, "h0", 0, 100));
    ResultFiles.write(tmp.resolve("node0"), "b", task("single", 0, "h0", 1, 50.5));
    ResultFiles.write(tmp.resolve("node1"), "c", task("single", 1, "h1", 2, 80));
    ResultFiles.write(tmp.resolve("node0"), "d", task("single", 1, "h1", 3, 20.25));
    ResultFiles.write(tmp.resolve("node0"), "e", task("sarm", 0, "h0", 0, 7));
    ResultFiles.write(tmp.resolve("node1"), "f", task("sarm", 1, "h1", 2, 3));
    // torchrun without a node number: the host names the node.
    Map<String, Object> t = task("sarm", null, "gpu-17", 1, 1.5);
    ResultFiles.write(tmp.resolve("x"), "g", t);
    // A process alone: in the table, not in the totals.
    ResultFiles.write(tmp, "alone", ResultSummaryTest.result("hub", "cpu", "cpu", 0, 999, 3));
    List<NodeTotals.Total> totals = NodeTotals.collect(tmp);
    assertEquals(
        List.of(
            new NodeTotals.Total("hub/sarm/cpu w2 bs4", "gpu-17", 1, 1.5),
            new NodeTotals.Total("hub/sarm/cpu w2 bs4", "node0", 1, 7),
            new NodeTotals.Total("hub/sarm/cpu w2 bs4", "node1", 1, 3),
            new NodeTotals.Total("hub/sarm/cpu w2 bs4", NodeTotals.JOB, 3, 11.5),
            new NodeTotals.Total("hub/single/cpu w2 bs4", "node0", 2, 150.5),
            new NodeTotals.Total("hub/single/cpu w2 bs4", "node1", 2, 100.25),
            new NodeTotals.Total("hub/single/cpu w2 bs4", NodeTotals.JOB, 4, 250.75)),
        totals);
    String text = NodeTotals.text(totals);
    assertTrue(text.lines().allMatch(l -> l.startsWith("  ")), "indented: no table row: " + text);
    assertTrue(text.contains("hub/single/cpu w2 bs4  node1     2 tasks  100.25\n"), text);
    assertTrue(text.contains("hub/single/cpu w2 bs4  job       4 tasks  250.75\n"), text);
    // Under summarize's table, the table still reads back as before: the totals are no rows.
    String both = ResultSummary.table(ResultSummary.collect(tmp)) + text;
    assertEquals(8, SummaryTables.parse(both).size(), both);
    Path csv = tmp.resolve("summary_nodes.csv");
    NodeTotals.writeCsv(totals, csv);
    List<String> lines = Files.readAllLines(csv);
    assertEquals("config,node,tasks,frames_per_s", lines.get(0));
    assertEquals("hub/single/cpu w2 bs4,job,4,250.75", lines.get(7));
  }

  @Test
  void resultsOfProcessesAloneHaveNoTotals() throws Exception {
    ResultFiles.write(tmp, "a", ResultSummaryTest.result("local", "cpu", "cpu", 0, 10, 3));
    assertEquals(List.of(), NodeTotals.collect(tmp));
    assertEquals("", NodeTotals.text(List.of()));
    assertEquals(List.of(), NodeTotals.collect(tmp.resolve("missing")));
  }
}
