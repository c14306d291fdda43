package org.robostream.dataset;

import org.robostream.RobostreamException;

/** A LeRobot dataset problem: {@link #file()} names the file or folder, the message the problem. */
public class DatasetException extends RobostreamException {
  private final String file;

  public DatasetException(String file, String problem) {
    super(file + ": " + problem);
    this.file = file;
  }

  public DatasetException(String file, String problem, Throwable cause) {
    super(file + ": " + problem, cause);
    this.file = file;
  }

  public String file() {
    return file;
  }

  /** A file the metadata refers to does not exist. */
  public static final class MissingFile extends DatasetException {
    public MissingFile(String file, String problem) {
      super(file, problem);
    }
  }

  /** Metadata that cannot be parsed or contradicts itself. */
  public static final class BadMetadata extends DatasetException {
    public BadMetadata(String file, String problem) {
      super(file, problem);
    }

    public BadMetadata(String file, String problem, Throwable cause) {
      super(file, problem, cause);
    }
  }
}
