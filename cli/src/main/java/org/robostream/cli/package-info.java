/**
 * The {@code robostream} command line (picocli): one class per command ({@code bench}, {@code
 * train}, {@code inspect}, {@code make-dataset}, ...), flags in, library options out, shared flag
 * groups as mixins ({@link org.robostream.cli.LoaderOptions}, decode, resize, selection, frame
 * cache, image transforms). Every flag: docs/CLI.md.
 */
package org.robostream.cli;
