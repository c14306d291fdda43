"""LeRobot's own calls on robostream.torch, unchanged: the constructor as LeRobot's dataset
factory calls it, the metadata its training script, policies and processors read, the column
types LeRobot datasets carry, the frames LeRobot would pick (or a word why not), ranks that end
an epoch together, DataLoader workers forked or spawned, Ctrl-C, passes, kept items' memory."""

import gc
import inspect
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
import torch
from torch.utils.data import DataLoader

import robostream
from robostream.torch import LeRobotDatasetMetadata, StreamingLeRobotDataset
from real_data import real

REPO = Path(__file__).resolve().parents[2]
CAMERAS = ["observation.images.top", "observation.images.wrist"]

# LeRobot's StreamingLeRobotDataset (upstream main 7427f31): positional parameters in order,
# with their defaults.
REFERENCE_POSITIONAL = {
    "repo_id": inspect.Parameter.empty,
    "root": None,
    "episodes": None,
    "image_transforms": None,
    "delta_timestamps": None,
    "tolerance_s": 1e-4,
    "revision": None,
    "force_cache_sync": False,
    "streaming": True,
    "buffer_size": 1000,
    "max_num_shards": 16,
    "seed": 42,
    "rng": None,
    "shuffle": True,
    "return_uint8": False,
    "depth_output_unit": "mm",
}


def total_frames(root):
    return json.loads((root / "meta" / "info.json").read_text())["total_frames"]


def run_python(script, *args, timeout=300, env=None):
    """A fresh Python process (no JVM yet) running ``script`` with the checkout's package."""
    return subprocess.run(
        [sys.executable, "-c", script, str(REPO / "python"), *map(str, args)],
        capture_output=True, text=True, timeout=timeout, env=env,
    )


# ---- 1. the reference's constructor ---------------------------------------------------------


def test_the_constructor_takes_the_references_parameters_in_its_order():
    params = list(inspect.signature(StreamingLeRobotDataset).parameters.values())
    positional = [p for p in params if p.kind == p.POSITIONAL_OR_KEYWORD]
    assert [p.name for p in positional] == list(REFERENCE_POSITIONAL)
    for p in positional:
        assert p.default == REFERENCE_POSITIONAL[p.name], p.name
    keyword = [p.name for p in params if p.kind == p.KEYWORD_ONLY]
    assert keyword[:4] == ["repo_type", "token", "video_decode_device", "data_files_root"]
    defaults = {p.name: p.default for p in params if p.kind == p.KEYWORD_ONLY}
    assert defaults["repo_type"] == "dataset" and defaults["token"] is None
    assert defaults["video_decode_device"] == "cpu"


def test_the_dataset_factorys_call_runs_as_the_reference_treats_it(small_dataset):
    # LeRobot's make_dataset, streaming branch, with cfg.num_workers == 0.
    ds = StreamingLeRobotDataset(
        "local/small",
        root=small_dataset,
        episodes=None,
        delta_timestamps=None,
        image_transforms=None,
        revision=None,
        max_num_shards=0,
        tolerance_s=1e-4,
        return_uint8=True,
        repo_type="dataset",
    )
    assert sorted(i["index"] for i in ds) == list(range(total_frames(small_dataset)))
    assert ds.num_shards >= 1
    # The 16th positional argument is depth_output_unit, as in the reference.
    ds = StreamingLeRobotDataset(
        "local/small", small_dataset, None, None, None, 1e-4, None, False, True, 40, 16, 42,
        None, True, False, "m",
    )
    assert ds.depth_output_unit == "m"
    with pytest.raises(ValueError, match="depth_output_unit"):
        StreamingLeRobotDataset("local/small", root=small_dataset, depth_output_unit="cm")
    with pytest.raises(ValueError, match="repo_type"):
        StreamingLeRobotDataset("local/small", root=small_dataset, repo_type="model")


