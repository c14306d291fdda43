package org.robostream.dataset;

import java.nio.file.Path;

/** Lets tests of other packages copy dataset fixtures. */
public final class V30MetadataTestAccess {
  private V30MetadataTestAccess() {}

  public static void copyTree(Path from, Path to) throws Exception {
    V30MetadataTest.copyTree(from, to);
  }
}
