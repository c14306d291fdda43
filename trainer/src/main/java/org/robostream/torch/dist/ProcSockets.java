package org.robostream.torch.dist;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * This process's TCP sockets as Linux lists them ({@code /proc/net/tcp[6]}, {@code /proc/self/fd}):
 * which descriptor is the socket listening at a port, and whether a connection's other end is a
 * socket of this process. Java names neither.
 */
final class ProcSockets {
  private static final String LISTEN = "0A";
  private static final String ESTABLISHED = "01";

  private ProcSockets() {}

  /** True where the tables this class reads exist (Linux). */
  static boolean available() {
    return Files.isDirectory(Path.of("/proc/self/fd"))
        && Files.isReadable(Path.of("/proc/net/tcp"));
  }

  /** The descriptor of this process's socket listening at {@code port}, or -1. */
  static int listening(int port) throws IOException {
    return descriptorOf(inodes(port, -1, LISTEN));
  }

  /**
   * True when the connection from local port {@code from} to local port {@code to} was opened by a
   * socket of this process (the other end of a connection this process accepted at {@code to}).
   */
  static boolean ownConnection(int from, int to) throws IOException {
    return descriptorOf(inodes(from, to, ESTABLISHED)) >= 0;
  }

  /**
   * The inodes of sockets whose local port is {@code local} (and remote {@code remote} if >= 0).
   */
  private static List<String> inodes(int local, int remote, String state) throws IOException {
    List<String> inodes = new ArrayList<>();
    String localPort = String.format(Locale.ROOT, ":%04X", local);
    String remotePort = String.format(Locale.ROOT, ":%04X", remote);
    for (String table : new String[] {"/proc/net/tcp", "/proc/net/tcp6"}) {
      Path file = Path.of(table);
      if (!Files.isReadable(file)) {
        continue;
      }
      for (String line : Files.readAllLines(file)) {
        String[] f = line.trim().split("\\s+");
        // sl local_address rem_address st ... inode (10th field)
        if (f.length > 9
            && f[1].endsWith(localPort)
            && (remote < 0 || f[2].endsWith(remotePort))
            && f[3].equals(state)) {
          inodes.add("socket:[" + f[9] + "]");
        }
      }
    }
    return inodes;
  }

  private static int descriptorOf(List<String> inodes) throws IOException {
    if (inodes.isEmpty()) {
      return -1;
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
