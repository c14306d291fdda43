package org.robostream.cli;

import org.robostream.nativecore.NativeResources;
import picocli.CommandLine.IVersionProvider;

/** Reports the Java package version and the native core's version. */
final class VersionProvider implements IVersionProvider {
  @Override
  public String[] getVersion() {
    String java = Main.class.getPackage().getImplementationVersion();
    return new String[] {
      "robostream "
          + (java != null ? java : "dev")
          + " (native core "
          + NativeResources.coreVersion()
          + ")"
    };
  }
}
