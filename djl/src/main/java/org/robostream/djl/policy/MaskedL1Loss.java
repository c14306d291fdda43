package org.robostream.djl.policy;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.types.DataType;
import ai.djl.training.loss.Loss;

/**
 * The L1 loss of an action chunk with its padding left out, as ACT-style policies train: labels are
 * the target chunk [B, T, D] and, optionally, its {@code action_is_pad} mask [B, T] (true where the
 * window ran past the episode's end and the target repeats its last row); predictions are [B, T,
 * D]. The loss is the mean absolute error over the positions that are not padding (every dimension
 * of each), 0 when every position is. Stateless, thread-safe.
 */
public final class MaskedL1Loss extends Loss {
  public MaskedL1Loss() {
    super("masked_l1");
  }

  @Override
  public NDArray evaluate(NDList labels, NDList predictions) {
    NDArray target = labels.get(0);
    NDArray error = predictions.singletonOrThrow().sub(target).abs();
    if (labels.size() < 2) {
      return error.mean();
    }
    NDArray valid = labels.get(1).logicalNot().toType(DataType.FLOAT32, false);
    long dims = target.getShape().get(2);
    NDArray kept = error.mul(valid.expandDims(2)).sum();
    NDArray count = valid.sum().mul((float) dims).maximum(1f);
    return kept.div(count);
  }
}
