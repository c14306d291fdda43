package org.robostream.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.robostream.nativecore.NativeResources;
import org.robostream.testing.LoaderSettings;
import org.robostream.testing.NativeLeakCheck;

/**
 * {@code close()} while the consumer still holds batches. Batches belong to the consumer until it
 * closes them ({@link Batch}, {@link StreamingDataset}): they stay readable, with the frames they
 * had, after the dataset is closed, and closing them then frees the rest (Arrow bytes, native pool
 * buffers; {@link NativeLeakCheck} checks native objects and bytes after each case).
 */
@ExtendWith(NativeLeakCheck.class)
class OutstandingBatchesTest {

  @ParameterizedTest(name = "device batches {0}")
  @ValueSource(booleans = {false, true})
  void heldBatchesStayReadableAfterCloseAndFreeEverythingWhenClosed(boolean deviceBatches) {
    long nativeBytesBefore = NativeResources.liveBytes();
    StreamingDataset ds = LoaderSettings.twoWorkerEpoch().deviceBatches(deviceBatches).build();
    List<String> cameras = ds.metadata().info().videoKeys();
    List<Batch> held = new ArrayList<>();
    Iterator<Batch> batches = ds.iterator();
    for (int i = 0; i < 3; i++) {
      held.add(batches.next());
    }
    ds.close();

    assertTrue(ds.outstandingBatchBytes() > 0, "the held batches' table columns are alive");
    if (deviceBatches) {
      assertTrue(
          NativeResources.liveBytes() > nativeBytesBefore,
          "the held batches' frames keep their pool buffers");
    }
    Set<Long> samples = new HashSet<>();
    for (Batch b : held) {
      assertEquals(8, b.size());
      samples.addAll(PatternSamples.checked(b, cameras));
    }
    assertEquals(3 * 8, samples.size(), "three batches of distinct samples");

    held.forEach(Batch::close);
    assertEquals(0, ds.outstandingBatchBytes(), "closing the batches freed their Arrow memory");
    assertEquals(
        nativeBytesBefore,
        NativeResources.liveBytes(),
        "and their native buffers, the pools being closed already");
  }
}
