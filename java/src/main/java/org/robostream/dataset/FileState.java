package org.robostream.dataset;

import org.robostream.source.ContentKind;

/**
 * What stands where a dataset file should be: the file, nothing, or a placeholder — a document an
 * unfetched checkout or a failed download leaves in its place (a Git LFS pointer, an HTML or JSON
 * page, an empty file). Immutable.
 *
 * @param kind present, missing or a placeholder
 * @param placeholder what the placeholder is; null unless {@code kind} is {@link Kind#PLACEHOLDER}
 */
public record FileState(Kind kind, ContentKind placeholder) {
  public enum Kind {
    PRESENT,
    MISSING,
    PLACEHOLDER
  }

  public static final FileState PRESENT = new FileState(Kind.PRESENT, null);
  public static final FileState MISSING = new FileState(Kind.MISSING, null);

  public static FileState placeholder(ContentKind content) {
    return new FileState(Kind.PLACEHOLDER, content);
  }

  public boolean isPresent() {
    return kind == Kind.PRESENT;
  }
}
