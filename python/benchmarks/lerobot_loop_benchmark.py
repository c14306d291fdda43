"""LeRobot's training loop on a streaming dataset, timed side by side in one Python process:
robostream's StreamingLeRobotDataset as LeRobot's factory makes it (``lerobot_style``) against
the reference's PyAV path (``bridge_benchmark.ReferencePyAVDataset``), through the same
DataLoader, preprocessing, normalisation and policy step.

    python3 python/benchmarks/lerobot_loop_benchmark.py --root DATASET [--episodes 1,2,4] \\
        [--policy act|diffusion] [--backbone small|resnet18] [--batch-size 8] [--steps 60] \\
        [--warmup 10] [--buffer-size 1000] [--rounds 2] [--modes pyav,robostream,fork,spawn] \\
        [--out FILE.json]

Sides (``--modes``): ``robostream`` is the recommended configuration (``DataLoader(
num_workers=0)``, the loader's 2 decoding threads); ``fork`` / ``spawn`` are LeRobot's training
script's DataLoader workers (``--dataloader-workers``, default 4, persistent, prefetch 4) with
that start method; ``pyav`` the reference's per-sample PyAV decode in the main process. Forked
workers need a parent without a JVM: run ``fork`` in a process of its own (``--modes fork``),
not after ``robostream`` (which starts the JVM in this process).

Each run reports, over the steps after ``--warmup`` (the shuffle buffers' fill, the JIT and the
workers' start are outside it for every side): samples/s, the data-wait share (time in
``next(dataloader)`` / step time, LeRobot's ``dataloading_s`` / ``step_s``), the first batch's
latency, and for the in-process sides the window's decoded share (frames decoded in the window /
(samples x cameras), one new frame per camera and sample; below 0.9 the window was served from a
buffer, flagged).

The PyAV side gets its best case: decoders cached, and the non-camera inputs (state, the action
chunk and its padding mask) as zeros made in Python rather than read from Parquet.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
import time
from pathlib import Path

import torch
from torch.utils.data import DataLoader

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import lerobot_style as lerobot  # noqa: E402
from bridge_benchmark import ReferencePyAVDataset, episodes_from_metadata, finish  # noqa: E402

from robostream.torch import StreamingLeRobotDataset  # noqa: E402


class ReferenceLeRobotItems(ReferencePyAVDataset):
    """The reference's PyAV iteration with LeRobot's training items: uint8 frames (the factory
    passes return_uint8), a window of frames where the policy asks for one, the state and the
    action chunk with its padding mask (zeros here: the PyAV side's best case)."""

    def __init__(self, meta_episodes, cameras, fps, policy, state_dim, action_dim, **kw):
        super().__init__(meta_episodes, cameras, fps, **kw)
        self.frame_offsets = policy.observation_delta_indices or [0]
        self.horizon = len(policy.action_delta_indices)
        self.state_dim, self.action_dim = state_dim, action_dim

    def _make(self, ep, k):
        item = {"index": ep["from_index"] + k, "episode_index": ep["index"], "frame_index": k,
                "timestamp": k / self.fps}
        windowed = len(self.frame_offsets) > 1
        for cam in self.cameras:
            span = ep["videos"][cam]
            frames = []
            for d in self.frame_offsets:
                j = min(max(k + d, 0), ep["length"] - 1)  # clamped to the episode, as LeRobot
                frames.append(
                    self._decode(span["file"], span["from"] + j / self.fps)
                )
            item[cam] = torch.stack(frames) if windowed else frames[0]
        steps = len(self.frame_offsets)
        item["observation.state"] = (
            torch.zeros(steps, self.state_dim) if windowed else torch.zeros(self.state_dim)
        )
        item["action"] = torch.zeros(self.horizon, self.action_dim)
        item["action_is_pad"] = torch.zeros(self.horizon, dtype=torch.bool)
        return item

    def _decode(self, path, ts):
        from bridge_benchmark import decode_pyav

        return decode_pyav(self.cache, path, ts, self.tolerance_s)  # uint8 CHW


def timed_loop(dataloader, meta, policy_cfg, backbone, warmup, steps, decoded_frames):
    """LeRobot's loop: next batch (data wait), preprocess, forward, backward, step."""
    torch.manual_seed(0)
    cameras = list(meta.camera_keys)
    normalize = lerobot.Normalizer(meta.stats, ["observation.state", "action", *cameras])
    policy = lerobot.SmallPolicy(
        cameras,
        meta.features["observation.state"]["shape"][0],
        meta.features["action"]["shape"][0],
        len(policy_cfg.observation_delta_indices or [0]),
        len(policy_cfg.action_delta_indices),
        backbone,
    )
    optimizer = torch.optim.Adam(policy.parameters(), lr=1e-3)
    it = itertools.cycle(dataloader)
    started = time.perf_counter()
    first = None
    waits, step_times, samples = [], [], 0
    decoded_at_start = None
    for step in range(warmup + steps):
        if step == warmup:
            decoded_at_start = decoded_frames() if decoded_frames else None
        t0 = time.perf_counter()
        batch = next(it)
        t1 = time.perf_counter()
        if first is None:
            first = t1 - started
        batch = lerobot.preprocess(batch, cameras, normalize)
        loss = policy(batch)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        t2 = time.perf_counter()
        if step >= warmup:
            waits.append(t1 - t0)
            step_times.append(t2 - t0)
            samples += int(batch["action"].shape[0])
    elapsed = sum(step_times)
    result = {
        "samples": samples,
        "seconds": round(elapsed, 3),
        "samples_per_s": round(samples / elapsed, 2),
        "data_wait_share": round(sum(waits) / elapsed, 4),
        "step_s": round(elapsed / len(step_times), 4),
        "first_batch_s": round(first, 2),
    }
    if decoded_frames is not None:
        decoded = decoded_frames() - decoded_at_start
        # One new frame per camera and sample: a window's other frames are its neighbours' own
        # (the loader decodes each once; the reference decodes every window frame again).
        share = decoded / (samples * len(cameras))
        result["window_decoded_share"] = round(share, 3)
        result["window_served_from_memory"] = share < 0.9
    return result


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--root", required=True)
    p.add_argument("--episodes", default=None, help="comma-separated episode indices")
    p.add_argument("--policy", default="act", choices=["act", "diffusion"])
    p.add_argument("--backbone", default="small", choices=["small", "resnet18"])
    p.add_argument("--batch-size", type=int, default=8, help="LeRobot's default")
    p.add_argument("--steps", type=int, default=60, help="timed steps per run")
    p.add_argument("--warmup", type=int, default=10, help="steps before the timed window")
    p.add_argument("--buffer-size", type=int, default=1000, help="the reference's default")
    p.add_argument("--dataloader-workers", type=int, default=4, help="for fork and spawn")
    p.add_argument("--rounds", type=int, default=1)
    p.add_argument("--modes", default="pyav,robostream")
    p.add_argument("--out", default=None)
    a = p.parse_args()
    policy = lerobot.ACT_LIKE if a.policy == "act" else lerobot.DIFFUSION_LIKE
    episodes = [int(e) for e in a.episodes.split(",")] if a.episodes else None
    probe = StreamingLeRobotDataset("local/bench", root=a.root, episodes=episodes,
                                    buffer_size=a.buffer_size)
    meta = probe.meta
    lerobot.add_imagenet_stats(meta)  # the PyAV side's normalisation, as the factory's
    cameras = list(meta.camera_keys)
    meta_episodes = episodes_from_metadata(probe, cameras)
    total = sum(ep["length"] for ep in meta_episodes)
    pulled = (a.warmup + a.steps) * a.batch_size
    if pulled + 2 * a.buffer_size > total:
        raise SystemExit(
            f"the window would reach the epoch's final shuffle-buffer drain ({pulled} samples"
            f" pulled + 2 x {a.buffer_size} buffered > {total}): fewer --steps or a smaller"
            " --buffer-size"
        )
    del probe
    results = []
    for r in range(a.rounds):
        for mode in a.modes.split(","):
            config = lerobot.TrainConfig(policy=policy, batch_size=a.batch_size, episodes=episodes,
                                         dataset_kwargs={"buffer_size": a.buffer_size,
                                                         "seed": 42 + r})
            if mode == "pyav":
                ds = ReferenceLeRobotItems(
                    meta_episodes, cameras, meta.fps, policy,
                    meta.features["observation.state"]["shape"][0],
                    meta.features["action"]["shape"][0],
                    buffer_size=a.buffer_size, tolerance_s=1e-3, seed=42 + r,
                )
                dataloader = DataLoader(ds, batch_size=a.batch_size)
                decoded = lambda ds=ds: ds.cache.frames_decoded  # noqa: E731
                loop_meta = meta
            elif mode == "robostream":
                ds = lerobot.make_dataset(config, "local/bench", a.root)
                dataloader = lerobot.make_dataloader(config, ds)
                decoded = lambda ds=ds: ds.loader_stats()["frames_decoded"]  # noqa: E731
                loop_meta = ds.meta
            elif mode in ("fork", "spawn"):
                config.num_workers = a.dataloader_workers
                config.dataloader_multiprocessing_context = mode
                ds = lerobot.make_dataset(config, "local/bench", a.root)
                dataloader = lerobot.make_dataloader(config, ds)
                decoded = None  # decoded in the worker processes
                loop_meta = ds.meta
            else:
                raise SystemExit(f"unknown mode {mode}")
            result = timed_loop(dataloader, loop_meta, policy, a.backbone, a.warmup, a.steps,
                                decoded)
            result.update(name=mode, round=r + 1)
            results.append(result)
            print(json.dumps(result), flush=True)
            del ds, dataloader
    summary = {"root": a.root, "episodes": episodes, "policy": a.policy, "backbone": a.backbone,
               "batch_size": a.batch_size, "buffer_size": a.buffer_size, "cameras": cameras,
               "torch_threads": torch.get_num_threads(), "cpus": os.cpu_count(),
               "results": results}
    finish(summary, results, a.out)

if __name__ == "__main__":
    main()
