/**
 * The Python bridge's entry ({@code python/robostream}): a loader's options as one JSON document
 * in, a {@link org.robostream.stream.StreamingDataset} or a description of the dataset as JSON out.
 *
 * <p>Why one JSON document rather than builder calls from Python: the same options open a loader in
 * the Python process (through JPype) and describe the dataset in a short-lived helper JVM ({@link
 * org.robostream.bridge.PythonBridge#main}), which is how the Python side reads metadata without
 * starting a JVM in a process that may still fork (a JVM does not survive {@code fork()}). One
 * parser serves both, so the two cannot disagree about what an option means.
 *
 * <p>Not exported by the module: only the Python package calls it, from the class path.
 */
package org.robostream.bridge;
