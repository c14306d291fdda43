"""LeRobot's factory and training script's calls (``lerobot_style``) on robostream.torch,
nothing patched: an ACT-like config (an action chunk of 20) and a Diffusion-like one (two
observation steps, 16 actions), on the synthetic dataset and every real one in
../shared/datasets, a few optimizer steps each."""

import math
import sys
from pathlib import Path

import pytest

from real_data import real

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import lerobot_style as lerobot  # noqa: E402  (python/benchmarks: the benchmark uses it too)

# Real datasets with the selection LeRobot's config would pass (cfg.dataset.episodes); GR00T's
# demo data ships only one camera's files, selected with robostream's cameras= (LeRobot itself
# would fail at the first decode of the absent camera).
REAL = {
    "g1-v21-sample": {"episodes": [1, 2, 4]},
    "cr5-v21-sample": {"episodes": [0, 1, 2, 3, 4]},
    "gr00t-picknplace-v20": {"dataset_kwargs": {"cameras": ["observation.images.ego_view"]}},
}


def check(result, config):
    losses = result["losses"]
    assert len(losses) == config.steps and all(math.isfinite(x) for x in losses)
    horizon = len(config.policy.action_delta_indices)
    shapes = result["shapes"]
    assert shapes["action"][:2] == (config.batch_size, horizon)
    assert shapes["action_is_pad"] == (config.batch_size, horizon)
    steps = len(config.policy.observation_delta_indices or [])
    if steps:
        assert shapes["observation.state"][:2] == (config.batch_size, steps)


@pytest.mark.parametrize("policy", [lerobot.ACT_LIKE, lerobot.DIFFUSION_LIKE], ids=["act", "diffusion"])
def test_lerobot_style_training_on_the_synthetic_dataset(small_dataset, policy):
    config = lerobot.TrainConfig(policy=policy)
    check(lerobot.train(config, "local/small", small_dataset), config)


def test_lerobot_style_training_with_the_training_scripts_spawned_workers(small_dataset):
    # lerobot_train's defaults: DataLoader workers started with spawn, persistent, prefetch 4.
    config = lerobot.TrainConfig(policy=lerobot.ACT_LIKE, num_workers=2)
    check(lerobot.train(config, "local/small", small_dataset), config)


def test_lerobot_style_training_collates_language_columns_as_lists(language_dataset):
    # meta.has_language_columns: the training script's language-aware collate keeps them lists.
    config = lerobot.TrainConfig(policy=lerobot.ACT_LIKE, steps=2)
    check(lerobot.train(config, "local/language", language_dataset), config)


@pytest.mark.filterwarnings("ignore:timestamps")
@pytest.mark.parametrize("name", sorted(REAL))
@pytest.mark.parametrize("policy", [lerobot.ACT_LIKE, lerobot.DIFFUSION_LIKE], ids=["act", "diffusion"])
def test_lerobot_style_training_on_real_datasets(name, policy):
    root = real(name)
    config = lerobot.TrainConfig(policy=policy, steps=2, **REAL[name])
    check(lerobot.train(config, "real/" + name, root), config)
