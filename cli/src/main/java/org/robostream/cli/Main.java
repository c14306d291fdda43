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
    int code = run(args);
    if (args.length > 0 && args[0].equals("train")) {
      // Everything of the run is closed and written by now. Exiting normally would run libtorch's
      // and Gloo's native static destructors while JavaCPP's deallocator thread may still free
      // tensors: a two-rank run under load once ended "malloc(): unsorted double linked list
      // corrupted" (SIGABRT) after printing "done". The run's only shutdown hook (a private frame
      // cache's folder) was removed when the dataset closed, so nothing is lost by halting.
      System.out.flush();
      System.err.flush();
      Runtime.getRuntime().halt(code);
    }
    System.exit(code);
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
