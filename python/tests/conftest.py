"""Fixtures for the Python bridge's tests: small LeRobot datasets written by robostream's own
synthetic writer (the CLI's make-dataset, in its own JVM, before this process starts one)."""

import glob
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "python"))  # the checkout's package, not an installed one


def cli_jar() -> str:
    jars = glob.glob(str(REPO / "cli" / "target" / "robostream-cli-*.jar"))
    if not jars:
        pytest.fail("cli/target has no robostream-cli jar: run `mvn install` first (scripts/test.sh does)")
    return jars[0]


def make_dataset(out: Path, *args: str) -> Path:
    subprocess.run(
        ["java", "--add-opens=java.base/java.nio=ALL-UNNAMED", "-jar", cli_jar(),
         "make-dataset", "--out", str(out), *args],
        check=True, stdout=subprocess.DEVNULL, timeout=300,
    )
    return out


@pytest.fixture(scope="session")
def small_dataset(tmp_path_factory) -> Path:
    """5 episodes of about 24 frames (lengths vary by up to 30%), 2 cameras 64x64 AV1, 20 fps."""
    return make_dataset(
        tmp_path_factory.mktemp("ds") / "small",
        "--episodes", "5", "--frames-per-episode", "24", "--length-jitter", "0.3",
        "--cameras", "2", "--size", "64x64",
    )


@pytest.fixture(scope="session")
def h264_dataset(tmp_path_factory) -> Path:
    """3 episodes of 40 frames, one 96x64 H.264 camera with a long GOP (B-frames)."""
    return make_dataset(
        tmp_path_factory.mktemp("ds") / "h264",
        "--episodes", "3", "--frames-per-episode", "40", "--cameras", "1", "--size", "96x64",
        "--codec", "h264", "--gop", "30",
    )


@pytest.fixture(scope="session")
def language_dataset(tmp_path_factory) -> Path:
    """3 episodes of 40 frames, one 64x64 camera, LeRobot's language columns (rows of every form:
    null, empty, one or several messages; make-dataset --language-columns)."""
    return make_dataset(
        tmp_path_factory.mktemp("ds") / "language",
        "--episodes", "3", "--frames-per-episode", "40", "--cameras", "1", "--size", "64x64",
        "--language-columns",
    )


@pytest.fixture(scope="session")
def depth_dataset(tmp_path_factory) -> Path:
    """2 episodes of 12 frames: one 64x64 colour camera and one depth camera (12-bit HEVC
    gray12le codes, video.is_depth_map; make-dataset --depth-cameras)."""
    return make_dataset(
        tmp_path_factory.mktemp("ds") / "depth",
        "--episodes", "2", "--frames-per-episode", "12", "--cameras", "1", "--size", "64x64",
        "--depth-cameras", "1",
    )


@pytest.fixture
def copy_of(tmp_path):
    def copy(dataset: Path) -> Path:
        target = tmp_path / dataset.name
        shutil.copytree(dataset, target)
        return target

    return copy
