package org.robostream.torch;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.bytedeco.javacpp.Loader;
import org.bytedeco.openblas.presets.openblas_nolapack;
import org.bytedeco.pytorch.global.torch;
import org.robostream.NativeCacheLock;

/**
 * Loads libtorch (JavaCPP's PyTorch presets) once per JVM, under the cross-process {@link
 * NativeCacheLock}: ranks started together must not extract the same 90 MB of natives at once. Call
 * {@link #load} before any other {@code org.bytedeco.pytorch} class is touched. Turns oneDNN off
 * (see {@link #load}'s comment): every convolution runs on libtorch's own kernels; and keeps
 * OpenBLAS single-threaded under libtorch's OpenMP threads. Thread-safe.
 */
public final class TorchNatives {
  private static volatile boolean loaded;

  private TorchNatives() {}

  /** Loads the natives (idempotent). */
  public static void load() {
    if (loaded) {
      return;
    }
    synchronized (TorchNatives.class) {
      if (!loaded) {
        NativeCacheLock.whileHolding(
            () -> {
              extractAll();
              return Loader.load(torch.class);
            });
        // oneDNN's convolution backward in this build (libtorch 2.10.0, JavaCPP 1.5.13, CPU)
        // returns NaN weight gradients now and then for the policy's small convolutions: 7-19
        // of 300 steps measured here, 0 of 900 with it off. libtorch's own kernels are exact.
        torch.globalContext().setUserEnabledMkldnn(false);
        // libtorch parallelises inside an operation with OpenMP and calls OpenBLAS from those
        // threads; OpenBLAS's own thread pool then runs beside them, and its spinning workers
        // oversubscribe the cores: a 64x3x64x64 convolution's forward and backward took 640 ms
        // with both pools on 2 cores, 90 ms with OpenBLAS single-threaded (as PyTorch's own
        // builds keep BLAS under its intra-op threads).
        openblas_nolapack.blas_set_num_threads(1);
        loaded = true;
      }
    }
  }

  /**
   * Extracts every native library of the presets libtorch needs into JavaCPP's cache before the
   * first is loaded. Loader.load extracts and loads one library at a time, libtorch.so before
   * libtorch_cpu.so: on a fresh cache the dynamic linker then resolves libtorch.so's dependency
   * libtorch_cpu.so through the system's library path, and where a system libtorch is installed
   * (Debian's libtorch-dev, which python3-torch recommends, puts libtorch_cpu.so 1.13 in /usr/lib)
   * two libtorch versions end up in the JVM, which crashes (SIGSEGV in pthread_mutex_lock,
   * reproduced). With the whole folder extracted first, every dependency resolves beside its
   * dependent ($ORIGIN).
   */
  private static void extractAll() {
    String platform = Loader.getPlatform();
    for (String preset : new String[] {"openblas", "pytorch"}) {
      try {
        Loader.cacheResources(torch.class, "/org/bytedeco/" + preset + "/" + platform + "/");
      } catch (IOException e) {
        throw new UncheckedIOException(
            "cannot extract JavaCPP's " + preset + " natives for " + platform, e);
      }
    }
  }

  /** Whether libtorch sees a CUDA device (false with the CPU natives the build ships). */
  public static boolean cudaAvailable() {
    load();
    return torch.cuda_is_available();
  }
}
