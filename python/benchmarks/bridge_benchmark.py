"""Side by side, in one Python process: the reference's PyAV decode path (reproduced as LeRobot's
StreamingLeRobotDataset does it, per sample) against robostream's StreamingLeRobotDataset per
sample and its batches(), on the same dataset, through the same loop and consumer; optionally a
small conv policy trained by each.

    python3 python/benchmarks/bridge_benchmark.py --root DATASET [--episodes 1,2,4] \\
        [--batch-size 32] [--batches 40] [--warmup 3] [--rounds 2] [--train] [--out FILE.json]

Each run reports samples/s over its timed window (the batches after ``--warmup``: the shuffle
buffers' fill and the JIT are outside it, for every side alike) and the data-wait share (time
waiting for the next batch / the window's time). Only samples actually delivered in the window
are counted. The PyAV side gets its best case: decoders cached per file (the reference's
VideoDecoderCache), FFmpeg's threading as PyAV sets it (or --pyav-thread-type), and only the
frames and index columns
per item (robostream's items carry every column as well).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import sys
import time
from pathlib import Path

import numpy as np
import torch
from torch.utils.data import DataLoader, IterableDataset

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout's package

from robostream.torch import StreamingLeRobotDataset  # noqa: E402


# ---- the reference's path, reproduced ----------------------------------------------------


class PyAVDecoderCache:
    """The reference's VideoDecoderCache: LRU of open decoders keyed by path."""

    def __init__(self, max_size, thread_type):
        self.max_size = max_size
        self.thread_type = thread_type
        self.entries = collections.OrderedDict()
        self.hits = self.misses = 0
        self.frames_decoded = 0  # every frame decoded, those only on the way to a target too

    def get(self, path):
        import av

        if path in self.entries:
            self.entries.move_to_end(path)
            self.hits += 1
            return self.entries[path]
        self.misses += 1
        container = av.open(path)
        stream = container.streams.video[0]
        if self.thread_type:
            stream.thread_type = self.thread_type  # e.g. AUTO: FFmpeg's frame + slice threads
        self.entries[path] = (container, stream)
        while len(self.entries) > self.max_size:
            _, (old, _) = self.entries.popitem(last=False)
            old.close()
        return container, stream


def decode_pyav(cache, path, ts, tolerance_s):
    """The reference's pyav path for one query: seek backward to the keyframe at or before
    ``ts`` (microsecond time base), decode forward until a frame at or past ``ts``, keep the
    nearest, check the tolerance, RGB24 -> CHW."""
    container, stream = cache.get(path)
    container.seek(int(ts * 1_000_000), backward=True, any_frame=False)
    best, best_gap = None, None
    for frame in container.decode(stream):
        cache.frames_decoded += 1
        t = float(frame.pts * stream.time_base)
        gap = abs(t - ts)
        if best_gap is None or gap < best_gap:
            best, best_gap = frame, gap
        if t >= ts - 1e-9:
            break
    if best is None or best_gap >= tolerance_s:
        raise RuntimeError(f"{path}: no frame within {tolerance_s} s of {ts}")
    return torch.from_numpy(best.to_ndarray(format="rgb24")).permute(2, 0, 1)


class ReferencePyAVDataset(IterableDataset):
    """The reference's iteration (section 5): shards = data files (at most max_num_shards), a
    random live shard per step, its next row decoded (every camera, one after the other), a
    reservoir shuffle buffer of buffer_size. Episode lengths and video spans come from the
    dataset's metadata, read before timing."""

    def __init__(self, meta_episodes, cameras, fps, buffer_size=1000, max_num_shards=16,
                 seed=42, tolerance_s=1e-3, thread_type=None):
        self.cameras = cameras
        self.fps = fps
        self.buffer_size = buffer_size
        self.seed = seed
        self.tolerance_s = tolerance_s
        by_file = collections.OrderedDict()
        for ep in meta_episodes:
            by_file.setdefault(ep["data_file"], []).append(ep)
        files = list(by_file.values())
        n = min(len(files), max_num_shards)
        self.shards = [sum(files[i::n], []) for i in range(n)]
        self.cache = PyAVDecoderCache((n + 1) * len(cameras), thread_type)

    def _rows(self, episodes):
        for ep in episodes:
            for k in range(ep["length"]):
                yield ep, k

    def _make(self, ep, k):
        item = {"index": ep["from_index"] + k, "episode_index": ep["index"], "frame_index": k,
                "timestamp": k / self.fps}
        for cam in self.cameras:
            span = ep["videos"][cam]
            frame = decode_pyav(self.cache, span["file"], span["from"] + k / self.fps,
                                self.tolerance_s)
            item[cam] = frame.float() / 255.0
        return item

    def __iter__(self):
        rng = np.random.default_rng(self.seed)
        live = {i: self._rows(s) for i, s in enumerate(self.shards)}
        buffer = []
        while live:
            shard = list(live)[int(rng.integers(len(live)))]
            try:
                ep, k = next(live[shard])
            except StopIteration:
                del live[shard]
                continue
            item = self._make(ep, k)
            if len(buffer) < self.buffer_size:
                buffer.append(item)
            else:
                slot = int(rng.integers(self.buffer_size))
                out, buffer[slot] = buffer[slot], item
                yield out
        rng.shuffle(buffer)
        yield from buffer


