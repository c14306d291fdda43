package org.robostream.torch.dist;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Rank 0's door to the store: what listens at {@code MASTER_ADDR:MASTER_PORT}. libtorch's store
 * authenticates nobody (whoever reached it could list the job's keys, rewrite them or fill its
 * memory), so it listens on the loopback only, admitting just this front's relays ({@link
 * BoundListener}), and every connection must first prove the job's secret here ({@link
 * FrontProof}); only then are its bytes relayed to the store. Rank 0's own store client comes
 * through a {@link StoreTunnel} like every other rank's.
 *
 * <p>Before the proof a peer can make rank 0 read at most {@link FrontProof#HELLO} bytes, within
 * {@link #PROOF_TIME} at most. At most {@link #UNPROVEN} wait at once: a newcomer closes the
 * oldest, so connections that never speak cannot lock the ranks out (a rank proves itself in one
 * round trip). Closed when the ranks have met (Gloo) or with the group (NCCL), after the store:
 * connections still proving are cut, relays end as the store's side ends.
 */
final class StoreFront implements AutoCloseable {
  /** The longest a peer may take to prove itself. */
  static final Duration PROOF_TIME = Duration.ofSeconds(10);

  /** Connections that may be proving themselves at once. */
  static final int UNPROVEN = 256;

  private final ServerSocket door;
  private final BoundListener.Listening store;
  private final FrontProof proof;
  private final long proofNanos;
  private final int maxRelays;
  private final ConcurrentLinkedDeque<Socket> proving = new ConcurrentLinkedDeque<>();
  private final AtomicInteger relays = new AtomicInteger();
  private final AtomicInteger refused = new AtomicInteger();
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private final TreeSet<Integer> admitted = new TreeSet<>();
  private volatile boolean closed;

  private StoreFront(
      ServerSocket door,
      BoundListener.Listening store,
      FrontProof proof,
      Duration timeout,
      int world) {
    this.door = door;
    this.store = store;
    this.proof = proof;
    this.proofNanos = Math.min(timeout.toNanos(), PROOF_TIME.toNanos());
    // Each rank's store client is one connection; the rest is slack for clients libtorch clones.
    this.maxRelays = Math.min(4 * world + 16, BoundListener.MAX_ADMITTED);
  }

  /**
   * Listens at {@code r}'s address and port (at that interface only when it is one of this
   * machine's, else at every interface as libtorch would) and serves the store behind it.
   *
   * @throws IOException when the port is taken, or the store's own socket cannot be made
   */
  static StoreFront open(Rendezvous r, JobCheck job, Duration timeout) throws IOException {
    ServerSocket door = new ServerSocket();
    try {
      door.bind(new InetSocketAddress(bindAddress(r.host()), r.port()), 4096);
    } catch (IOException e) {
      door.close();
      throw e;
    }
    BoundListener.Listening store;
    try {
      store = BoundListener.loopback();
    } catch (IOException e) {
      door.close();
      throw e;
    }
    StoreFront front = new StoreFront(door, store, new FrontProof(job), timeout, r.world());
    Relay.thread(front::accept, "robostream-store-front").start();
    return front;
  }

  /** The address to listen at: {@code host}'s when it is this machine's, else null (every one). */
  private static InetAddress bindAddress(String host) throws IOException {
    InetAddress address;
    try {
      address = InetAddress.getByName(host);
    } catch (IOException e) {
      return null;
    }
    return address.isLoopbackAddress() || NetworkInterface.getByInetAddress(address) != null
        ? address
        : null;
  }

  /** Where this machine reaches the front (its own address, or the loopback when it binds all). */
  InetSocketAddress address() {
    InetAddress bound = door.getInetAddress();
    return new InetSocketAddress(
        bound.isAnyLocalAddress() ? InetAddress.getLoopbackAddress() : bound, door.getLocalPort());
  }

  /** The store's listening descriptor, for {@code TCPStoreOptions.masterListenFd}. */
  int storeFd() {
    return store.fd();
  }

  /** The store's loopback port. */
  int storePort() {
    return store.port();
  }

  /** How many connections were closed because they did not prove the job's secret. */
  int refused() {
    return refused.get();
  }

  private void accept() {
    while (!closed) {
      Socket s;
      try {
        s = door.accept();
      } catch (IOException e) {
        return; // closed
      }
      while (proving.size() >= UNPROVEN) {
        Socket oldest = proving.pollFirst();
        if (oldest != null) {
          Relay.closeQuietly(oldest); // its proof fails: counted there
        }
      }
      proving.addLast(s);
      open.add(s);
      Relay.thread(() -> admit(s), "robostream-store-front-proof").start();
    }
  }

  /** Relays {@code s} to the store once it proved the job's secret; else closes it. */
  private void admit(Socket s) {
    long deadline = System.nanoTime() + proofNanos;
    boolean relayed = false;
    Socket inner = null;
    int innerPort = -1;
    try {
      s.setTcpNoDelay(true);
      byte[] nonce = FrontProof.nonce();
      OutputStream out = s.getOutputStream();
      out.write(FrontProof.FRONT_MAGIC);
      out.write(nonce);
      out.flush();
      byte[] hello = FrontProof.read(s, FrontProof.HELLO, deadline);
      if (!proof.verifies(hello, nonce)
          || !proving.remove(s) // evicted meanwhile
          || relays.incrementAndGet() > maxRelays) {
        refused.incrementAndGet();
        return;
      }
      byte[] rankNonce =
          java.util.Arrays.copyOfRange(
              hello, FrontProof.RANK_MAGIC.length, FrontProof.RANK_MAGIC.length + FrontProof.NONCE);
      out.write(proof.frontSeal(nonce, rankNonce));
      out.flush();
      // The store admits this relay's source port only: bound first, admitted, then connected.
      InetAddress loopback = InetAddress.getByName("127.0.0.1");
      inner = new Socket();
      open.add(inner);
      inner.bind(new InetSocketAddress(loopback, 0));
      innerPort = inner.getLocalPort();
      admitPort(innerPort, true);
      inner.setTcpNoDelay(true);
      inner.connect(new InetSocketAddress(loopback, store.port()), 5000);
      // From here the relay ends when the store or the rank hangs up: closing the front lets
      // what the store already said (a verdict, say) reach the rank.
      open.remove(s);
      open.remove(inner);
      int port = innerPort;
      Relay.start(s, inner, "robostream-store-relay", () -> forget(port));
      relayed = true;
    } catch (IOException e) {
      refused.incrementAndGet();
    } finally {
      proving.remove(s);
      if (!relayed) {
        open.remove(s);
        Relay.closeQuietly(s);
        if (inner != null) {
          open.remove(inner);
          Relay.closeQuietly(inner);
        }
        if (innerPort >= 0) {
          forget(innerPort);
        }
      }
      if (closed) {
        closeAll();
      }
    }
  }

  private void forget(int port) {
    try {
      admitPort(port, false);
    } catch (IOException e) {
      // The store is gone: nothing left to admit to.
    }
  }

  /**
   * Adds or removes {@code port} and sets the store's filter to the ports admitted now. Once the
   * front is closed the store's descriptor is never touched again: the store closes it, and the
   * system may give its number to another file.
   */
  private synchronized void admitPort(int port, boolean admit) throws IOException {
    if (closed) {
      if (admit) {
        throw new IOException("the rendezvous is closed");
      }
      return;
    }
    if (admit ? admitted.add(port) : admitted.remove(port)) {
      BoundListener.admit(store, admitted);
    }
  }

  /**
   * Stops listening and cuts the connections still proving themselves. Relays go on until the
   * store's side ends: close the front before the store.
   */
  @Override
  public void close() {
    synchronized (this) {
      closed = true;
    }
    Relay.closeQuietly(door);
    closeAll();
  }

  private void closeAll() {
    for (Socket s : open) {
      Relay.closeQuietly(s);
    }
    open.clear();
  }
}
