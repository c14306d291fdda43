package org.robostream.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.robostream.nativecore.NativeResources;

/** Fails a test that leaves native objects or native batch bytes alive. */
public final class NativeLeakCheck implements BeforeEachCallback, AfterEachCallback {
  private static final ExtensionContext.Namespace NS =
      ExtensionContext.Namespace.create(NativeLeakCheck.class);

  @Override
  public void beforeEach(ExtensionContext context) {
    context.getStore(NS).put("objects", NativeResources.liveObjects());
    context.getStore(NS).put("bytes", NativeResources.liveBytes());
  }

  @Override
  public void afterEach(ExtensionContext context) {
    long objects = context.getStore(NS).get("objects", Long.class);
    long bytes = context.getStore(NS).get("bytes", Long.class);
    assertEquals(objects, NativeResources.liveObjects(), "live native objects leaked");
    assertEquals(bytes, NativeResources.liveBytes(), "native batch bytes leaked");
  }
}
