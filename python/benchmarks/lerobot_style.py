"""The calls LeRobot's dataset factory and training script make on a streaming dataset, written
here from their documented behaviour (LeRobot's ``make_dataset`` streaming branch,
``resolve_delta_timestamps``, ``use_imagenet_stats``, ``make_dataloaders``, the training loop's
batch preprocessing and normalisation), with two small policies shaped like LeRobot's ACT (an
action chunk from the current observation) and Diffusion (an observation window, a horizon of
actions). No LeRobot code is copied or imported: it runs where LeRobot is not installed.

``train(config, repo_id, root, ...)`` runs a few optimizer steps and returns what happened, for
``tests/test_lerobot_training.py``; ``bridge_benchmark.py --lerobot`` times the same loop;
``python3 lerobot_style.py ROOT`` runs it by hand.
"""

from __future__ import annotations

import itertools
import sys
import time
from pathlib import Path
from dataclasses import dataclass, field
from typing import Dict, List, Optional

import torch
from torch import nn
from torch.utils.data import DataLoader
from torch.utils.data._utils.collate import default_collate

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout's package
from robostream.torch import LeRobotDatasetMetadata, StreamingLeRobotDataset  # noqa: E402

# LeRobot's IMAGENET_STATS, shaped (C, 1, 1).
IMAGENET_STATS = {
    "mean": [[[0.485]], [[0.456]], [[0.406]]],
    "std": [[[0.229]], [[0.224]], [[0.225]]],
}
LANGUAGE_COLUMNS = ("language_persistent", "language_events")


@dataclass
class PolicyConfig:
    """What LeRobot's policy configs expose to the factory: their delta indices."""

    name: str
    observation_delta_indices: Optional[List[int]]
    action_delta_indices: List[int]


# ACT with chunk_size=20: one observation, 20 actions from now.
ACT_LIKE = PolicyConfig("act", None, list(range(20)))
# Diffusion with n_obs_steps=2, horizon=16: observations at -1, 0; actions from -1 for 16 steps.
DIFFUSION_LIKE = PolicyConfig("diffusion", list(range(1 - 2, 1)), list(range(1 - 2, 1 - 2 + 16)))


@dataclass
class TrainConfig:
    """The fields of LeRobot's TrainPipelineConfig the data path reads (its defaults)."""

    policy: PolicyConfig
    batch_size: int = 8
    num_workers: int = 0
    prefetch_factor: int = 4
    persistent_workers: bool = True
    dataloader_multiprocessing_context: Optional[str] = "spawn"
    tolerance_s: float = 1e-4
    steps: int = 3
    use_imagenet_stats: bool = True
    backbone: str = "small"  # or "resnet18": ACT's and Diffusion's image backbone
    episodes: Optional[List[int]] = None
    dataset_kwargs: Dict = field(default_factory=dict)  # robostream's own, where a set needs it


def resolve_delta_timestamps(cfg: PolicyConfig, meta) -> Optional[Dict[str, List[float]]]:
    """LeRobot's rule: actions get the action indices; image keys and the state the
    observation indices; other observation keys too; in seconds at the dataset's fps."""
    out = {}
    for key in meta.features:
        if key == "action" and cfg.action_delta_indices is not None:
            out[key] = [i / meta.fps for i in cfg.action_delta_indices]
        indices = (
            cfg.observation_delta_indices
            if key.startswith("observation.image") or key.startswith("observation.")
            else None
        )
        if indices is not None:
            out[key] = [i / meta.fps for i in indices]
    return out or None


def make_dataset(config: TrainConfig, repo_id: str, root) -> StreamingLeRobotDataset:
    """LeRobot's ``make_dataset``, streaming branch."""
    ds_meta = LeRobotDatasetMetadata(repo_id, root=root, revision=None, repo_type="dataset")
    delta_timestamps = resolve_delta_timestamps(config.policy, ds_meta)
    dataset = StreamingLeRobotDataset(
        repo_id,
        root=root,
        episodes=config.episodes,
        delta_timestamps=delta_timestamps,
        image_transforms=None,
        revision=None,
        max_num_shards=config.num_workers,
        tolerance_s=config.tolerance_s,
        return_uint8=True,
        repo_type="dataset",
        **config.dataset_kwargs,
    )
    if config.use_imagenet_stats:
        add_imagenet_stats(dataset.meta)
    return dataset


