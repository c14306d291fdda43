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
  private static final org.slf4j.Logger LOG =
      org.slf4j.LoggerFactory.getLogger(NativeCacheLock.class);

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
      FileChannel channel;
      FileLock lock;
      try {
        channel =
            FileChannel.open(
                lockFile.toPath(), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      } catch (IOException e) {
        throw new UncheckedIOException(
            "cannot open " + lockFile + " to load native libraries one process at a time", e);
      }
      try {
        lock = channel.lock();
      } catch (IOException e) {
        // Some cluster file systems refuse locks (Lustre without flock, NFS without lockd): load
        // anyway, as JavaCPP alone would, and say how to avoid the race.
        LOG.warn(
            "cannot lock {} ({}): loading native libraries without it; processes started"
                + " together may race on JavaCPP's cache: point -Dorg.bytedeco.javacpp.cachedir at"
                + " a node-local folder",
            lockFile,
            e.toString());
        lock = null;
      }
      try {
        return load.get();
      } finally {
        try {
          if (lock != null) {
            lock.release();
          }
          channel.close();
        } catch (IOException ignored) {
          // Closing the channel releases the lock; the kernel does when the process ends.
        }
      }
    }
  }
}
