"""The real LeRobot datasets in ../shared/datasets, for tests; a test that needs one is skipped,
with a warning, where the folder is absent (as the Java real-dataset tests are)."""

import warnings
from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[3] / "shared" / "datasets"


def real(name: str) -> Path:
    root = SHARED / name
    if not (root / "meta" / "info.json").is_file():
        warnings.warn(f"{root} is absent: real-dataset test skipped")
        pytest.skip(f"{root} is absent")
    return root
