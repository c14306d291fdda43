/**
 * {@code robostream train}'s loop ({@link org.robostream.train.TrainRun}): batches from the loader
 * into the libtorch trainer, metrics per logging window (data wait, model step, all-reduce share),
 * checkpoints ({@link org.robostream.train.Checkpoint}: the model, the optimizer and the loader's
 * state, complete only when every rank's part is written) and exact resume. One training thread per
 * process. Design: docs/BENCHMARK.md and docs/TRAINING.md.
 */
package org.robostream.train;