def add_imagenet_stats(meta) -> None:
    """The factory's ``use_imagenet_stats``: ImageNet's mean and std for every camera that is
    not a depth map, written into ``meta.stats`` in place."""
    for key in meta.camera_keys:
        if key in meta.depth_keys:
            continue
        meta.stats.setdefault(key, {})
        for stat, values in IMAGENET_STATS.items():
            meta.stats[key][stat] = torch.tensor(values, dtype=torch.float32)


def collate_keeping_language(batch):
    """LeRobot's ``lerobot_collate_fn``: language columns stay Python lists."""
    kept = {k: [s[k] for s in batch] for k in LANGUAGE_COLUMNS if k in batch[0]}
    out = default_collate([{k: v for k, v in s.items() if k not in kept} for s in batch])
    out.update(kept)
    return out


def make_dataloader(config: TrainConfig, dataset) -> DataLoader:
    """LeRobot's ``make_dataloaders`` for a streaming dataset (on the CPU: no pinned memory)."""
    workers = config.num_workers
    return DataLoader(
        dataset,
        num_workers=workers,
        batch_size=config.batch_size,
        shuffle=False,
        sampler=None,
        pin_memory=False,
        drop_last=False,
        collate_fn=collate_keeping_language if dataset.meta.has_language_columns else None,
        persistent_workers=config.persistent_workers and workers > 0,
        multiprocessing_context=config.dataloader_multiprocessing_context if workers > 0 else None,
        # LeRobot passes prefetch_factor=None without workers (torch 2's default); Debian's
        # torch 1.13 refuses anything but its default 2 there, so it is left out then.
        **({"prefetch_factor": config.prefetch_factor} if workers > 0 else {}),
    )


class Normalizer:
    """LeRobot's MEAN_STD normalisation of inputs and targets, from ``meta.stats``."""

    def __init__(self, stats, keys):
        self.stats = {}
        for key in keys:
            mean = torch.as_tensor(stats[key]["mean"], dtype=torch.float32)
            std = torch.as_tensor(stats[key]["std"], dtype=torch.float32)
            self.stats[key] = (mean, std)

    def __call__(self, batch):
        for key, (mean, std) in self.stats.items():
            if key in batch:
                batch[key] = (batch[key] - mean) / (std + 1e-8)
        return batch


def preprocess(batch, camera_keys, normalize):
    """The training loop's ``_preprocess_dataset_batch``: uint8 cameras to float in [0, 1],
    then the policy's preprocessor (normalisation)."""
    for key in camera_keys:
        if key in batch and batch[key].dtype == torch.uint8:
            batch[key] = batch[key].to(dtype=torch.float32) / 255.0
    return normalize(batch)


class _Block(nn.Module):
    """ResNet's basic block: two 3x3 convolutions with batch norm and a shortcut."""

    def __init__(self, cin, cout, stride):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(),
            nn.Conv2d(cout, cout, 3, 1, 1, bias=False), nn.BatchNorm2d(cout),
        )
        self.skip = (
            nn.Identity()
            if stride == 1 and cin == cout
            else nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))
        )

    def forward(self, x):
        return torch.relu(self.body(x) + self.skip(x))


def resnet18_trunk() -> nn.Module:
    """ResNet-18's layers (ACT's and Diffusion's image backbone in LeRobot), pooled to 512
    features: the compute a real policy spends per image."""
    layers = [nn.Conv2d(3, 64, 7, 2, 3, bias=False), nn.BatchNorm2d(64), nn.ReLU(), nn.MaxPool2d(3, 2, 1)]
    cin = 64
    for cout, stride in ((64, 1), (128, 2), (256, 2), (512, 2)):
        layers += [_Block(cin, cout, stride), _Block(cout, cout, 1)]
        cin = cout
    return nn.Sequential(*layers, nn.AdaptiveAvgPool2d(1), nn.Flatten())


