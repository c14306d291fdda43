"""One loader batch as the reference's items (per sample) or as a collated batch.

The types follow what LeRobot's streaming dataset yields (``item_to_torch`` over a Hugging Face
streaming row): a per-sample scalar column is a Python ``bool``, ``int`` or ``float``; a vector
is a tensor, float32 for any float column (``torch.tensor`` of Python floats), int64 for
integers, bool for bools; ``task`` and other strings are ``str``; a language column is the list
of message dicts its row holds; cameras are float32 in [0, 1] or uint8, channels first; depth
cameras float32 in LeRobot's ``depth_output_unit`` (``_depth``).
``batch()`` gives what ``DataLoader``'s default collation makes of those items (scalars: bool,
int64, float64 tensors; strings and language columns: lists).

Memory: a per-sample item owns copies of its values, so an item a caller keeps costs its own
size, not its loader batch's; the batch goes back to the loader's pool once its items are
made. ``batch()`` views the loader's memory (no copy) for as long as its tensors live.
"""

from __future__ import annotations

import json
from typing import Dict, List

import numpy as np
import torch

from ._depth import as_tensor
from ._views import BatchLease, cuda_tensor, host_array, wait_for_frames

# Columns the loader adds for its own bookkeeping, not part of the reference's items.
_LOADER_COLUMNS = ("is_padding",)


class Columns:
    """One loader batch as numpy views (and strings): the source of items or a batch."""

    def __init__(self, lease: BatchLease, language_columns=(), depth=None):
        batch = lease.batch
        self.size = int(batch.size())
        self.lease = lease
        self.cameras = [str(c) for c in batch.cameras()]
        frames = batch.deviceFrames()
        self.on_cuda = not bool(frames.onHost())
        if self.on_cuda:
            wait_for_frames(frames)
        self.arrays: Dict[str, object] = {}
        self.strings: Dict[str, List[str]] = {}
        self.language = set(language_columns)
        self.depth = depth or {}  # camera -> its dequantizer (``_depth``)
        self.padding = None
        for name in [str(n) for n in batch.columnNames()]:
            vector = batch.column(name)
            type_name = str(vector.getField().getType().getTypeID().name())
            if type_name in ("Utf8", "LargeUtf8"):
                self.strings[name] = [str(s) for s in batch.strings(name)]
                continue
            array = host_array(lease, batch.tensor(name))
            if name in _LOADER_COLUMNS:
                self.padding = array
                continue
            self.arrays[name] = array
        for camera in self.cameras:
            tensor = batch.tensor(camera)
            self.arrays[camera] = (
                cuda_tensor(lease, tensor) if self.on_cuda else host_array(lease, tensor)
            )

    def settle(self):
        """Waits for the copies of CUDA frames queued by ``item`` (on each frame's device): the
        batch's memory may go back to the loader's pool only once they have read it."""
        for array in self.arrays.values():
            if isinstance(array, torch.Tensor) and array.is_cuda:
                torch.cuda.current_stream(array.device).synchronize()

    def is_padding(self, i: int) -> bool:
        return self.padding is not None and bool(self.padding[i])

    def item(self, i: int, transform) -> dict:
        """Sample ``i`` as the reference yields it, every value a copy."""
        out = {}
        for name, array in self.arrays.items():
            if name in self.depth:  # 12-bit codes to LeRobot's units: a new tensor
                value = self.depth[name](as_tensor(array[i]))
            elif isinstance(array, torch.Tensor):  # a CUDA camera: copied on its own device
                with torch.cuda.device(array.device):
                    value = array[i].clone()
            elif name in self.cameras:
                value = torch.from_numpy(np.array(array[i]))
            elif array.ndim == 1:
                value = array[i].item()  # bool, int or float, as a Hugging Face row holds it
            else:
                value = torch.from_numpy(_as_reference_dtype(np.array(array[i])))
            if callable(transform) and name in self.cameras:
                value = transform(value)
            out[name] = value
        for name, values in self.strings.items():
            out[name] = json.loads(values[i]) if name in self.language else values[i]
        return out

    def batch(self, transform) -> dict:
        """The batch as ``DataLoader``'s default collation makes the items (views, no copy,
        except where the type changes: float64 vectors become float32, float32 scalars
        float64, as collating the reference's items does), plus ``is_padding``."""
        out = {}
        for name, array in self.arrays.items():
            if name in self.depth:
                tensor = self.depth[name](as_tensor(array))
            else:
                tensor = array if isinstance(array, torch.Tensor) else torch.from_numpy(array)
            if name not in self.cameras:
                if tensor.ndim == 1 and tensor.is_floating_point():
                    tensor = tensor.double()  # collated Python floats
                elif tensor.ndim > 1 and tensor.dtype == torch.float64:
                    tensor = tensor.float()  # the reference's tensors of Python floats
            if callable(transform) and name in self.cameras:
                tensor = torch.stack([transform(t) for t in tensor])
            out[name] = tensor
        if self.padding is not None:
            out["is_padding"] = torch.from_numpy(self.padding)
        for name, values in self.strings.items():
            out[name] = [json.loads(v) for v in values] if name in self.language else values
        return out


def _as_reference_dtype(values: np.ndarray) -> np.ndarray:
    """A vector as ``torch.tensor`` makes it from the reference's Python lists: floats as
    float32, integers as int64, bools as bools."""
    if values.dtype.kind == "f" and values.dtype != np.float32:
        return values.astype(np.float32)
    if values.dtype.kind in "iu" and values.dtype != np.int64:
        return values.astype(np.int64)
    return values
