package org.robostream.dataset;

import java.nio.file.Path;

/** Lets tests of other packages copy dataset fixtures. */
public final class V30MetadataTestAccess {
  private V30MetadataTestAccess() {}

  public static void copyTree(Path from, Path to) throws Exception {
    V30MetadataTest.copyTree(from, to);
  }

  /** A copy of {@code dataset} at {@code dir}/ds, for a test to change. */
  public static Path copyInto(Path dir, Path dataset) throws Exception {
    Path copy = dir.resolve("ds");
    V30MetadataTest.copyTree(dataset, copy);
    return copy;
  }
}
