package org.robostream.djl.policy;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDArrays;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.AbstractBlock;
import ai.djl.nn.Activation;
import ai.djl.nn.Block;
import ai.djl.nn.SequentialBlock;
import ai.djl.nn.core.Linear;
import ai.djl.nn.pooling.Pool;
import ai.djl.training.ParameterStore;
import ai.djl.util.PairList;
import java.util.ArrayList;
import java.util.List;
import org.robostream.policy.CameraInput;
import org.robostream.policy.PolicyConfig;

/**
 * A small visuomotor policy: per camera a {@link CameraEncoder} (its frame averaged down to about
 * 64 pixels a side first, scaled to [0, 1] and centred), the features of every camera and the
 * normalised state concatenated, and an MLP head (two hidden ReLU layers) predicting the whole
 * normalised action chunk, [B, actionSteps, actionDim], as ACT-style policies do.
 *
 * <p>Inputs, in this order: each camera's frames [B, C, H, W] as the batch holds them (uint8,
 * uint16 or float32; converted here, on the model's device), then the normalised state [B, D] when
 * the config has one. Not thread-safe (a DJL block).
 */
public final class VisuomotorPolicy extends AbstractBlock {
  private final PolicyConfig config;
  private final List<CameraEncoder> encoders = new ArrayList<>();
  private final SequentialBlock head;

  public VisuomotorPolicy(PolicyConfig config) {
    this.config = config;
    for (int i = 0; i < config.cameras().size(); i++) {
      encoders.add(addChildBlock("camera" + i, new CameraEncoder(config.encoderChannels())));
    }
    head =
        addChildBlock(
            "head",
            new SequentialBlock()
                .add(Linear.builder().setUnits(config.hidden()).build())
                .add(Activation::relu)
                .add(Linear.builder().setUnits(config.hidden()).build())
                .add(Activation::relu)
                .add(
                    Linear.builder()
                        .setUnits((long) config.actionSteps() * config.actionDimension())
                        .build()));
  }

  public PolicyConfig config() {
    return config;
  }

  /** The shapes {@link ai.djl.training.Trainer#initialize} takes, for a batch of {@code rows}. */
  public Shape[] inputShapes(int rows) {
    List<Shape> shapes = new ArrayList<>();
    for (CameraInput c : config.cameras()) {
      shapes.add(new Shape(rows, c.channels(), c.height(), c.width()));
    }
    if (config.stateDimension() > 0) {
      shapes.add(new Shape(rows, config.stateDimension()));
    }
    return shapes.toArray(Shape[]::new);
  }

  @Override
  protected NDList forwardInternal(
      ParameterStore ps, NDList inputs, boolean training, PairList<String, Object> params) {
    int cameras = config.cameras().size();
    NDList features = new NDList(cameras + 1);
    for (int i = 0; i < cameras; i++) {
      NDArray x = encoderInput(config.cameras().get(i), inputs.get(i));
      features.add(encoders.get(i).forward(ps, new NDList(x), training).singletonOrThrow());
    }
    if (config.stateDimension() > 0) {
      features.add(inputs.get(cameras));
    }
    NDArray joined = features.size() == 1 ? features.get(0) : NDArrays.concat(features, 1);
    NDArray out = head.forward(ps, new NDList(joined), training).singletonOrThrow();
    return new NDList(
        out.reshape(out.getShape().get(0), config.actionSteps(), config.actionDimension()));
  }

  /**
   * Frames as the batch holds them → float32 in [-0.5, 0.5], averaged down by the pool factor
   * first: one full-size float tensor per camera (the cast), every later one small.
   */
  private static NDArray encoderInput(CameraInput camera, NDArray frames) {
    NDArray x = frames.toType(DataType.FLOAT32, false);
    if (camera.pool() > 1) {
      Shape k = new Shape(camera.pool(), camera.pool());
      x = Pool.avgPool2d(x, k, k, new Shape(0, 0), false, true);
    }
    return x.mul(camera.unitScale()).sub(0.5f);
  }

  private static Shape pooled(CameraInput camera, long rows) {
    return new Shape(
        rows, camera.channels(), camera.height() / camera.pool(), camera.width() / camera.pool());
  }

  @Override
  public Shape[] getOutputShapes(Shape[] inputShapes) {
    return new Shape[] {
      new Shape(inputShapes[0].get(0), config.actionSteps(), config.actionDimension())
    };
  }

  @Override
  protected void initializeChildBlocks(NDManager manager, DataType dataType, Shape... inputShapes) {
    long rows = inputShapes[0].get(0);
    long width = 0;
    for (int i = 0; i < encoders.size(); i++) {
      Shape in = pooled(config.cameras().get(i), rows);
      Block encoder = encoders.get(i);
      encoder.initialize(manager, dataType, in);
      width += encoder.getOutputShapes(new Shape[] {in})[0].get(1);
    }
    width += config.stateDimension();
    head.initialize(manager, dataType, new Shape(rows, width));
  }
}
