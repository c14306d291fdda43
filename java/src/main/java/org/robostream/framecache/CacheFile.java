package org.robostream.framecache;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.concurrent.ThreadLocalRandom;
import org.robostream.codec.HeldFrame;
import org.robostream.nativecore.NativeAddress;

/**
 * One video file's decoded frames on disk, shared by a node's processes: a header ({@link
 * CacheFileHeader}), slot entries ({@link SlotEntry}), then a fixed-size slot per frame position
 * (of the video, or of its {@link FrameSpans}); a position without a slot is a miss.
 *
 * <p>Nothing is mapped: a truncated file gives a corrupt miss, not a SIGBUS (the cost, one copy per
 * served frame: docs/PERFORMANCE.md "Decoded-frame cache"). A writer writes the bytes, then the
 * entry (CRC-32C, COMPLETE) in one write; a reader copies the slot into its own memory ({@link
 * FrameTarget}) and serves it only if COMPLETE and matching, else rereads once and empties it. All
 * writers write the same bytes. Files appear only complete, open only as this user's ({@link
 * CacheFolder}). Interrupted calls do nothing. Thread-safe; {@link FrameCache} owns it.
 */
final class CacheFile {
  static final String SUFFIX = ".frames";

  /** The largest slot: a picture read or written in one go. */
  static final long MAX_SLOT_BYTES = 1L << 30;

  static final int EMPTY = 0;
  static final int COMPLETE = 1;

  private static final ThreadLocal<ByteBuffer> ENTRY = ThreadLocal.withInitial(SlotEntry::buffer);

  /** What {@link #store} did. */
  enum Stored {
    STORED,
    /** Complete already, or the file is no longer usable (it shrank, or left its name). */
    PRESENT,
    /** The picture is larger than a slot. */
    TOO_LARGE,
    /** The file has no slot for the position (it keeps other spans of the video). */
    UNCOVERED,
    /**
     * Not stored: the thread was interrupted (its worker is being stopped), before or during the
     * write; the slot is left as it was and the file works on for everyone else.
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
  final int frames; // the video's
  final FrameSpans spans; // the positions with a slot
  final long slotBytes;
  final long dataOffset;
  final Object fileKey;
  private final int uid;
  private volatile FileChannel channel; // replaced when an interrupt closed it (see #reopen)
  private volatile boolean shrunk; // a read came back short: the file is cut, never used again
  private volatile boolean gone; // it left its name (evicted, replaced): opened again by name
  private boolean closed; // guarded by this
  private volatile long lastTouched;

  private CacheFile(
      Path path,
      String identity,
      CacheFileHeader h,
      FrameSpans spans,
      Object fileKey,
      int uid,
      FileChannel channel) {
    this.path = path;
    this.identity = identity;
    this.frames = h.frames();
    this.spans = spans;
    this.slotBytes = h.slotBytes();
    this.dataOffset = h.dataOffset();
    this.fileKey = fileKey;
    this.uid = uid;
    this.channel = channel;
  }

  /** The file's full size for a whole video of {@code frames}, slots of {@code slotBytes}. */
  static long fileBytes(int frames, long slotBytes) {
    return CacheFileHeader.dataOffsetFor(frames) + frames * slotBytes;
  }

  /**
   * The file's full size for the positions {@code covered} of a video of {@code frames}: what
   * creating it reserves of the budget.
   */
  static long fileBytes(FrameSpans covered, int frames, long slotBytes) {
    if (covered.isWhole(frames)) {
      return fileBytes(frames, slotBytes);
    }
    return CacheFileHeader.dataOffsetFor(covered.count(), covered.spans())
        + covered.count() * slotBytes;
  }

  /** Slot sizes are rounded up to 64 bytes so every slot starts cache-line aligned. */
  static long slotBytesFor(long pictureBytes) {
    return (pictureBytes + 63) & ~63L;
  }

