package org.robostream.codec;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.robostream.testing.FrameCompare;
import org.robostream.video.FrameLayout;
import org.robostream.video.VideoException;
import org.robostream.video.VideoStreamInfo;

/**
 * Child-JVM side of {@link MutationFuzzTest}: decodes mutations [from, to) of a seed and prints a
 * "START n" line before each case and a "CASE {json}" {@link FuzzObservation} after it, so the
 * parent can tell a crash (the JVM dies mid-case) from an outcome. It only observes; the parent
 * judges. Each case asks for five of the seed's frames by their ffprobe pts in one planned call;
 * when that call fails, once more one frame per call in reverse order on the same decoder, so the
 * frames that can be decoded are still checked (and decoding goes on after a failed call).
 *
 * <p>Run: FuzzWorker SEED REFERENCE_RGB PTS_FILE WORK_DIR FROM TO, where REFERENCE_RGB holds the
 * seed's frames as the ffmpeg CLI decodes them (rgb24, back to back) and PTS_FILE the seed's frame
 * pts, one per line.
 */
public final class FuzzWorker {
  private final byte[] seed;
  private final byte[] reference;
  private final double[] seedPts;

  private FuzzWorker(byte[] seed, byte[] reference, double[] seedPts) {
    this.seed = seed;
    this.reference = reference;
    this.seedPts = seedPts;
  }

  public static void main(String[] args) throws Exception {
    double[] pts =
        Files.readAllLines(Path.of(args[2])).stream().mapToDouble(Double::parseDouble).toArray();
    FuzzWorker worker =
        new FuzzWorker(
            Files.readAllBytes(Path.of(args[0])), Files.readAllBytes(Path.of(args[1])), pts);
    Path work = Path.of(args[3]);
    PrintStream out = System.out;
    for (int i = Integer.parseInt(args[4]); i < Integer.parseInt(args[5]); i++) {
      Path file = work.resolve("case-" + i + ".mp4");
      Files.write(file, Mutations.mutate(worker.seed, i).bytes());
      out.println("START " + i);
      out.flush();
      FuzzObservation seen = worker.observe(i, file);
      Files.delete(file);
      out.println("CASE " + seen.toJson());
      out.flush();
    }
  }

  /** The first, a third, the middle, the last and one case-chosen frame, shuffled per case. */
  static int[] framesToAsk(int caseNumber, int frameCount) {
    Random rng = new Random(caseNumber * 7919L + 17);
    List<Integer> frames =
        new ArrayList<>(
            List.of(0, frameCount / 3, frameCount / 2, frameCount - 1, rng.nextInt(frameCount)));
    Collections.shuffle(frames, rng);
    return frames.stream().mapToInt(Integer::intValue).toArray();
  }

  private FuzzObservation observe(int caseNumber, Path file) {
    int[] frames = framesToAsk(caseNumber, seedPts.length);
    List<FuzzObservation.Delivery> seen = new ArrayList<>();
    Decoder decoder;
    try {
      decoder = Decoder.open(file);
    } catch (Throwable t) {
      return new FuzzObservation(caseNumber, describe(t, file), 0, 0, List.of());
    }
    try (decoder) {
      if (!decodeAll(decoder, "planned", frames, file, seen)) {
        for (int k = frames.length - 1; k >= 0; k--) {
          decodeAll(decoder, "single", new int[] {frames[k]}, file, seen);
        }
      }
      return new FuzzObservation(
          caseNumber, null, decoder.info().width(), decoder.info().height(), seen);
    } catch (Throwable t) {
      return new FuzzObservation(caseNumber, "UNTYPED close: " + t, 0, 0, seen);
    }
  }

  /** Decodes {@code frames} in one call and records what came back; false if the call failed. */
  private boolean decodeAll(
      Decoder decoder, String call, int[] frames, Path file, List<FuzzObservation.Delivery> seen) {
    double[] queries = Arrays.stream(frames).mapToDouble(f -> seedPts[f]).toArray();
    VideoStreamInfo info = decoder.info();
    HostFrameBuffer buffer = HostFrameBuffer.forVideo(info, frames.length, FrameLayout.HWC);
    DecodeResult result;
    try {
      result = decoder.decode(queries, buffer);
    } catch (Throwable t) {
      for (int f : frames) {
        seen.add(
            new FuzzObservation.Delivery(
                call, f, describe(t, file), Double.NaN, Double.NaN, -1, Double.NaN));
      }
      return false;
    }
    double[] table = decoder.framePtsSeconds();
    int frameBytes = info.width() * info.height() * 3;
    boolean seedSize = frameBytes * seedPts.length == reference.length;
    for (int i = 0; i < frames.length; i++) {
      byte[] pixels = buffer.frameBytes(i);
      seen.add(
          new FuzzObservation.Delivery(
              call,
              frames[i],
              null,
              result.ptsSeconds(i),
              table[(int) result.frameIndex(i)],
              seedSize ? FrameCompare.patternFrameNumber(pixels, info.width()) : -1,
              seedSize
                  ? FrameCompare.meanAbsDiff(pixels, reference, frames[i] * frameBytes)
                  : Double.NaN));
    }
    return true;
  }

  private static String describe(Throwable t, Path file) {
    String text;
    if (!(t instanceof VideoException e)) {
      text = "UNTYPED " + t;
    } else if (e.getMessage().contains(file.toString())) {
      text = "TYPED " + e.getClass().getSimpleName();
    } else {
      text = "UNNAMED " + e.getClass().getSimpleName() + " " + e.getMessage();
    }
    return text.replace('\n', ' ');
  }
}