def episodes_from_metadata(ds: StreamingLeRobotDataset, cameras):
    """Episode lengths, data files and video spans from the dataset's LeRobot metadata."""
    meta = ds.meta
    wanted = set(ds.episodes) if ds.episodes is not None else None
    out = []
    for row in meta.episodes:
        index = row["episode_index"]
        if wanted is None or index in wanted:
            spans = {
                cam: {
                    "file": str(meta.root / meta.get_video_file_path(index, cam)),
                    "from": float(row[f"videos/{cam}/from_timestamp"]),
                }
                for cam in cameras
            }
            out.append({"index": index, "length": row["length"],
                        "from_index": row["dataset_from_index"],
                        "data_file": str(meta.get_data_file_path(index)), "videos": spans})
    return out


# ---- the loop and the consumers ----------------------------------------------------------


class ConvPolicy(torch.nn.Module):
    """A small visuomotor policy: one conv stack per camera, pooled, a linear head."""

    def __init__(self, cameras, out_dim=6):
        super().__init__()
        self.cameras = cameras
        self.stems = torch.nn.ModuleList(
            torch.nn.Sequential(
                torch.nn.Conv2d(3, 16, 5, stride=4), torch.nn.ReLU(),
                torch.nn.Conv2d(16, 32, 3, stride=2), torch.nn.ReLU(),
                torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten(),
            )
            for _ in cameras
        )
        self.head = torch.nn.Linear(32 * len(cameras), out_dim)

    def forward(self, batch):
        feats = [stem(batch[c].float()) for stem, c in zip(self.stems, self.cameras)]
        return self.head(torch.cat(feats, dim=1))


