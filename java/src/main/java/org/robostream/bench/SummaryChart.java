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
 * latency (bottom panel), labels at the left, values at the bar ends. Drawn with Java2D, headless.
 * Stateless.
 */
public final class SummaryChart {
  private static final int WIDTH = 1000;
  private static final int BAR = 26;
  private static final int LABEL = 330;

  private SummaryChart() {}

  public static void write(List<ResultSummary.Row> rows, Path file) throws IOException {
    System.setProperty("java.awt.headless", "true");
    int panel = 60 + rows.size() * (BAR + 8);
    BufferedImage image = new BufferedImage(WIDTH, 2 * panel + 20, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    try {
      g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
      g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING,
          RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
      g.setColor(Color.WHITE);
      g.fillRect(0, 0, image.getWidth(), image.getHeight());
      drawPanel(g, rows, 0, "frames/s/node (higher is better)", ResultSummary.Row::framesPerSecond,
          new Color(0x2E86C1), "%.1f");
      drawPanel(g, rows, panel + 20, "p99 sample latency, ms (lower is better)",
          ResultSummary.Row::p99Ms, new Color(0xCA6F1E), "%.2f");
    } finally {
      g.dispose();
    }
    ImageIO.write(image, "png", file.toFile());
  }

  private static void drawPanel(Graphics2D g, List<ResultSummary.Row> rows, int top, String title,
      ToDoubleFunction<ResultSummary.Row> value, Color color, String format) {
    g.setColor(Color.BLACK);
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
    g.drawString(title, 20, top + 30);
    double max = rows.stream().mapToDouble(value).filter(Double::isFinite).max().orElse(1);
    max = max <= 0 ? 1 : max;
    int span = WIDTH - LABEL - 110;
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
    for (int i = 0; i < rows.size(); i++) {
      ResultSummary.Row r = rows.get(i);
      int y = top + 50 + i * (BAR + 8);
      g.setColor(Color.DARK_GRAY);
      g.drawString(r.label(), 20, y + BAR - 8);
      double v = value.applyAsDouble(r);
      if (!Double.isFinite(v)) {
        g.drawString("n/a", LABEL, y + BAR - 8);
        continue;
      }
      int w = (int) Math.round(span * v / max);
      g.setColor(color);
      g.fillRect(LABEL, y, Math.max(1, w), BAR);
      g.setColor(Color.BLACK);
      g.drawString(String.format(java.util.Locale.ROOT, format, v), LABEL + w + 8, y + BAR - 8);
    }
    g.setColor(Color.GRAY);
    g.setStroke(new BasicStroke(1));
    g.drawLine(LABEL, top + 45, LABEL, top + 50 + rows.size() * (BAR + 8));
  }
}
