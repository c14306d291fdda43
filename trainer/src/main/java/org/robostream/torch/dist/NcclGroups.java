package org.robostream.torch.dist;

import org.bytedeco.javacpp.chrono.Milliseconds;
import org.bytedeco.pytorch.Store;
import org.bytedeco.pytorch.nccl.ProcessGroupNCCL;

/**
 * NCCL process groups, in a class of their own: {@code ProcessGroupNCCL}'s natives exist only in
 * JavaCPP's {@code linux-x86_64-gpu} build, so nothing touches this class unless the trainer runs
 * on CUDA. Not run on the CI machine (no GPU); see docs/CLI.md (train) for what a GPU node needs.
 */
final class NcclGroups {
  private NcclGroups() {}

  static org.bytedeco.pytorch.Backend create(Store store, Rendezvous r, Milliseconds timeout) {
    ProcessGroupNCCL.Options options = ProcessGroupNCCL.Options.create();
    options.timeout(timeout);
    return new ProcessGroupNCCL(store, r.rank(), r.world(), options);
  }
}
