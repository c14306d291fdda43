/**
 * JMH microbenchmarks: colour conversion, sequential and random-access decoding, opening a dataset.
 * Run with {@code java --add-opens=java.base/java.nio=ALL-UNNAMED -jar jmh/target/benchmarks.jar};
 * results and commands in docs/PERFORMANCE.md.
 */
package org.robostream.jmh;
