package org.robostream.torch.dist;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * This host's address on the route to rank 0: the address the kernel would send from, found with a
 * UDP socket connected to rank 0's address (connecting a UDP socket sends nothing). Gloo binds its
 * device there, so every rank listens on the network it shares with rank 0. PyTorch's default
 * resolves the host name instead; where /etc/hosts names the host 127.0.1.1 (Debian's installer
 * writes that line) it gets loopback, which no other host can reach (measured on the two-host rig:
 * every rank then waited for Gloo until it gave up). Stateless.
 */
final class RouteAddress {
  private RouteAddress() {}

  /**
   * The local address toward {@code host} (rank 0's address, as MASTER_ADDR names it).
   *
   * @throws DistributedException naming the way through when {@code host} does not resolve or no
   *     route leads there
   */
  static String toward(Rendezvous r) {
    InetAddress target;
    try {
      target = InetAddress.getByName(r.host());
    } catch (UnknownHostException e) {
      throw new DistributedException(
          r.describe() + ": rank 0's host " + r.host() + " does not resolve on this host", e);
    }
    try (DatagramSocket probe = new DatagramSocket()) {
      probe.connect(target, r.port());
      InetAddress local = probe.getLocalAddress();
      if (local == null || local.isAnyLocalAddress()) {
        throw new IOException("the system names no source address");
      }
      return local.getHostAddress();
    } catch (IOException | java.io.UncheckedIOException e) {
      throw new DistributedException(
          r.describe()
              + ": no route from this host to rank 0's address "
              + target.getHostAddress()
              + " ("
              + e.getMessage()
              + "): set MASTER_ADDR to rank 0's address on a network every node shares, or"
              + " GLOO_SOCKET_IFNAME to this host's interface on it",
          e);
    }
  }
}
