package org.robostream.djl;

import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.training.dataset.Batch;
import ai.djl.training.dataset.Dataset;
import ai.djl.util.Progress;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import org.robostream.stream.StreamingDataset;

/**
 * A DJL {@link Dataset} over a robostream {@link StreamingDataset}: each {@link #getData} pass is
 * the rest of the stream's current epoch, each batch a {@link DjlBatch} of {@link NDList}s named by
 * robostream's column names.
 *
 * <p>On a CPU manager arrays view the batch's host memory (no copy); on a GPU manager the engine
 * copies each once. GPU-decoded frames go through the host: DJL's PyTorch engine cannot wrap a
 * device pointer. Padding batches are skipped (DJL ranks need no lockstep) unless {@link
 * Builder#keepPaddingBatches}, which labels {@code is_padding}.
 *
 * <p>The caller owns and closes the stream. One pass at a time, on one consumer thread.
 */
public final class StreamingDjlDataset implements Dataset {
  private final StreamingDataset stream;
  private final List<String> dataNames;
  private final List<String> labelNames;
  private final boolean keepPadding;

  private StreamingDjlDataset(Builder b) {
    this.stream = b.stream;
    this.dataNames = b.dataNames;
    this.labelNames = b.labelNames;
    this.keepPadding = b.keepPadding;
  }

  /** A dataset over {@code stream}, with the default columns (see {@link Builder#data}). */
  public static Builder over(StreamingDataset stream) {
    return new Builder(stream);
  }

  public StreamingDataset stream() {
    return stream;
  }

  /** Nothing to prepare: the stream reads and decodes as it goes. */
  @Override
  public void prepare(Progress progress) {}

  /**
   * The rest of the stream's current epoch. Iterating the returned iterable a second time starts a
   * new pass of the stream (which makes the previous iterator stale, as in the stream).
   */
  @Override
  public Iterable<Batch> getData(NDManager manager) {
    Objects.requireNonNull(manager, "manager");
    return () -> new Pass(manager, stream.iterator(), stream.batchesPerEpoch());
  }

  /**
   * One robostream batch as a DJL batch of {@code manager} (a sub-manager of it holds the arrays).
   * The DJL batch owns {@code batch} from here on, also when this throws.
   */
  public DjlBatch convert(
      org.robostream.stream.Batch batch, NDManager manager, long progressTotal) {
    NDManager arrays = manager.newSubManager();
    try {
      if (!batch.deviceFrames().onHost()) {
        batch.toHost();
      }
      NDList data = arrays(batch, resolve(dataNames, batch, true), arrays);
      NDList labels = arrays(batch, resolve(labelNames, batch, false), arrays);
      return new DjlBatch(arrays, data, labels, batch, batch.index() + 1L, progressTotal);
    } catch (RuntimeException e) {
      arrays.close();
      batch.close();
      throw e;
    }
  }

  private static NDList arrays(
      org.robostream.stream.Batch batch, List<String> names, NDManager manager) {
    NDList list = new NDList(names.size());
    for (String name : names) {
      list.add(NDArrays.of(batch.tensor(name), manager));
    }
    return list;
  }

  /** The configured names, or the defaults this batch implies. */
  private List<String> resolve(List<String> names, org.robostream.stream.Batch b, boolean data) {
    if (names != null) {
      return names;
    }
    List<String> columns = b.columnNames();
    List<String> out = new ArrayList<>();
    if (data) {
      for (String camera : b.cameras()) {
        out.add(camera);
        addIfPresent(out, columns, camera + "_is_pad");
      }
      addIfPresent(out, columns, "observation.state");
      addIfPresent(out, columns, "observation.state_is_pad");
    } else {
      addIfPresent(out, columns, "action");
      addIfPresent(out, columns, "action_is_pad");
      if (keepPadding) {
        out.add("is_padding");
      }
    }
    return out;
  }

  private static void addIfPresent(List<String> out, List<String> columns, String name) {
    if (columns.contains(name)) {
      out.add(name);
    }
  }

  /** One pass: converts as it goes, skipping padding batches unless asked to keep them. */
  private final class Pass implements Iterator<Batch> {
    private final NDManager manager;
    private final Iterator<org.robostream.stream.Batch> batches;
    private final long total;
    private org.robostream.stream.Batch next;

    Pass(NDManager manager, Iterator<org.robostream.stream.Batch> batches, long total) {
      this.manager = manager;
      this.batches = batches;
      this.total = total;
    }

    @Override
    public boolean hasNext() {
      while (next == null && batches.hasNext()) {
        org.robostream.stream.Batch b = batches.next();
        if (!keepPadding && b.size() > 0 && b.booleans("is_padding")[0]) {
          b.close(); // padding batches are whole: every row repeats a delivered sample
          continue;
        }
        next = b;
      }
      return next != null;
    }

    @Override
    public Batch next() {
      if (!hasNext()) {
        throw new NoSuchElementException("the epoch has ended");
      }
      org.robostream.stream.Batch b = next;
      next = null;
      return convert(b, manager, total);
    }
  }

  /**
   * Which columns become data and labels. Defaults: data = each camera (with its {@code _is_pad}
   * when windowed), then {@code observation.state} (and its {@code _is_pad}); labels = {@code
   * action} and {@code action_is_pad} when present. Not thread-safe.
   */
  public static final class Builder {
    private final StreamingDataset stream;
    private List<String> dataNames;
    private List<String> labelNames;
    private boolean keepPadding;

    private Builder(StreamingDataset stream) {
      this.stream = Objects.requireNonNull(stream, "stream");
    }

    /** The data columns, in this order (any column or camera of the batch). */
    public Builder data(String... names) {
      this.dataNames = List.of(names);
      return this;
    }

    /** The label columns, in this order. */
    public Builder labels(String... names) {
      this.labelNames = List.of(names);
      return this;
    }

    /** Keep padding batches (and add {@code is_padding} to the default labels). */
    public Builder keepPaddingBatches(boolean keep) {
      this.keepPadding = keep;
      return this;
    }

    public StreamingDjlDataset build() {
      return new StreamingDjlDataset(this);
    }
  }
}
