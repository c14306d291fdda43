/**
 * The policy {@code train} runs on libtorch: {@link org.robostream.torch.policy.VisuomotorPolicy}
 * (a conv encoder per camera and an MLP head), {@link org.robostream.torch.policy.Adam} with
 * resumable state, {@link org.robostream.torch.policy.PolicyTrainer} (steps, all-reduced gradients,
 * checkpoints) and {@link org.robostream.torch.policy.SafeTensors} (checkpoint files, read as
 * hostile input). Not thread-safe: one training thread. Design: docs/TRAINING.md.
 */
package org.robostream.torch.policy;
