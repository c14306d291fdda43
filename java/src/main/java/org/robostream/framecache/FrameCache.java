package org.robostream.framecache;

import java.io.IOException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.robostream.FileException;
import org.robostream.codec.HeldForm;
import org.robostream.codec.HeldFrame;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decoded frames kept between epochs and between a node's processes, so a frame is decoded once,
 * not once per rank per epoch. One file per video ({@link Entry}; layout and protocol in {@link
 * CacheFile}), named by a hash of the video's identity. Files are evicted whole, least recently
 * used first (last use is in the header, visible to all); only files with this cache's header are
 * removed.
 *
 * <p>Never fails an epoch: a folder that cannot take a file or frame disables the cache with one
 * warning ({@link FrameCacheStats#disabled()}); a checksum mismatch is a miss. Thread-safe; a
 * dataset's workers share one. Whoever opens it closes it, after every {@link Entry} was released;
 * a private-memory cache removes its folder.
 */
public final class FrameCache implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(FrameCache.class);

  /** How often an open file is checked to be still in the folder (another process may evict it). */
  private static final long RECHECK_MILLIS = 1000;

  private final FrameCacheOptions options;
  private final Path dir;
  private final boolean ownsDir;
  private final int uid; // the user the folder's files must belong to

  /**
   * Open files kept while nobody uses them: each holds a file descriptor, and a v2.x dataset has a
   * file per episode and camera (thousands); beyond this many the least recently used idle ones are
   * closed (opened again from the folder when asked for).
   */
  static final int MAX_IDLE_OPEN = 256;

  // identity -> entry, least recently acquired first
  private final Map<String, Entry> open = new java.util.LinkedHashMap<>(16, 0.75f, true);
  // Identities that cannot be cached (larger than the budget, a name holding something else):
  // refused once, not tried again at every frame.
  private final java.util.Set<String> refused = new java.util.HashSet<>();
  private final AtomicLong hits = new AtomicLong();
  private final AtomicLong misses = new AtomicLong();
  private final AtomicLong stored = new AtomicLong();
  private final AtomicLong bytesServed = new AtomicLong();
  private final AtomicLong bytesStored = new AtomicLong();
  private final AtomicLong checksumFailures = new AtomicLong();
  private final AtomicLong notCacheable = new AtomicLong();
  private final FolderBudget budget;
  private final Reservations reservations;
  private volatile long fileBytes;
  private volatile String disabled;
  private boolean closed;
  private Thread removeOnExit;

  private FrameCache(FrameCacheOptions options, Path dir, boolean ownsDir, int uid) {
    this.options = options;
    this.dir = dir;
    this.ownsDir = ownsDir;
    this.uid = uid;
    this.budget = new FolderBudget(dir, options.maxBytes(), uid);
    this.reservations = new Reservations(dir, options);
  }

  /**
   * Opens the cache {@code options} describe: the shared folder (created for this user alone if
   * missing), or a private one in {@code /dev/shm} for {@link FrameCacheOptions#memory}.
   *
   * <p>A shared folder another user can change ({@link CacheFolder#prepare}) starts the cache
   * disabled with one warning. But if another user took the name of the default {@link
   * FrameCacheOptions#shared} folder, the cache moves to one named by this user's unguessable
   * {@link UserKey}, so nobody can turn it off for us; with no usable key, it caches privately.
   *
   * @throws FileException naming the folder and the option when it cannot be created (refused at
   *     build time, not disabled)
   */
  public static FrameCache open(FrameCacheOptions options) {
    return open(options, Path.of(System.getProperty("user.home")));
  }

  /** {@link #open(FrameCacheOptions)} with the user's key kept under {@code home}. */
  static FrameCache open(FrameCacheOptions options, Path home) {
    int uid = CacheFolder.currentUid();
    try {
      if (options.isPrivateMemory()) {
        Path shm = Path.of("/dev/shm");
        Path parent =
            Files.isDirectory(shm) && Files.isWritable(shm)
                ? shm
                : Path.of(System.getProperty("java.io.tmpdir"));
        return privateFolder(options, parent, "robostream-frames-", uid);
      }
      Path d = options.directory().toAbsolutePath().normalize();
      CacheFolder.Checked folder = CacheFolder.prepare(d, uid);
      if (folder.distrust() == null) {
        return new FrameCache(options, folder.real(), false, uid);
      }
      if (options.isDefaultShared()) {
        return instead(options, d, folder.distrust(), home, uid);
      }
      return untrusted(options, d, folder, uid);
    } catch (IOException e) {
      throw new FileException(
          String.valueOf(options.directory()),
          "frameCache(...) cannot use this folder for the frame cache: " + e,
          e);
    }
  }

  /** A cache that never uses {@code d}: disabled, with one warning saying why and what to do. */
  private static FrameCache untrusted(
      FrameCacheOptions options, Path d, CacheFolder.Checked folder, int uid) {
    FrameCache c = new FrameCache(options, folder.real(), false, uid);
    c.disabled = "the folder " + d + " is not trusted: " + folder.distrust();
    LOG.warn(
        "frame cache {}: not used, as {}: another user could plant or rewrite frames there;"
            + " decoding every frame. Use a folder only you can write (chmod 700 {}), or"
            + " --frame-cache shared:SIZE for a folder of your own in /dev/shm",
        d,
        folder.distrust(),
        d);
    return c;
  }

  /**
   * The cache for {@link FrameCacheOptions#shared} when its folder {@code d} cannot be used ({@code
   * why}): the keyed folder beside it, else a private one, else none (one warning each way).
   */
  private static FrameCache instead(
      FrameCacheOptions options, Path d, String why, Path home, int uid) throws IOException {
    Path parent = d.getParent();
    String parentWhy = CacheFolder.distrustAbove(parent, uid);
    if (parentWhy != null) {
      return untrusted(options, d, new CacheFolder.Checked(d, why + ", and " + parentWhy), uid);
    }
    java.util.List<String> names = UserKey.names(home, uid);
    java.util.List<String> taken = new java.util.ArrayList<>();
    for (String name : names) {
      Path keyed = parent.resolve(d.getFileName() + "-" + name);
      CacheFolder.Checked folder = CacheFolder.prepare(keyed, uid);
      if (folder.distrust() == null) {
        LOG.warn(
            "frame cache {}: not used, as {}; caching in {} instead, named by your key in ~/{}"
                + "{} (remove {} if it is yours)",
            d,
            why,
            keyed,
            UserKey.FILE,
            taken.isEmpty()
                ? ""
                : ", after " + String.join("; ", taken) + " (names of yours seen before, taken)",
            d);
        return new FrameCache(options, folder.real(), false, uid);
      }
      taken.add(keyed + ": " + folder.distrust());
    }
    FrameCache c = privateFolder(options, parent, d.getFileName() + "-", uid);
    LOG.warn(
        "frame cache {}: not used, as {}; caching in {}, private to this process ({}: the ranks"
            + " of the node do not share frames, and each holds up to the budget)",
        d,
        why,
        c.dir,
        names.isEmpty()
            ? "no key in ~/" + UserKey.FILE + " only you can read, to name a folder of yours"
            : "all "
                + names.size()
                + " folders named by your key are taken, the last: "
                + taken.get(taken.size() - 1)
                + "; someone is squatting them: ask your administrator");
    return c;
  }

  /** A cache in a new folder of this process's under {@code parent}, removed on close. */
  private static FrameCache privateFolder(
      FrameCacheOptions options, Path parent, String prefix, int uid) throws IOException {
    // createTempDirectory makes it 0700: nobody else may look in or write.
    FrameCache c =
        new FrameCache(options, Files.createTempDirectory(parent, prefix).toRealPath(), true, uid);
    c.removeOnExit = new Thread(c::removeOwnFolder, "robostream-frame-cache-cleanup");
    Runtime.getRuntime().addShutdownHook(c.removeOnExit);
    return c;
  }

  /** The folder the files are in. */
  public Path directory() {
    return dir;
  }

  public FrameCacheOptions options() {
    return options;
  }

  /**
   * Says which frame positions of the video {@code identity} names this process will read (the
   * spans of the selected episodes in a file many episodes share): its cache file is made with
   * slots for those only, so the budget holds what will be read rather than whole videos. Called
   * again, the positions add up. A file of the video that another process made for other positions
   * is replaced, when this process first stores a frame, by one for both. Without it a file keeps
   * the whole video.
   */
  public synchronized void expect(String identity, FrameSpans positions) {
    FrameSpans all = reservations.expect(identity, positions);
    Entry e = open.get(identity);
    FrameSpans within = e == null ? null : all.within(e.file.frames);
    if (within != null && !e.file.spans.covers(within)) {
      forget(e); // looked at again, and replaced, at the next acquire
    }
  }

  /**
   * The entry of the video {@code identity} names, held until {@link Entry#release()}: the one this
   * process has open, or a file another process wrote. Null when there is none (or the cache is
   * disabled), or when it keeps no slot for some position {@link #expect} named; then {@link
   * #acquireOrCreate} makes one (for those positions too) when the first frame is stored.
   */
  public synchronized Entry acquire(String identity) {
    if (disabled != null || closed) {
      return null;
    }
    Entry e = open.get(identity);
    long now = System.currentTimeMillis();
    if (e != null && e.file.shrunk()) { // cut short by some process: removed, to be made anew
      e.file.removeIfStillThere();
      forget(e);
      e = null;
    }
    if (e != null && (e.file.gone() || now - e.checked >= RECHECK_MILLIS)) {
      e.checked = now;
      if (e.file.gone() || !e.file.stillThere()) { // evicted by another process: let go of it
        forget(e);
        e = null;
      }
    }
    if (e == null && refused.contains(identity)) {
      return null;
    }
    if (e == null) {
      try {
        CacheFile f =
            CacheFile.open(dir.resolve(fileName(identity)), identity, options.maxBytes(), uid);
        if (f == null) {
          return null;
        }
        if (reservations.lacks(identity, f.spans, f.frames)) {
          f.close(); // made for other spans: replaced by acquireOrCreate, keeping both
          return null;
        }
        e = new Entry(f);
        open.put(identity, e);
        closeIdleBeyondLimit(e);
      } catch (NoSuchFileException absent) {
        return null;
      } catch (IOException ex) {
        disable("cannot open " + fileName(identity), ex);
        return null;
      }
    }
    e.file.touch();
    e.users.incrementAndGet();
    return e;
  }

  /**
   * Like {@link #acquire}, and when there is no file yet, creates one for a video of {@code frames}
   * frames, with a slot of {@code pictureBytes} for each position {@link #expect} named (every
   * frame without), evicting least recently used files to stay within the budget. Null when it
   * cannot be cached: larger than the whole budget (the cache is too small: counted in {@link
   * FrameCacheStats#refusedReservations}, said once), a name that holds another identity, or the
   * cache is disabled.
   */
  public synchronized Entry acquireOrCreate(String identity, int frames, long pictureBytes) {
    Entry e = acquire(identity);
    if (e != null || disabled != null || closed || refused.contains(identity)) {
      return e;
    }
    long slotBytes = CacheFile.slotBytesFor(pictureBytes);
    FrameSpans want = reservations.plan(identity, frames, slotBytes);
    long need = CacheFile.fileBytes(want, frames, slotBytes);
    if (slotBytes > CacheFile.MAX_SLOT_BYTES) {
      return refuse(identity, want.count());
    }
    reservations.need(identity, need);
    if (need > options.maxBytes()) {
      reservations.refused(identity, want.count(), need);
      return refuse(identity, want.count());
    }
    try {
      fileBytes =
          budget.makeRoom(
              need,
              evicted -> {
                Entry mine = entryAt(evicted); // this process lets go of it too
                if (mine != null) {
                  forget(mine);
                }
                reservations.evicted(evicted, identity);
              });
      CacheFile f =
          CacheFile.create(
              dir, fileName(identity), identity, frames, want, slotBytes, options.maxBytes(), uid);
      if (f == null) {
        return refuse(identity, want.count());
      }
      if (f.frames != frames) { // another process's file of this identity, for another count
        f.close();
        return refuse(identity, want.count());
      }
      reservations.made(identity);
      e = new Entry(f);
      open.put(identity, e);
      closeIdleBeyondLimit(e);
      fileBytes += need;
      e.users.incrementAndGet();
      return e;
    } catch (IOException ex) {
      disable("cannot create a file for " + identity, ex);
      return null;
    }
  }

  /** Counts {@code frames} as not cacheable once and refuses {@code identity} from now on. */
  private Entry refuse(String identity, int frames) {
    if (refused.add(identity)) {
      notCacheable.addAndGet(frames);
    }
    return null;
  }

  /** Counts {@code n} lookups of a file that has no entry yet as misses. */
  public void recordMisses(int n) {
    misses.addAndGet(n);
  }

  /** Counters since open (this process). */
  public FrameCacheStats stats() {
    return new FrameCacheStats(
        hits.get(),
        misses.get(),
        stored.get(),
        budget.evictions(),
        bytesServed.get(),
        bytesStored.get(),
        fileBytes,
        options.maxBytes(),
        checksumFailures.get(),
        notCacheable.get(),
        disabled,
        reservations.refusals(),
        reservations.ownEvictions(),
        reservations.needed());
  }

  /** Closes every open file (each once its last user released it); removes a private folder. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (Entry e : new ArrayList<>(open.values())) {
      forget(e);
    }
    open.clear();
    if (ownsDir) {
      removeOwnFolder();
      try {
        Runtime.getRuntime().removeShutdownHook(removeOnExit);
      } catch (IllegalStateException shuttingDown) {
        // the hook is running or ran
      }
    }
  }

  /**
   * Closes the least recently used entries nobody holds, beyond {@link #MAX_IDLE_OPEN}; never
   * {@code keep}, the one about to be handed out.
   */
  private void closeIdleBeyondLimit(Entry keep) {
    int excess = open.size() - MAX_IDLE_OPEN;
    if (excess <= 0) {
      return;
    }
    List<Entry> idle = new ArrayList<>();
    for (Entry e : open.values()) { // least recently acquired first
      if (idle.size() == excess) {
        break;
      }
      if (e != keep && e.users.get() == 1) { // only the cache's own reference
        idle.add(e);
      }
    }
    idle.forEach(this::forget);
  }

  private Entry entryAt(Path p) {
    for (Entry e : open.values()) {
      if (e.file.path.equals(p)) {
        return e;
      }
    }
    return null;
  }

  /** Stops handing {@code e} out; its file is closed when its last user releases it. */
  private void forget(Entry e) {
    open.remove(e.file.identity, e);
    if (!e.forgotten) {
      e.forgotten = true;
      e.release();
    }
  }

  private void disable(String what, Exception e) {
    if (e instanceof ClosedByInterruptException) {
      return; // a worker being stopped was interrupted in a read or write: the folder is fine
    }
    if (disabled == null) {
      disabled = what + ": " + e;
      LOG.warn(
          "frame cache {}: {} ({}); decoding every frame from now on", dir, what, e.toString());
    }
  }

  private void removeOwnFolder() {
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
      for (Path p : ds) {
        Files.deleteIfExists(p);
      }
      Files.deleteIfExists(dir);
    } catch (IOException e) {
      LOG.warn("frame cache: cannot remove its private folder {}: {}", dir, e.toString());
    }
  }

  /** The file name for {@code identity}: the first 32 hex digits of its SHA-256. */
  static String fileName(String identity) {
    try {
      byte[] h =
          MessageDigest.getInstance("SHA-256").digest(identity.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(h, 0, 16) + CacheFile.SUFFIX;
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
    }
  }

  /**
   * One video file's frames, held by its user between {@link #acquire} and {@link #release()}.
   * Thread-safe; addresses of the frames it returns are valid until it is released.
   */
  public final class Entry {
    private final CacheFile file;
    private final AtomicInteger users = new AtomicInteger(1); // the cache's own reference
    private volatile long checked = System.currentTimeMillis();
    private volatile boolean forgotten;

    private Entry(CacheFile file) {
      this.file = file;
    }

    /** Frames of the video (positions 0 to frames - 1; the file may keep slots for some only). */
    public int frames() {
      return file.frames;
    }

    /** The positions the file keeps slots for: the whole video, or the spans it was made for. */
    public FrameSpans positions() {
      return file.spans;
    }

    /**
     * The frame at {@code position}, its bytes copied into a block of {@code target} and checked
     * there, packed ({@link HeldForm.Packed}); null (a miss: decode it, then {@link #store}) when
     * the slot is empty or does not match its checksum (a corrupt miss, counted; nothing of {@code
     * target}'s is kept then).
     */
    public HeldFrame readFrame(int position, FrameTarget target) {
      CacheFile.Found[] out = new CacheFile.Found[1];
      HeldFrame f = file.read(position, target, out);
      switch (out[0]) {
        case HIT -> {
          hits.incrementAndGet();
          bytesServed.addAndGet(f.bytes());
        }
        case CORRUPT -> {
          checksumFailures.incrementAndGet();
          misses.incrementAndGet();
        }
        default -> misses.incrementAndGet();
      }
      return f;
    }

    /**
     * Counts frame {@code position}, which {@link #readFrame} served but is not the video's
     * (another size, pixel format or frame index than the stream has), as a corrupt miss instead of
     * a hit, and empties its slot so that the decoded frame is stored over it.
     */
    public void reject(int position, HeldFrame served) {
      hits.decrementAndGet();
      bytesServed.addAndGet(-served.bytes());
      checksumFailures.incrementAndGet();
      misses.incrementAndGet();
      file.empty(position);
    }

    /**
     * Stores the packed picture {@code f} describes as frame {@code position}. A full disk disables
     * the cache (one warning); never throws for I/O.
     *
     * @throws IllegalArgumentException for a frame that is not packed (converted on a batch
     *     device): the cache holds pictures as decoded
     */
    public void store(int position, HeldFrame f) {
      store(position, f, null);
    }

    /**
     * Like {@link #store(int, HeldFrame)}, writing the bytes from {@code staging} (the calling
     * worker's) once the slot is claimed: for pictures that lie in a large buffer, such as the
     * shuffle buffer's blocks (see {@link WriteStaging}).
     */
    public void store(int position, HeldFrame f, WriteStaging staging) {
      if (f.isConverted()) {
        throw new IllegalArgumentException(
            "the frame cache holds pictures packed as decoded, not " + f.form() + " frames");
      }
      if (disabled != null) {
        return;
      }
      try {
        switch (file.store(position, f, staging)) {
          case STORED -> {
            stored.incrementAndGet();
            bytesStored.addAndGet(f.bytes());
          }
          case TOO_LARGE, UNCOVERED -> notCacheable.incrementAndGet();
          default -> {}
        }
      } catch (IOException e) {
        synchronized (FrameCache.this) {
          disable("cannot write a frame to " + file.path, e);
        }
      }
    }

    /** Done with this entry (the frames it returned may no longer be read). */
    public void release() {
      if (users.decrementAndGet() == 0) {
        file.close();
      }
    }
  }
}
