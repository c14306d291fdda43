"""A Hub dataset by repo_id alone (no root), as the reference is mostly used: served by nginx on
loopback in the Hub's URL layout (scripts/tests/hub-nginx.sh, the Java Hub tests' server), read
in a fresh Python process whose environment points HF_ENDPOINT at it."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SCRIPT = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
from robostream.torch import StreamingLeRobotDataset
ds = StreamingLeRobotDataset(sys.argv[2], revision=sys.argv[3] or None)
print(json.dumps({"indices": sorted(i["index"] for i in ds), "fps": ds.fps,
                  "cameras": ds.meta.camera_keys}))
"""


@pytest.fixture
def hub(small_dataset, tmp_path):
    state = tmp_path / "nginx"
    start = subprocess.run(
        [str(REPO / "scripts/tests/hub-nginx.sh"), "start", str(state), str(small_dataset),
         "lerobot/small"],
        capture_output=True, text=True, timeout=300,
    )
    if start.returncode != 0:
        pytest.fail("nginx for the Hub tests did not start: " + start.stdout + start.stderr)
    try:
        yield f"http://127.0.0.1:{start.stdout.strip().splitlines()[-1]}"
    finally:
        subprocess.run([str(REPO / "scripts/tests/hub-nginx.sh"), "stop", str(state)], timeout=60)


@pytest.mark.parametrize("revision", ["", "v3.0"])
def test_a_hub_dataset_streams_by_repo_id(hub, small_dataset, tmp_path, revision):
    env = dict(os.environ, HF_ENDPOINT=hub, HF_LEROBOT_HOME=str(tmp_path / "cache"))
    env.pop("HF_TOKEN", None)
    run = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(REPO / "python"), "lerobot/small", revision],
        capture_output=True, text=True, env=env, timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    result = json.loads(run.stdout.strip().splitlines()[-1])
    total = json.loads((small_dataset / "meta" / "info.json").read_text())["total_frames"]
    assert result["indices"] == list(range(total))
    assert result["fps"] == 20 and len(result["cameras"]) == 2


def test_an_unknown_hub_dataset_is_a_typed_error(hub, tmp_path):
    env = dict(os.environ, HF_ENDPOINT=hub, HF_LEROBOT_HOME=str(tmp_path / "cache"))
    run = subprocess.run(
        [sys.executable, "-c",
         "import sys; sys.path.insert(0, sys.argv[1])\n"
         "import robostream\n"
         "from robostream.torch import StreamingLeRobotDataset\n"
         "try:\n"
         "    StreamingLeRobotDataset('nobody/nothing')\n"
         "except robostream.RobostreamError as e:\n"
         "    print(type(e).__name__, '|', e)\n",
         str(REPO / "python")],
        capture_output=True, text=True, env=env, timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "nobody/nothing" in run.stdout, run.stdout
