package org.robostream.bench;

/** A process that draws a progress bar the way the CLI does, for ProgressBarTest. */
public final class ProgressBarProbe {
  private ProgressBarProbe() {}

  public static void main(String[] args) {
    ProgressBar bar = new ProgressBar(3);
    for (int i = 1; i <= 3; i++) {
      bar.update(i, "");
    }
    System.out.println("probe done");
  }
}
