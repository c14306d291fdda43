/**
 * The JavaCPP binding of the native core ({@code librobostream_core.so}): {@link
 * org.robostream.nativecore.NativeCore} mirrors the C API one function each, {@link
 * org.robostream.nativecore.NativeStatus} is the one place native errors become Java exceptions,
 * and each native resource has one owning class ({@link org.robostream.nativecore.NativeHandle}:
 * idempotent close, a Cleaner only as a logging safety net). {@link org.robostream.nativecore.Cuda}
 * tells whether a GPU is usable and why not. Not exported (module descriptor): application code
 * uses the wrappers above it. Design: docs/NATIVE.md.
 */
package org.robostream.nativecore;
