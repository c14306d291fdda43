package org.robostream.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.ToDoubleFunction;
import javax.imageio.ImageIO;

/**
 * summary.png: horizontal bars of frames/s/node per configuration (top panel) and p99 sample
 * latency (bottom panel), labels at the left, values at the bar ends. A window served from memory
 * is drawn grey and labelled so: its frames/s timed the shuffle buffer, not decoding; a run with a
 * frame cache is labelled {@code [frame cache]}: its frames/s are not a decode rate. Drawn with
 * Java2D, headless. Stateless.
 */
public final class SummaryChart {
  private static final int BARS_WIDTH = 670;
  private static final int BAR = 26;
  private static final int MIN_LABEL = 330;
  private static final Font LABEL_FONT = new Font(Font.SANS_SERIF, Font.PLAIN, 13);
  private static final Color FROM_MEMORY = new Color(0xB3B6B7);

  private SummaryChart() {}

  public static void write(List<ResultSummary.Row> rows, Path file) throws IOException {
    System.setProperty("java.awt.headless", "true");
    int panel = 60 + rows.size() * (BAR + 8);
    boolean withFolder = ResultSummary.severalFolders(rows);
    int label = labelColumn(rows, withFolder);
    BufferedImage image =
        new BufferedImage(label + BARS_WIDTH, 2 * panel + 20, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    try {
      g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
      g.setRenderingHint(
          RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
      g.setColor(Color.WHITE);
      g.fillRect(0, 0, image.getWidth(), image.getHeight());
      Panel labels = new Panel(label, withFolder);
      drawPanel(
          g,
          rows,
          labels,
          0,
          "frames/s/node (higher is better)",
          ResultSummary.Row::framesPerSecond,
          new Color(0x2E86C1),
          "%.1f");
      drawPanel(
          g,
          rows,
          labels,
          panel + 20,
          "p99 sample latency, ms (lower is better)",
          ResultSummary.Row::p99Ms,
          new Color(0xCA6F1E),
          "%.2f");
    } finally {
      g.dispose();
    }
    ImageIO.write(image, "png", file.toFile());
  }

  /** Where bars start (labels are left of it) and whether labels name their folder. */
  private record Panel(int labelColumn, boolean withFolder) {}

  /** Wide enough for the longest label, so long labels (folders, fallbacks) never run into bars. */
  static int labelColumn(List<ResultSummary.Row> rows, boolean withFolder) {
    BufferedImage scratch = new BufferedImage(1, 1, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = scratch.createGraphics();
    try {
      var metrics = g.getFontMetrics(LABEL_FONT);
      int longest =
          rows.stream().mapToInt(r -> metrics.stringWidth(r.label(withFolder))).max().orElse(0);
      return Math.max(MIN_LABEL, 20 + longest + 20);
    } finally {
      g.dispose();
    }
  }

  private static void drawPanel(
      Graphics2D g,
      List<ResultSummary.Row> rows,
      Panel labels,
      int top,
      String title,
      ToDoubleFunction<ResultSummary.Row> value,
      Color color,
      String format) {
    int left = labels.labelColumn();
    g.setColor(Color.BLACK);
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
    g.drawString(title, 20, top + 30);
    double max = rows.stream().mapToDouble(value).filter(Double::isFinite).max().orElse(1);
    max = max <= 0 ? 1 : max;
    int span = BARS_WIDTH - 110;
    g.setFont(LABEL_FONT);
    for (int i = 0; i < rows.size(); i++) {
      ResultSummary.Row r = rows.get(i);
      int y = top + 50 + i * (BAR + 8);
      g.setColor(Color.DARK_GRAY);
      g.drawString(r.label(labels.withFolder()), 20, y + BAR - 8);
      double v = value.applyAsDouble(r);
      if (!Double.isFinite(v)) {
        g.drawString("n/a", left, y + BAR - 8);
        continue;
      }
      int w = (int) Math.round(span * v / max);
      g.setColor(r.servedFromMemory() ? FROM_MEMORY : color);
      g.fillRect(left, y, Math.max(1, w), BAR);
      g.setColor(Color.BLACK);
      g.drawString(String.format(java.util.Locale.ROOT, format, v), left + w + 8, y + BAR - 8);
    }
    g.setColor(Color.GRAY);
    g.setStroke(new BasicStroke(1));
    g.drawLine(left, top + 45, left, top + 50 + rows.size() * (BAR + 8));
  }
}
