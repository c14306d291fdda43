package org.robostream.dataset;

/**
 * Whether a dataset's files may resolve, through symbolic links, outside its roots (the folder
 * holding {@code meta/} and the one holding {@code data/} and {@code videos/}).
 *
 * <p>A dataset is input from anywhere: a link such as {@code videos/x.mp4 -> ~/.ssh/id_ed25519} or
 * {@code meta/info.json -> /dev/zero} would make the loader read files the user never handed over.
 * So links are {@link #CONFINED} by default: links inside a root are followed (a dataset
 * reorganised with links), a root that is itself a link is followed (the user named it), and
 * anything resolving elsewhere is a {@link DatasetException.OutsideRoot}. Videos kept on a shared
 * store are given as a second root ({@code data_files_root}); layouts that link elsewhere by design
 * (the Hugging Face cache's {@code snapshots/<rev>/... -> ../../blobs/<hash>}) need {@link
 * #FOLLOW}. Either way, no error ever quotes a file's content.
 */
public enum SymlinkPolicy {
  /** Files must resolve inside the dataset's roots (default). */
  CONFINED,
  /** Links are followed wherever they lead (opt-in). */
  FOLLOW
}
