package org.robostream.video;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Child-JVM side of {@link MutationFuzzTest}: decodes mutations [from, to) of a seed file and prints
 * one line per case, so that the parent can tell a crash (the JVM dies mid-case) from a typed
 * error. Run: FuzzWorker SEED_FILE WORK_DIR FROM TO.
 */
public final class FuzzWorker {
  private FuzzWorker() {}

  public static void main(String[] args) throws Exception {
    byte[] seed = Files.readAllBytes(Path.of(args[0]));
    Path work = Path.of(args[1]);
    int from = Integer.parseInt(args[2]);
    int to = Integer.parseInt(args[3]);
    PrintStream out = System.out;
    for (int i = from; i < to; i++) {
      Mutations.Mutation m = Mutations.mutate(seed, i);
      Path file = work.resolve("case-" + i + ".mp4");
      Files.write(file, m.bytes());
      out.println("START " + i);
      out.flush();
      String verdict;
      try (VideoDecoder d = VideoDecoder.open(file)) {
        double[] pts = d.framePtsSeconds();
        double[] q = {pts[0], pts[pts.length / 2], pts[pts.length - 1], pts[pts.length / 3]};
        d.decode(q, HostFrameBuffer.forVideo(d.info(), q.length, FrameLayout.HWC));
        verdict = "OK";
      } catch (VideoException e) {
        verdict = e.getMessage().contains(file.toString())
            ? "TYPED " + e.getClass().getSimpleName()
            : "UNNAMED " + e.getClass().getSimpleName() + " " + e.getMessage();
      } catch (Throwable t) {
        verdict = "UNTYPED " + t;
      }
      Files.delete(file);
      out.println("END " + i + " " + m.description() + " " + verdict.replace('\n', ' '));
      out.flush();
    }
  }
}
