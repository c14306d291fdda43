/**
 * JMH microbenchmarks: colour conversion, sequential and random-access decoding, opening a dataset,
 * and what the Java layer adds: sample order and sharding, batch assembly, Arrow C Data export and
 * import, frame-cache reads, Hub block reads. Built and run by {@code scripts/jmh.sh
 * [--short|--full] [OUT_DIR]}; results and commands in docs/PERFORMANCE.md.
 */
package org.robostream.jmh;
