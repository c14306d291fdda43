package org.robostream.dataset;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.robostream.source.ContentKind;

/**
 * What stands where a local dataset file should be: a stat per file, plus the first bytes of files
 * too small to be real data (a Git LFS pointer is ~130 bytes, an error page a few KiB; a real MP4
 * or Parquet file of a LeRobot episode is larger), so checking thousands of files reads almost
 * nothing. Also says which command fetches the real files in place of placeholders. Stateless,
 * thread-safe.
 */
public final class LocalFileLookup implements FileLookup {
  /** Files smaller than this have their first bytes sniffed ({@link ContentKind}). */
  static final long SNIFFED_BELOW = 64 * 1024;

  private static final int HEAD = 512;
  // The Hugging Face cache: .../datasets--OWNER--NAME/snapshots/REVISION
  private static final Pattern HF_CACHE =
      Pattern.compile(".*/datasets--([^/]+?)--([^/]+)/snapshots/([^/]+)$");

  @Override
  public FileState lookup(Path file) {
    BasicFileAttributes attributes;
    try {
      attributes = Files.readAttributes(file, BasicFileAttributes.class);
    } catch (IOException e) {
      return FileState.MISSING; // absent, or a link to nothing (an unfetched git-annex file)
    }
    if (!attributes.isRegularFile()) {
      return FileState.MISSING;
    }
    if (attributes.size() >= SNIFFED_BELOW) {
      return FileState.PRESENT;
    }
    ContentKind kind = sniff(file);
    return switch (kind) {
      case EMPTY, HTML, JSON, GIT_LFS_POINTER, GIT_ANNEX_POINTER -> FileState.placeholder(kind);
      default -> FileState.PRESENT;
    };
  }

  /** Top-level folders of a data root looked at for a missing file's other place. */
  private static final int FOLDERS_LOOKED_AT = 32;

  /**
   * The same relative path under another top-level folder of {@code root} (at most the first 32 in
   * name order; links and files skipped), when a regular file is there: the common way files end up
   * where info.json's templates do not point (a {@code video/} folder, a renamed copy).
   */
  @Override
  public Path elsewhere(Path root, Path file) {
    Path relative;
    try {
      relative = root.relativize(file);
    } catch (IllegalArgumentException e) {
      return null;
    }
    if (relative.getNameCount() < 2) {
      return null;
    }
    Path rest = relative.subpath(1, relative.getNameCount());
    try (java.util.stream.Stream<Path> top = Files.list(root)) {
      for (Path folder : top.sorted().limit(FOLDERS_LOOKED_AT).toList()) {
        if (folder.getFileName().equals(relative.getName(0))
            || !Files.isDirectory(folder, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
          continue;
        }
        Path candidate = folder.resolve(rest);
        if (Files.isRegularFile(candidate, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
          return candidate;
        }
      }
    } catch (IOException | java.io.UncheckedIOException e) {
      return null;
    }
    return null;
  }

  /**
   * The command that replaces placeholders of {@code kind} under {@code root} with the real files:
   * {@code git lfs pull} / {@code git annex get} in the git checkout holding the dataset, else a
   * fresh download of the Hub dataset ({@code huggingface-cli download}, its repository named when
   * the folder is a Hugging Face cache snapshot).
   */
  public static String fetchCommand(Path root, ContentKind kind) {
    Path checkout = gitCheckout(root);
    if (checkout != null && kind == ContentKind.GIT_LFS_POINTER) {
      return "git -C " + checkout + " lfs pull";
    }
    if (checkout != null && kind == ContentKind.GIT_ANNEX_POINTER) {
      return "git -C " + checkout + " annex get " + root;
    }
    Matcher cache = HF_CACHE.matcher(root.toString().replace('\\', '/'));
    if (cache.matches()) {
      return "huggingface-cli download "
          + cache.group(1)
          + "/"
          + cache.group(2)
          + " --repo-type dataset --revision "
          + cache.group(3);
    }
    return "huggingface-cli download OWNER/NAME --repo-type dataset --local-dir " + root;
  }

  private static Path gitCheckout(Path root) {
    for (Path dir = root.toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.exists(dir.resolve(".git"))) {
        return dir;
      }
    }
    return null;
  }

  private static ContentKind sniff(Path file) {
    byte[] head = new byte[HEAD];
    try (InputStream in = Files.newInputStream(file)) {
      return ContentKind.of(head, in.readNBytes(head, 0, HEAD));
    } catch (IOException e) {
      return ContentKind.OTHER; // unreadable: the reader that opens it names the error
    }
  }
}