def test_token_false_and_a_string_token_are_accepted(small_dataset):
    # A local dataset sends no request; the argument must still be taken as the reference's.
    for token in (None, False, "hf_not_a_real_token"):
        ds = StreamingLeRobotDataset("local/small", root=small_dataset, token=token)
        assert not hasattr(ds, "token")  # not kept on the object, as the reference
    with pytest.raises(TypeError, match="token"):
        StreamingLeRobotDataset("local/small", root=small_dataset, token=3)


# ---- 2. metadata as LeRobot's -----------------------------------------------------------------


def test_metadata_is_lerobots_for_a_v30_dataset(small_dataset):
    meta = LeRobotDatasetMetadata("local/small", root=small_dataset)
    info = json.loads((small_dataset / "meta" / "info.json").read_text())
    assert meta.repo_id == "local/small" and meta.repo_type == "dataset"
    assert meta.revision == "v3.0" and meta.root == small_dataset
    assert meta.info.fps == meta.fps == info["fps"] and meta.info["fps"] == info["fps"]
    assert meta.info.to_dict()["features"] == info["features"]
    assert all(isinstance(ft["shape"], tuple) for ft in meta.features.values())
    assert meta.camera_keys == meta.video_keys == CAMERAS and meta.image_keys == []
    assert meta.depth_keys == [] and meta.has_language_columns is False
    assert [t["function"]["name"] for t in meta.tools] == ["say"]  # LeRobot's default
    assert meta.shapes["action"] == (6,) and meta.names["action"] == info["features"]["action"]["names"]
    assert (meta.total_episodes, meta.total_frames) == (info["total_episodes"], info["total_frames"])
    assert meta.total_tasks == info["total_tasks"] and meta.robot_type == info.get("robot_type")
    assert meta.chunks_size == info["chunks_size"] and meta.data_path == info["data_path"]
    # tasks: a DataFrame indexed by the task, as the reference reads it (tasks.iloc[i].name).
    assert meta.tasks.index.name == "task" and list(meta.tasks.columns) == ["task_index"]
    assert meta.tasks.iloc[0].name == meta.tasks.index[0]
    assert meta.get_task_index(meta.tasks.index[0]) == 0 and meta.get_task_index("nope") is None
    # episodes: rows and columns as the training script reads them.
    assert len(meta.episodes) == info["total_episodes"]
    assert meta.episodes["dataset_from_index"][0] == 0
    assert meta.episodes["dataset_to_index"][-1] == info["total_frames"]
    row = meta.episodes[1]
    assert row["episode_index"] == 1 and row["length"] > 0 and isinstance(row["tasks"], list)
    assert row[f"videos/{CAMERAS[0]}/from_timestamp"] >= 0.0
    assert (small_dataset / meta.get_data_file_path(1)).is_file()
    assert (small_dataset / meta.get_video_file_path(1, CAMERAS[0])).is_file()
    # stats: numpy arrays per feature and statistic; the factory adds ImageNet's in place.
    stats = json.loads((small_dataset / "meta" / "stats.json").read_text())
    assert set(meta.stats) == set(stats)
    assert isinstance(meta.stats["action"]["mean"], np.ndarray)
    np.testing.assert_allclose(meta.stats["action"]["mean"], np.array(stats["action"]["mean"]))
    meta.stats.setdefault(CAMERAS[0], {})["mean"] = torch.tensor([[[0.485]], [[0.456]], [[0.406]]])


def test_v21_stats_are_aggregated_from_episodes_stats_as_lerobot_does():
    root = real("g1-v21-sample")
    meta = LeRobotDatasetMetadata("unitree/g1", root=root)  # files of 97 episodes are absent
    assert len(meta.episodes) == meta.total_episodes == 100
    per_episode = [
        json.loads(line)["stats"]
        for line in (root / "meta" / "episodes_stats.jsonl").read_text().splitlines()
    ]
    # The pooled statistics of all the episodes' samples, computed here independently.
    for key in ("observation.state", "action"):
        n = np.array([s[key]["count"][0] for s in per_episode], dtype=np.float64)
        means = np.array([s[key]["mean"] for s in per_episode])
        stds = np.array([s[key]["std"] for s in per_episode])
        mean = (n[:, None] * means).sum(0) / n.sum()
        var = (n[:, None] * (stds**2 + (means - mean) ** 2)).sum(0) / n.sum()
        np.testing.assert_allclose(meta.stats[key]["mean"], mean, rtol=1e-6)
        np.testing.assert_allclose(meta.stats[key]["std"], np.sqrt(var), rtol=1e-6)
        np.testing.assert_allclose(
            meta.stats[key]["min"], np.min([s[key]["min"] for s in per_episode], axis=0)
        )
        assert meta.stats[key]["count"][0] == n.sum()
    camera = meta.camera_keys[0]
    assert meta.stats[camera]["mean"].shape == (3, 1, 1)


