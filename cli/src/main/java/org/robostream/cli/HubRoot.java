package org.robostream.cli;

import org.robostream.hub.HubLocation;

/**
 * The Hub location the dataset flags name together: {@code --repo-id OWNER/NAME [--revision R]}, or
 * an {@code hf://} URL given as {@code --root}, which must then agree with those two when they are
 * given too. Which Hub locations name a dataset (a repository or a bucket, not a path inside one)
 * is the library's to say, when the location is opened. Stateless.
 */
final class HubRoot {
  private HubRoot() {}

  /**
   * The Hub location, with {@code --revision} folded into an {@code hf://} root without one; null
   * when {@code root} is a local folder (then {@code --repo-id} is only a label) or no dataset flag
   * is given.
   *
   * @throws IllegalArgumentException when {@code --root} and {@code --repo-id}/{@code --revision}
   *     name different datasets or revisions
   */
  static String location(String root, String repoId, String revision) {
    if (root == null) {
      return repoId == null ? null : HubLocation.dataset(repoId, revision).toString();
    }
    if (!HubLocation.isHubUrl(root)) {
      return null;
    }
    HubLocation l = HubLocation.parse(root);
    if (l.kind() != HubLocation.Kind.DATASET) {
      return root;
    }
    if (repoId != null && !repoId.equals(l.id())) {
      throw new IllegalArgumentException(
          "--root " + root + " and --repo-id " + repoId + " name different datasets");
    }
    if (l.revision() != null && revision != null && !revision.equals(l.revision())) {
      throw new IllegalArgumentException(
          "--root " + root + " and --revision " + revision + " name different revisions");
    }
    return l.revision() == null && revision != null ? l.withRevision(revision).toString() : root;
  }
}
