package org.robostream.framecache;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * Names other users cannot guess, and every process of this user finds in the same order: 16 hex
 * digits each, derived from a random key kept in {@code ~/.cache/robostream/frame-cache-key} (mode
 * 0600, made once). When another user takes the per-user default folder first ({@code
 * robostream-frames-UID}, a name anyone can predict), the cache moves to {@code
 * robostream-frames-UID-<first name>}, which they cannot pre-create, and the node's ranks still
 * share it (they share the home folder). A name in use is visible to anyone who lists {@code
 * /dev/shm}, so once it is gone (a reboot) they could take it: the next name, which they have never
 * seen, is used then, and so on. Stateless.
 */
final class UserKey {
  static final String FILE = ".cache/robostream/frame-cache-key";

  private UserKey() {}

  /** How many names {@link #names} gives: far more than squatters can be shown between reboots. */
  static final int NAMES = 16;

  /**
   * The names for {@code home}'s key, in the order to try them, making the key when there is none;
   * empty when it cannot be made or read as a file only this user can read.
   */
  static java.util.List<String> names(Path home, int uid) {
    byte[] key = key(home, uid);
    if (key == null) {
      return java.util.List.of();
    }
    java.util.List<String> names = new java.util.ArrayList<>();
    for (int i = 0; i < NAMES; i++) {
      try {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        sha.update(key);
        if (i > 0) { // the first name is the one earlier versions used
          sha.update(("/" + i).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        }
        names.add(HexFormat.of().formatHex(sha.digest(), 0, 8));
      } catch (NoSuchAlgorithmException e) {
        return java.util.List.of();
      }
    }
    return names;
  }

  /** The key's bytes, made when there is none; null when not a file only this user can read. */
  private static byte[] key(Path home, int uid) {
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
      return Files.readAllBytes(key);
    } catch (IOException | UnsupportedOperationException e) {
      return null;
    }
  }

  /** Writes a new random key at {@code key}, unless another process did first. */
  private static void make(Path key) throws IOException {
    byte[] bytes = new byte[32];
    new SecureRandom().nextBytes(bytes);
    CacheFolder.createPrivateFile(key, bytes);
  }
}
