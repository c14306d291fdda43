package org.robostream.torch.dist;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.bytedeco.javacpp.SizeTPointer;
import org.bytedeco.javacpp.chrono.Milliseconds;
import org.bytedeco.pytorch.AllreduceOptions;
import org.bytedeco.pytorch.DeviceOptional;
import org.bytedeco.pytorch.GlooDeviceVector;
import org.bytedeco.pytorch.PrefixStore;
import org.bytedeco.pytorch.ProcessGroupGloo;
import org.bytedeco.pytorch.ReduceOp;
import org.bytedeco.pytorch.Scalar;
import org.bytedeco.pytorch.Store;
import org.bytedeco.pytorch.TCPStore;
import org.bytedeco.pytorch.TCPStoreOptions;
import org.bytedeco.pytorch.Tensor;
import org.bytedeco.pytorch.TensorOptions;
import org.bytedeco.pytorch.TensorVector;
import org.bytedeco.pytorch.Work;
import org.bytedeco.pytorch.global.torch;
import org.robostream.torch.TorchNatives;

/**
 * Synchronous data parallelism over libtorch's c10d, as PyTorch's DDP: rank 0 serves a {@code
 * TCPStore} behind its {@link StoreFront} at the {@link Rendezvous}, reached through a {@link
 * StoreTunnel} that proves the job's secret; ranks join a process group (Gloo for host tensors,
 * NCCL for CUDA), start from rank 0's parameters ({@link #broadcastFromRankZero}), and each step
 * sum gradients in {@link #BUCKET_BYTES} buckets divided by the ranks that trained ({@link
 * #averageGradients}). A rank with only padding joins with weight 0, keeping collectives matched.
 *
 * <p>A rank missing the timeout, or a peer dying mid all-reduce, is a {@link DistributedException}
 * naming the rendezvous; nothing hangs past the timeout. One training thread, blocked by
 * collectives. Owns the store and group ({@link #close}).
 */
public final class DataParallel implements AutoCloseable {
  /** DDP's default bucket size. */
  public static final long BUCKET_BYTES = 25L << 20;

  /** Which c10d backend runs the collectives. */
  public enum Backend {
    /** Host-memory tensors (the CPU trainer). */
    GLOO,
    /** CUDA tensors; needs JavaCPP's linux-x86_64-gpu natives and a GPU per rank. */
    NCCL
  }

  private final Rendezvous rendezvous;
  private final Duration timeout;
  private final Meeting meeting;
  private final org.bytedeco.pytorch.Backend group;
  private long allReduceNanos;
  private long allReduces;

  private DataParallel(
      Rendezvous rendezvous,
      Duration timeout,
      Meeting meeting,
      org.bytedeco.pytorch.Backend group) {
    this.rendezvous = rendezvous;
    this.timeout = timeout;
    this.meeting = meeting;
    this.group = group;
  }

  /**
   * The store this rank meets the others through, and its way there: rank 0's {@link StoreFront}
   * and every rank's {@link StoreTunnel} (rank 0's own client comes through one too). Closing
   * closes the front first (it must not touch the store's descriptor once the store closed it),
   * then the store, then the tunnel.
   */
  record Meeting(Store store, StoreFront front, StoreTunnel tunnel) implements AutoCloseable {
    @Override
    public void close() {
      if (front != null) {
        front.close();
      }
      store.close();
      Relay.closeQuietly(tunnel);
      if (front != null && front.refused() > 0) {
        System.err.println(
            "robostream: rank 0 closed "
                + front.refused()
                + " connection(s) at its rendezvous port that did not prove the job's secret");
      }
    }
  }

  /** One rank alone: every call is local, nothing is sent. */
  public static DataParallel single() {
    return new DataParallel(Rendezvous.single(), Duration.ZERO, null, null);
  }

