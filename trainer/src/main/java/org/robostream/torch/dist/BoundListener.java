package org.robostream.torch.dist;

import java.io.IOException;
import java.util.Collection;
import org.robostream.RobostreamException;
import org.robostream.nativecore.NativeCore;
import org.robostream.nativecore.NativeStatus;

/**
 * The store's own listening socket: at 127.0.0.1 on a port the system picks, handed to libtorch's
 * store as its listening descriptor ({@code TCPStoreOptions.masterListenFd}), so the store never
 * listens on the network itself. A loopback port is open to every local account, so the socket
 * admits only the source ports this process names ({@link #admit}: the relays of {@link
 * StoreFront}); other accounts' attempts are dropped before they connect (the native core's {@code
 * rs_loopback_listen}, a classic BPF filter). Linux only.
 */
final class BoundListener {
  /** The most source ports one listener admits. */
  static final int MAX_ADMITTED = 2000;

  private BoundListener() {}

  /** A listening descriptor and its port. The store owns the descriptor once it was handed on. */
  record Listening(int fd, int port) {}

  /** A socket listening at 127.0.0.1 that admits nobody yet. */
  static Listening loopback() throws IOException {
    int[] fd = new int[1];
    int[] port = new int[1];
    call(() -> NativeStatus.check(NativeCore.rs_loopback_listen(fd, port), "the store's socket"));
    return new Listening(fd[0], port[0]);
  }

  /** From now on {@code listening} admits connections from exactly these source ports. */
  static void admit(Listening listening, Collection<Integer> ports) throws IOException {
    if (ports.size() > MAX_ADMITTED) {
      throw new IOException(
          "the store has " + ports.size() + " connections, over the bound of " + MAX_ADMITTED);
    }
    short[] list = new short[ports.size()];
    int i = 0;
    for (int p : ports) {
      list[i++] = (short) p;
    }
    call(
        () ->
            NativeStatus.check(
                NativeCore.rs_loopback_admit(listening.fd(), list, list.length),
                "admitting the store's relays"));
  }

  /** Closes a listener that was not handed to the store. */
  static void close(Listening listening) {
    NativeCore.rs_loopback_close(listening.fd());
  }

  private static void call(Runnable r) throws IOException {
    try {
      r.run();
    } catch (RobostreamException e) {
      throw new IOException(e.getMessage(), e);
    }
  }
}
