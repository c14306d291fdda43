package org.robostream.stream;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.robostream.dataset.synth.PatternCode;

/**
 * What a batch of a pattern dataset delivered: per sample the episode and frame its rows name and,
 * per camera, the identity painted into its frame. For uint8 HWC batches. Stateless.
 */
final class PatternSamples {
  private PatternSamples() {}

  /**
   * One sample as delivered.
   *
   * @param painted per camera (in the order asked for), the identity read from the frame; null when
   *     the frame carries no readable code
   */
  record Delivered(int episode, int frame, List<PatternCode.Identity> painted) {
    long sample() {
      return Samples.of(episode, frame);
    }

    /** Whether camera k's frame is frame {@code frame} of {@code episode} from camera k. */
    boolean matches() {
      for (int k = 0; k < painted.size(); k++) {
        if (!new PatternCode.Identity(episode, frame, k).equals(painted.get(k))) {
          return false;
        }
      }
      return true;
    }

    @Override
    public String toString() {
      return "rows say episode " + episode + " frame " + frame + ", frames show " + painted;
    }
  }

  /**
   * The samples of {@code b} in delivery order, after asserting that every camera's frame shows the
   * sample its rows name.
   */
  static List<Long> checked(Batch b, List<String> cameras) {
    List<Long> samples = new ArrayList<>();
    for (Delivered d : of(b, cameras)) {
      if (!d.matches()) {
        throw new AssertionError("wrong frame: " + d);
      }
      samples.add(d.sample());
    }
    return samples;
  }

  static List<Delivered> of(Batch b, List<String> cameras) {
    long[] episode = b.longs("episode_index");
    long[] frame = b.longs("frame_index");
    List<Delivered> out = new ArrayList<>();
    for (int i = 0; i < b.size(); i++) {
      List<PatternCode.Identity> painted = new ArrayList<>();
      for (String camera : cameras) {
        int[] shape = b.frameShape(camera); // [batch, H, W, C]
        Batch.Frames frames = b.frames(camera);
        if (!frames.uint8()) {
          throw new IllegalArgumentException("PatternSamples reads uint8 HWC batches");
        }
        ByteBuffer pixels = frames.sample(i);
        painted.add(PatternCode.read(pixels, shape[2], shape[1], false));
      }
      out.add(new Delivered((int) episode[i], (int) frame[i], painted));
    }
    return out;
  }
}
