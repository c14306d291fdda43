"""Real LeRobot data through the bridge (../shared/datasets; skipped with a warning where the
folder is absent, as the Java real-dataset tests are): a real arm's recorded timestamps and a
humanoid's 640x480 AV1, each sample once."""

import json

from robostream.torch import StreamingLeRobotDataset
from real_data import real

def lengths(root, episodes):
    out = {}
    for line in (root / "meta" / "episodes.jsonl").read_text().splitlines():
        e = json.loads(line)
        if e["episode_index"] in episodes:
            out[e["episode_index"]] = e["length"]
    return out


def test_g1_humanoid_640x480_every_sample_once():
    root = real("g1-v21-sample")
    ds = StreamingLeRobotDataset("unitree/g1", root=root, episodes=[1, 2, 4], buffer_size=100,
                                 return_uint8=True)
    items = list(ds)
    want = lengths(root, {1, 2, 4})
    assert len(items) == sum(want.values())
    assert len({(i["episode_index"], i["frame_index"]) for i in items}) == len(items)
    assert items[0]["observation.images.cam_high"].shape == (3, 480, 640)
    assert items[0]["observation.state"].shape == (26,)


def test_cr5_recorded_timestamps_are_delivered_by_position_and_kept():
    root = real("cr5-v21-sample")
    ds = StreamingLeRobotDataset("dobot/cr5", root=root, episodes=range(5), shuffle=False,
                                 return_uint8=True)
    items = list(ds)
    want = lengths(root, set(range(5)))
    assert len(items) == sum(want.values())
    fps = ds.fps
    # The rows keep the times the robot recorded: some drift by more than half a frame.
    drift = max(abs(i["timestamp"] - i["frame_index"] / fps) for i in items)
    assert drift > 0.5 / fps
    by_episode = {}
    for i in items:
        by_episode.setdefault(i["episode_index"], []).append(i["frame_index"])
    assert all(sorted(f) == list(range(want[e])) for e, f in by_episode.items())
