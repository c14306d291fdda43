package org.robostream;

/**
 * A problem with one file (a video, a metadata file, a Parquet file): {@link #file()} names it
 * and the message reads "FILE: problem".
 */
public class FileException extends RobostreamException {
  private final String file;

  public FileException(String file, String problem) {
    super(file + ": " + problem);
    this.file = file;
  }

  public FileException(String file, String problem, Throwable cause) {
    super(file + ": " + problem, cause);
    this.file = file;
  }

  /** The file (path or URL) concerned. */
  public String file() {
    return file;
  }
}