def test_v20_stats_come_from_stats_json_and_a_camera_selection_shapes_the_datasets_meta():
    root = real("gr00t-picknplace-v20")
    meta = LeRobotDatasetMetadata("nvidia/gr00t", root=root)
    assert meta.camera_keys == ["observation.images.egoview", "observation.images.ego_view"]
    stats = json.loads((root / "meta" / "stats.json").read_text())
    np.testing.assert_allclose(meta.stats["action"]["mean"], np.array(stats["action"]["mean"]))
    assert len(meta.tasks) == 6 and meta.tasks.index[1] == "valid"
    ds = StreamingLeRobotDataset(
        "nvidia/gr00t", root=root, cameras=["observation.images.ego_view"], buffer_size=50
    )
    assert ds.meta.camera_keys == ["observation.images.ego_view"]
    assert "observation.images.egoview" not in ds.meta.features


def test_metadata_of_a_missing_folder_is_a_typed_error(tmp_path):
    with pytest.raises(robostream.RobostreamError):
        LeRobotDatasetMetadata("local/none", root=tmp_path / "none")


# ---- 3. every column type --------------------------------------------------------------------


def test_bool_float64_and_integer_columns_as_the_reference_yields_them():
    root = real("gr00t-picknplace-v20")
    ds = StreamingLeRobotDataset(
        "nvidia/gr00t", root=root, cameras=["observation.images.ego_view"], buffer_size=50
    )
    items = []
    for item in ds:
        items.append(item)
        if len(items) == 64:
            break
    item = items[0]
    assert isinstance(item["next.done"], bool)  # a Python bool, as a Hugging Face row holds it
    assert isinstance(item["next.reward"], float) and isinstance(item["timestamp"], float)
    assert isinstance(item["annotation.human.validity"], int)
    # float64 vectors become float32 tensors, as torch.tensor makes them of Python floats.
    assert item["observation.state"].dtype == torch.float32
    assert item["observation.state"].shape == (44,)
    batch = next(iter(DataLoader(items, batch_size=16)))
    assert batch["next.done"].dtype == torch.bool and batch["next.reward"].dtype == torch.float64
    assert batch["annotation.human.validity"].dtype == torch.int64
    fast = next(ds.batches(16))
    for key in ("next.done", "next.reward", "annotation.human.validity", "observation.state"):
        assert fast[key].dtype == batch[key].dtype, key
    assert any(i["next.done"] for i in ds)  # every episode ends with done


def test_language_columns_are_lists_of_message_dicts(language_dataset):
    ds = StreamingLeRobotDataset("local/language", root=language_dataset, shuffle=False,
                                 buffer_size=20)
    assert ds.meta.has_language_columns
    items = {i["index"]: i for i in ds}
    assert len(items) == 120
    # Row 70 (make-dataset's rows are a function of index and frame; 70 % 6 == 4).
    assert items[70]["language_persistent"] == [
        {"role": "assistant", "content": "x", "style": "motion",
         "timestamp": 1.100000023841858, "camera": None, "tool_calls": []}
    ]
    events = items[70]["language_events"]
    assert [e["content"] for e in events] == ["what is visible? \u2713", "two calls"]
    assert events[1]["tool_calls"][1] == {
        "type": "function", "function": {"name": "say", "arguments": {"text": None}}}
    forms = {type(i["language_persistent"]).__name__ for i in items.values()}
    assert forms == {"list", "NoneType"}  # null rows stay None, as LeRobot's reader gives them
    assert any(i["language_events"] == [] for i in items.values())
    batch = next(ds.batches(8))
    assert isinstance(batch["language_events"], list) and len(batch["language_events"]) == 8
    assert all(v is None or isinstance(v, list) for v in batch["language_persistent"])


