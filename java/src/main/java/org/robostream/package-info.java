/**
 * The library's root: the exception hierarchy every typed error descends from ({@link
 * org.robostream.RobostreamException}, {@link org.robostream.FileException}, {@link
 * org.robostream.NativeException}, {@link org.robostream.GpuUnavailableException}) and {@link
 * org.robostream.NativeCacheLock}, which makes JavaCPP's extraction of native libraries safe for
 * processes started together. The lowest layer (docs/ARCHITECTURE.md, "Layers").
 */
package org.robostream;
