/**
 * A visuomotor policy for DJL users, the model of the DJL training loop in docs/LIBRARY.md: {@link
 * org.robostream.djl.policy.VisuomotorPolicy} (a convolutional encoder with a spatial softmax per
 * camera, an MLP head predicting the action chunk) and {@link
 * org.robostream.djl.policy.MaskedL1Loss} (L1 without the padded positions of the chunk), shaped by
 * the core's {@link org.robostream.policy.PolicyConfig}. {@code robostream train} does not use it:
 * its trainer (same design, on libtorch through JavaCPP, with gradient all-reduce across ranks) is
 * robostream-torch's {@code org.robostream.torch.policy.PolicyTrainer}.
 */
package org.robostream.djl.policy;
