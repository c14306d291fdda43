// The convolution step behind docs/PERFORMANCE.md "OpenBLAS under libtorch's threads": 20 forward +
// backward passes of a 64x3x64x64 batch through 16 5x5 filters, 3 rounds, in a fresh JVM.
//   CP=trainer/target/robostream-torch-0.1.0-SNAPSHOT.jar:$(ls cli/target/lib/*.jar | grep -v robostream-torch | tr "\n" :)
//   java -cp $CP scripts/perf/ConvBench.java          # as TorchNatives loads libtorch
//   java -cp $CP scripts/perf/ConvBench.java old      # libtorch loaded as before the fix
//   T=1 / OB1=1 / OPENBLAS_NUM_THREADS=1 / OMP_WAIT_POLICY=passive: the variants measured
import org.bytedeco.pytorch.*;
import org.bytedeco.pytorch.global.torch;
public class ConvBench {
  public static void main(String[] a) throws Exception {
    if (a.length > 0 && a[0].equals("old")) {
      org.bytedeco.javacpp.Loader.load(torch.class);
      torch.globalContext().setUserEnabledMkldnn(false);
    } else {
      org.robostream.torch.TorchNatives.load();
      if (System.getenv("OB1") != null) org.bytedeco.openblas.presets.openblas_nolapack.blas_set_num_threads(1);
      System.out.println("blas threads " + org.bytedeco.openblas.presets.openblas_nolapack.blas_get_num_threads());
    }
    if (System.getenv("T") != null) torch.set_num_threads(Integer.parseInt(System.getenv("T")));
    System.out.println("threads " + torch.get_num_threads());
    Tensor x = torch.randn(64, 3, 64, 64);
    Tensor w = torch.randn(16, 3, 5, 5).requires_grad_(true);
    for (int round = 0; round < 3; round++) {
      long t = System.nanoTime();
      for (int i = 0; i < 20; i++) {
        Tensor y = torch.conv2d(x, w);
        y.sum().backward();
      }
      System.out.println("20 conv fwd+bwd: " + (System.nanoTime() - t) / 1e6 + " ms");
    }
  }
}
