package org.robostream.cli;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.robostream.bench.ProgressBar;
import org.robostream.dataset.DatasetSource;
import org.robostream.hub.HubDataset;
import org.robostream.hub.HubTraffic;
import org.robostream.hub.WarmPass;

/**
 * A bench run of a Hub dataset by its {@code --source}: which reads it makes, the warm pass of
 * {@code warmed_bucket}, and where its bytes came from. The client's traffic is read after opening,
 * after the warm pass and after the run, so the result splits it into those phases: the pass's
 * bytes and time are never the run's. Not thread-safe (the bench thread uses it).
 */
final class HubSourceRun {
  private final HubDataset hub;
  private final String source;
  private final HubTraffic.Snapshot opened;
  private HubTraffic.Snapshot runStart;
  private WarmPass.Result pass;
  private long passRetries;

  private HubSourceRun(HubDataset hub, String source) {
    this.hub = hub;
    this.source = source;
    this.opened = hub.http().traffic().snapshot();
    this.runStart = opened;
  }

  /** Starts counting once {@code hub} is open (its metadata and Parquet fetched). */
  static HubSourceRun opened(HubDataset hub, String source) {
    return new HubSourceRun(hub, source);
  }

  /**
   * What the loader streams: local_mirror reads the prewarmed mirror; hub, bucket and warmed_bucket
   * read every video over the network, even where a mirror holds a copy.
   */
  DatasetSource dataset() {
    return source.equals("local_mirror") ? hub : hub.overNetwork();
  }

  /** For warmed_bucket: reads every file the run touches once, before the run, and says so. */
  void warmIfAsked() {
    if (!source.equals("warmed_bucket")) {
      return;
    }
    long retries = hub.http().retries();
    ProgressBar bar = new ProgressBar(WarmPass.files(hub).size(), "warmed");
    AtomicInteger done = new AtomicInteger();
    pass = WarmPass.run(hub, f -> bar.update(done.incrementAndGet(), f));
    passRetries = hub.http().retries() - retries;
    runStart = hub.http().traffic().snapshot();
    System.err.printf(
        Locale.ROOT,
        "warm pass: %d files, %d bytes in %d requests over the network, %.2f s (not part of the"
            + " run)%n",
        pass.files(),
        pass.traffic().networkBytes(),
        pass.traffic().networkRequests(),
        pass.seconds());
  }

  /**
   * Adds to {@code result} the network counters of opening and the run (the warm pass left out),
   * {@code bytes_from} (per phase, by origin: repository, bucket, local_disk) and, after a warm
   * pass, {@code warm_pass} (its files, seconds, bytes, requests).
   */
  void addTo(Map<String, Object> result, long framesDelivered) {
    HubTraffic.Snapshot now = hub.http().traffic().snapshot();
    HubTraffic.Snapshot run = now.minus(runStart);
    long fetched = opened.networkBytes() + run.networkBytes();
    result.put("bytes_fetched", fetched);
    result.put("bytes_fetched_per_frame", framesDelivered == 0 ? 0 : fetched / framesDelivered);
    result.put("http_requests", opened.networkRequests() + run.networkRequests());
    result.put("http_retries", hub.http().retries() - passRetries);
    Map<String, Object> from = new LinkedHashMap<>();
    from.put("open", opened.toMap());
    if (pass != null) {
      from.put("warm_pass", pass.traffic().toMap());
    }
    from.put("run", run.toMap());
    result.put("bytes_from", from);
    if (pass != null) {
      Map<String, Object> warm = new LinkedHashMap<>();
      warm.put("files", pass.files());
      warm.put("seconds", Math.round(pass.seconds() * 100) / 100.0);
      warm.put("bytes", pass.traffic().networkBytes());
      warm.put("requests", pass.traffic().networkRequests());
      warm.put("retries", passRetries);
      result.put("warm_pass", warm);
    }
  }
}
