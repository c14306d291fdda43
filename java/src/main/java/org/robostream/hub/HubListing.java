package org.robostream.hub;

import java.nio.file.Path;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import java.util.TreeSet;
import org.robostream.dataset.FileLookup;
import org.robostream.dataset.FileState;

/**
 * Which of a Hub dataset's data and video files exist, from the tree listings of the folders that
 * hold them: one listing per folder (paged as the server pages it, {@link HubTree}), never a
 * request per file. A folder the revision does not have (404) holds nothing. The {@link FileLookup}
 * of {@link HubDataset}'s up-front check; the Hub serves a file's content, never a pointer to it,
 * so a listed file is present. Immutable once listed, thread-safe.
 */
final class HubListing implements FileLookup {
  private final HubLocation files;
  private final Path dataRoot;
  private final Set<String> listed;

  private HubListing(HubLocation files, Path dataRoot, Set<String> listed) {
    this.files = files;
    this.dataRoot = dataRoot;
    this.listed = Set.copyOf(listed);
  }

  /**
   * Lists the folders of {@code needed} (files under {@code dataRoot}, the local mirror of {@code
   * files}).
   */
  static HubListing of(HubHttp http, HubLocation files, Path dataRoot, Collection<Path> needed) {
    Set<String> folders = new TreeSet<>();
    needed.forEach(f -> folders.add(relative(dataRoot, f.getParent())));
    Set<String> listed = new HashSet<>();
    for (String folder : folders) {
      try {
        HubTree.files(http, files, folder).forEach(e -> listed.add(e.path()));
      } catch (HubException.NotFound e) {
        // Not at this revision: none of its files are there, which the check reports.
      }
    }
    return new HubListing(files, dataRoot, listed);
  }

  @Override
  public FileState lookup(Path file) {
    return listed.contains(files.pathOf(relative(dataRoot, file)))
        ? FileState.PRESENT
        : FileState.MISSING;
  }

  private static String relative(Path root, Path file) {
    return root.relativize(file).toString().replace('\\', '/');
  }
}
