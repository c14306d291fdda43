package org.robostream.cli;

import org.robostream.source.hub.HubLocation;

/**
 * A Hub dataset given where a command takes a dataset root:
 * {@code --root hf://datasets/<owner>/<name>[@<revision>]} means {@code --repo-id <owner>/<name>
 * [--revision <revision>]} (the dataset is streamed from HF_ENDPOINT as with those flags). A
 * bucket or a path inside a repository is refused with what to write instead: a bucket holds no
 * metadata, and a LeRobot dataset is a repository's root. Stateless.
 */
final class HubRoot {
  private HubRoot() {}

  /**
   * The Hub dataset {@code root} names (its revision from the URL, else {@code revision}), or
   * null when {@code root} is a local path or absent.
   *
   * @param repoId --repo-id when also given: must name the same dataset
   */
  static HubLocation of(String root, String repoId, String revision) {
    if (!HubLocation.isHubUrl(root)) {
      return null;
    }
    HubLocation l = HubLocation.parse(root);
    if (l.kind() == HubLocation.Kind.BUCKET) {
      throw new IllegalArgumentException("--root " + root + ": a bucket holds data/ and videos/"
          + " but no metadata; use --repo-id OWNER/NAME --data-files-root " + root);
    }
    if (!l.prefix().isEmpty()) {
      throw new IllegalArgumentException("--root " + root + ": a dataset is a repository's root,"
          + " hf://datasets/" + l.id() + (l.revision() == null ? "" : "@" + l.revision())
          + ", not a path inside it");
    }
    if (repoId != null && !repoId.equals(l.id())) {
      throw new IllegalArgumentException("--root " + root + " and --repo-id " + repoId
          + " name different datasets");
    }
    if (l.revision() != null && revision != null && !revision.equals(l.revision())) {
      throw new IllegalArgumentException("--root " + root + " and --revision " + revision
          + " name different revisions");
    }
    return l.revision() == null ? l.withRevision(revision) : l;
  }

  /** The local path {@code root} names (null stays null); never an hf:// URL. */
  static java.nio.file.Path local(String root) {
    return root == null || HubLocation.isHubUrl(root) ? null : java.nio.file.Path.of(root);
  }
}
