"""Depth maps in physical units, as LeRobot returns them.

LeRobot stores a depth camera as 12-bit codes (``gray12le`` video) quantized from metres, in log
space by default, with the parameters in the feature's ``info`` (``video.depth_min``,
``video.depth_max``, ``video.shift``, ``video.use_log``; LeRobot's defaults where absent), and its
readers return the depth dequantized to ``depth_output_unit``: float32 millimetres (rounded,
within 0..65535) or metres. The loader delivers a depth camera's raw sample values (float32, or
uint16 when uint8 frames are asked); this module turns them into LeRobot's values. Stateless.
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np
import torch

# LeRobot's quantization (lerobot.configs.video): 12-bit codes and its default parameters.
DEPTH_QMAX = (1 << 12) - 1
DEFAULTS = {"depth_min": 0.01, "depth_max": 10.0, "shift": 3.5, "use_log": True}
MM_PER_METRE = 1000.0


def parameters(feature: dict) -> dict:
    """The feature's quantization parameters (metres), LeRobot's defaults where it records none."""
    info = feature.get("info") or feature.get("video_info") or {}
    out = dict(DEFAULTS)
    for name in DEFAULTS:
        value = info.get(f"video.{name}")
        if value is not None:
            out[name] = bool(value) if name == "use_log" else float(value)
    if out["use_log"] and out["depth_min"] + out["shift"] <= 0:
        raise ValueError(
            f"depth quantization: depth_min + shift must be positive for log quantization, got"
            f" {out['depth_min']} + {out['shift']}"
        )
    return out


def dequantizer(feature: dict, unit: str) -> Callable[[torch.Tensor], torch.Tensor]:
    """A function from a tensor of 12-bit codes (any dtype, any shape) to float32 depth in
    ``unit`` (``"mm"``: rounded millimetres within 0..65535; ``"m"``: metres), as LeRobot's
    ``dequantize_depth`` computes it."""
    p = parameters(feature)
    lo, hi, shift = p["depth_min"], p["depth_max"], p["shift"]
    if p["use_log"]:
        log_min = math.log(lo + shift)
        scale, offset = (math.log(hi + shift) - log_min) / DEPTH_QMAX, log_min
    else:
        scale, offset = (hi - lo) / DEPTH_QMAX, lo

    def apply(codes: torch.Tensor) -> torch.Tensor:
        depth = codes.to(dtype=torch.float32) * scale + offset
        if p["use_log"]:
            depth = depth.exp() - shift
        depth = depth.clamp(lo, hi)
        if unit == "mm":
            depth = (depth * MM_PER_METRE).round().clamp(0.0, 65535.0)
        return depth

    return apply


def as_tensor(values) -> torch.Tensor:
    """A depth camera's values as a tensor torch can compute on (torch 1.13 has no uint16)."""
    if isinstance(values, torch.Tensor):
        return values
    array = np.asarray(values)
    if array.dtype == np.uint16:
        array = array.astype(np.int32)
    return torch.from_numpy(np.ascontiguousarray(array))


def rescale_stats(stats: dict, feature: dict, key: str, unit: str) -> None:
    """LeRobot's ``rescale_depth_stats`` for one feature: its statistics, recorded in the unit the
    feature's ``info`` names (``depth_unit``), converted to ``unit`` in place (``count`` as is)."""
    stored = ((feature.get("info") or {}).get("depth_unit")) if feature else None
    if stats is None or key not in stats or stored is None or stored == unit:
        return
    factor = MM_PER_METRE if stored == "m" else 1.0 / MM_PER_METRE
    stats[key] = {
        name: value if name == "count" else value * factor for name, value in stats[key].items()
    }