def test_depth_cameras_come_in_depth_output_unit_as_lerobot_dequantizes_them(depth_dataset):
    depth = "observation.images.depth"
    # The raw 12-bit codes, from the Java API (float32 sample values).
    robostream.start_jvm()
    from org.robostream.stream import StreamingDataset

    codes = {}
    java = StreamingDataset.builder(str(depth_dataset)).shuffle(False).batchSize(4).build()
    try:
        for batch in java:
            tensor = batch.tensor(depth)
            values = np.frombuffer(
                bytes(bytearray(_java_bytes(tensor))), dtype="<f4"
            ).reshape([int(d) for d in tensor.shape()])
            for i, index in enumerate(batch.longs("index")):
                codes[int(index)] = values[i].copy()
            batch.close()
    finally:
        java.close()
    # LeRobot's log quantization with its defaults, written out here.
    lo, hi, shift = 0.01, 10.0, 3.5
    log_min, log_max = np.log(lo + shift), np.log(hi + shift)
    metres = {
        k: np.clip(np.exp(c.astype(np.float64) / 4095 * (log_max - log_min) + log_min) - shift, lo, hi)
        for k, c in codes.items()
    }
    for unit, uint8 in (("mm", False), ("m", False), ("mm", True)):
        ds = StreamingLeRobotDataset("local/depth", root=depth_dataset, shuffle=False,
                                     buffer_size=8, depth_output_unit=unit, return_uint8=uint8)
        assert ds.meta.depth_keys == [depth]
        items = list(ds)
        assert len(items) == len(codes)
        for item in items:
            got = item[depth]
            assert got.dtype == torch.float32 and got.shape == (1, 64, 64), got.shape
            want = metres[item["index"]] * (1000.0 if unit == "mm" else 1.0)
            if unit == "mm":
                want = np.clip(np.rint(want), 0, 65535)
            np.testing.assert_allclose(got.numpy(), want, rtol=1e-5, atol=0.51 if unit == "mm" else 1e-5)
        assert items[0]["observation.images.top"].dtype == (torch.uint8 if uint8 else torch.float32)
        batch = next(ds.batches(4))
        assert batch[depth].dtype == torch.float32 and batch[depth].shape == (4, 1, 64, 64)


def _java_bytes(tensor):
    import jpype

    buf = tensor.data()
    out = jpype.JByte[buf.remaining()]
    buf.get(out)
    return out


# ---- 4. frames as LeRobot picks them, or a word why not --------------------------------------


def test_position_warns_once_where_lerobot_would_pick_other_frames():
    root = real("gr00t-picknplace-v20")
    with pytest.warns(UserWarning, match="lerobot") as caught:
        StreamingLeRobotDataset("nvidia/gr00t", root=root, cameras=["observation.images.ego_view"])
    assert len([w for w in caught if "lerobot" in str(w.message)]) == 1


def test_lerobot_and_strict_timestamps_refuse_gr00t_at_open():
    root = real("gr00t-picknplace-v20")
    for mode in ("lerobot", "strict"):
        with pytest.raises(robostream.DatasetError):
            StreamingLeRobotDataset(
                "nvidia/gr00t", root=root, cameras=["observation.images.ego_view"],
                timestamps=mode,
            )


def test_lerobot_timestamps_give_the_position_frames_where_rows_keep_frame_index_over_fps(
    small_dataset,
):
    by_position = {
        i["index"]: i[CAMERAS[0]] for i in StreamingLeRobotDataset(
            "local/small", root=small_dataset, shuffle=False, return_uint8=True
        )
    }
    for item in StreamingLeRobotDataset(
        "local/small", root=small_dataset, shuffle=False, return_uint8=True, timestamps="lerobot"
    ):
        assert torch.equal(item[CAMERAS[0]], by_position[item["index"]])


