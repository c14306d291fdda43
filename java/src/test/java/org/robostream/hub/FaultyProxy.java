package org.robostream.hub;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A loopback HTTP proxy in front of the test nginx that breaks exchanges: connection resets, 500
 * and 503, 429 with Retry-After, stalls (no answer, or headers and then nothing), bodies cut short,
 * holds (an answer kept back until another request arrives); and hostile answers: a range shifted
 * from the one asked for (nginx's real answer to a moved Range), the whole file for a range (Range
 * dropped), a JSON answer that never ends, a body dripping a byte at a time; and a slow but steady
 * answer ({@link #THROTTLE_BYTES_PER_SECOND}). Either a seeded share of all exchanges at random
 * ({@link #random}) or a script ({@link #scripted}): each {@link Step} takes one request it matches
 * and breaks its first exchange(s), so a test knows which faults happened where and that each was
 * retried. Every exchange is logged with its times and fault. One request per connection
 * ("Connection: close"). Thread-safe; close() stops it.
 */
final class FaultyProxy implements AutoCloseable {
  enum Fault {
    NONE,
    RESET,
    ERROR_500,
    ERROR_503,
    TOO_MANY,
    STALL,
    STALL_AFTER_HEADERS,
    TRUNCATE,
    HOLD,
    SHIFT_RANGE,
    WHOLE_FILE,
    ENDLESS_JSON,
    DRIP,
    THROTTLE
  }

  /** Bytes a {@link Fault#SHIFT_RANGE} moves the asked-for range by. */
  static final int SHIFT = 16;

  /** The pause between two bytes of a {@link Fault#DRIP}. */
  static final long DRIP_MILLIS = 50;

  /** The pace of a {@link Fault#THROTTLE}d answer: 4 KiB every 40 ms. */
  static final int THROTTLE_BYTES_PER_SECOND = 100 << 10;

  /** The parts of a request the script matches on. */
  record Request(String target, String range) {
    /** First byte of the Range header, -1 without one. */
    long rangeStart() {
      if (range == null || !range.startsWith("bytes=")) {
        return -1;
      }
      return Long.parseLong(range.substring(6, range.indexOf('-')));
    }

    boolean isVideo() {
      return target.endsWith(".mp4");
    }
  }

  /**
   * A scripted fault: it takes the first request {@code when} matches that no other step took, and
   * breaks its first {@code times} exchanges (1: the request fails once, its retry goes through).
   *
   * @param retryAfter the Retry-After header of a 429, in seconds
   * @param until for {@link Fault#HOLD}: the answer waits until a request matching this arrives (or
   *     has arrived)
   */
  record Step(
      Predicate<Request> when, Fault fault, int times, int retryAfter, Predicate<Request> until) {
    static Step of(Predicate<Request> when, Fault fault) {
      return new Step(when, fault, 1, 0, null);
    }

    /** Breaks the request's first {@code times} exchanges. */
    static Step repeated(Predicate<Request> when, Fault fault, int times) {
      return new Step(when, fault, times, 0, null);
    }

    static Step tooMany(Predicate<Request> when, int retryAfterSeconds) {
      return new Step(when, Fault.TOO_MANY, 1, retryAfterSeconds, null);
    }

    static Step hold(Predicate<Request> when, Predicate<Request> until) {
      return new Step(when, Fault.HOLD, 1, 0, until);
    }
  }

  /**
   * One exchange: when it arrived and ended (System.nanoTime), the fault it got (with the
   * Retry-After sent for a 429); for a hold, whether the awaited request came ({@code released}) or
   * the hold timed out.
   */
  record Exchange(
      Request request,
      Fault fault,
      int retryAfter,
      long startNanos,
      long endNanos,
      boolean released) {}

  private final ServerSocket server;
  private final int upstreamPort;
  private final long stallMillis;
  private final double faultRate;
  private final Random random;
  private final List<Step> script;
  private final Request[] taken; // the request each step took, null while unused
  private final int[] left; // exchanges of that request the step still breaks
  private final List<Request> seen = new ArrayList<>();
  private final List<Exchange> log = new ArrayList<>();
  private final List<Hold> holds = new ArrayList<>();
  private final ExecutorService pool =
      Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(r, "faulty-proxy");
            t.setDaemon(true);
            return t;
          });

  // Every socket of an exchange in progress, client's and upstream's: close() closes them, so no
  // exchange of this proxy outlives it (an upstream request still in flight would otherwise end
  // at nginx, and be logged, inside the next test's window).
  private final java.util.Set<Socket> open = java.util.concurrent.ConcurrentHashMap.newKeySet();

  private record Hold(Predicate<Request> until, CountDownLatch latch) {}

  private FaultyProxy(
      int upstreamPort, double faultRate, long stallMillis, long seed, List<Step> script)
      throws IOException {
    this.server = new ServerSocket();
    server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    this.upstreamPort = upstreamPort;
    this.faultRate = faultRate;
    this.stallMillis = stallMillis;
    this.random = new Random(seed);
    this.script = List.copyOf(script);
    this.taken = new Request[script.size()];
    this.left = new int[script.size()];
    pool.submit(this::acceptLoop);
  }

  /** Breaks a share {@code faultRate} of all exchanges, the kind drawn at random (seeded). */
  static FaultyProxy random(int upstreamPort, double faultRate, long stallMillis, long seed)
      throws IOException {
    return new FaultyProxy(upstreamPort, faultRate, stallMillis, seed, List.of());
  }

  /** Breaks exactly the exchanges the script's steps match; stalls last {@code stallMillis}. */
  static FaultyProxy scripted(int upstreamPort, long stallMillis, List<Step> script)
      throws IOException {
    return new FaultyProxy(upstreamPort, 0, stallMillis, 0, script);
  }

  int port() {
    return server.getLocalPort();
  }

  /** Every exchange so far, in the order they ended. */
  synchronized List<Exchange> log() {
    return List.copyOf(log);
  }

  /** Exchanges that got a fault. */
  synchronized long faults() {
    return log.stream().filter(e -> e.fault() != Fault.NONE).count();
  }

  /** Script steps no exchange matched (a test whose faults never happened proves nothing). */
  synchronized List<Integer> unusedSteps() {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < taken.length; i++) {
      if (taken[i] == null) {
        out.add(i);
      }
    }
    return out;
  }

  private synchronized Step arrive(Request request) {
    seen.add(request);
    for (Hold h : holds) {
      if (h.until().test(request)) {
        h.latch().countDown();
      }
    }
    for (int i = 0; i < script.size(); i++) {
      if (request.equals(taken[i])) {
        if (left[i] == 0) {
          return null; // the step is spent: this exchange goes through
        }
        left[i]--;
        return script.get(i);
      }
    }
    for (int i = 0; i < script.size(); i++) {
      if (taken[i] == null && script.get(i).when().test(request)) {
        taken[i] = request;
        left[i] = script.get(i).times() - 1;
        return script.get(i);
      }
    }
    if (faultRate > 0 && random.nextDouble() < faultRate) {
      Fault[] kinds = {
        Fault.RESET,
        Fault.ERROR_500,
        Fault.ERROR_503,
        Fault.TOO_MANY,
        Fault.STALL,
        Fault.STALL_AFTER_HEADERS,
        Fault.TRUNCATE
      };
      return Step.of(r -> true, kinds[random.nextInt(kinds.length)]);
    }
    return null;
  }

  /** A latch released by the first request matching {@code until}, including earlier ones. */
  private synchronized CountDownLatch holdUntil(Predicate<Request> until) {
    CountDownLatch latch = new CountDownLatch(1);
    if (seen.stream().anyMatch(until)) {
      latch.countDown();
    } else {
      holds.add(new Hold(until, latch));
    }
    return latch;
  }

  private synchronized void record(Request request, Step step, long start, boolean released) {
    log.add(
        new Exchange(
            request,
            step == null ? Fault.NONE : step.fault(),
            step == null ? 0 : step.retryAfter(),
            start,
            System.nanoTime(),
            released));
  }

  private void acceptLoop() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        open.add(client);
        pool.submit(() -> serve(client));
      } catch (IOException e) {
        return;
      }
    }
  }

  private void serve(Socket client) {
    long start = System.nanoTime();
    Request request = null;
    Step step = null;
    boolean released = true;
    try (client) {
      String head = readHead(client.getInputStream());
      if (head == null) {
        return;
      }
      request = parse(head);
      step = arrive(request);
      Fault fault = step == null ? Fault.NONE : step.fault();
      OutputStream out = client.getOutputStream();
      switch (fault) {
        case RESET -> client.setSoLinger(true, 0); // RST instead of FIN
        case ERROR_500 ->
            write(
                out,
                "HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\n"
                    + "Connection: close\r\n\r\n");
        case ERROR_503 ->
            write(
                out,
                "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n"
                    + "Connection: close\r\n\r\n");
        case TOO_MANY ->
            write(
                out,
                "HTTP/1.1 429 Too Many Requests\r\nRetry-After: "
                    + step.retryAfter()
                    + "\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
        case STALL -> Thread.sleep(stallMillis);
        case HOLD -> {
          released = holdUntil(step.until()).await(stallMillis, TimeUnit.MILLISECONDS);
          out.write(forward(head));
        }
        case ENDLESS_JSON -> endlessJson(out);
        case DRIP -> drip(out);
        default -> {
          byte[] response =
              forward(
                  fault == Fault.SHIFT_RANGE
                      ? withRange(head, shifted(request))
                      : fault == Fault.WHOLE_FILE ? withRange(head, null) : head);
          int bodyStart = indexOf(response, "\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1)) + 4;
          int bodyLength = response.length - bodyStart;
          if (fault == Fault.TRUNCATE) {
            out.write(response, 0, bodyStart + bodyLength / 2);
          } else if (fault == Fault.THROTTLE) {
            for (int at = 0; at < response.length; at += 4096) {
              out.write(response, at, Math.min(4096, response.length - at));
              out.flush();
              Thread.sleep(4096L * 1000 / THROTTLE_BYTES_PER_SECOND);
            }
          } else if (fault == Fault.STALL_AFTER_HEADERS) {
            out.write(response, 0, bodyStart);
            out.flush();
            Thread.sleep(stallMillis);
          } else {
            out.write(response);
          }
        }
      }
      out.flush();
    } catch (IOException | InterruptedException e) {
      // the client gave up (e.g. after a stall): nothing to do
    } finally {
      open.remove(client);
      if (request != null) {
        record(request, step, start, released);
      }
    }
  }

  /** A tree listing page that goes on for as long as the client reads (or stallMillis). */
  private void endlessJson(OutputStream out) throws IOException {
    write(out, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n[");
    byte[] entries =
        "{\"type\":\"file\",\"path\":\"meta/x.json\",\"size\":1},"
            .repeat(1500)
            .getBytes(StandardCharsets.ISO_8859_1);
    long end = System.currentTimeMillis() + stallMillis;
    while (System.currentTimeMillis() < end) {
      out.write(entries); // fails once the client has stopped reading
    }
  }

  /** A 1 MB answer sent one byte per {@link #DRIP_MILLIS} (for at most stallMillis). */
  private void drip(OutputStream out) throws IOException, InterruptedException {
    write(
        out,
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000000"
            + "\r\nConnection: close\r\n\r\n");
    long end = System.currentTimeMillis() + stallMillis;
    while (System.currentTimeMillis() < end) {
      out.write('[');
      out.flush();
      Thread.sleep(DRIP_MILLIS);
    }
  }

  /** The request's Range moved by {@link #SHIFT} bytes. */
  private static String shifted(Request r) {
    long start = r.rangeStart();
    long end = Long.parseLong(r.range().substring(r.range().indexOf('-') + 1));
    return "bytes=" + (start + SHIFT) + "-" + (end + SHIFT);
  }

  /** {@code head} with its Range header replaced by {@code range} (dropped when null). */
  private static String withRange(String head, String range) {
    StringBuilder out = new StringBuilder();
    for (String line : head.split("\r\n")) {
      if (line.toLowerCase(Locale.ROOT).startsWith("range:")) {
        if (range != null) {
          out.append("Range: ").append(range).append("\r\n");
        }
      } else if (!line.isEmpty()) {
        out.append(line).append("\r\n");
      }
    }
    return out.append("\r\n").toString();
  }

  private static Request parse(String head) {
    String[] lines = head.split("\r\n");
    String[] first = lines[0].split(" ");
    String range = null;
    for (String line : lines) {
      if (line.toLowerCase(Locale.ROOT).startsWith("range:")) {
        range = line.substring(6).trim();
      }
    }
    return new Request(first.length > 1 ? first[1] : "", range);
  }

  /** Sends the request upstream with "Connection: close" and returns the whole response. */
  private byte[] forward(String head) throws IOException {
    StringBuilder rewritten = new StringBuilder();
    for (String line : head.split("\r\n")) {
      if (line.isEmpty() || line.toLowerCase(Locale.ROOT).startsWith("connection:")) {
        continue;
      }
      rewritten.append(line).append("\r\n");
    }
    rewritten.append("Connection: close\r\n\r\n");
    Socket upstream = new Socket(InetAddress.getLoopbackAddress(), upstreamPort);
    open.add(upstream);
    try (upstream) {
      upstream.getOutputStream().write(rewritten.toString().getBytes(StandardCharsets.ISO_8859_1));
      upstream.getOutputStream().flush();
      return upstream.getInputStream().readAllBytes();
    } finally {
      open.remove(upstream);
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

  /** Stops accepting, ends every exchange in progress and waits for their threads. */
  @Override
  public void close() throws IOException {
    server.close();
    pool.shutdownNow(); // wakes sleeps and holds
    for (Socket s : open) {
      s.close(); // wakes blocking reads and writes, which interrupts cannot
    }
    try {
      if (!pool.awaitTermination(10, TimeUnit.SECONDS)) {
        throw new IOException("the proxy's exchanges did not end within 10 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while the proxy's exchanges ended", e);
    }
  }
}
