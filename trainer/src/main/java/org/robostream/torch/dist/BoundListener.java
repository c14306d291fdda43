package org.robostream.torch.dist;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Rank 0's listening socket for the store, bound to the interface {@code MASTER_ADDR} names rather
 * than to every interface (libtorch's store binds to all of them: with {@code
 * MASTER_ADDR=127.0.0.1} another host could still reach it). The socket is made here and handed to
 * the store as its listening descriptor ({@code TCPStoreOptions.masterListenFd}); the descriptor's
 * number is found without reflection, from {@code /proc/self/fd} and the socket's inode in {@code
 * /proc/net/tcp[6]} (Linux).
 *
 * <p>The store owns the descriptor from then on; the channel is kept referenced for the life of the
 * process, so that its cleaner never closes a number the store closed and the system reused.
 */
final class BoundListener {
  private static final List<ServerSocketChannel> KEPT = new ArrayList<>();

  private BoundListener() {}

  /**
   * The descriptor of a socket listening at {@code host:port}, or -1 when {@code host} is not an
   * address of this machine (or this is not Linux): the store then binds as libtorch does.
   *
   * @throws IOException when the port is in use at that address
   */
  static synchronized int listen(String host, int port) throws IOException {
    InetAddress address;
    try {
      address = InetAddress.getByName(host);
    } catch (IOException e) {
      return -1;
    }
    if (!address.isLoopbackAddress() && NetworkInterface.getByInetAddress(address) == null) {
      return -1;
    }
    if (!Files.isDirectory(Path.of("/proc/self/fd"))) {
      return -1;
    }
    ServerSocketChannel channel = ServerSocketChannel.open();
    try {
      channel.bind(new InetSocketAddress(address, port), 4096);
      int fd = descriptor(port);
      if (fd < 0) {
        channel.close();
        return -1;
      }
      KEPT.add(channel);
      return fd;
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  /** The descriptor of this process's socket listening at {@code port}, or -1. */
  private static int descriptor(int port) throws IOException {
    List<String> inodes = new ArrayList<>();
    String hexPort = String.format(Locale.ROOT, ":%04X", port);
    for (String table : new String[] {"/proc/net/tcp", "/proc/net/tcp6"}) {
      Path file = Path.of(table);
      if (!Files.isReadable(file)) {
        continue;
      }
      for (String line : Files.readAllLines(file)) {
        String[] f = line.trim().split("\\s+");
        // sl local_address rem_address st ... inode (10th): 0A is LISTEN
        if (f.length > 9 && f[1].endsWith(hexPort) && f[3].equals("0A")) {
          inodes.add("socket:[" + f[9] + "]");
        }
      }
    }
    try (var fds = Files.list(Path.of("/proc/self/fd"))) {
      for (Path fd : (Iterable<Path>) fds::iterator) {
        try {
          if (inodes.contains(Files.readSymbolicLink(fd).toString())) {
            return Integer.parseInt(fd.getFileName().toString());
          }
        } catch (IOException | NumberFormatException e) {
          // closed meanwhile, or not a number: not ours
        }
      }
    }
    return -1;
  }
}
