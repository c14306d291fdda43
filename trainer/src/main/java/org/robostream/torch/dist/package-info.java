/**
 * Data parallelism over libtorch's c10d: {@link org.robostream.torch.dist.Rendezvous} (rank, world
 * and master from torchrun's, SLURM's or Open MPI's environment) and {@link
 * org.robostream.torch.dist.DataParallel} (a TCPStore and a Gloo or NCCL process group: bucketed
 * gradient all-reduce as DDP, broadcasts, barriers, a bounded wait for ranks that do not arrive).
 * One training thread per process. Design: docs/TRAINING.md.
 */
package org.robostream.torch.dist;
