/**
 * libtorch through JavaCPP's PyTorch presets: {@link org.robostream.torch.TorchNatives} loads it
 * once per JVM (under the native cache lock, every preset library extracted first, oneDNN off,
 * OpenBLAS single-threaded under libtorch's threads). Design: docs/TRAINING.md.
 */
package org.robostream.torch;
