package org.robostream.torch.policy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.bytedeco.javacpp.PointerScope;
import org.bytedeco.pytorch.Device;
import org.bytedeco.pytorch.DeviceOptional;
import org.bytedeco.pytorch.LongOptional;
import org.bytedeco.pytorch.MemoryFormatOptional;
import org.bytedeco.pytorch.Scalar;
import org.bytedeco.pytorch.Tensor;
import org.bytedeco.pytorch.TensorOptional;
import org.bytedeco.pytorch.TensorOptions;
import org.bytedeco.pytorch.TensorVector;
import org.bytedeco.pytorch.global.torch;
import org.robostream.policy.CameraInput;
import org.robostream.policy.PolicyConfig;

/**
 * The visuomotor policy as libtorch functions over named parameters: per camera an encoder (pooled,
 * scaled, centred; three ReLU convolutions; a spatial softmax giving each feature map's expected
 * (x, y)), then with the normalised state an MLP head predicting the whole normalised action chunk
 * [B, actionSteps, actionDim], as ACT-style policies do.
 *
 * <p>Parameters are named as the PyTorch module would name them, so {@code model.safetensors} loads
 * in Python. Initial weights follow PyTorch's defaults, drawn from a {@link SplittableRandom}
 * seeded by the config: the same on every rank and run, whatever libtorch's generator holds.
 *
 * <p>Owns its parameter tensors until {@link #close}. One training thread.
 */
public final class VisuomotorPolicy implements AutoCloseable {
  private static final String[] CONVS = {"conv1", "conv2", "conv3"};

  private final PolicyConfig config;
  private final Device device;
  private final Map<String, Tensor> parameters;
  // Per camera, the x and y of each position of its last feature map (the spatial softmax's
  // constants), made with the policy: never inside a caller's PointerScope.
  private final List<Tensor[]> grids = new ArrayList<>();
  // Per camera, float32 frames [rows, C, H, W] reused every forward: a fresh 50 MB tensor per
  // camera and step (64 x 3 x 256 x 256) cost more in page faults than the model's convolutions.
  private final Tensor[] scratch;

  private VisuomotorPolicy(PolicyConfig config, Device device, Map<String, Tensor> parameters) {
    this.config = config;
    this.device = device;
    this.parameters = parameters;
    this.scratch = new Tensor[config.cameras().size()];
    for (CameraInput c : config.cameras()) {
      long h = featureSide(c.height() / c.pool());
      long w = featureSide(c.width() / c.pool());
      grids.add(grid(h, w));
    }
  }

  /** The side of the last feature map for a pooled input side (the three convolutions). */
  private static long featureSide(long side) {
    long s = (side + 4 - 5) / 2 + 1; // 5x5, stride 2, padding 2
    s = (s + 2 - 3) / 2 + 1; // 3x3, stride 2, padding 1
    return s; // 3x3, stride 1, padding 1 keeps the size
  }

  /** A policy with initial weights from {@code config}'s seed, on {@code device}. */
  public static VisuomotorPolicy initial(PolicyConfig config, Device device) {
    SplittableRandom random = new SplittableRandom(config.seed());
    Map<String, Tensor> params = new LinkedHashMap<>();
    for (Map.Entry<String, long[]> e : shapes(config).entrySet()) {
      long[] shape = e.getValue();
      // Conv2d/Linear: kaiming_uniform(a=sqrt(5)) and the bias both come to +-1/sqrt(fan_in).
      long fanIn = fanIn(e.getKey(), shape, shapes(config));
      double bound = 1.0 / Math.sqrt(fanIn);
      float[] values = new float[Math.toIntExact(Tensors.count(shape))];
      for (int i = 0; i < values.length; i++) {
        values[i] = (float) ((random.nextDouble() * 2 - 1) * bound);
      }
      params.put(e.getKey(), Tensors.of(shape, values, device, true));
    }
    return new VisuomotorPolicy(config, device, params);
  }

  /**
   * The shapes of a policy of {@code config}, in parameter order: what a checkpoint must hold,
   * checked before a value is copied.
   */
  public static Map<String, long[]> shapes(PolicyConfig config) {
    Map<String, long[]> out = new LinkedHashMap<>();
    int channels = config.encoderChannels();
    for (int i = 0; i < config.cameras().size(); i++) {
      CameraInput c = config.cameras().get(i);
      long[][] convs = {
        {channels / 2, c.channels(), 5, 5},
        {channels, channels / 2, 3, 3},
        {channels, channels, 3, 3}
      };
      for (int k = 0; k < 3; k++) {
        String name = "camera" + i + "." + CONVS[k];
        out.put(name + ".weight", convs[k]);
        out.put(name + ".bias", new long[] {convs[k][0]});
      }
    }
    long width = 2L * channels * config.cameras().size() + config.stateDimension();
    long[] units = {
      config.hidden(), config.hidden(), (long) config.actionSteps() * config.actionDimension()
    };
    for (int k = 0; k < 3; k++) {
      out.put("head." + 2 * k + ".weight", new long[] {units[k], width});
      out.put("head." + 2 * k + ".bias", new long[] {units[k]});
      width = units[k];
    }
    return out;
  }

  private static long fanIn(String name, long[] shape, Map<String, long[]> all) {
    long[] weight = name.endsWith(".bias") ? all.get(name.replace(".bias", ".weight")) : shape;
    long fan = 1;
    for (int d = 1; d < weight.length; d++) {
      fan *= weight[d];
    }
    return fan;
  }