class SmallPolicy(nn.Module):
    """A policy with ACT's or Diffusion's inputs and outputs: per camera a strided conv encoder
    (shared), the state, over ``obs_steps`` observations, to ``horizon`` actions; the loss is
    L1 on the actions that are not padding (``action_is_pad``), as both policies mask it."""

    def __init__(self, cameras, state_dim, action_dim, obs_steps, horizon, backbone="small"):
        super().__init__()
        self.cameras, self.obs_steps, self.horizon = cameras, obs_steps, horizon
        if backbone == "resnet18":
            self.encoder, width = resnet18_trunk(), 512
        else:
            self.encoder = nn.Sequential(
                nn.Conv2d(3, 8, 7, stride=4), nn.ReLU(), nn.AdaptiveAvgPool2d(4), nn.Flatten()
            )
            width = 8 * 16
        features = obs_steps * (len(cameras) * width + state_dim)
        self.head = nn.Sequential(nn.Linear(features, 64), nn.ReLU(), nn.Linear(64, horizon * action_dim))
        self.action_dim = action_dim

    def forward(self, batch):
        parts = []
        for camera in self.cameras:
            frames = batch[camera]  # (B, C, H, W) or (B, T, C, H, W)
            if frames.ndim == 4:
                frames = frames.unsqueeze(1)
            b, t = frames.shape[:2]
            parts.append(self.encoder(frames.flatten(0, 1)).view(b, t, -1))
        state = batch["observation.state"]
        parts.append(state if state.ndim == 3 else state.unsqueeze(1))
        x = torch.cat(parts, dim=-1).flatten(1)
        predicted = self.head(x).view(-1, self.horizon, self.action_dim)
        target = batch["action"]
        valid = ~batch["action_is_pad"]
        loss = (predicted - target).abs().mean(-1)
        return (loss * valid).sum() / valid.sum().clamp(min=1)


def train(config: TrainConfig, repo_id: str, root) -> dict:
    """The training script's data path and loop for ``config.steps`` optimizer steps."""
    torch.manual_seed(0)
    started = time.perf_counter()
    dataset = make_dataset(config, repo_id, root)
    meta = dataset.meta
    cameras = [k for k in meta.camera_keys if k not in meta.depth_keys]
    normalize = Normalizer(meta.stats, ["observation.state", "action", *cameras])
    policy = SmallPolicy(
        cameras,
        meta.features["observation.state"]["shape"][0],
        meta.features["action"]["shape"][0],
        len(config.policy.observation_delta_indices or [0]),
        len(config.policy.action_delta_indices),
        config.backbone,
    )
    optimizer = torch.optim.Adam(policy.parameters(), lr=1e-3)
    dataloader = make_dataloader(config, dataset)
    dl_iter = itertools.cycle(dataloader)
    losses, waits, steps, shapes = [], [], [], {}
    for _ in range(config.steps):
        step_start = time.perf_counter()
        batch = next(dl_iter)
        waits.append(time.perf_counter() - step_start)  # the training script's dataloading_s
        shapes = {k: tuple(v.shape) for k, v in batch.items() if isinstance(v, torch.Tensor)}
        batch = preprocess(batch, meta.camera_keys, normalize)
        loss = policy(batch)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(float(loss))
        steps.append(time.perf_counter() - step_start)  # the training script's step_s
    return {
        "losses": losses,
        "shapes": shapes,
        "data_wait_s": waits,
        "step_s": steps,
        "seconds": time.perf_counter() - started,
        "num_frames": dataset.num_frames,
        "num_episodes": dataset.num_episodes,
    }


if __name__ == "__main__":
    result = train(TrainConfig(policy=ACT_LIKE, steps=5), "local/dataset", sys.argv[1])
    print(result)