# ---- 5. ranks end an epoch together ----------------------------------------------------------


def test_ranks_yield_as_many_samples_on_a_real_dataset():
    root = real("g1-v21-sample")
    parts = []
    for rank in range(2):
        ds = StreamingLeRobotDataset(
            "unitree/g1", root=root, episodes=[1, 2, 4], rank=rank, world_size=2,
            buffer_size=64, return_uint8=True,
        )
        parts.append([(i["episode_index"], i["frame_index"]) for i in ds])
    assert len(parts[0]) == len(parts[1]) > 0
    assert not set(parts[0]) & set(parts[1])
    assert len(set(parts[0])) == len(parts[0]) and len(set(parts[1])) == len(parts[1])


# ---- 6. DataLoader workers, forked and spawned -------------------------------------------------

WORKERS_SCRIPT = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
import torch
from torch.utils.data import DataLoader
from robostream.torch import LeRobotDatasetMetadata, StreamingLeRobotDataset
from robostream import _jvm

if __name__ == "__main__":
    root, context = sys.argv[2], (sys.argv[3] or None)
    meta = LeRobotDatasetMetadata("local/small", root=root)
    ds = StreamingLeRobotDataset("local/small", root=root, buffer_size=40, max_num_shards=2)
    jvm_before = _jvm.started() or "libjvm" in open("/proc/self/maps").read()
    loader = DataLoader(ds, batch_size=4, num_workers=2, multiprocessing_context=context,
                        persistent_workers=True)
    epochs = [[i for b in loader for i in b["index"].tolist()] for _ in range(2)]
    print(json.dumps({"jvm_before": jvm_before, "epochs": epochs,
                      "stats": ds.video_decoder_cache_stats(), "frames": ds.loader_stats()}))
"""


@pytest.mark.parametrize("context", ["", "spawn"])
def test_dataloader_workers_fork_and_spawn_read_every_sample_once(small_dataset, context):
    """LeRobot's streaming example forks (Linux's default); its training script spawns."""
    run = run_python(WORKERS_SCRIPT, small_dataset, context)
    assert run.returncode == 0, run.stdout + run.stderr
    result = json.loads(run.stdout.strip().splitlines()[-1])
    assert result["jvm_before"] is False, "constructing must leave no JVM in the parent"
    total = total_frames(small_dataset)
    for epoch in result["epochs"]:
        assert sorted(epoch) == list(range(total))
    assert result["epochs"][0] != result["epochs"][1], "persistent workers: a new order"
    stats = result["stats"]  # aggregated over the worker processes, as the reference's
    assert stats["hits"] + stats["misses"] >= 2 * 2 * total
    assert stats["hit_rate"] > 0.0
    assert result["frames"]["frames_delivered"] >= 2 * 2 * total


def test_a_fork_after_the_parent_started_its_loader_is_refused_with_the_way_through(
    small_dataset,
):
    ds = StreamingLeRobotDataset("local/small", root=small_dataset, buffer_size=40)
    next(iter(ds))  # this process now runs the loader's JVM
    loader = DataLoader(ds, batch_size=4, num_workers=1, multiprocessing_context="fork")
    with pytest.raises(Exception, match="spawn") as caught:
        next(iter(loader))
    assert "num_workers" in str(caught.value)


# ---- 7. Python behaviour users rely on ---------------------------------------------------------

INTERRUPT_SCRIPT = r"""
import signal, sys, time
# A terminal's Ctrl-C, whatever started the test command: a shell's background job (`cmd &`
# without job control) starts its children with SIGINT ignored, and Python then installs no
# handler, so the signal below would be lost.
signal.signal(signal.SIGINT, signal.default_int_handler)
sys.path.insert(0, sys.argv[1])
import robostream
from robostream.torch import StreamingLeRobotDataset
ds = StreamingLeRobotDataset("local/small", root=sys.argv[2], buffer_size=100000,
                             memory_budget_mb=4096)
