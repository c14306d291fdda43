/**
 * Synthetic LeRobot datasets ({@code make-dataset} and the tests' fixtures): {@link
 * org.robostream.dataset.synth.SyntheticDatasetWriter} writes valid v3.0 or v2.1 datasets with
 * camera-like, pattern or learnable content through the ffmpeg CLI, in the writers' conventions the
 * loader must accept (recorded timestamps, {@code to_timestamp} as the last frame, float64
 * vectors), optionally with LeRobot's language columns ({@link
 * org.robostream.dataset.synth.LanguageColumnWriter}). Depends on no other robostream code.
 */
package org.robostream.dataset.synth;
