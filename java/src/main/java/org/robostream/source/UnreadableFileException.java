package org.robostream.source;

import org.robostream.FileException;

/**
 * A file cannot be opened for reading: it does not exist, permission is denied, or the system
 * refuses to open it. The byte layer's own error, so that {@code source} needs nothing above it;
 * the video layer reports it for a video it opens itself as a {@code video.VideoNotFoundException}.
 */
public class UnreadableFileException extends FileException {
  public UnreadableFileException(String file, String problem, Throwable cause) {
    super(file, problem, cause);
  }
}
