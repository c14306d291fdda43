package org.robostream.torch.dist;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Copies bytes both ways between two connected sockets, one daemon thread a direction, until both
 * directions ended; then closes both and runs {@code onClose}. An error on either side closes both
 * at once.
 */
final class Relay {
  private Relay() {}

  static void start(Socket a, Socket b, String name, Runnable onClose) {
    AtomicInteger ended = new AtomicInteger();
    Runnable finish =
        () -> {
          if (ended.incrementAndGet() == 2) {
            closeQuietly(a);
            closeQuietly(b);
            onClose.run();
          }
        };
    thread(() -> pump(a, b, finish), name + " out").start();
    thread(() -> pump(b, a, finish), name + " in").start();
  }

  private static void pump(Socket from, Socket to, Runnable finish) {
    try {
      from.setSoTimeout(0);
      InputStream in = from.getInputStream();
      OutputStream out = to.getOutputStream();
      byte[] buffer = new byte[64 << 10];
      int n;
      while ((n = in.read(buffer)) >= 0) {
        out.write(buffer, 0, n);
        out.flush();
      }
      to.shutdownOutput();
    } catch (IOException e) {
      closeQuietly(from);
      closeQuietly(to);
    } finally {
      finish.run();
    }
  }

  static Thread thread(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    return t;
  }

  static void closeQuietly(AutoCloseable c) {
    try {
      c.close();
    } catch (Exception e) {
      // closing anyway
    }
  }
}
