package org.robostream.framecache;

import java.nio.file.Files;
import java.nio.file.Path;
import org.robostream.ByteSize;

/**
 * Where a {@link FrameCache} keeps decoded frames and how many bytes it may take. Immutable.
 *
 * <ul>
 *   <li>{@link #shared(long)}: this user's own folder in {@code /dev/shm}; recommended.
 *   <li>{@link #directory(Path, long)}: shared by all naming it; it outlives them (warm next job).
 *   <li>{@link #memory(long)}: RAM private to this process, removed on close.
 * </ul>
 *
 * @param directory the shared folder, or null for private RAM
 * @param maxBytes the most bytes the cache's files may take (full size, reserved at creation)
 */
public record FrameCacheOptions(Path directory, long maxBytes) {
  /** The system property naming the folder {@link #shared}'s per-user folder is made in. */
  public static final String SHARED_PARENT_PROPERTY = "robostream.frameCache.sharedParent";

  /** Smallest budget accepted: below it not even one small video's frames would fit. */
  public static final long MIN_BYTES = 1L << 20;

  public FrameCacheOptions {
    if (maxBytes < MIN_BYTES) {
      throw new IllegalArgumentException(
          "a frame cache needs at least 1 MiB (" + MIN_BYTES + " bytes), got " + maxBytes);
    }
  }

  /** A folder shared by every process that names it. */
  public static FrameCacheOptions directory(Path directory, long maxBytes) {
    if (directory == null) {
      throw new IllegalArgumentException("a frame cache directory is needed");
    }
    return new FrameCacheOptions(directory, maxBytes);
  }

  /**
   * The per-user folder shared by this user's processes on the node: {@code
   * /dev/shm/robostream-frames-UID}, or {@code robostream-frames-UID} in the temporary folder where
   * there is no {@code /dev/shm}.
   */
  public static FrameCacheOptions shared(long maxBytes) {
    return new FrameCacheOptions(defaultSharedFolder(), maxBytes);
  }

  /**
   * The folder {@link #shared} names for this user, in the folder the system property {@value
   * #SHARED_PARENT_PROPERTY} names if set (node-local NVMe, say), else {@code /dev/shm}.
   */
  public static Path defaultSharedFolder() {
    Path shm = Path.of("/dev/shm");
    String asked = System.getProperty(SHARED_PARENT_PROPERTY);
    Path parent =
        asked != null && !asked.isBlank()
            ? Path.of(asked)
            : Files.isDirectory(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
    return parent.resolve("robostream-frames-" + CacheFolder.currentUid());
  }

  /** Whether this is {@link #shared}'s folder (another user may have made it first). */
  boolean isDefaultShared() {
    return directory != null && directory.equals(defaultSharedFolder());
  }

  /** RAM private to this process. */
  public static FrameCacheOptions memory(long maxBytes) {
    return new FrameCacheOptions(null, maxBytes);
  }

  /** Whether the cache is this process's private RAM. */
  public boolean isPrivateMemory() {
    return directory == null;
  }

  /**
   * Parses the command line's form: {@code shared:SIZE} (this user's folder shared by the node's
   * processes, see {@link #shared}), {@code memory:SIZE} (private RAM) or {@code DIR:SIZE} (a
   * folder of your choice, used only when no other user can write it); SIZE is a {@link ByteSize}:
   * bytes, or a number with K, M, G or T, alone or with B or iB, any case, decimals allowed, every
   * unit binary (G = GB = GiB = 2^30 bytes), e.g. {@code shared:64G}, {@code memory:2GiB}, {@code
   * memory:1.5 gb}.
   */
  public static FrameCacheOptions parse(String spec) {
    int colon = spec == null ? -1 : spec.lastIndexOf(':');
    if (colon <= 0 || colon == spec.length() - 1) {
      throw new IllegalArgumentException(
          "--frame-cache "
              + spec
              + ": write shared:SIZE, memory:SIZE or DIR:SIZE, for example shared:64G,"
              + " memory:16G or /local/nvme/frames:200G");
    }
    String where = spec.substring(0, colon);
    long bytes = parseSize(spec.substring(colon + 1), spec);
    try {
      return switch (where.strip()) {
        case "memory" -> memory(bytes);
        case "shared" -> shared(bytes);
        default -> directory(Path.of(where), bytes);
      };
    } catch (IllegalArgumentException e) { // the 1 MiB bound: named with the spec, as above
      throw new IllegalArgumentException("--frame-cache " + spec + ": " + e.getMessage(), e);
    }
  }

  /**
   * Bytes from the SIZE of {@code spec}: {@code 512M}, {@code 2GiB}, {@code 1.5 G}, {@code
   * 1048576}; every unit binary (G = GB = GiB = 2^30), see {@link ByteSize}.
   */
  static long parseSize(String text, String spec) {
    try {
      return ByteSize.parse(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--frame-cache " + spec + ": " + e.getMessage(), e);
    }
  }

  @Override
  public String toString() {
    return (directory == null ? "memory" : directory.toString()) + ":" + maxBytes;
  }
}