  /**
   * Meets the other ranks at {@code rendezvous} (a world of one meets nobody). Blocks until every
   * rank has arrived and proven the job's secret, and rank 0 found every rank's world size and
   * settings equal to its own ({@link Handshake}); only then is the process group made, its keys
   * under the job's namespace.
   *
   * @param timeout how long to wait for every rank to arrive, and for each collective
   * @param job the secret, identity and settings the ranks prove and compare
   * @throws DistributedException when a rank does not arrive within {@code timeout} (nor rank 0's
   *     store answer), a peer does not prove the secret, or the ranks' settings differ
   */
  public static DataParallel join(
      Rendezvous rendezvous, Backend backend, Duration timeout, JobCheck job) {
    if (rendezvous.world() == 1) {
      return new DataParallel(rendezvous, timeout, null, null);
    }
    TorchNatives.load();
    Milliseconds ms = new Milliseconds(Math.max(1, timeout.toMillis()));
    Meeting meeting = openStore(rendezvous, job, timeout, ms);
    Store store = meeting.store();
    org.bytedeco.pytorch.Backend group;
    try {
      Handshake.run(store, rendezvous, job, timeout);
      Store jobs = new PrefixStore(Handshake.namespace(job) + "pg", store);
      group =
          backend == Backend.NCCL
              ? NcclGroups.create(jobs, rendezvous, ms)
              : glooWithin(jobs, rendezvous, timeout, ms);
    } catch (GlooStuck e) {
      // While a thread still connects, the store stays open: that thread uses it.
      if (!e.connecting) {
        meeting.close();
      }
      throw e.failure;
    } catch (DistributedException e) {
      meeting.close();
      throw e;
    } catch (RuntimeException e) {
      meeting.close();
      throw new DistributedException(
          rendezvous.describe()
              + ": not every rank arrived within "
              + seconds(timeout)
              + " (--dist-timeout); every rank of the world must start with the same"
              + " MASTER_ADDR/MASTER_PORT ("
              + DistributedException.firstLine(e)
              + ")",
          e);
    }
    if (backend == Backend.GLOO) {
      // Gloo's pairs are connected now and never use the store again: once every rank is past
      // the constructor (the barrier), rank 0 stops serving it, so nobody can fill or wedge it
      // while the job trains (NCCL makes its communicators at the first collective: kept).
      DataParallel joined = new DataParallel(rendezvous, timeout, null, group);
      try {
        joined.barrier("the end of the rendezvous");
      } finally {
        meeting.close();
      }
      return joined;
    }
    return new DataParallel(rendezvous, timeout, meeting, group);
  }

