package org.robostream.djl.policy;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.AbstractBlock;
import ai.djl.nn.Activation;
import ai.djl.nn.convolutional.Conv2d;
import ai.djl.training.ParameterStore;
import ai.djl.util.PairList;

/**
 * One camera's encoder: three convolutions (5x5 stride 2, 3x3 stride 2, 3x3; ReLU after each) and a
 * spatial softmax that turns each of the last layer's {@code channels} feature maps into the
 * expected (x, y) of its activation, in [-1, 1]: {@code 2 x channels} features that say where
 * things are, which is what a visuomotor policy needs (Levine et al. 2016; robomimic's and
 * diffusion policy's image encoders end the same way). The spatial softmax has no weights and works
 * at any input size. Input: [B, C, H, W] float32; output: [B, 2 x channels]. Not thread-safe (a DJL
 * block).
 */
final class CameraEncoder extends AbstractBlock {
  private final int channels;
  private final Conv2d conv1;
  private final Conv2d conv2;
  private final Conv2d conv3;

  CameraEncoder(int channels) {
    this.channels = channels;
    conv1 = addChildBlock("conv1", conv(5, 2, 2, channels / 2));
    conv2 = addChildBlock("conv2", conv(3, 2, 1, channels));
    conv3 = addChildBlock("conv3", conv(3, 1, 1, channels));
  }

  private static Conv2d conv(int kernel, int stride, int padding, int filters) {
    return Conv2d.builder()
        .setKernelShape(new Shape(kernel, kernel))
        .optStride(new Shape(stride, stride))
        .optPadding(new Shape(padding, padding))
        .setFilters(filters)
        .build();
  }

  @Override
  protected NDList forwardInternal(
      ParameterStore ps, NDList inputs, boolean training, PairList<String, Object> params) {
    NDList x = inputs;
    for (Conv2d conv : new Conv2d[] {conv1, conv2, conv3}) {
      x = new NDList(Activation.relu(conv.forward(ps, x, training).singletonOrThrow()));
    }
    return new NDList(spatialSoftmax(x.singletonOrThrow()));
  }

  /** [B, C, H, W] → [B, 2C]: per channel, the softmax-weighted mean x and y in [-1, 1]. */
  static NDArray spatialSoftmax(NDArray features) {
    Shape s = features.getShape();
    long b = s.get(0);
    long c = s.get(1);
    long h = s.get(2);
    long w = s.get(3);
    NDManager m = features.getManager();
    NDArray weights = features.reshape(b, c, h * w).softmax(2);
    // Coordinates of every position, row-major like the flattened maps.
    NDArray xs = m.linspace(-1f, 1f, (int) w).tile(h).toDevice(features.getDevice(), false);
    NDArray ys = m.linspace(-1f, 1f, (int) h).repeat(w).toDevice(features.getDevice(), false);
    NDArray ex = weights.mul(xs).sum(new int[] {2});
    NDArray ey = weights.mul(ys).sum(new int[] {2});
    return ex.concat(ey, 1);
  }

  @Override
  public Shape[] getOutputShapes(Shape[] inputShapes) {
    return new Shape[] {new Shape(inputShapes[0].get(0), 2L * channels)};
  }

  @Override
  protected void initializeChildBlocks(NDManager manager, DataType dataType, Shape... inputShapes) {
    Shape[] shapes = inputShapes;
    for (Conv2d conv : new Conv2d[] {conv1, conv2, conv3}) {
      conv.initialize(manager, dataType, shapes);
      shapes = conv.getOutputShapes(shapes);
    }
  }
}
