package org.robostream.dataset;

import org.robostream.FileException;

/** A LeRobot dataset problem: {@link #file()} names the file or folder, the message the problem. */
public class DatasetException extends FileException {
  public DatasetException(String file, String problem) {
    super(file, problem);
  }

  public DatasetException(String file, String problem, Throwable cause) {
    super(file, problem, cause);
  }

  /** A file the metadata refers to does not exist. */
  public static final class MissingFile extends DatasetException {
    public MissingFile(String file, String problem) {
      super(file, problem);
    }
  }

  /** A data file (Parquet) that cannot be read. */
  public static final class CorruptFile extends DatasetException {
    public CorruptFile(String file, String problem, Throwable cause) {
      super(file, problem, cause);
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
