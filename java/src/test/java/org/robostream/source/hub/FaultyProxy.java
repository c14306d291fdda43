package org.robostream.source.hub;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback HTTP proxy in front of the test nginx that breaks a share of the exchanges at
 * random (seeded): connection resets, 500 and 503, 429 with Retry-After, stalls past the client's
 * timeout, and bodies cut short. One request per connection (it answers "Connection: close").
 * Thread-safe; close() stops it.
 */
final class FaultyProxy implements AutoCloseable {
  enum Fault { NONE, RESET, ERROR_500, ERROR_503, TOO_MANY, STALL, TRUNCATE }

  private final ServerSocket server;
  private final int upstreamPort;
  private final double faultRate;
  private final long stallMillis;
  private final Random random;
  private final ExecutorService pool = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "faulty-proxy");
    t.setDaemon(true);
    return t;
  });
  final AtomicInteger faults = new AtomicInteger();
  final AtomicInteger exchanges = new AtomicInteger();

  FaultyProxy(int upstreamPort, double faultRate, long stallMillis, long seed) throws IOException {
    this.server = new ServerSocket();
    server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    this.upstreamPort = upstreamPort;
    this.faultRate = faultRate;
    this.stallMillis = stallMillis;
    this.random = new Random(seed);
    pool.submit(this::acceptLoop);
  }

  int port() {
    return server.getLocalPort();
  }

  private synchronized Fault nextFault() {
    if (random.nextDouble() >= faultRate) {
      return Fault.NONE;
    }
    Fault[] kinds = Fault.values();
    return kinds[1 + random.nextInt(kinds.length - 1)];
  }

  private void acceptLoop() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        pool.submit(() -> serve(client));
      } catch (IOException e) {
        return;
      }
    }
  }

  private void serve(Socket client) {
    try (client) {
      String request = readHead(client.getInputStream());
      if (request == null) {
        return;
      }
      exchanges.incrementAndGet();
      Fault fault = nextFault();
      if (fault != Fault.NONE) {
        faults.incrementAndGet();
      }
      OutputStream out = client.getOutputStream();
      switch (fault) {
        case RESET -> {
          client.setSoLinger(true, 0); // RST instead of FIN
          return;
        }
        case ERROR_500 -> write(out, "HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\n"
            + "Connection: close\r\n\r\n");
        case ERROR_503 -> write(out, "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n"
            + "Connection: close\r\n\r\n");
        case TOO_MANY -> write(out, "HTTP/1.1 429 Too Many Requests\r\nRetry-After: 0\r\n"
            + "Content-Length: 0\r\nConnection: close\r\n\r\n");
        case STALL -> Thread.sleep(stallMillis);
        default -> {
          byte[] response = forward(request);
          if (fault == Fault.TRUNCATE) {
            int headEnd = indexOf(response, "\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1)) + 4;
            int bodyLength = response.length - headEnd;
            out.write(response, 0, headEnd + bodyLength / 2);
          } else {
            out.write(response);
          }
        }
      }
      out.flush();
    } catch (IOException | InterruptedException e) {
      // the client gave up (e.g. after a stall): nothing to do
    }
  }

  /** Sends the request upstream with "Connection: close" and returns the whole response. */
  private byte[] forward(String request) throws IOException {
    StringBuilder rewritten = new StringBuilder();
    for (String line : request.split("\r\n")) {
      if (line.isEmpty() || line.toLowerCase(java.util.Locale.ROOT).startsWith("connection:")) {
        continue;
      }
      rewritten.append(line).append("\r\n");
    }
    rewritten.append("Connection: close\r\n\r\n");
    try (Socket upstream = new Socket(InetAddress.getLoopbackAddress(), upstreamPort)) {
      upstream.getOutputStream().write(rewritten.toString().getBytes(StandardCharsets.ISO_8859_1));
      upstream.getOutputStream().flush();
      return upstream.getInputStream().readAllBytes();
    }
  }

  private static String readHead(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    int b;
    byte[] end = {'\r', '\n', '\r', '\n'};
    while ((b = in.read()) >= 0) {
      head.write(b);
      matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
      if (matched == 4) {
        return head.toString(StandardCharsets.ISO_8859_1);
      }
    }
    return null;
  }

  private static void write(OutputStream out, String s) throws IOException {
    out.write(s.getBytes(StandardCharsets.ISO_8859_1));
  }

  private static int indexOf(byte[] data, byte[] pattern) {
    outer:
    for (int i = 0; i + pattern.length <= data.length; i++) {
      for (int j = 0; j < pattern.length; j++) {
        if (data[i + j] != pattern[j]) {
          continue outer;
        }
      }
      return i;
    }
    return data.length - 4;
  }

  @Override
  public void close() throws IOException {
    server.close();
    pool.shutdownNow();
  }
}
