package org.robostream.framecache;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.concurrent.ThreadLocalRandom;
import java.util.zip.CRC32C;
import org.bytedeco.javacpp.Pointer;
import org.robostream.nativecore.NativeAddress;

/**
 * One video file's decoded frames on disk: a file of fixed-size slots, one per frame position,
 * memory-mapped by every process that uses it. Layout (little-endian):
 *
 * <pre>
 * 0       header (8 KiB, {@link CacheFileHeader}): magic, version, frames, slot bytes, data
 *         offset, last use, the identity (whose frames these are, e.g. path + size + mtime)
 * 8192    slot table: 64 bytes a frame ({@link SlotEntry}): state, CRC-32C of the bytes, bytes,
 *         width, height, pixel format, colour matrix and range, pts, frame index, claim time
 * data    (4 KiB aligned) slot i at data + i * slotBytes: the packed picture
 * </pre>
 *
 * <p><b>Cross-process protocol.</b> A slot is EMPTY (0), COMPLETE (1), or claimed by a writer (any
 * other value: the writer's random token). A writer claims an empty slot with a compare-and-set on
 * the shared mapping, writes the bytes with a positional write (so a full disk is an {@link
 * IOException}, not a fault on a mapped page), then the slot's fields, then sets COMPLETE with
 * release ordering. A reader takes the state with acquire ordering and serves the slot only when it
 * is COMPLETE and its bytes match their CRC-32C. A writer that crashed leaves its slot claimed:
 * never served, taken over by another writer after {@link #STALE_CLAIM_MILLIS}. The header and the
 * slot table are written (zeros) when the file is created, so the compare-and-set never touches an
 * unbacked page; a file becomes visible under its name only complete (created under a temporary
 * name, then hard-linked). Slots are filled with identical bytes by whoever decodes them (a video
 * decodes to the same pictures in every process), so two writers racing for a slot is harmless. An
 * interrupted writer stores nothing (FileChannel closes itself when a thread is interrupted in a
 * write; the channel is then opened again), so stopping a worker never disables the cache.
 *
 * <p>Threading: thread-safe (the protocol above also holds between threads). Ownership: {@link
 * FrameCache} opens and closes it; {@link #close()} unmaps, so no reader may use an address after
 * it (the cache's reference count sees to that).
 */
final class CacheFile {
  static final String SUFFIX = ".frames";
  static final long STALE_CLAIM_MILLIS = 60_000;

  /** At most this many bytes of slots per mapping (a mapping is at most 2 GiB in Java). */
  static final long CHUNK_BYTES = 1L << 30;

  static final int EMPTY = 0;
  static final int COMPLETE = 1;

  private static final VarHandle INT =
      MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LONG =
      MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  /** What {@link #store} did. */
  enum Stored {
    STORED,
    /** Complete already, or another writer holds the slot. */
    PRESENT,
    /** The picture is larger than a slot. */
    TOO_LARGE,
    /**
     * Not stored: the writing thread was interrupted (its worker is being stopped), before or
     * during the write; the slot is left empty and the file works on for everyone else.
     */
    INTERRUPTED
  }

  /** Why a read found nothing. */
  enum Found {
    HIT,
    MISS,
    CORRUPT
  }

  final Path path;
  final String identity;
  final int frames;
  final long slotBytes;
  final long dataOffset;
  final Object fileKey;
  private volatile FileChannel channel; // replaced when an interrupt closed it (see #store)
  private boolean closed; // guarded by this
  private final MappedByteBuffer table;
  private final MappedByteBuffer[] chunks;
  private final long[] chunkAddress;
  private final int slotsPerChunk;
  private volatile long lastTouched;

  private CacheFile(
      Path path,
      String identity,
      int frames,
      long slotBytes,
      long dataOffset,
      Object fileKey,
      FileChannel channel)
      throws IOException {
    this.path = path;
    this.identity = identity;
    this.frames = frames;
    this.slotBytes = slotBytes;
    this.dataOffset = dataOffset;
    this.fileKey = fileKey;
    this.channel = channel;
    this.table = channel.map(FileChannel.MapMode.READ_WRITE, 0, dataOffset);
    table.order(ByteOrder.LITTLE_ENDIAN); // every field, as the layout says (not only the states)
    this.slotsPerChunk = (int) Math.max(1, Math.min(frames, CHUNK_BYTES / slotBytes));
    int n = (frames + slotsPerChunk - 1) / slotsPerChunk;
    this.chunks = new MappedByteBuffer[n];
    this.chunkAddress = new long[n];
    for (int c = 0; c < n; c++) {
      int slots = Math.min(slotsPerChunk, frames - c * slotsPerChunk);
      chunks[c] =
          channel.map(
              FileChannel.MapMode.READ_WRITE,
              dataOffset + (long) c * slotsPerChunk * slotBytes,
              slots * slotBytes);
      chunkAddress[c] = new Pointer(chunks[c]).address();
    }
  }

