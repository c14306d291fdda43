/**
 * The visuomotor policy example {@code robostream train} runs, on DJL's PyTorch engine: {@link
 * org.robostream.djl.policy.VisuomotorPolicy} (a convolutional encoder with a spatial softmax per
 * camera, an MLP head predicting the action chunk), {@link org.robostream.djl.policy.MaskedL1Loss}
 * (L1 without the padded positions of the chunk), {@link org.robostream.djl.policy.ResumableAdam}
 * (Adam whose state is saved) and {@link org.robostream.djl.policy.PolicyTrainer}, which ties them
 * to robostream's DJL batches and writes and restores checkpoints.
 */
package org.robostream.djl.policy;
