package org.robostream.transform;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * The built-in image transforms, as LeRobot's {@code ImageTransformsConfig}: each has a weight and
 * a parameter range; a sample's camera gets {@code maxNumTransforms} of those of positive weight,
 * drawn by weight without replacement, applied in list order (or drawn order with {@code
 * randomOrder}). {@link #lerobotDefaults()} is LeRobot's default list.
 *
 * <p>Hue rotates chroma in the YCbCr plane (as video controls and DALI do), not torchvision's HSV
 * shift: a few levels off for mixed colours (docs/LOADER.md, "Image transforms"). Parameters are
 * seeded by dataset seed, epoch, sample {@code index} and camera, so resumed or re-sharded runs
 * transform alike. Immutable, thread-safe.
 */
public final class ImageTransformsConfig {
  /** The built-in operations with their native codes (RS_TF_* in robostream.h). */
  public enum Kind {
    BRIGHTNESS(1),
    CONTRAST(2),
    SATURATION(3),
    HUE(4),
    SHARPNESS(5),
    AFFINE(6);

    private final int nativeCode;

    Kind(int nativeCode) {
      this.nativeCode = nativeCode;
    }

    public int nativeCode() {
      return nativeCode;
    }

    /** The lower-case name, as LeRobot's config names its transforms. */
    public String key() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * One transform of the list.
   *
   * @param min the range's low end: a factor (brightness, contrast, saturation, sharpness), a
   *     fraction of a turn (hue) or degrees (affine)
   * @param translate the affine's largest translation, a fraction of the width and of the height (0
   *     for the other kinds)
   */
  public record Entry(Kind kind, double weight, double min, double max, double translate) {
    public Entry {
      Objects.requireNonNull(kind, "kind");
      require(Double.isFinite(weight) && weight >= 0, kind.key() + ": weight must be >= 0");
      require(
          Double.isFinite(min) && Double.isFinite(max) && min <= max,
          kind.key() + ": the range must be finite numbers, low <= high, not " + min + ".." + max);
      switch (kind) {
        case HUE ->
            require(min >= -0.5 && max <= 0.5, "hue: the range is in turns, within -0.5..0.5");
        case AFFINE -> {
          require(min >= -180 && max <= 180, "affine: degrees within -180..180");
          require(translate >= 0 && translate <= 1, "affine: translate within 0..1");
        }
        default ->
            require(
                min >= 0 && max <= 16,
                kind.key() + ": factors within 0..16, not " + min + ".." + max);
      }
      require(kind == Kind.AFFINE || translate == 0, kind.key() + " has no translation");
    }
  }

  private final List<Entry> entries;
  private final int maxNumTransforms;
  private final boolean randomOrder;
  // The entries of positive weight, in list order: what draw() chooses from (at every sample).
  private final Entry[] active;

  private ImageTransformsConfig(List<Entry> entries, int maxNumTransforms, boolean randomOrder) {
    this.entries = List.copyOf(entries);
    require(maxNumTransforms >= 1, "maxNumTransforms must be >= 1, not " + maxNumTransforms);
    List<Kind> seen = new ArrayList<>();
    for (Entry e : this.entries) {
      require(!seen.contains(e.kind()), e.kind().key() + " is listed twice");
      seen.add(e.kind());
    }
    require(
        this.entries.stream().anyMatch(e -> e.weight() > 0),
        "image transforms need at least one transform of positive weight");
    this.maxNumTransforms = maxNumTransforms;
    this.randomOrder = randomOrder;
    this.active = this.entries.stream().filter(e -> e.weight() > 0).toArray(Entry[]::new);
  }

  /** LeRobot's default image transforms (see the class comment). */
  public static ImageTransformsConfig lerobotDefaults() {
    return new ImageTransformsConfig(
        List.of(
            new Entry(Kind.BRIGHTNESS, 1, 0.8, 1.2, 0),
            new Entry(Kind.CONTRAST, 1, 0.8, 1.2, 0),
            new Entry(Kind.SATURATION, 1, 0.5, 1.5, 0),
            new Entry(Kind.HUE, 1, -0.05, 0.05, 0),
            new Entry(Kind.SHARPNESS, 1, 0.5, 1.5, 0),
            new Entry(Kind.AFFINE, 1, -5, 5, 0.05)),
        3,
        false);
  }

  /** A list of its own (in application order). */
  public static ImageTransformsConfig of(List<Entry> entries, int maxNumTransforms) {
    return new ImageTransformsConfig(entries, maxNumTransforms, false);
  }

  /** Only the transforms named ({@link Kind#key()}: brightness, ..., affine), in list order. */
  public ImageTransformsConfig only(String... names) {
    List<Entry> kept = new ArrayList<>();
    List<String> wanted = new ArrayList<>();
    for (String n : names) {
      String key = n.strip().toLowerCase(Locale.ROOT);
      require(
          entries.stream().anyMatch(e -> e.kind().key().equals(key)),
          "no image transform " + n + "; there are " + keys());
      wanted.add(key);
    }
    for (Entry e : entries) {
      if (wanted.contains(e.kind().key())) {
        kept.add(e);
      }
    }
    return new ImageTransformsConfig(kept, maxNumTransforms, randomOrder);
  }

  public ImageTransformsConfig withMaxNumTransforms(int n) {
    return new ImageTransformsConfig(entries, n, randomOrder);
  }

  public ImageTransformsConfig withRandomOrder(boolean random) {
    return new ImageTransformsConfig(entries, maxNumTransforms, random);
  }

  public List<Entry> entries() {
    return entries;
  }

  public int maxNumTransforms() {
    return maxNumTransforms;
  }

  public boolean randomOrder() {
    return randomOrder;
  }

  private List<String> keys() {
    return entries.stream().map(e -> e.kind().key()).toList();
  }

  /**
   * One camera's operations for one sample, drawn from {@code random}, for frames of {@code width}
   * x {@code height} (the affine's whole-pixel translations): {@link FrameTransformer#OP_FLOATS}
   * floats per operation, in application order.
   */
  public float[] draw(SplittableRandom random, int width, int height) {
    int n = Math.min(maxNumTransforms, active.length);
    int[] chosen = new int[n];
    if (n == active.length && !randomOrder) {
      for (int i = 0; i < n; i++) {
        chosen[i] = i;
      }
    } else {
      // Weighted draws without replacement (torch.multinomial's), in the order drawn.
      boolean[] taken = new boolean[active.length];
      for (int k = 0; k < n; k++) {
        double total = 0;
        int last = -1;
        for (int i = 0; i < active.length; i++) {
          if (!taken[i]) {
            total += active[i].weight();
            last = i;
          }
        }
        double u = random.nextDouble() * total;
        int pick = last;
        for (int i = 0; i < active.length; i++) {
          if (!taken[i]) {
            u -= active[i].weight();
            if (u < 0) {
              pick = i;
              break;
            }
          }
        }
        taken[pick] = true;
        chosen[k] = pick;
      }
      if (!randomOrder) {
        java.util.Arrays.sort(chosen);
      }
    }
    float[] ops = new float[n * FrameTransformer.OP_FLOATS];
    int at = 0;
    for (int i : chosen) {
      Entry e = active[i];
      ops[at] = e.kind().nativeCode();
      ops[at + 1] = (float) uniform(random, e.min(), e.max());
      if (e.kind() == Kind.AFFINE) {
        ops[at + 2] = (float) (wholePixels(random, e.translate() * width) / width);
        ops[at + 3] = (float) (wholePixels(random, e.translate() * height) / height);
      }
      at += FrameTransformer.OP_FLOATS;
    }
    return ops;
  }

  private static double uniform(SplittableRandom random, double min, double max) {
    return min == max ? min : min + (max - min) * random.nextDouble();
  }

  /** torchvision's RandomAffine: round(uniform(-limit, limit)) pixels. */
  private static double wholePixels(SplittableRandom random, double limit) {
    return Math.round(uniform(random, -limit, limit));
  }

  @Override
  public String toString() {
    StringBuilder s = new StringBuilder("ImageTransformsConfig[");
    for (Entry e : entries) {
      s.append(e.kind().key())
          .append(' ')
          .append(e.min())
          .append("..")
          .append(e.max())
          .append(e.kind() == Kind.AFFINE ? " translate " + e.translate() : "")
          .append(" weight ")
          .append(e.weight())
          .append(", ");
    }
    return s.append("max ")
        .append(maxNumTransforms)
        .append(randomOrder ? ", random order]" : "]")
        .toString();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ImageTransformsConfig c
        && c.entries.equals(entries)
        && c.maxNumTransforms == maxNumTransforms
        && c.randomOrder == randomOrder;
  }

  @Override
  public int hashCode() {
    return Objects.hash(entries, maxNumTransforms, randomOrder);
  }

  private static void require(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException(message);
    }
  }
}
