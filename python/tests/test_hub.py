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


TOKEN_SCRIPT = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
from robostream.torch import StreamingLeRobotDataset
repo_id, repo_type = sys.argv[2], sys.argv[3]
for token in sys.argv[4:]:  # one dataset a token, one line each
    token = {"none": None, "false": False}.get(token, token)
    ds = StreamingLeRobotDataset(repo_id, repo_type=repo_type, token=token, buffer_size=20)
    print(json.dumps({"indices": sorted(i["index"] for i in ds), "cameras": ds.meta.camera_keys,
                      "token": str(token)}), flush=True)
    print("--", flush=True)
"""


def run_token_script(hub, tmp_path, repo_id, repo_type, *tokens):
    """One Python process opening ``repo_id`` once per token; each run's results and the
    Authorization headers nginx saw while it ran."""
    env = dict(os.environ, HF_ENDPOINT=hub, HF_LEROBOT_HOME=str(tmp_path / "cache"),
               HF_HOME=str(tmp_path / "hf-home"), HF_TOKEN="hf_from_the_environment")
    log = tmp_path / "nginx" / "hub.log"
    start = len(log.read_text().splitlines()) if log.exists() else 0
    run = subprocess.run(
        [sys.executable, "-c", TOKEN_SCRIPT, str(REPO / "python"), repo_id, repo_type, *tokens],
        capture_output=True, text=True, env=env, timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    results = [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]
    requests = log.read_text().splitlines()[start:]
    return results, requests


def test_token_as_lerobot_takes_it(hub, small_dataset, tmp_path):
    total = json.loads((small_dataset / "meta" / "info.json").read_text())["total_frames"]
    (tmp_path / "hf-home").mkdir(exist_ok=True)
    (tmp_path / "hf-home" / "token").write_text("hf_stored\n")
    # A string: that token, whatever HF_TOKEN says; False: no token at all (neither HF_TOKEN nor
    # the stored one). The mirror is shared, so the second run asks only for what is not cached:
    # the revision, which every open resolves.
    results, requests = run_token_script(
        hub, tmp_path, "lerobot/small", "dataset", "hf_explicit", "false"
    )
    assert [r["indices"] for r in results] == [list(range(total))] * 2
    auth = [line.split(" auth=")[1].split(" range=")[0] for line in requests]
    explicit, anonymous = auth.index("Bearer hf_explicit"), auth.index("-")
    assert explicit < anonymous, auth
    assert set(auth[:anonymous]) == {"Bearer hf_explicit"}, auth
    assert set(auth[anonymous:]) == {"-"}, auth


def test_repo_type_bucket_streams_a_whole_dataset_from_its_bucket(hub, small_dataset, tmp_path):
    """LeRobot's repo_type="bucket": meta/, data/ and videos/ from hf://buckets/<repo_id>."""
    total = json.loads((small_dataset / "meta" / "info.json").read_text())["total_frames"]
    results, requests = run_token_script(hub, tmp_path, "lerobot/small-bucket", "bucket", "none")
    assert results[0]["indices"] == list(range(total)) and len(results[0]["cameras"]) == 2
    reads = [line for line in requests if "/resolve/" in line]
    for kind in ("meta/", "data/", "videos/"):
        of_kind = [line for line in reads if "/" + kind in line]
        assert of_kind and all(
            line.startswith("/buckets/lerobot/small-bucket/resolve/" + kind) for line in of_kind
        ), (kind, reads)