  /**
   * Creates the file {@code name} in {@code dir} for the positions {@code covered} of the video
   * {@code identity} names, or opens the one another process created first. A file of ours of an
   * older layout under that name is replaced, and so is one of this identity that does not cover
   * {@code covered} (made for other spans: the caller asks for their union, so files only grow).
   *
   * @return null when the name holds something else (another identity, another layout, anything but
   *     a regular file of this user) or a file larger than {@code maxBytes}
   * @throws IOException when the folder cannot take it (full, gone, read-only)
   */
  static CacheFile create(
      Path dir,
      String name,
      String identity,
      int frames,
      FrameSpans covered,
      long slotBytes,
      long maxBytes,
      int uid)
      throws IOException {
    CacheFileHeader header = CacheFileHeader.of(identity, frames, covered, slotBytes);
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
        // The slot table as real zeros (every slot EMPTY), so a read of it is never short.
        ByteBuffer zeros = ByteBuffer.allocateDirect(1 << 16);
        for (long at = CacheFileHeader.BYTES; at < dataOffset; at += zeros.capacity()) {
          zeros.clear().limit((int) Math.min(zeros.capacity(), dataOffset - at));
          writeFully(ch, zeros, at);
        }
        if (header.spans() > 0) {
          writeFully(ch, CacheFileHeader.spanTable(covered), header.spanTableOffset());
        }
        // Its full size from the start (sparse: pages are used as slots are written), so that
        // the folder's budget, which adds up file sizes, counts what its slots will take.
        writeFully(
            ch, ByteBuffer.allocate(1), header.dataOffset() + header.slots() * slotBytes - 1);
      }
      if (!link(tmp, target)
          && (CacheFileHeader.isOlderVersionOfOurs(target, uid)
              || lacks(target, identity, frames, covered, maxBytes, uid))) {
        // Ours, from an older robostream (a layout this version does not read), or made for
        // other spans of this video: replaced, its frames decoded again once.
        Files.deleteIfExists(target);
        link(tmp, target);
      }
    } finally {
      Files.deleteIfExists(tmp);
    }
    try {
      return open(target, identity, maxBytes, uid);
    } catch (NoSuchFileException evictedAtOnce) {
      return null; // another process evicted it between the link and the open
    }
  }

  /** {@link #create(Path, String, String, int, FrameSpans, long, long, int)} of a whole video. */
  static CacheFile create(
      Path dir, String name, String identity, int frames, long slotBytes, long maxBytes, int uid)
      throws IOException {
    return create(dir, name, identity, frames, FrameSpans.whole(frames), slotBytes, maxBytes, uid);
  }

  /**
   * Whether {@code target} is a file of ours for {@code identity} and {@code frames} that has no
   * slot for some position of {@code covered}.
   */
  private static boolean lacks(
      Path target, String identity, int frames, FrameSpans covered, long maxBytes, int uid)
      throws IOException {
    try {
      CacheFile there = open(target, identity, maxBytes, uid);
      if (there == null) {
        return false;
      }
      try {
        return there.frames == frames && !there.spans.covers(covered);
      } finally {
        there.close();
      }
    } catch (NoSuchFileException gone) {
      return false;
    }
  }

  /** Gives {@code tmp} the name {@code target}; false when the name is taken. */
  private static boolean link(Path tmp, Path target) throws IOException {
    try {
      Files.createLink(target, tmp);
      return true;
    } catch (FileAlreadyExistsException raced) {
      return false; // another process created it first (or something else is there)
    } catch (UnsupportedOperationException | IOException noLinks) {
      if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
        return false;
      }
      Files.move(tmp, target, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
      return true;
    }
  }

  /**
   * Opens an existing file for {@code identity}, unless its slots would take more than {@code
   * maxBytes} (the budget: nothing larger is used, whatever a header from disk says).
   *
   * @return null when it holds another identity, is not a complete frame-cache file of this layout,
   *     is too large, or is not a regular file of this user
   * @throws NoSuchFileException when it is not there
   */
  static CacheFile open(Path path, String identity, long maxBytes, int uid) throws IOException {
    FileChannel ch = CacheFolder.openOwnFile(path, uid);
    if (ch == null) {
      return null;
    }
    boolean ok = false;
    try {
      CacheFileHeader h = CacheFileHeader.read(ch);
      if (h == null
          || !h.identity().equals(identity)
          || h.dataOffset() + h.slots() * h.slotBytes() > maxBytes) {
        return null;
      }
      FrameSpans covered = h.readSpans(ch);
      if (covered == null) {
        return null;
      }
      Object key =
          Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS)
              .fileKey();
      ok = true;
      return new CacheFile(path, identity, h, covered, key, uid, ch);
    } finally {
      if (!ok) {
        ch.close();
      }
    }
  }

  /**
   * Frame {@code position}'s picture, copied into a block of {@code target}, if the slot is
   * complete and its fields and bytes match their checksum; else null, and {@code out[0]} says MISS
   * or CORRUPT (a corrupt slot is emptied so that it is filled again; a file cut short is corrupt
   * once, then used no more).
   */
  HeldFrame read(int position, FrameTarget target, Found[] out) {
    out[0] = Found.MISS;
    int slot = slotOf(position);
    if (slot < 0 || shrunk || gone || Thread.currentThread().isInterrupted()) {
      return null; // no slot; or an interrupted read would close the channel every reader shares
    }
    long entryAt = entryOffset(slot);
    ByteBuffer entry = ENTRY.get();
    for (int attempt = 0; attempt < 2; attempt++) {
      FileChannel ch = channel;
      long address = 0;
      long bytes = 0;
      try {
        entry.clear();
        if (!readFully(ch, entry, entryAt)) {
          return cutShort(out);
        }
        if (SlotEntry.state(entry) != COMPLETE) {
          return null;
        }
        HeldFrame described = SlotEntry.describe(entry, 0, slotBytes);
        if (described == null) {
          break; // fields no picture has: corrupt
        }
        bytes = described.bytes();
        address = target.take(bytes);
        ByteBuffer picture = NativeAddress.bytesAt(address, bytes).asByteBuffer();
        if (!readFully(ch, picture, slotOffset(slot))) {
          target.giveBack(address, bytes);
          return cutShort(out);
        }
        if (SlotEntry.matches(entry, picture.flip())) {
          out[0] = Found.HIT;
          return described.at(address);
        }
        target.giveBack(address, bytes); // read once more: a writer may have been completing it
      } catch (ClosedChannelException interrupted) {
        giveBackIfTaken(target, address, bytes);
        reopen(ch); // an interrupt (this worker's or another's) closed the shared channel
        return null;
      } catch (IOException e) {
        giveBackIfTaken(target, address, bytes);
        shrunk = true; // the file cannot be read: not used again
        return null;
      }
    }
    out[0] = Found.CORRUPT;
    emptyAt(entryAt);
    return null;
  }

  private static void giveBackIfTaken(FrameTarget target, long address, long bytes) {
    if (address != 0) {
      target.giveBack(address, bytes);
    }
  }

  /** A read came back short: the file was cut (truncated by some process). */
  private HeldFrame cutShort(Found[] out) {
    if (!shrunk) {
      shrunk = true;
      out[0] = Found.CORRUPT;
    }
    return null;
  }

  /** Whether a read found the file cut short (it is no longer used). */
  boolean shrunk() {
    return shrunk;
  }

  /** Whether the file left its name while this process had it (evicted or replaced). */
  boolean gone() {
    return gone;
  }

  /**
   * Removes the file from the folder when its name still holds it: a file of ours (opened as this
   * user's regular file with this cache's header) that was cut short, so that it can be made anew.
   */
  void removeIfStillThere() {
    try {
      if (stillThere()) {
        Files.deleteIfExists(path);
      }
    } catch (IOException e) {
      // left for eviction
    }
  }

  /** Empties the slot of {@code position}, so that it is stored again (best effort). */
  void empty(int position) {
    int slot = slotOf(position);
    if (slot >= 0) {
      emptyAt(entryOffset(slot));
    }
  }

  private void emptyAt(long entryAt) {
    try {
      writeFully(channel, ByteBuffer.allocate(4), entryAt);
    } catch (IOException e) {
      // the slot stays corrupt, and is found so again: never served
    }
  }

  /**
   * Stores the packed picture {@code f} describes as frame {@code position}, unless the slot is
   * complete. With {@code staging}, the bytes are copied into it first and written from there (see
   * {@link WriteStaging} for why); null writes them from where they are.
   *
   * @throws IOException when the bytes cannot be written (a full disk); the slot is left as it was
   */
  Stored store(int position, HeldFrame f, WriteStaging staging) throws IOException {
    long bytes = f.bytes();
    if (bytes <= 0 || bytes > slotBytes) {
      return Stored.TOO_LARGE;
    }
    int slot = slotOf(position);
    if (slot < 0) {
      return Stored.UNCOVERED;
    }
    if (Thread.currentThread().isInterrupted()) {
      return Stored.INTERRUPTED; // a write now would close the channel every writer shares
    }
    if (shrunk || gone) {
      return Stored.PRESENT;
    }
    long entryAt = entryOffset(slot);
    ByteBuffer entry = ENTRY.get();
    FileChannel ch = channel;
    try {
      entry.clear();
      if (!readFully(ch, entry, entryAt)) {
        shrunk = true;
        return Stored.PRESENT;
      }
      if (SlotEntry.state(entry) == COMPLETE) {
        return Stored.PRESENT;
      }
      long from = staging == null ? f.address() : staging.copyOf(f.address(), bytes);
      ByteBuffer picture = NativeAddress.bytesAt(from, bytes).asByteBuffer();
      SlotEntry.complete(entry, f, picture, COMPLETE);
      writeFully(ch, picture, slotOffset(slot));
      writeFully(ch, entry.clear(), entryAt); // last: the slot is served from here on
      return Stored.STORED;
    } catch (ClosedChannelException interrupted) {
      // FileChannel is interruptible: an interrupt of this or another thread during a read or a
      // write closes the channel for every thread. Not a fault of the folder: open it again.
      reopen(ch);
      return Stored.INTERRUPTED;
    }
  }

  /**
   * Replaces {@code broken} (closed by an interrupt) with a new channel on the same file; when the
   * file left its name meanwhile, nothing more is read or stored until the cache notices it is gone
   * ({@link #stillThere()}).
   */
  private synchronized void reopen(FileChannel broken) {
    if (closed || channel != broken) {
      return; // closed for good, or another thread reopened it already
    }
    try {
      FileChannel fresh = CacheFolder.openOwnFile(path, uid);
      if (fresh != null && stillThere()) {
        channel = fresh;
      } else {
        if (fresh != null) {
          fresh.close();
        }
        gone = true;
      }
    } catch (IOException nothingThere) {
      gone = true; // evicted meanwhile: the cache opens the name again when asked
    }
  }

  /** Records a use (for least-recently-used eviction across processes), at most once a second. */
  void touch() {
    long now = System.currentTimeMillis();
    if (now - lastTouched >= 1000 && !shrunk && !gone && !Thread.currentThread().isInterrupted()) {
      lastTouched = now;
      ByteBuffer b = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, now);
      try {
        writeFully(channel, b, CacheFileHeader.OFF_LAST_USED);
      } catch (IOException e) {
        // an interrupted or cut file: its last use is only a hint for eviction
      }
    }
  }

  /** Whether {@link #path} still names this file (not removed or replaced by another process). */
  boolean stillThere() {
    try {
      return fileKey == null
          || fileKey.equals(
              Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS)
                  .fileKey());
    } catch (IOException e) {
      return false;
    }
  }

  /** Closes the file. */
  void close() {
    synchronized (this) {
      closed = true;
    }
    try {
      channel.close();
    } catch (IOException ignored) {
      // nothing was written through the channel that a close could lose
    }
  }

  /** The slot of frame {@code position} of the video, -1 when the file keeps none for it. */
  private int slotOf(int position) {
    if (position < 0 || position >= frames) {
      throw new IndexOutOfBoundsException(
          "frame " + position + " of " + path + ", whose video has " + frames + " frames");
    }
    return spans.slotOf(position);
  }

  private static long entryOffset(int slot) {
    return CacheFileHeader.BYTES + (long) slot * SlotEntry.BYTES;
  }

  private long slotOffset(int slot) {
    return dataOffset + slot * slotBytes;
  }

  /** Reads until {@code b} is full; false when the file ends first. */
  private static boolean readFully(FileChannel ch, ByteBuffer b, long at) throws IOException {
    long pos = at;
    while (b.hasRemaining()) {
      int n = ch.read(b, pos);
      if (n < 0) {
        return false;
      }
      pos += n;
    }
    return true;
  }

  private static void writeFully(FileChannel ch, ByteBuffer b, long at) throws IOException {
    long pos = at;
    while (b.hasRemaining()) {
      pos += ch.write(b, pos);
    }
  }
}