jpype = robostream.start_jvm()  # started before "ready": Ctrl-C lands in the loader's wait
print("ready", flush=True)
try:
    for item in ds:
        pass
except KeyboardInterrupt:
    time.sleep(0.5)
    threads = jpype.JClass("java.lang.Thread").getAllStackTraces().keySet()
    workers = [t for t in threads if str(t.getName()).startswith("robostream-worker-")]
    print("stopped workers left:", len(workers), flush=True)
    raise
"""


def test_ctrl_c_raises_keyboard_interrupt_and_stops_the_loader(h264_dataset, tmp_path):
    # A buffer larger than the dataset: the first sample waits for the whole epoch's decode,
    # so Ctrl-C arrives while the main thread waits for the loader.
    process = subprocess.Popen(
        [sys.executable, "-c", INTERRUPT_SCRIPT, str(REPO / "python"), str(h264_dataset)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        assert "ready" in process.stdout.readline()
        time.sleep(0.3)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    finally:
        process.kill()
    assert "KeyboardInterrupt" in err, out + err
    assert "stopped workers left: 0" in out, out + err
    assert process.returncode == -signal.SIGINT, (process.returncode, err)
    assert "hs_err" not in err and "SIGABRT" not in err


EXIT_SCRIPT = r"""
import sys
sys.path.insert(0, sys.argv[1])
from robostream.torch import StreamingLeRobotDataset
ds = StreamingLeRobotDataset("local/small", root=sys.argv[2], loader_batch_size=64)
it = iter(ds)
next(it)  # the item thread is now copying the next batch out of Java's memory
print("exiting", flush=True)
"""


def test_exiting_with_a_pass_unfinished_is_clean(small_dataset):
    # At exit, weakref's finalizers close the loader and JPype stops the JVM: the item thread must
    # be stopped first, or it copies out of freed memory (a segfault at exit, seen under load on
    # 640x480 frames) and the pass's generator ends on a dead JVM ("Exception ignored").
    for _ in range(3):
        done = subprocess.run(
            [sys.executable, "-X", "faulthandler", "-c", EXIT_SCRIPT, str(REPO / "python"),
             str(small_dataset)],
            capture_output=True, text=True, timeout=120,
        )
        assert done.returncode == 0 and "exiting" in done.stdout, (done.returncode, done.stderr)
        assert "Exception ignored" not in done.stderr, done.stderr
        assert "Fatal Python error" not in done.stderr, done.stderr


def test_each_iter_is_a_new_pass_and_state_dict_still_continues_exactly(small_dataset):
    ds = StreamingLeRobotDataset("local/small", root=small_dataset, buffer_size=40,
                                 loader_batch_size=8)
    total = total_frames(small_dataset)
    whole = [i["index"] for i in StreamingLeRobotDataset(
        "local/small", root=small_dataset, buffer_size=40, loader_batch_size=8)]
    head = []
    for item in ds:
        head.append(item["index"])
        if len(head) == 13:
            break
    state = ds.state_dict()  # taken after the break: where the pass stopped
    again = [i["index"] for i in ds]
    assert sorted(again) == list(range(total)), "iter() after a break is a whole new pass"
    resumed = StreamingLeRobotDataset("local/small", root=small_dataset, buffer_size=40,
                                      loader_batch_size=8)
    resumed.load_state_dict(state)
    assert head + [i["index"] for i in resumed] == whole


def test_shuffle_false_repeats_its_order_every_pass_and_shuffle_true_does_not(small_dataset):
    fixed = StreamingLeRobotDataset("local/small", root=small_dataset, shuffle=False,
                                    buffer_size=40)
    assert [i["index"] for i in fixed] == [i["index"] for i in fixed]
    mixed = StreamingLeRobotDataset("local/small", root=small_dataset, buffer_size=40)
    assert [i["index"] for i in mixed] != [i["index"] for i in mixed]


def test_kept_items_cost_their_own_size_not_their_loader_batch(small_dataset):
    ds = StreamingLeRobotDataset("local/small", root=small_dataset, buffer_size=40,
                                 loader_batch_size=16)
    kept = [item for n, item in enumerate(ds) if n % 16 == 0]
    gc.collect()
    loader = ds._handle.loader
    assert len(kept) >= 7
    # No loader batch is held by the kept items: their values are their own copies.
    assert int(loader.outstandingBatchBytes()) == 0
    frame = kept[0][CAMERAS[0]]
    storage = frame.untyped_storage() if hasattr(frame, "untyped_storage") else frame.storage()
    assert storage.nbytes() == frame.numel() * frame.element_size()


def test_frame_cache_sizes_are_written_as_users_write_them(small_dataset):
    for size in ("64MiB", "64MB", "64M", "0.0625G"):
        ds = StreamingLeRobotDataset("local/small", root=small_dataset, buffer_size=40,
                                     frame_cache=f"memory:{size}")
        assert sum(1 for _ in ds) == total_frames(small_dataset)
    with pytest.raises(ValueError, match="size"):
        StreamingLeRobotDataset("local/small", root=small_dataset, frame_cache="memory:lots")


def test_a_dataset_that_leaves_out_lerobots_default_features_loads(tmp_path):
    source = real("g1-v21-sample")
    root = tmp_path / "g1"
    shutil.copytree(source, root)
    info = json.loads((root / "meta" / "info.json").read_text())
    for key in ("timestamp", "frame_index", "episode_index", "index", "task_index"):
        info["features"].pop(key)
    (root / "meta" / "info.json").write_text(json.dumps(info))
    ds = StreamingLeRobotDataset("unitree/g1", root=root, episodes=[2], buffer_size=40)
    items = list(ds)
    assert len(items) == ds.meta.episodes[2]["length"]
    assert {"timestamp", "frame_index", "episode_index", "index", "task_index"} <= set(items[0])
    assert ds.meta.features["frame_index"] == {"dtype": "int64", "shape": (1,), "names": None}


def test_under_accelerate_the_dataset_reads_everything_for_its_prepared_dataloader(
    small_dataset, monkeypatch
):
    """LeRobot's training script builds an Accelerator before its dataset and prepares the
    DataLoader, which dispatches the stream from rank 0 (or shards it itself): a share read by
    rank here would be split again. Accelerate is not installed here (no PyPI), so its state is
    stood in for by a module with the one attribute the rule reads."""
    import types

    state = types.ModuleType("accelerate.state")

    class PartialState:
        _shared_state = {"num_processes": 2, "process_index": 1}

    state.PartialState = PartialState
    accelerate = types.ModuleType("accelerate")
    accelerate.state = state
    monkeypatch.setitem(sys.modules, "accelerate", accelerate)
    monkeypatch.setitem(sys.modules, "accelerate.state", state)
    monkeypatch.setenv("RANK", "1")
    monkeypatch.setenv("WORLD_SIZE", "2")
    ds = StreamingLeRobotDataset("local/small", root=small_dataset, buffer_size=40)
    assert (ds.rank, ds.world_size) == (0, 1)
    PartialState._shared_state = {}  # not initialised: the environment's ranks again
    ds = StreamingLeRobotDataset("local/small", root=small_dataset, buffer_size=40)
    assert (ds.rank, ds.world_size) == (1, 2)


def test_set_epoch_keeps_a_loaded_state_of_its_epoch_and_old_passes_leave_the_new_alone(
    small_dataset,
):
    kw = dict(buffer_size=40, loader_batch_size=8)
    whole = [i["index"] for i in StreamingLeRobotDataset("local/small", root=small_dataset, **kw)]
    ds = StreamingLeRobotDataset("local/small", root=small_dataset, **kw)
    it = iter(ds)
    head = [next(it)["index"] for _ in range(11)]
    state = ds.state_dict()
    del it
    resumed = StreamingLeRobotDataset("local/small", root=small_dataset, **kw)
    resumed.load_state_dict(state)
    resumed.set_epoch(0)  # what Accelerate's prepared DataLoader calls at every iter()
    assert resumed.state_dict() == state  # staged, not yet opened: the same position
    old = iter(resumed)
    tail = [next(old)["index"]]
    new = iter(resumed)  # a new pass; the old generator must not stop it when collected
    first_of_new = next(new)["index"]
    del old
    gc.collect()
    assert head + tail == whole[:12]
    again = [first_of_new] + [i["index"] for i in new]
    assert sorted(again) == list(range(total_frames(small_dataset)))


def test_windows_beyond_reach_are_refused_and_counts_come_from_what_is_read(small_dataset, copy_of):
    for seconds in (1e18, -1e308):
        with pytest.raises(ValueError, match="a window may reach"):
            StreamingLeRobotDataset("local/small", root=small_dataset,
                                    delta_timestamps={"action": [0.0, seconds]})
    for seconds in (float("nan"), float("inf"), float("-inf")):
        with pytest.raises(ValueError, match="not a number of seconds"):
            StreamingLeRobotDataset("local/small", root=small_dataset,
                                    delta_timestamps={"action": [seconds]})
    hostile = copy_of(small_dataset)
    info = json.loads((hostile / "meta" / "info.json").read_text())
    info["total_frames"], info["total_episodes"] = 10**12, 10**6
    (hostile / "meta" / "info.json").write_text(json.dumps(info))
    with pytest.warns(UserWarning, match="the episodes table"):
        ds = StreamingLeRobotDataset("local/hostile", root=hostile, buffer_size=40)
    assert (ds.num_frames, ds.num_episodes) == (total_frames(small_dataset), 5)
    assert sum(1 for _ in ds) == ds.num_frames


def test_altered_states_and_another_datasets_state_are_refused(small_dataset, copy_of):
    ds = StreamingLeRobotDataset("local/small", root=small_dataset, buffer_size=40,
                                 loader_batch_size=8)
    it = iter(ds)
    for _ in range(8):  # one loader batch: a boundary
        next(it)
    state = ds.state_dict()
    loader = json.loads(state["loader"])
    assert loader["segments"][-1]["batches"] == 1

    def fresh(root=small_dataset):
        return StreamingLeRobotDataset("local/small", root=root, buffer_size=40,
                                       loader_batch_size=8)

    def altered(**changes):
        return {**state, "loader": json.dumps({**loader, **changes})}

    # The loader's world changed, not the state's: refused at load.
    world = [{**loader["segments"][-1], "world": 10**6}]
    with pytest.raises(ValueError, match="altered"):
        fresh().load_state_dict(altered(segments=world))
    for rank, size in ((0, 0), (2, 2), (True, 1), (0, 10**9)):
        with pytest.raises(ValueError, match="not a rank of a world"):
            fresh().load_state_dict({**state, "rank": rank, "world_size": size})
    # More batches than the epoch has, an epoch past 2^53 - 1: refused when the pass opens.
    for changes, words in (
        ({"segments": [{**loader["segments"][-1], "batches": 10**6}]}, "batches is 1000000"),
        ({"epoch": 2**63 - 1}, "epoch"),
    ):
        resumed = fresh()
        resumed.load_state_dict(altered(**changes))
        with pytest.raises(ValueError, match=words):
            next(iter(resumed))
    with pytest.raises(ValueError, match="epoch"):
        fresh().set_epoch(2**63 - 1)
    # Another dataset with the same episode lengths (other statistics: another recording).
    other = copy_of(small_dataset)
    stats = other / "meta" / "stats.json"
    recorded = json.loads(stats.read_text())
    key = next(k for k in recorded if not k.startswith("observation.image"))
    recorded[key]["min"] = [v - 1 for v in recorded[key]["min"]]
    stats.write_text(json.dumps(recorded))
    resumed = fresh(other)
    resumed.load_state_dict(state)
    with pytest.raises(ValueError, match="another dataset"):
        next(iter(resumed))
    # The state itself resumes exactly where it was taken.
    resumed = fresh()
    resumed.load_state_dict(state)
    assert sum(1 for _ in resumed) == total_frames(small_dataset) - 8
