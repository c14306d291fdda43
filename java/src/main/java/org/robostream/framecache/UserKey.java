package org.robostream.framecache;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * A name other users cannot guess, and every process of this user finds: 16 hex digits derived from
 * a random key kept in {@code ~/.cache/robostream/frame-cache-key} (mode 0600, made once). When
 * another user takes the per-user default folder first ({@code robostream-frames-UID}, a name
 * anyone can predict), the cache moves to {@code robostream-frames-UID-<this name>}, which they
 * cannot pre-create, and the node's ranks still share it (they share the home folder). Stateless.
 */
final class UserKey {
  static final String FILE = ".cache/robostream/frame-cache-key";

  private UserKey() {}

  /**
   * The name for {@code home}'s key, making the key when there is none; null when it cannot be made
   * or read as a file only this user can read.
   */
  static String name(Path home, int uid) {
    Path key = home.resolve(FILE);
    try {
      if (!Files.exists(key, LinkOption.NOFOLLOW_LINKS)) {
        make(key);
      }
      if (!CacheFolder.isOwnRegularFile(key, uid)) {
        return null;
      }
      int mode = (Integer) Files.getAttribute(key, "unix:mode", LinkOption.NOFOLLOW_LINKS);
      if ((mode & 077) != 0 || Files.size(key) != 32) {
        return null; // others may read it (then they can guess the name), or it is not ours
      }
      byte[] h = MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(key));
      return HexFormat.of().formatHex(h, 0, 8);
    } catch (IOException | UnsupportedOperationException | NoSuchAlgorithmException e) {
      return null;
    }
  }

  /** Writes a new random key at {@code key}, unless another process did first. */
  private static void make(Path key) throws IOException {
    Files.createDirectories(
        key.getParent(),
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    Path tmp =
        Files.createTempFile(
            key.getParent(),
            "frame-cache-key-",
            ".tmp",
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    try {
      byte[] bytes = new byte[32];
      new SecureRandom().nextBytes(bytes);
      Files.write(tmp, bytes);
      try {
        Files.createLink(key, tmp); // never over a key another process made meanwhile
      } catch (FileAlreadyExistsException raced) {
        // theirs is the key
      }
    } finally {
      Files.deleteIfExists(tmp);
    }
  }
}
