"""Zero-copy views of a loader batch's memory as numpy arrays and torch tensors.

A Java ``Batch`` owns native memory that returns to a pool when the batch is closed. Here a
``BatchLease`` holds the batch; every array made from it keeps the lease alive (array -> ``_View``
-> lease), and the lease closes the batch when the last of them is gone: "the batch is released
when the tensors are". Nothing is copied except boolean columns, which Java expands from Arrow's
bitmaps into bytes once per batch (those bytes are owned by the Java tensor the view holds).

Threading: a lease may be released from whichever thread drops the last array (JPype attaches
it to the JVM); the Java batch's close is idempotent.
"""

from __future__ import annotations

import weakref

import numpy as np

from . import _jvm

# DType name -> numpy type string (little-endian; the loader writes native order on x86-64 and
# aarch64, both little-endian).
_NUMPY_TYPE = {
    "UINT8": "|u1",
    "UINT16": "<u2",
    "FLOAT32": "<f4",
    "FLOAT64": "<f8",
    "INT64": "<i8",
    "BOOL": "|b1",
}


def _close(batch):
    if not _jvm.started():  # a forked child, or after the JVM stopped: nothing to call
        return
    try:
        batch.close()
    except Exception:  # the JVM may already be shutting down at interpreter exit
        pass


class LoaderHandle:
    """Keeps a Java loader (``StreamingDataset``) open while any batch it made is viewed, and
    closes it when the last is gone: a generator that ends does not pull the memory from under
    the batch its caller still holds."""

    __slots__ = ("loader", "_finalizer", "__weakref__")

    def __init__(self, loader):
        self.loader = loader
        self._finalizer = weakref.finalize(self, _close, loader)
        _jvm.close_at_exit(self)  # its workers end before the JVM does

    def close(self):
        """Closes the loader now (batches still viewed stay valid until released)."""
        self._finalizer()


class BatchLease:
    """Keeps one Java batch open while any array or tensor made from it lives (and, through
    ``owner``, whatever must outlive the batch, such as a ``LoaderHandle``)."""

    __slots__ = ("batch", "_owner", "_finalizer", "__weakref__")

    def __init__(self, batch, owner=None):
        self.batch = batch
        self._owner = owner
        self._finalizer = weakref.finalize(self, _close, batch)


class _View:
    """What numpy (``__array_interface__``) or torch (``__cuda_array_interface__``, for CUDA
    memory) wraps: a shape, a type and an address, plus the references that keep the memory
    valid (the lease, and the Java tensor, which owns expanded boolean bytes). Only one of the
    two interfaces is set; the other stays absent, so each library sees what it may take."""

    __slots__ = ("__array_interface__", "__cuda_array_interface__", "_lease", "_tensor")

    def __init__(self, lease, tensor, shape, typestr, address, cuda=False):
        self._lease = lease
        self._tensor = tensor
        interface = {"shape": tuple(shape), "typestr": typestr, "data": (address, False)}
        if cuda:
            self.__cuda_array_interface__ = {**interface, "version": 2, "strides": None}
        else:
            self.__array_interface__ = {**interface, "version": 3}


def host_array(lease: BatchLease, tensor) -> np.ndarray:
    """A numpy array viewing a host tensor of the batch (no copy)."""
    dtype = str(tensor.dtype().name())
    shape = [int(d) for d in tensor.shape()]
    if int(tensor.byteSize()) == 0:
        return np.zeros(shape, dtype=np.dtype(_NUMPY_TYPE[dtype]))
    view = _View(lease, tensor, shape, _NUMPY_TYPE[dtype], int(tensor.address()))
    return np.asarray(view)


def cuda_tensor(lease: BatchLease, tensor):
    """A torch CUDA tensor viewing a CUDA tensor of the batch (no host round trip).

    Not run here: no GPU on the machines this was built on. The caller waits on the batch's sync
    event first (``wait_for_frames``).
    """
    import torch

    dtype = str(tensor.dtype().name())
    shape = [int(d) for d in tensor.shape()]
    view = _View(lease, tensor, shape, _NUMPY_TYPE[dtype], int(tensor.address()), cuda=True)
    return torch.as_tensor(view, device=f"cuda:{int(tensor.deviceId())}")


def wait_for_frames(frame_batch) -> None:
    """Makes torch's current CUDA stream of the batch's device wait for the GPU work that wrote
    ``frame_batch`` (the batch's device, not the calling thread's current one: a thread other
    than the main one starts on device 0).

    The loader records a CUDA event after its NVDEC and conversion kernels; the consumer's stream
    waits on it without a host synchronisation, as the Arrow C Device interface prescribes. The
    wait is queued by robostream's core through the CUDA driver (``FrameBatch.makeStreamWait``):
    torch's ``__cuda_array_interface__`` consumer ignores a v3 ``stream`` field, and no CUDA
    runtime is loaded here. Not run here (no GPU).
    """
    if int(frame_batch.syncEvent()) == 0:
        return
    import torch

    device = torch.device("cuda", int(frame_batch.deviceId()))
    frame_batch.makeStreamWait(int(torch.cuda.current_stream(device).cuda_stream))
