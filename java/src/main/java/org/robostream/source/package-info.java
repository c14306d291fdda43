/**
 * Where bytes come from: {@link org.robostream.source.ByteSource} (a file's bytes, local or remote,
 * read by range), {@link org.robostream.source.ContentKind} (what they are, sniffed from their
 * first bytes, never from the name) and {@link org.robostream.source.VideoSources}. Files are
 * opened as regular files only, links refused unless the caller's policy allows them.
 */
package org.robostream.source;
