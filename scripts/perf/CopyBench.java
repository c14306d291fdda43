// The consumer's copy behind docs/CHANGELOG.md "Dataset shapes at the defaults" (the libc memcpy
// tried instead of ByteBuffer.put): one thread copies a 59 MB direct buffer (a 640x480 uint8 batch
// of 64) 20 times each way, 3 rounds.
//   java -cp "$(ls cli/target/lib/javacpp-*.jar | tr '\n' :)" scripts/perf/CopyBench.java
import java.nio.ByteBuffer;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Pointer;

public class CopyBench {
  public static void main(String[] a) {
    int n = 59_000_000;
    ByteBuffer src = ByteBuffer.allocateDirect(n);
    ByteBuffer dst = ByteBuffer.allocateDirect(n);
    for (int i = 0; i < n; i += 4096) {
      src.put(i, (byte) i); // every page faulted in before the clock starts
      dst.put(i, (byte) i);
    }
    for (int round = 0; round < 3; round++) {
      long t0 = System.nanoTime();
      for (int i = 0; i < 20; i++) {
        dst.clear();
        dst.put(src.duplicate());
      }
      long t1 = System.nanoTime();
      for (int i = 0; i < 20; i++) {
        Pointer.memcpy(new BytePointer(dst).position(0), new BytePointer(src), n);
      }
      long t2 = System.nanoTime();
      System.out.printf(
          "ByteBuffer.put %.2f GB/s, memcpy %.2f GB/s%n",
          20.0 * n / (t1 - t0), 20.0 * n / (t2 - t1));
    }
  }
}
