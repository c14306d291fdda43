package org.robostream;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.StandardOpenOption;
import java.util.function.Supplier;
import org.bytedeco.javacpp.Loader;

/**
 * Serialises JavaCPP's extraction and loading of native libraries across every process of this user
 * that loads robostream's natives at once (the ranks a torchrun, SLURM or a test starts together).
 * JavaCPP extracts each library from its jar into one cache folder ({@code ~/.javacpp/cache}) and
 * then maps it; two processes doing so at the same moment crashed one of them (SIGBUS in the
 * dynamic loader while the other was still writing the file it mapped). Under this lock the first
 * process extracts and loads while the others wait, and they then find complete files and only load
 * them.
 *
 * <p>The lock is a {@link FileLock} on {@code .robostream-load.lock} in JavaCPP's cache folder
 * (released by the kernel when a process dies), taken inside a JVM-wide monitor (a {@link FileLock}
 * is held per process, not per thread). Thread-safe.
 */
public final class NativeCacheLock {
  private static final Object IN_THIS_JVM = new Object();

  private NativeCacheLock() {}

  /** Runs {@code load} (typically a {@code Loader.load} call) while holding the lock. */
  public static <T> T whileHolding(Supplier<T> load) {
    synchronized (IN_THIS_JVM) {
      File dir;
      try {
        dir = Loader.getCacheDir();
      } catch (IOException e) {
        throw new UncheckedIOException("JavaCPP's native cache folder cannot be made", e);
      }
      File lockFile = new File(dir, ".robostream-load.lock");
      try (FileChannel channel =
              FileChannel.open(
                  lockFile.toPath(), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
          FileLock lock = channel.lock()) {
        return load.get();
      } catch (IOException e) {
        throw new UncheckedIOException(
            "cannot lock " + lockFile + " to load native libraries one process at a time", e);
      }
    }
  }
}