  /** The file's full size for {@code frames} slots of {@code slotBytes}. */
  static long fileBytes(int frames, long slotBytes) {
    return CacheFileHeader.dataOffsetFor(frames) + frames * slotBytes;
  }

  /** Slot sizes are rounded up to 64 bytes so every slot starts cache-line aligned. */
  static long slotBytesFor(long pictureBytes) {
    return (pictureBytes + 63) & ~63L;
  }

  /**
   * Creates the file {@code name} in {@code dir} for {@code identity}, or opens the one another
   * process created first.
   *
   * @return null when a file of that name holds something else (another identity, another layout)
   *     or one larger than {@code maxBytes}
   * @throws IOException when the folder cannot take it (full, gone, read-only)
   */
  static CacheFile create(
      Path dir, String name, String identity, int frames, long slotBytes, long maxBytes)
      throws IOException {
    CacheFileHeader header = CacheFileHeader.of(identity, frames, slotBytes);
    if (header == null) {
      return null;
    }
    Path target = dir.resolve(name);
    Path tmp =
        dir.resolve(
            name
                + ".tmp-"
                + ProcessHandle.current().pid()
                + "-"
                + Long.toHexString(ThreadLocalRandom.current().nextLong()));
    long dataOffset = header.dataOffset();
    try {
      try (FileChannel ch =
          FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
        writeFully(ch, header.bytes(), 0);
        // The slot table as real zeros: its pages must be backed before anyone maps them.
        ByteBuffer zeros = ByteBuffer.allocateDirect(1 << 16);
        for (long at = CacheFileHeader.BYTES; at < dataOffset; at += zeros.capacity()) {
          zeros.clear().limit((int) Math.min(zeros.capacity(), dataOffset - at));
          writeFully(ch, zeros, at);
        }
      }
      try {
        Files.createLink(target, tmp);
      } catch (FileAlreadyExistsException raced) {
        // another process created it first: use theirs
      } catch (UnsupportedOperationException | IOException noLinks) {
        if (!Files.exists(target)) {
          Files.move(tmp, target, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        }
      }
    } finally {
      Files.deleteIfExists(tmp);
    }
    try {
      return open(target, identity, maxBytes);
    } catch (java.nio.file.NoSuchFileException evictedAtOnce) {
      return null; // another process evicted it between the link and the open
    }
  }

  /**
   * Opens an existing file for {@code identity}, unless its slots would take more than {@code
   * maxBytes} (the budget: nothing larger is mapped, whatever a header from disk says).
   *
   * @return null when it holds another identity, is not a complete frame-cache file, or is too
   *     large
   * @throws java.nio.file.NoSuchFileException when it is not there
   */
  static CacheFile open(Path path, String identity, long maxBytes) throws IOException {
    FileChannel ch = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
    boolean ok = false;
    try {
      CacheFileHeader h = CacheFileHeader.read(ch);
      if (h == null
          || !h.identity().equals(identity)
          || fileBytes(h.frames(), h.slotBytes()) > maxBytes) {
        return null;
      }
      Object key = Files.readAttributes(path, BasicFileAttributes.class).fileKey();
      CacheFile f =
          new CacheFile(path, identity, h.frames(), h.slotBytes(), h.dataOffset(), key, ch);
      ok = true;
      return f;
    } finally {
      if (!ok) {
        ch.close();
      }
    }
  }

  /**
   * Frame {@code position}'s picture if the slot is complete and its bytes match their checksum
   * (else {@code out[0]} says MISS or CORRUPT: a corrupt slot is emptied so that it is filled
   * again).
   */
  CachedFrame read(int position, Found[] out) {
    int off = slotOffset(position);
    if ((int) INT.getAcquire(table, off) != COMPLETE) {
      out[0] = Found.MISS;
      return null;
    }
    int chunk = position / slotsPerChunk;
    int within = (int) ((position % slotsPerChunk) * slotBytes);
    CachedFrame f = SlotEntry.read(table, off, chunkAddress[chunk] + within, slotBytes);
    if (f == null) {
      out[0] = Found.CORRUPT;
      INT.compareAndSet(table, off, COMPLETE, EMPTY);
      return null;
    }
    CRC32C crc = new CRC32C();
    crc.update(chunks[chunk].slice(within, (int) f.bytes()));
    if ((int) crc.getValue() != SlotEntry.crc(table, off)) {
      out[0] = Found.CORRUPT;
      INT.compareAndSet(table, off, COMPLETE, EMPTY);
      return null;
    }
    out[0] = Found.HIT;
    return f;
  }

  /**
   * Stores the packed picture {@code f} describes as frame {@code position}, unless the slot is
   * complete or claimed by another writer. With {@code staging}, the bytes are copied into it once
   * the slot is claimed and written from there (see {@link WriteStaging} for why); null writes them
   * from where they are.
   *
   * @throws IOException when the bytes cannot be written (a full disk); the slot is left empty
   */
  Stored store(int position, CachedFrame f, WriteStaging staging) throws IOException {
    long bytes = f.bytes();
    if (bytes <= 0 || bytes > slotBytes) {
      return Stored.TOO_LARGE;
    }
    if (Thread.currentThread().isInterrupted()) {
      return Stored.INTERRUPTED; // a write now would close the channel every writer shares
    }
    int off = slotOffset(position);
    int token = claimToken();
    int state = (int) INT.getAcquire(table, off);
    long now = System.currentTimeMillis();
    if (state == COMPLETE) {
      return Stored.PRESENT;
    }
    boolean stale =
        state != EMPTY
            && now - (long) LONG.getOpaque(table, off + SlotEntry.CLAIMED_AT) > STALE_CLAIM_MILLIS;
    if ((state != EMPTY && !stale) || !INT.compareAndSet(table, off, state, token)) {
      return Stored.PRESENT;
    }
    LONG.setOpaque(table, off + SlotEntry.CLAIMED_AT, now);
    long from = staging == null ? f.address() : staging.copyOf(f.address(), bytes);
    ByteBuffer src = NativeAddress.bytesAt(from, bytes).asByteBuffer();
    CRC32C crc = new CRC32C();
    crc.update(src);
    src.rewind();
    int chunk = position / slotsPerChunk;
    long within = (position % slotsPerChunk) * slotBytes;
    FileChannel ch = channel;
    try {
      writeFully(ch, src, dataOffset + (long) chunk * slotsPerChunk * slotBytes + within);
    } catch (ClosedChannelException interrupted) {
      // FileChannel is interruptible: an interrupt of this or another writer during a write
      // closes the channel for every thread. Not a fault of the folder: open it again.
      INT.compareAndSet(table, off, token, EMPTY); // only our claim: never another's slot
      reopen(ch);
      return Stored.INTERRUPTED;
    } catch (IOException | RuntimeException e) {
      INT.compareAndSet(table, off, token, EMPTY);
      throw e;
    }
    SlotEntry.write(table, off, f, (int) crc.getValue());
    // From our claim only: a writer that took a stale claim over completes the slot itself (with
    // the same bytes), and a slot emptied meanwhile is not marked complete over someone's write.
    INT.compareAndExchangeRelease(table, off, token, COMPLETE);
    return Stored.STORED;
  }

  /**
   * Replaces {@code broken} (closed by an interrupt) with a new channel on the same file; when the
   * file left its name meanwhile, stores go on returning {@link Stored#INTERRUPTED} until the cache
   * notices it is gone ({@link #stillThere()}).
   */
  private synchronized void reopen(FileChannel broken) {
    if (closed || channel != broken) {
      return; // closed for good, or another writer reopened it already
    }
    try {
      FileChannel fresh = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
      if (stillThere()) {
        channel = fresh;
      } else {
        fresh.close();
      }
    } catch (IOException gone) {
      // the name holds nothing (evicted): nothing more is stored in this file
    }
  }

  /** Records a use (for least-recently-used eviction across processes), at most once a second. */
  void touch() {
    long now = System.currentTimeMillis();
    if (now - lastTouched >= 1000) {
      lastTouched = now;
      LONG.setOpaque(table, CacheFileHeader.OFF_LAST_USED, now);
    }
  }

  /** Whether {@link #path} still names this file (not removed or replaced by another process). */
  boolean stillThere() {
    try {
      return fileKey == null
          || fileKey.equals(Files.readAttributes(path, BasicFileAttributes.class).fileKey());
    } catch (IOException e) {
      return false;
    }
  }

  /** Unmaps and closes; no address from {@link #read} may be used afterwards. */
  void close() {
    synchronized (this) {
      closed = true;
    }
    Unmapper.unmap(table);
    for (MappedByteBuffer c : chunks) {
      Unmapper.unmap(c);
    }
    try {
      channel.close();
    } catch (IOException ignored) {
      // nothing was written through the channel that a close could lose
    }
  }

  private int slotOffset(int position) {
    if (position < 0 || position >= frames) {
      throw new IndexOutOfBoundsException(
          "frame " + position + " of " + path + ", which has " + frames + " slots");
    }
    return CacheFileHeader.BYTES + position * CacheFileHeader.SLOT_ENTRY_BYTES;
  }

  private static int claimToken() {
    int t;
    do {
      t = ThreadLocalRandom.current().nextInt();
    } while (t == EMPTY || t == COMPLETE);
    return t;
  }

  private static void writeFully(FileChannel ch, ByteBuffer b, long at) throws IOException {
    long pos = at;
    while (b.hasRemaining()) {
      pos += ch.write(b, pos);
    }
  }
}
