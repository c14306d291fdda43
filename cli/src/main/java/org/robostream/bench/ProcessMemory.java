package org.robostream.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** This process's resident memory from /proc (Linux); -1 where unavailable. Stateless. */
public final class ProcessMemory {
  private ProcessMemory() {}

  /** Peak resident set size (VmHWM) in bytes. */
  public static long peakRssBytes() {
    return field("VmHWM:");
  }

  private static long field(String name) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith(name)) {
          return Long.parseLong(line.substring(name.length()).trim().split("\\s+")[0]) * 1024;
        }
      }
    } catch (IOException | NumberFormatException e) {
      return -1;
    }
    return -1;
  }
}
