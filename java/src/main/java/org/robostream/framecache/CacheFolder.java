package org.robostream.framecache;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

/**
 * What a frame cache trusts in its folder: this user's processes, nobody else. A folder is used
 * only when no other user can write it or its parents ({@link #distrust}); a file is opened only as
 * this user's regular file, never through a link ({@link #openOwnFile}). Anything else named like a
 * cache file (a FIFO would block) is never opened, served or removed.
 *
 * <p>This stops other users planting or swapping frames (they could recompute checksums). This
 * user's own processes are not defended against, but what they leave is still checked. Public for
 * the trainer's output folder, which uses the same rule ({@link #prepare(Path)}). Stateless;
 * thread-safe.
 */
public final class CacheFolder {
  /** Mode bits: group and others may write, and the sticky bit. */
  private static final int GROUP_OR_OTHER_WRITE = 0022;

  private static final int STICKY = 01000;
  private static final int ROOT = 0;

  private CacheFolder() {}

  /** The user id this process runs as (the owner of {@code /proc/self}). */
  static int currentUid() {
    try {
      return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
    } catch (IOException | UnsupportedOperationException e) {
      return -1; // not Linux: nothing is owned by us, so no shared folder is trusted
    }
  }

  /**
   * The folder {@code dir} names (made when nothing is there, readable and writable only by this
   * user: mode 0700 before the umask), with why it cannot be trusted (null: it can). What is at
   * {@code dir} is looked at without following a link first: a file, a FIFO or another user's link
   * there is untrusted, never an exception (another user must not be able to fail our build); a
   * link of this user's (or root's) is followed and its target checked.
   *
   * @throws IOException when the folder cannot be made (a path under a file, no permission)
   */
  static Checked prepare(Path dir, int uid) throws IOException {
    if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
      try {
        Files.createDirectories(
            dir,
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      } catch (java.nio.file.FileAlreadyExistsException raced) {
        // made meanwhile (by another rank, or someone else): looked at below like any other
      }
    }
    if (Files.isSymbolicLink(dir)) {
      int owner = (Integer) Files.getAttribute(dir, "unix:uid", LinkOption.NOFOLLOW_LINKS);
      if (owner != uid && owner != ROOT) {
        return new Checked(dir, "it is a link made by user " + owner);
      }
      if (!Files.exists(dir)) {
        return new Checked(dir, "it is a link to nothing");
      }
      String linkWhy = distrustAbove(dir.getParent(), uid); // could the link be replaced?
      if (linkWhy != null) {
        return new Checked(dir, "it is a link, and " + linkWhy);
      }
    }
    if (!Files.isDirectory(dir)) {
      return new Checked(dir, "it is not a folder");
    }
    Path real = dir.toRealPath();
    return new Checked(real, distrust(real, uid));
  }

  /**
   * Writes {@code bytes} as a new file at {@code file} that only this user can read (0600, its
   * folders made 0700), unless a file is there already: another process that made it first keeps
   * its own (a key or secret every process of the user must share). Written under a temporary name
   * and linked into place, so nobody ever reads half of it.
   */
  public static void createPrivateFile(Path file, byte[] bytes) throws IOException {
    Files.createDirectories(
        file.getParent(),
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    Path tmp =
        Files.createTempFile(
            file.getParent(),
            "." + file.getFileName() + "-",
            ".tmp",
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    try {
      Files.write(tmp, bytes);
      Files.createLink(file, tmp); // never over a file another process made meanwhile
    } catch (java.nio.file.FileAlreadyExistsException raced) {
      // theirs stays
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  /**
   * A folder and why it cannot be trusted with frames.
   *
   * @param real the folder's real path (links resolved)
   * @param distrust null when only this user can change what is in it
   */
  public record Checked(Path real, String distrust) {}

  /**
   * {@link #prepare(Path, int)} for the user this process runs as: the folder {@code dir} names,
   * made 0700 when missing, and why another user could change what is in it (null: nobody can).
   *
   * @throws IOException when the folder cannot be made
   */
  public static Checked prepare(Path dir) throws IOException {
    return prepare(dir.toAbsolutePath().normalize(), currentUid());
  }

  /**
   * Why {@code dir} (a folder's real path) cannot be trusted with frames, or null when only this
   * user can change what is in it: it is a folder this user owns that group and others cannot
   * write, and every folder above it is owned by this user or root and, when others can write it,
   * has the sticky bit (so that nobody else can rename or replace what lies in it).
   */
  static String distrust(Path dir, int uid) throws IOException {
    Map<String, Object> a = Files.readAttributes(dir, "unix:mode,uid", LinkOption.NOFOLLOW_LINKS);
    int mode = (Integer) a.get("mode");
    int owner = (Integer) a.get("uid");
    if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
      return "it is not a folder";
    }
    if (owner != uid) {
      return "it belongs to user " + owner + ", not to this user (" + uid + ")";
    }
    if ((mode & GROUP_OR_OTHER_WRITE) != 0) {
      return "group or others may write it (mode " + Integer.toOctalString(mode & 07777) + ")";
    }
    return distrustAbove(dir.getParent(), uid);
  }

  /**
   * Why the folders from {@code up} to the root make what lies in them replaceable by another user
   * (see {@link #distrust}), or null.
   */
  static String distrustAbove(Path up, int uid) throws IOException {
    for (; up != null; up = up.getParent()) {
      Map<String, Object> p = Files.readAttributes(up, "unix:mode,uid", LinkOption.NOFOLLOW_LINKS);
      int upMode = (Integer) p.get("mode");
      int upOwner = (Integer) p.get("uid");
      if (upOwner != uid && upOwner != ROOT) {
        return "the folder above it, " + up + ", belongs to user " + upOwner;
      }
      if ((upMode & GROUP_OR_OTHER_WRITE) != 0 && (upMode & STICKY) == 0) {
        return "others may rename what is in the folder above it, "
            + up
            + " (mode "
            + Integer.toOctalString(upMode & 07777)
            + ", no sticky bit)";
      }
    }
    return null;
  }

  /**
   * Whether {@code file} is a regular file this user owns, looked at without following a link;
   * false when it is anything else or not there.
   */
  static boolean isOwnRegularFile(Path file, int uid) {
    try {
      Map<String, Object> a = Files.readAttributes(file, "unix:uid", LinkOption.NOFOLLOW_LINKS);
      return Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS) && (Integer) a.get("uid") == uid;
    } catch (IOException | UnsupportedOperationException e) {
      return false;
    }
  }

  /**
   * Opens {@code file} for reading and writing when it is a regular file of this user, never
   * following a link.
   *
   * @return null when the name holds something else (a link, a FIFO, a device, a folder, another
   *     user's file)
   * @throws NoSuchFileException when nothing is there
   */
  static FileChannel openOwnFile(Path file, int uid) throws IOException {
    if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
      throw new NoSuchFileException(file.toString());
    }
    if (!isOwnRegularFile(file, uid)) {
      return null;
    }
    // O_NOFOLLOW as well: a link put in its place since the look above is refused by the open.
    // Should a FIFO be swapped in between (only this user could), opening it for reading and
    // writing does not block, and every read of a cache file is positional, which a FIFO refuses
    // at once (ESPIPE): nothing can hang on it.
    FileChannel ch;
    try {
      ch =
          FileChannel.open(
              file, StandardOpenOption.READ, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
    } catch (java.nio.file.AccessDeniedException readOnly) {
      return null; // made read-only by its owner: left alone, not the folder's fault
    }
    if (!isOwnRegularFile(file, uid)) {
      ch.close();
      return null;
    }
    return ch;
  }
}
