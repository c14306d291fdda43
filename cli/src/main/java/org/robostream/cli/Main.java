package org.robostream.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point of the {@code robostream} command line. */
@Command(
    name = "robostream",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "Streams LeRobot datasets into Java trainers; video tools.",
    subcommands = {
      ProbeCommand.class,
      FramesCommand.class,
      DecodeBenchCommand.class,
      InspectCommand.class,
      MakeDatasetCommand.class,
      StreamBenchCommand.class,
      BenchCommand.class,
      SummarizeCommand.class,
      DiagnoseCommand.class,
      TrainCommand.class,
      PrewarmCommand.class
    })
public final class Main implements Runnable {
  @Override
  public void run() {
    new CommandLine(this).usage(System.out);
  }

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs the CLI and returns the exit code (for tests). */
  public static int run(String... args) {
    CommandLine cli = new CommandLine(new Main());
    cli.setExecutionExceptionHandler(
        (e, cmd, parsed) -> {
          String message = e.getMessage();
          if (message == null || message.isBlank()) { // never "robostream: null"
            message = e.getClass().getName() + " (no message: a bug, please report it)";
          }
          cmd.getErr().println("robostream: " + OptionFlags.inMessage(message));
          return e instanceof IllegalArgumentException ? 2 : 1;
        });
    return cli.execute(args);
  }
}
