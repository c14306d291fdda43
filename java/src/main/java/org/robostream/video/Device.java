package org.robostream.video;

/** Where frames are decoded. Part of a decoder cache key. */
public enum Device {
  CPU,
  CUDA;

  public static Device parse(String text) {
    String t = text.toLowerCase(java.util.Locale.ROOT);
    if (t.equals("cpu")) {
      return CPU;
    }
    if (t.equals("cuda") || t.startsWith("cuda:")) {
      return CUDA;
    }
    throw new IllegalArgumentException("decode device must be cpu or cuda[:N], got " + text);
  }
}