  public PolicyConfig config() {
    return config;
  }

  public Device device() {
    return device;
  }

  /** The parameters by name, in parameter order (the live tensors, not copies). */
  public Map<String, Tensor> parameters() {
    return Collections.unmodifiableMap(parameters);
  }

  /** The parameters in parameter order. */
  public List<Tensor> parameterList() {
    return new ArrayList<>(parameters.values());
  }

  /**
   * The predicted chunk [B, actionSteps, actionDim], normalised action units.
   *
   * @param frames each camera's frames [B, C, H, W] as the batch holds them (uint8, uint16 or
   *     float32), on this policy's device, in the config's camera order
   * @param state the normalised state [B, D] (float32), or null when the config has none
   */
  public Tensor forward(List<Tensor> frames, Tensor state) {
    TensorVector features = new TensorVector();
    for (int i = 0; i < config.cameras().size(); i++) {
      features.push_back(encode(i, frames.get(i)));
    }
    if (config.stateDimension() > 0) {
      features.push_back(state);
    }
    Tensor x = torch.cat(features, 1);
    x = torch.relu(linear(x, "head.0"));
    x = torch.relu(linear(x, "head.2"));
    Tensor out = linear(x, "head.4");
    return out.reshape(out.size(0), config.actionSteps(), config.actionDimension());
  }

  private Tensor linear(Tensor x, String layer) {
    return torch.linear(
        x, parameters.get(layer + ".weight"), new TensorOptional(parameters.get(layer + ".bias")));
  }

  private Tensor encode(int camera, Tensor frames) {
    CameraInput c = config.cameras().get(camera);
    Tensor x = asFloat(camera, frames);
    if (c.pool() > 1) {
      long[] k = {c.pool(), c.pool()};
      x = torch.avg_pool2d(x, k, k, new long[] {0, 0}, false, true, new LongOptional());
    }
    x = x.mul(new Scalar(c.unitScale())).sub(new Scalar(0.5f));
    long[][] strides = {{2, 2}, {2, 2}, {1, 1}};
    long[][] padding = {{2, 2}, {1, 1}, {1, 1}};
    for (int k = 0; k < 3; k++) {
      String name = "camera" + camera + "." + CONVS[k];
      x =
          torch.relu(
              torch.conv2d(
                  x,
                  parameters.get(name + ".weight"),
                  new TensorOptional(parameters.get(name + ".bias")),
                  strides[k],
                  padding[k],
                  new long[] {1, 1},
                  1));
    }
    return spatialSoftmax(camera, x);
  }

  /**
   * {@code frames} converted to float32 in this camera's reused buffer (grown when a batch has more
   * rows). The buffer is overwritten by the next forward: the previous step's graph, which may hold
   * it (an unpooled camera's first convolution saves its input), is gone by then.
   */
  private Tensor asFloat(int camera, Tensor frames) {
    long rows = frames.size(0);
    Tensor buffer = scratch[camera];
    if (buffer == null || buffer.size(0) < rows) {
      if (buffer != null) {
        buffer.close();
      }
      long[] shape = Tensors.shape(frames);
      buffer =
          torch.empty(
              shape,
              new TensorOptions(torch.ScalarType.Float).device(new DeviceOptional(device)),
              new MemoryFormatOptional());
      // Kept across steps: out of the caller's PointerScope (detach releases the reference the
      // scope held, so one is taken first), closed with the policy.
      buffer.retainReference();
      PointerScope inner = PointerScope.getInnerScope();
      if (inner != null) {
        inner.detach(buffer);
      }
      scratch[camera] = buffer;
    }
    Tensor x = buffer.narrow(0, 0, rows);
    x.copy_(frames);
    return x;
  }

  /** [B, C, H, W] → [B, 2C]: per channel, the softmax-weighted mean x, then the mean y. */
  private Tensor spatialSoftmax(int camera, Tensor features) {
    long b = features.size(0);
    long c = features.size(1);
    long h = features.size(2);
    long w = features.size(3);
    Tensor weights = features.reshape(b, c, h * w).softmax(2);
    Tensor[] xy = grids.get(camera);
    if (xy[0].size(0) != h * w) {
      throw new IllegalStateException(
          "camera " + camera + "'s feature map is " + h + "x" + w + ", not the configured size");
    }
    Tensor ex = weights.mul(xy[0]).sum(2);
    Tensor ey = weights.mul(xy[1]).sum(2);
    return torch.cat(new TensorVector(ex, ey), 1);
  }

  /** The x and y in [-1, 1] of every position of an h x w map, row-major. */
  private Tensor[] grid(long h, long w) {
    int n = Math.toIntExact(h * w);
    float[] xs = new float[n];
    float[] ys = new float[n];
    for (int y = 0; y < h; y++) {
      for (int x = 0; x < w; x++) {
        xs[y * (int) w + x] = w == 1 ? -1f : -1f + 2f * x / (w - 1);
        ys[y * (int) w + x] = h == 1 ? -1f : -1f + 2f * y / (h - 1);
      }
    }
    return new Tensor[] {
      Tensors.of(new long[] {n}, xs, device, false), Tensors.of(new long[] {n}, ys, device, false)
    };
  }

  @Override
  public void close() {
    parameters.values().forEach(Tensor::close);
    for (Tensor buffer : scratch) {
      if (buffer != null) {
        buffer.close();
      }
    }
    for (Tensor[] xy : grids) {
      xy[0].close();
      xy[1].close();
    }
  }
}
