package org.robostream.bench;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.robostream.nativecore.Cuda;

/**
 * Where the benchmark's consumer moves each batch, the reference's {@code --device}: {@code cpu} or
 * {@code cuda[:N]}, by default a GPU when this machine has one, else the CPU (the reference's "cuda
 * if available else cpu"). Immutable.
 *
 * @param name as given ({@code cpu}, {@code cuda}, {@code cuda:1}); what the result records
 * @param cudaIndex the GPU's ordinal among the visible ones, -1 for the CPU
 */
public record TrainingDevice(String name, int cudaIndex) {
  private static final Pattern SYNTAX = Pattern.compile("cpu|cuda(?::(\\d{1,4}))?");

  /** Parses {@code cpu}, {@code cuda} or {@code cuda:N}; IllegalArgumentException otherwise. */
  public static TrainingDevice parse(String text) {
    Matcher m = SYNTAX.matcher(text);
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "TrainingDevice must be cpu, cuda or cuda:N (the training"
              + " device each batch is moved to), got "
              + text);
    }
    if (text.equals("cpu")) {
      return new TrainingDevice(text, -1);
    }
    return new TrainingDevice(text, m.group(1) == null ? 0 : Integer.parseInt(m.group(1)));
  }

  /** {@code cuda} when this machine has a usable GPU, else {@code cpu}. */
  public static TrainingDevice defaultForThisMachine() {
    return parse(Cuda.isAvailable() ? "cuda" : "cpu");
  }

  public boolean isCuda() {
    return cudaIndex >= 0;
  }

  /** Why batches cannot be moved to this device here, or null when they can. */
  public String unavailableCause() {
    if (!isCuda()) {
      return null;
    }
    return Cuda.deviceUnavailabilityCause(cudaIndex);
  }

  /** A consumer moving batches here; close it after the run. */
  public BatchTransfer open() {
    return isCuda() ? new CudaBatchUpload(cudaIndex) : new HostBatchCopy();
  }
}
