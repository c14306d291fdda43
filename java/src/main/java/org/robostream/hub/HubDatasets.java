package org.robostream.hub;

import org.robostream.dataset.DatasetSource;
import org.robostream.dataset.DatasetSourceProvider;
import org.robostream.dataset.SourceOptions;

/**
 * Hub locations for {@link DatasetSource#open}: {@code hf://...} URLs, and {@code OWNER/NAME} or
 * {@code OWNER/NAME@REVISION} that name no local folder. Registered in {@code META-INF/services},
 * so the loader reaches the Hub without depending on this package. Stateless.
 */
public final class HubDatasets implements DatasetSourceProvider {
  @Override
  public boolean accepts(String location) {
    return HubLocation.isHubUrl(location) || location.matches(HubLocation.ID + "(@[^/]+)?");
  }

  @Override
  public DatasetSource open(String location, SourceOptions options) {
    return HubDataset.open(location, options);
  }
}
