package org.robostream.testing;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The lines written to {@code System.err} while it is open, still passed on to the real stream. The
 * tests' logging binding (slf4j-simple) writes every log line to whatever {@code System.err} is at
 * the time, so this is how a test sees the warnings a library class logged.
 *
 * <p>Threading: lines from any thread are captured; one capture at a time per JVM (it replaces the
 * global stream). {@link #close()} puts the real stream back.
 */
public final class StderrLines implements AutoCloseable {
  private final PrintStream original = System.err;
  private final ByteArrayOutputStream captured = new ByteArrayOutputStream();

  public StderrLines() {
    OutputStream tee =
        new OutputStream() {
          @Override
          public void write(int b) {
            synchronized (captured) {
              captured.write(b);
            }
            original.write(b);
          }

          @Override
          public void write(byte[] b, int off, int len) {
            synchronized (captured) {
              captured.write(b, off, len);
            }
            original.write(b, off, len);
          }
        };
    System.setErr(new PrintStream(tee, true, StandardCharsets.UTF_8));
  }

  /** The captured lines that contain {@code text}. */
  public List<String> containing(String text) {
    String all;
    synchronized (captured) {
      all = captured.toString(StandardCharsets.UTF_8);
    }
    return all.lines().filter(l -> l.contains(text)).toList();
  }

  @Override
  public void close() {
    System.err.flush();
    System.setErr(original);
  }
}
