package org.robostream;

/**
 * A problem with one file (a video, a metadata file, a Parquet file): {@link #file()} names it and
 * the message reads "FILE: problem".
 */
public class FileException extends RobostreamException {
  private final String file;
  private final String problem;

  public FileException(String file, String problem) {
    this(file, problem, null);
  }

  public FileException(String file, String problem, Throwable cause) {
    super(file + ": " + problem, cause);
    this.file = file;
    this.problem = problem;
  }

  /** The file (path or URL) concerned. */
  public String file() {
    return file;
  }

  /** What is wrong with it: the message without the file's name. */
  public String problem() {
    return problem;
  }
}
