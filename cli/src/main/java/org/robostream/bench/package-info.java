/**
 * The data-loading benchmark behind {@code robostream bench}: {@link
 * org.robostream.bench.StreamingBenchmark} times a window of batches after a warm-up, counts only
 * the work done inside it (decoded frames, frames served by the cache) and flags a window served
 * from memory; baselines (the ffmpeg CLI, sequential decoding), the consumer's move to the training
 * device, result files and the summarizer's table and chart. Metrics: docs/BENCHMARK.md.
 */
package org.robostream.bench;