  /**
   * Rank 0's store (served by rank 0, joined by the others), within the timeout. The store listens
   * on the loopback only, behind rank 0's {@link StoreFront}; the others' clients reach it through
   * a {@link StoreTunnel} that proves the job's secret first. libtorch's client waits without end
   * for an answer from whatever it reaches, so the store is made on a thread of its own and given
   * up on at the timeout (that thread, stuck in native code, is a daemon: it does not keep the
   * process alive).
   */
  static Meeting openStore(Rendezvous rendezvous, JobCheck job, Duration timeout, Milliseconds ms) {
    boolean serving = rendezvous.rank() == 0;
    if (serving) {
      loopbackAcrossNodes(rendezvous, Rendezvous.nodes(System.getenv()));
    }
    StoreFront front = null;
    StoreTunnel tunnel;
    try {
      if (serving) {
        front = StoreFront.open(rendezvous, job, timeout);
        tunnel = ownTunnel(front, rendezvous, job, timeout);
      } else {
        tunnel = StoreTunnel.open(rendezvous, job, timeout);
      }
    } catch (java.io.IOException e) {
      Relay.closeQuietly(front);
      throw new DistributedException(
          rendezvous.describe()
              + ": "
              + (serving
                  ? "cannot serve the rendezvous (is the port in use? set MASTER_PORT)"
                  : "cannot reach the rendezvous")
              + " ("
              + e
              + ")",
          e);
    }
    String host = tunnel.address().getHostAddress();
    int port = tunnel.port();
    int listening = serving ? front.storeFd() : -1;
    java.util.concurrent.FutureTask<Store> making =
        new java.util.concurrent.FutureTask<>(
            () -> {
              TCPStoreOptions options = new TCPStoreOptions();
              options
                  .port((short) port)
                  .isServer(serving)
                  .numWorkers(new SizeTPointer(1).put(rendezvous.world()))
                  .waitWorkers(false)
                  .timeout(ms);
              if (serving) {
                options.masterListenFd(new org.bytedeco.pytorch.IntOptional(listening));
              }
              return new TCPStore(host, options);
            });
    Thread t = new Thread(making, "robostream-rendezvous");
    t.setDaemon(true);
    t.start();
    StoreTunnel carrying = tunnel;
    StoreFront door = front;
    Runnable giveUp =
        () -> {
          Relay.closeQuietly(door);
          Relay.closeQuietly(carrying);
        };
    try {
      return new Meeting(
          making.get(timeout.toMillis() + 2000, java.util.concurrent.TimeUnit.MILLISECONDS),
          front,
          tunnel);
    } catch (java.util.concurrent.TimeoutException e) {
      giveUp.run();
      throw new DistributedException(
          rendezvous.describe()
              + ": "
              + (carrying.failure() != null
                  ? carrying.failure()
                  : "rank 0's store did not answer within "
                      + seconds(timeout)
                      + " (--dist-timeout): is something else listening at that port? (set"
                      + " MASTER_PORT)"));
    } catch (InterruptedException e) {
      giveUp.run();
      Thread.currentThread().interrupt();
      throw new DistributedException(rendezvous.describe() + ": interrupted at the rendezvous", e);
    } catch (java.util.concurrent.ExecutionException e) {
      giveUp.run();
      Throwable cause = e.getCause();
      throw new DistributedException(
          rendezvous.describe()
              + ": "
              + (carrying.failure() != null
                  ? carrying.failure()
                  : serving
                      ? "cannot serve the rendezvous ("
                          + DistributedException.firstLine(cause)
                          + ")"
                      : "rank 0 did not answer within "
                          + seconds(timeout)
                          + " ("
                          + DistributedException.firstLine(cause)
                          + ")"),
          cause);
    }
  }

  /**
   * Rank 0's own tunnel. libtorch's client connects to the port its server listens at, and the
   * store's listener at 127.0.0.1 admits only the front's relays; so rank 0's client goes to that
   * port on another loopback address (127.0.0.2, else ::1), where this tunnel takes it through the
   * front like any rank's.
   */
  private static StoreTunnel ownTunnel(
      StoreFront front, Rendezvous r, JobCheck job, Duration timeout) throws java.io.IOException {
    java.io.IOException last = null;
    for (String address : new String[] {"127.0.0.2", "::1"}) {
      try {
        return StoreTunnel.open(
            new java.net.InetSocketAddress(
                java.net.InetAddress.getByName(address), front.storePort()),
            front.address(),
            r.host() + ":" + r.port(),
            job,
            timeout);
      } catch (java.io.IOException e) {
        last = e;
      }
    }
    throw new java.io.IOException(
        "rank 0's store client needs 127.0.0.2 or ::1 free at port "
            + front.storePort()
            + " ("
            + last
            + ")",
        last);
  }

  /**
   * Refuses at once where rank 0 would serve the store on loopback for a job of several nodes: its
   * host's name resolves to 127.0.1.1 on rank 0's own node (Debian's /etc/hosts) while the other
   * nodes resolve it elsewhere, so they could never reach it and would wait out the timeout.
   */
  static void loopbackAcrossNodes(Rendezvous r, int nodes) {
    if (nodes < 2) {
      return;
    }
    java.net.InetAddress address;
    try {
      address = java.net.InetAddress.getByName(r.host());
    } catch (java.net.UnknownHostException e) {
      return; // BoundListener names it
    }
    if (address.isLoopbackAddress()) {
      throw new DistributedException(
          r.describe()
              + ": rank 0's host "
              + r.host()
              + " is "
              + address.getHostAddress()
              + " (loopback) on this node, but the job spans "
              + nodes
              + " nodes: the others could never reach it. Set MASTER_ADDR to this node's address"
              + " on the network the nodes share");
    }
  }

