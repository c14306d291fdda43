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

  /**
   * Metadata that cannot be parsed, holds a value of the wrong type or size, or contradicts itself,
   * the data rows or the videos it describes. The message names the field and, for a disagreement,
   * both values.
   */
  public static final class BadMetadata extends DatasetException {
    public BadMetadata(String file, String problem) {
      super(file, problem);
    }

    public BadMetadata(String file, String problem, Throwable cause) {
      super(file, problem, cause);
    }
  }

  /**
   * A file of the dataset that resolves, through a symbolic link, outside the dataset's roots while
   * links are confined ({@link SymlinkPolicy#CONFINED}).
   */
  public static final class OutsideRoot extends DatasetException {
    public OutsideRoot(String file, String problem) {
      super(file, problem);
    }
  }

  /** A consistent dataset that uses something robostream does not support. */
  public static final class Unsupported extends DatasetException {
    public Unsupported(String file, String problem) {
      super(file, problem);
    }
  }
}
