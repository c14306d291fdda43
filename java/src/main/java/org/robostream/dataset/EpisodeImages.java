package org.robostream.dataset;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.StructVector;

/**
 * The encoded images (PNG or JPEG bytes) of one image feature for every frame of one episode, read
 * from the episode's data file: the feature's column is a struct {@code {bytes, path}} (Hugging
 * Face datasets' {@code Image} type, as LeRobot writes it). Only that column and {@code
 * episode_index} are read, in small batches, and the scan stops after the episode's rows (its rows
 * are contiguous, checked when the dataset was opened), so a data file of many episodes is never
 * held whole. Each image is bounded before it is copied. Images stored only as a {@code path} (null
 * bytes) are refused: LeRobot embeds the bytes in every dataset it writes.
 *
 * <p>Immutable once read; thread-safe.
 */
public final class EpisodeImages {
  /** Rows per scanned batch: a batch of images is held at once while it is copied out. */
  private static final long BATCH_ROWS = 64;

  private final String file;
  private final String feature;
  private final int episode;
  private final List<byte[]> images;
  private final long bytes;

  private EpisodeImages(String file, String feature, int episode, List<byte[]> images) {
    this.file = file;
    this.feature = feature;
    this.episode = episode;
    this.images = List.copyOf(images);
    this.bytes = images.stream().mapToLong(b -> b.length).sum();
  }

  /**
   * Reads the images of {@code feature} for {@code episode}; one image may take at most twice the
   * raw bytes of the feature's declared shape plus 1 MiB.
   *
   * @throws DatasetException.BadMetadata naming the file, episode, frame and feature for a missing,
   *     null, path-only or oversized image, or a row count other than the episode's length
   */
  public static EpisodeImages read(
      BufferAllocator allocator, EpisodeInfo episode, Feature imageFeature) {
    String name = episode.dataFile().toString();
    List<byte[]> images = scan(allocator, episode, imageFeature, episode.length());
    if (images.size() != episode.length()) {
      throw new DatasetException.BadMetadata(
          name,
          "holds "
              + images.size()
              + " images of "
              + imageFeature.name()
              + " for episode "
              + episode.index()
              + " but its length is "
              + episode.length());
    }
    return new EpisodeImages(name, imageFeature.name(), episode.index(), images);
  }

  /**
   * The encoded image of frame 0 of {@code episode}, reading no further than the batch that holds
   * it; checked as {@link #read} checks every image.
   */
  public static byte[] first(BufferAllocator allocator, EpisodeInfo episode, Feature imageFeature) {
    List<byte[]> images = scan(allocator, episode, imageFeature, 1);
    if (images.isEmpty()) {
      throw new DatasetException.BadMetadata(
          episode.dataFile().toString(),
          "holds no images of " + imageFeature.name() + " for episode " + episode.index());
    }
    return images.get(0);
  }

  /** The first {@code limit} images of the episode's rows, fewer if it has fewer rows. */
  private static List<byte[]> scan(
      BufferAllocator allocator, EpisodeInfo episode, Feature imageFeature, int limit) {
    String feature = imageFeature.name();
    long maxImageBytes = ImageColumn.maxEncodedBytes(imageFeature.elementCount());
    String name = episode.dataFile().toString();
    List<byte[]> images = new ArrayList<>();
    boolean[] seen = {false};
    ParquetFrames.scan(
        allocator,
        episode.dataFile(),
        List.of(EpisodeRowRanges.COLUMN, feature),
        BATCH_ROWS,
        Long.MAX_VALUE,
        "rows",
        batch -> {
          FieldVector episodes = ArrowCells.column(batch, EpisodeRowRanges.COLUMN, name);
          ValueVector bytes = bytesOf(batch, feature, name);
          for (int row = 0; row < batch.getRowCount() && images.size() < limit; row++) {
            if (((BaseIntVector) episodes).getValueAsLong(row) != episode.index()) {
              if (seen[0]) {
                return false; // past the episode's contiguous rows
              }
              continue;
            }
            seen[0] = true;
            images.add(image(batch, bytes, row, images.size(), episode, feature, maxImageBytes));
          }
          return images.size() < limit;
        });
    return images;
  }

  /** The {@code bytes} child of the feature's struct column, checked by FeatureColumns at open. */
  private static ValueVector bytesOf(VectorSchemaRoot batch, String feature, String file) {
    FieldVector column = ArrowCells.column(batch, feature, file);
    if (!(column instanceof StructVector struct) || struct.getChild(ImageColumn.BYTES) == null) {
      throw new DatasetException.BadMetadata(
          file, "column " + feature + " is " + column.getField().getType() + ImageColumn.EXPECTED);
    }
    return struct.getChild(ImageColumn.BYTES);
  }

  private static byte[] image(
      VectorSchemaRoot batch,
      ValueVector bytes,
      int row,
      int frame,
      EpisodeInfo episode,
      String feature,
      long maxImageBytes) {
    String file = episode.dataFile().toString();
    String where = "episode " + episode.index() + " frame " + frame + ", image feature " + feature;
    if (bytes.isNull(row)) {
      StructVector struct = (StructVector) batch.getVector(feature);
      ValueVector path = struct.getChild(ImageColumn.PATH);
      Object p = path == null || path.isNull(row) ? null : path.getObject(row);
      throw new DatasetException.BadMetadata(
          file,
          where
              + " has no image bytes"
              + (p == null ? "" : " (only the path " + shortened(p.toString()) + ")")
              + ": robostream reads images embedded in the Parquet file, as LeRobot writes"
              + " them; images kept as separate files are not read");
    }
    long length = length(bytes, row);
    if (length > maxImageBytes) {
      throw new DatasetException.BadMetadata(
          file,
          where
              + " is "
              + length
              + " bytes, more than the "
              + maxImageBytes
              + " an image of its declared shape may take");
    }
    return (byte[]) bytes.getObject(row);
  }

  /** A path from the file, cut for a message. */
  private static String shortened(String path) {
    return path.length() <= 200 ? path : path.substring(0, 200) + "...";
  }

  private static long length(ValueVector bytes, int row) {
    if (bytes instanceof BaseVariableWidthVector v) {
      return v.getValueLength(row);
    }
    if (bytes instanceof BaseLargeVariableWidthVector v) {
      return v.getValueLength(row);
    }
    throw new IllegalStateException("not a binary column: " + bytes.getField());
  }

  /** The encoded image of episode-local {@code frame}. */
  public byte[] image(int frame) {
    return images.get(frame);
  }

  /** The data file the images were read from. */
  public String file() {
    return file;
  }

  public String feature() {
    return feature;
  }

  public int episode() {
    return episode;
  }

  /** Encoded bytes of all the images. */
  public long bytes() {
    return bytes;
  }
}