  /** Gloo's connections between the ranks failed, or did not finish within the timeout. */
  private static final class GlooStuck extends RuntimeException {
    final DistributedException failure;
    final boolean connecting;

    GlooStuck(DistributedException failure, boolean connecting) {
      super(failure.getMessage());
      this.failure = failure;
      this.connecting = connecting;
    }
  }

  /**
   * The Gloo group, given up at the timeout: Gloo waits for a peer that cannot connect (one that
   * listens on an address this host cannot reach) for 5 minutes whatever the group's timeout
   * (measured on the two-host rig with a 60 s timeout). Made on a daemon thread, as the store.
   */
  private static org.bytedeco.pytorch.Backend glooWithin(
      Store store, Rendezvous r, Duration timeout, Milliseconds ms) {
    java.util.concurrent.atomic.AtomicReference<String> address =
        new java.util.concurrent.atomic.AtomicReference<>();
    java.util.concurrent.FutureTask<org.bytedeco.pytorch.Backend> making =
        new java.util.concurrent.FutureTask<>(() -> gloo(store, r, ms, address));
    Thread t = new Thread(making, "robostream-gloo-connect");
    t.setDaemon(true);
    t.start();
    try {
      return making.get(timeout.toMillis() + 5000, java.util.concurrent.TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.TimeoutException e) {
      throw new GlooStuck(
          new DistributedException(
              r.describe()
                  + ": the ranks did not connect to each other within "
                  + seconds(timeout)
                  + " (--dist-timeout); this rank listens at "
                  + address.get()
                  + ", which every other rank must reach (else set GLOO_SOCKET_IFNAME on every"
                  + " node to its interface on the network the nodes share)"),
          true);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new DistributedException(r.describe() + ": interrupted at the rendezvous", e);
    } catch (java.util.concurrent.ExecutionException e) {
      if (e.getCause() instanceof DistributedException cause) {
        throw cause;
      }
      // Every rank proved itself at the store before this: what fails here is the connections.
      throw new GlooStuck(
          new DistributedException(
              r.describe()
                  + ": the ranks could not connect to each other ("
                  + DistributedException.firstLine(e.getCause())
                  + "); this rank listens at "
                  + address.get()
                  + ", and every rank must reach every other's address (else set"
                  + " GLOO_SOCKET_IFNAME on every node to its interface on the network the nodes"
                  + " share)",
              e.getCause()),
          false);
    }
  }

  private static org.bytedeco.pytorch.Backend gloo(
      Store store,
      Rendezvous r,
      Milliseconds timeout,
      java.util.concurrent.atomic.AtomicReference<String> address) {
    ProcessGroupGloo.Options options = ProcessGroupGloo.Options.create(timeout);
    // Gloo's interface: GLOO_SOCKET_IFNAME when set (as PyTorch); the loopback when rank 0 is on
    // it (every rank on this machine); else this host's address on the route to rank 0 (not the
    // host name's address, which may be loopback: RouteAddress).
    String iface = System.getenv("GLOO_SOCKET_IFNAME");
    boolean loopback = r.host().equals("localhost") || r.host().startsWith("127.");
    if (iface != null && !iface.isBlank()) {
      address.set("interface " + iface.strip() + " (GLOO_SOCKET_IFNAME)");
      options.devices(
          new GlooDeviceVector(ProcessGroupGloo.createDeviceForInterface(iface.strip())));
    } else {
      address.set(loopback ? r.host() : RouteAddress.toward(r));
      options.devices(
          new GlooDeviceVector(ProcessGroupGloo.createDeviceForHostname(address.get())));
    }
    return new ProcessGroupGloo(store, r.rank(), r.world(), options);
  }

  private static String seconds(Duration d) {
    return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
  }

  public Rendezvous rendezvous() {
    return rendezvous;
  }

  public int rank() {
    return rendezvous.rank();
  }

  public int world() {
    return rendezvous.world();
  }

  /** Time spent in all-reduces (waiting for them included), since this group was joined. */
  public long allReduceNanos() {
    return allReduceNanos;
  }

  /** All-reduce calls since this group was joined. */
  public long allReduces() {
    return allReduces;
  }

  /** Overwrites {@code tensors} (in place) with rank 0's values: the replicas' common start. */
  public void broadcastFromRankZero(List<Tensor> tensors) {
    if (group == null) {
      return;
    }
    for (List<Tensor> bucket : buckets(tensors)) {
      Tensor flat = flatten(bucket, null);
      try {
        finish(group.broadcast(new TensorVector(flat)), "broadcast");
      } catch (RuntimeException e) {
        throw failed("broadcasting rank 0's parameters", e);
      }
      scatter(flat, bucket);
    }
  }

  /**
   * What one gradient average found across the ranks.
   *
   * @param trained the sum of the ranks' weights (0: no rank trained; nothing to apply)
   * @param failedRanks how many ranks reported a step that failed (a loss that was not finite)
   */
  public record Averaged(double trained, int failedRanks) {}

  /**
   * Replaces each of {@code grads} (in place) by the weighted mean of that gradient across ranks:
   * the sum of {@code weight x grad} over ranks divided by the sum of the weights. Every rank must
   * call this with its gradients in the same order and shapes, failed or not, so that a failure is
   * known to every rank at the same step instead of leaving the others waiting.
   *
   * @param weight 1 for a rank that trained on a batch, 0 for one that had none (its gradients must
   *     be zeros)
   * @param failed this rank's step failed (its gradients must be zeros and its weight 0)
   */
  public Averaged averageGradients(List<Tensor> grads, float weight, boolean failed) {
    if (group == null) {
      return new Averaged(weight, failed ? 1 : 0);
    }
    long start = System.nanoTime();
    float total = Float.NaN;
    int failures = 0;
    List<List<Tensor>> buckets = buckets(grads);
    for (int b = 0; b < buckets.size(); b++) {
      List<Tensor> bucket = buckets.get(b);
      // The first bucket carries the weight and the failure flag, so the divisor and the news
      // arrive with the first sums.
      Tensor flat = flatten(bucket, b == 0 ? new float[] {weight, failed ? 1f : 0f} : null);
      int extras = b == 0 ? 2 : 0;
      if (weight != 1f) {
        flat.narrow(0, 0, flat.numel() - extras).mul_(new Scalar(weight));
      }
      AllreduceOptions options = new AllreduceOptions();
      options.reduceOp(new ReduceOp(ReduceOp.RedOpType.SUM));
      options.timeout(new Milliseconds(Math.max(1, timeout.toMillis())));
      try {
        finish(group.allreduce(new TensorVector(flat), options), "all-reduce");
      } catch (RuntimeException e) {
        throw failed("averaging gradients", e);
      }
      if (b == 0) {
        total = flat.narrow(0, flat.numel() - 2, 1).cpu().item_float();
        failures = Math.round(flat.narrow(0, flat.numel() - 1, 1).cpu().item_float());
      }
      if (total > 0) {
        flat.div_(new Scalar(total));
      }
      scatter(flat, bucket);
    }
    allReduceNanos += System.nanoTime() - start;
    allReduces++;
    return new Averaged(total, failures);
  }

  /** Rank 0's {@code value} on every rank (a step count: exact up to 2^53). */
  public long broadcastLong(long value) {
    if (group == null) {
      return value;
    }
    Tensor t =
        torch.full(
            new long[] {1}, new Scalar((double) value), new TensorOptions(torch.ScalarType.Double));
    try {
      finish(group.broadcast(new TensorVector(t)), "broadcast");
    } catch (RuntimeException e) {
      throw failed("broadcasting rank 0's step count", e);
    }
    return (long) t.item_double();
  }

  /**
   * Returns once every rank has called it (for {@code what}, named in the error): one 1-value
   * all-reduce, bounded by the timeout like every collective.
   */
  public void barrier(String what) {
    ranksWhere(true, what);
  }

  /**
   * How many ranks pass {@code yes}: every rank must call it (for {@code what}, named in the
   * error), as {@link #barrier}, which it is too.
   */
  public int ranksWhere(boolean yes, String what) {
    if (group == null) {
      return yes ? 1 : 0;
    }
    Tensor one =
        torch.full(
            new long[] {1}, new Scalar(yes ? 1.0 : 0.0), new TensorOptions(torch.ScalarType.Float));
    AllreduceOptions options = new AllreduceOptions();
    options.reduceOp(new ReduceOp(ReduceOp.RedOpType.SUM));
    options.timeout(new Milliseconds(Math.max(1, timeout.toMillis())));
    try {
      finish(group.allreduce(new TensorVector(one), options), what);
    } catch (RuntimeException e) {
      throw failed("waiting for every rank to finish " + what, e);
    }
    return Math.round(one.item_float());
  }

  private void finish(Work work, String what) {
    if (!work._wait(new Milliseconds(Math.max(1, timeout.toMillis())))) {
      throw new DistributedException(
          rendezvous.describe() + ": the " + what + " did not finish within " + seconds(timeout));
    }
  }

  private DistributedException failed(String doing, RuntimeException e) {
    if (e instanceof DistributedException d) {
      return d;
    }
    return new DistributedException(
        rendezvous.describe()
            + ": "
            + doing
            + " failed: a rank died or stopped answering ("
            + DistributedException.firstLine(e)
            + "); restart every rank with --resume-from the last checkpoint",
        e);
  }

  /** Consecutive tensors of at most {@link #BUCKET_BYTES} each (a larger tensor alone). */
  private static List<List<Tensor>> buckets(List<Tensor> tensors) {
    List<List<Tensor>> out = new ArrayList<>();
    List<Tensor> current = new ArrayList<>();
    long bytes = 0;
    for (Tensor t : tensors) {
      long size = t.numel() * t.element_size();
      if (!current.isEmpty() && bytes + size > BUCKET_BYTES) {
        out.add(current);
        current = new ArrayList<>();
        bytes = 0;
      }
      current.add(t);
      bytes += size;
    }
    if (!current.isEmpty()) {
      out.add(current);
    }
    return out;
  }

  /** One 1-D tensor holding the bucket's values (and {@code extras} last, when given). */
  private static Tensor flatten(List<Tensor> bucket, float[] extras) {
    TensorVector parts = new TensorVector();
    for (Tensor t : bucket) {
      parts.push_back(t.reshape(-1));
    }
    if (extras != null) {
      Tensor first = bucket.get(0);
      for (float extra : extras) {
        parts.push_back(
            torch.full(
                new long[] {1},
                new Scalar(extra),
                new TensorOptions(first.scalar_type()).device(new DeviceOptional(first.device()))));
      }
    }
    return torch.cat(parts);
  }

  private static void scatter(Tensor flat, List<Tensor> bucket) {
    long offset = 0;
    for (Tensor t : bucket) {
      long n = t.numel();
      t.copy_(flat.narrow(0, offset, n).view_as(t));
      offset += n;
    }
  }

  /** Leaves the group (no collective: a rank may close after a peer failed). */
  @Override
  public void close() {
    if (group != null) {
      try {
        group.shutdown();
      } catch (RuntimeException ignored) {
        // Shutting down after a failed peer may itself fail; the process is leaving anyway.
      }
      group.close();
    }
    if (meeting != null) {
      meeting.close();
    }
  }
}
