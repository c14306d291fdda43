package org.robostream.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.robostream.codec.Decoder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code robostream probe FILE}: stream information as JSON, without decoding. */
@Command(
    name = "probe",
    mixinStandardHelpOptions = true,
    description = "Print a video's stream information (from its container, no decoding) as JSON.")
final class ProbeCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "FILE", description = "video file")
  Path file;

  @Override
  public Integer call() throws Exception {
    try (Decoder decoder = Decoder.open(file)) {
      System.out.println(Json.MAPPER.writeValueAsString(decoder.info()));
    }
    return 0;
  }
}