def run(name, batches, cameras, warmup, count, train, decoded_frames):
    """Pulls ``warmup + count`` batches; times the last ``count``. ``decoded_frames()`` reads
    the side's decoder counter, so the window's decoded share is known: a share well below 1
    means the window delivered frames decoded before it (a buffer), and is flagged."""
    model = opt = None
    if train:
        torch.manual_seed(0)
        model = ConvPolicy(cameras)
        opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    iterator = iter(batches)
    samples = waited = 0
    window_start = None
    checksum = 0.0
    for i in range(warmup + count):
        if i == warmup:
            window_start = time.perf_counter()
            samples = waited = 0
            decoded_at_start = decoded_frames() if decoded_frames else 0
        t0 = time.perf_counter()
        try:
            batch = next(iterator)
        except StopIteration:
            break
        waited += time.perf_counter() - t0
        n = int(batch["index"].shape[0])
        if train:
            target = torch.zeros(n, 6)
            loss = torch.nn.functional.l1_loss(model(batch), target)
            opt.zero_grad()
            loss.backward()
            opt.step()
        else:
            # The consumer every side pays: read every pixel once.
            checksum += sum(float(batch[c].float().mean()) for c in cameras)
        samples += n
    elapsed = time.perf_counter() - window_start if window_start else float("nan")
    known = decoded_frames is not None
    decoded = decoded_frames() - decoded_at_start if window_start and known else -1
    del iterator
    share = decoded / (samples * len(cameras)) if samples and known else -1.0
    return {
        "name": name,
        "samples": samples,
        "seconds": round(elapsed, 3),
        "samples_per_s": round(samples / elapsed, 1) if samples else 0.0,
        "data_wait_share": round(waited / elapsed, 4) if samples else None,
        "window_frames_decoded": decoded,
        "window_decoded_share": round(share, 3),
        "window_served_from_memory": share < 0.9 if known else None,
        "train": train,
    }


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--root", required=True)
    p.add_argument("--episodes", default=None, help="comma-separated episode indices")
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--batches", type=int, default=40, help="timed batches per run")
    p.add_argument("--warmup", type=int, default=3, help="batches before the timed window")
    p.add_argument("--buffer-size", type=int, default=1000)
    p.add_argument("--num-workers", type=int, default=2, help="robostream's decoding threads")
    p.add_argument("--rounds", type=int, default=1)
    p.add_argument("--modes", default="pyav,robostream,batches",
                   help="pyav, robostream (per sample), batches, spawn (per sample through"
                        " --num-workers spawned DataLoader workers, a JVM each)")
    p.add_argument("--train", action="store_true", help="train a conv policy instead of reading")
    p.add_argument("--pyav-thread-type", default=None,
                   help="PyAV stream.thread_type for the reference path (default: PyAV's own,"
                        " as the reference leaves it; AUTO adds frame threads)")
    p.add_argument("--out", default=None)
    a = p.parse_args()
    episodes = [int(e) for e in a.episodes.split(",")] if a.episodes else None
    common = dict(root=a.root, episodes=episodes, buffer_size=a.buffer_size, tolerance_s=1e-3,
                  num_workers=a.num_workers)
    probe = StreamingLeRobotDataset("local/bench", **common)
    cameras = probe.meta.camera_keys
    meta_episodes = episodes_from_metadata(probe, cameras)
    total = sum(ep["length"] for ep in meta_episodes)
    pulled = (a.warmup + a.batches) * a.batch_size
    # robostream holds a shuffle buffer per decoding thread, plus a few prefetched batches.
    held = a.buffer_size * a.num_workers + 4 * a.batch_size
    if pulled + held > total:
        # An epoch's last held samples come out of the shuffle buffers without any decoding: a
        # window that reaches them measures the buffers, not the loader.
        raise SystemExit(
            f"the window would reach the epoch's final shuffle-buffer drain ({pulled} samples"
            f" pulled + {held} held > {total} in the epoch): fewer --batches, a smaller"
            " --buffer-size or --batch-size"
        )
    results = []
    for r in range(a.rounds):
        for mode in a.modes.split(","):
            if mode == "pyav":
                ds = ReferencePyAVDataset(meta_episodes, cameras, probe.fps, a.buffer_size,
                                          tolerance_s=1e-3, seed=42 + r,
                                          thread_type=a.pyav_thread_type)
                batches = DataLoader(ds, batch_size=a.batch_size)
                decoded = lambda ds=ds: ds.cache.frames_decoded  # noqa: E731
            elif mode == "robostream":
                ds = StreamingLeRobotDataset("local/bench", seed=42 + r, **common)
                batches = DataLoader(ds, batch_size=a.batch_size)
                decoded = lambda ds=ds: ds.loader_stats()["frames_decoded"]  # noqa: E731
            elif mode == "spawn":
                # DataLoader workers instead of the loader's threads: each spawned worker starts
                # its own JVM (1 decoding thread) and reads its share. Their decoders run in
                # other processes, so the window's decoded share is not known (reported -1).
                ds = StreamingLeRobotDataset("local/bench", seed=42 + r,
                                             **dict(common, num_workers=1))
                batches = DataLoader(ds, batch_size=a.batch_size, num_workers=a.num_workers,
                                     multiprocessing_context="spawn")
                decoded = None
            elif mode == "batches":
                ds = StreamingLeRobotDataset("local/bench", seed=42 + r, **common)
                batches = ds.batches(a.batch_size)
                decoded = lambda ds=ds: ds.loader_stats()["frames_decoded"]  # noqa: E731
            else:
                raise SystemExit(f"unknown mode {mode}")
            result = run(mode, batches, cameras, a.warmup, a.batches, a.train, decoded)
            result["round"] = r + 1
            results.append(result)
            print(json.dumps(result), flush=True)
            del ds, batches
    summary = {"root": a.root, "episodes": episodes, "batch_size": a.batch_size,
               "cameras": cameras, "torch_threads": torch.get_num_threads(),
               "cpus": os.cpu_count(), "results": results}
    finish(summary, results, a.out)


def finish(summary, results, out):
    """Adds each side's ratio to the PyAV path (sums of samples/s over rounds), prints it, and
    writes the summary to ``out`` (when given)."""
    by_mode = collections.defaultdict(float)
    for res in results:
        by_mode[res["name"]] += res["samples_per_s"]
    if by_mode.get("pyav"):
        summary["ratio_to_pyav"] = {m: round(v / by_mode["pyav"], 2) for m, v in by_mode.items()}
        print("ratio to the PyAV path (sums over rounds):", summary["ratio_to_pyav"])
    if out:
        Path(out).write_text(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()
