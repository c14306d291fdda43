package org.robostream.hub;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.dataset.DatasetException;
import org.robostream.dataset.V30MetadataTestAccess;
import org.robostream.testing.Datasets;
import org.robostream.testing.Fixtures;
import org.robostream.testing.HubServer;

/**
 * A Hub dataset missing a camera's videos (as GR00T's demo data is published): refused when it is
 * opened, from the tree listings of its folders alone — one listing per folder, no request per
 * file, no Parquet fetched — naming the files and the camera selection that is there; with that
 * selection it opens, and the absent camera is not listed or read.
 */
class HubSelectionTest {
  static final String TOP = "observation.images.top";
  static final String WRIST = "observation.images.wrist";

  @TempDir static Path tmp;
  @AutoClose static HubServer hub;

  @BeforeAll
  static void startHub() throws Exception {
    Path dataset = tmp.resolve("no-wrist");
    V30MetadataTestAccess.copyTree(Datasets.patternV30(), dataset);
    Fixtures.deleteTree(dataset.resolve("videos/" + WRIST));
    hub = HubServer.start(tmp.resolve("nginx"), dataset);
  }

  @Test
  void aCameraWithoutVideosIsRefusedFromTheListingsNamingTheCamerasThatAreThere() throws Exception {
    HubHttp http = HubServer.client(hub.endpoint(), tmp.resolve("cache-all"));
    long logStart = hub.mark();
    DatasetException.MissingFile e =
        assertThrows(
            DatasetException.MissingFile.class,
            () ->
                HubDataset.prepare(
                    http, HubServer.REPO, null, null, Optional.empty(), Optional.empty(), f -> {}));
    assertTrue(e.file().startsWith("hf://datasets/" + HubServer.REPO + "@"), e.file());
    String m = e.getMessage();
    assertTrue(m.contains("videos/" + WRIST + "/chunk-000/file-000.mp4"), m);
    assertTrue(m.contains("select what is here with cameras(\"" + TOP + "\")"), m);
    List<String> requests = hub.requestsSince("hub.log", logStart);
    assertTrue(
        requests.stream().noneMatch(r -> r.contains("/resolve/") && r.contains("/data/")),
        "no data file fetched: " + requests);
    assertEquals(
        3,
        requests.stream().filter(r -> r.contains("/tree/") && !r.contains("/meta")).count(),
        "one listing per folder (data, top, wrist): " + requests);
  }

  @Test
  void theCamerasThatAreThereOpenAndTheOtherIsNotListed() throws Exception {
    HubHttp http = HubServer.client(hub.endpoint(), tmp.resolve("cache-top"));
    long logStart = hub.mark();
    HubDataset ds =
        HubDataset.prepare(
            http, HubServer.REPO, null, null, Optional.empty(), Optional.of(List.of(TOP)), f -> {});
    assertEquals(List.of(TOP), ds.metadata().cameras());
    assertTrue(hub.requestsSince("hub.log", logStart).stream().noneMatch(r -> r.contains(WRIST)));
  }
}
