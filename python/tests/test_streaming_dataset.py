"""robostream.torch.StreamingLeRobotDataset: the reference's items, every sample once, the Java
API's frames, exact resume, windows, errors, the JVM and its threads, DataLoader workers."""

import gc
import json
import os
import time
import weakref

import numpy as np
import pytest
import torch
from torch.utils.data import DataLoader

import robostream
from robostream import _jvm
from robostream.torch import StreamingLeRobotDataset

CAMERAS = ["observation.images.top", "observation.images.wrist"]


def dataset(root, **kw):
    kw.setdefault("buffer_size", 40)
    return StreamingLeRobotDataset("local/" + root.name, root=root, **kw)


def total_frames(root):
    return json.loads((root / "meta" / "info.json").read_text())["total_frames"]


# ---- the reference's items ---------------------------------------------------------------


def test_items_have_the_reference_keys_dtypes_and_shapes(small_dataset):
    ds = dataset(small_dataset)
    item = next(iter(ds))
    # As the reference documents (section 5.6): numeric vectors float32 (D,), scalars Python
    # numbers, cameras float32 (C,H,W) in [0,1], task a string.
    assert set(item) == {
        "action", "observation.state", "timestamp", "frame_index", "episode_index", "index",
        "task_index", "task", *CAMERAS,
    }
    assert item["action"].dtype == torch.float32 and item["action"].shape == (6,)
    assert item["observation.state"].dtype == torch.float32
    assert isinstance(item["timestamp"], float)
    for key in ("frame_index", "episode_index", "index", "task_index"):
        assert isinstance(item[key], int), key
    assert isinstance(item["task"], str) and item["task"]
    for camera in CAMERAS:
        frame = item[camera]
        assert frame.dtype == torch.float32 and frame.shape == (3, 64, 64)
        assert 0.0 <= float(frame.min()) and float(frame.max()) <= 1.0
        assert float(frame.std()) > 0.01  # a picture, not a blank
    assert item["timestamp"] == pytest.approx(item["frame_index"] / ds.fps, abs=1e-6)
    assert item["task"] == ds.meta.tasks.iloc[item["task_index"]].name  # as the reference reads it


def test_dataloader_collates_as_the_reference_and_a_model_trains(small_dataset):
    ds = dataset(small_dataset)
    batch = next(iter(DataLoader(ds, batch_size=8)))
    assert batch["observation.images.top"].shape == (8, 3, 64, 64)
    assert batch["observation.images.top"].dtype == torch.float32
    assert batch["action"].shape == (8, 6) and batch["action"].dtype == torch.float32
    assert batch["timestamp"].dtype == torch.float64  # collated Python floats
    assert batch["index"].dtype == torch.int64
    assert isinstance(batch["task"], list) and len(batch["task"]) == 8

    torch.manual_seed(0)
    model = torch.nn.Sequential(
        torch.nn.Conv2d(3, 4, 5, stride=4), torch.nn.ReLU(), torch.nn.Flatten(),
        torch.nn.Linear(4 * 15 * 15, 6),
    )
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    losses = []
    for step, b in zip(range(12), DataLoader(dataset(small_dataset), batch_size=8)):
        loss = torch.nn.functional.l1_loss(model(b["observation.images.top"]), b["action"])
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(float(loss))
    assert len(losses) == 12 and all(np.isfinite(losses))


def test_return_uint8_gives_the_same_pictures_as_uint8(small_dataset):
    floats = {i["index"]: i[CAMERAS[0]] for i in dataset(small_dataset, shuffle=False)}
    for item in dataset(small_dataset, shuffle=False, return_uint8=True):
        frame = item[CAMERAS[0]]
        assert frame.dtype == torch.uint8 and frame.shape == (3, 64, 64)
        assert torch.allclose(frame.float() / 255.0, floats[item["index"]], atol=1e-6)


def test_properties_and_meta(small_dataset):
    ds = dataset(small_dataset)
    info = json.loads((small_dataset / "meta" / "info.json").read_text())
    assert ds.num_frames == info["total_frames"]
    assert ds.num_episodes == info["total_episodes"] == 5
    assert ds.fps == info["fps"] == 20
    assert ds.meta.camera_keys == CAMERAS
    assert ds.meta.info.to_dict() == info
    assert ds.meta.info.fps == ds.meta.info["fps"] == 20
    assert ds.meta.features["action"]["dtype"] == "float32"
    assert ds.meta.features["action"]["shape"] == (6,)  # tuples, as LeRobot's DatasetInfo


# ---- every sample once, the same frames as the Java API ----------------------------------


def test_every_sample_exactly_once_per_epoch_and_a_new_order_next_epoch(small_dataset):
    ds = dataset(small_dataset)
    first = [item["index"] for item in ds]
    assert sorted(first) == list(range(total_frames(small_dataset)))
    second = [item["index"] for item in ds]
    assert sorted(second) == sorted(first)
    assert second != first  # shuffle=True: the next epoch draws another order


def test_same_seed_same_order(small_dataset):
    a = [i["index"] for i in dataset(small_dataset, seed=7)]
    b = [i["index"] for i in dataset(small_dataset, seed=7)]
    c = [i["index"] for i in dataset(small_dataset, seed=8)]
    assert a == b and a != c


def test_frames_equal_the_java_api(small_dataset):
    """The bridge's views read the same bytes the Java API hands a Java trainer."""
    jpype = robostream.start_jvm()
    from org.robostream.stream import StreamingDataset

    java = (
        StreamingDataset.builder(str(small_dataset)).bufferSize(40).batchSize(4).returnUint8(True)
        .build()
    )
    expected = {}
    try:
        for batch in java:
            index = [int(x) for x in batch.longs("index")]
            for camera in CAMERAS:
                frames = batch.frames(camera)
                for i, idx in enumerate(index):
                    buf = frames.sample(i)
                    data = jpype.JByte[buf.remaining()]
                    buf.get(data)
                    expected[(idx, camera)] = np.frombuffer(bytes(data), np.uint8).copy()
            batch.close()
    finally:
        java.close()
    seen = 0
    for item in dataset(small_dataset, return_uint8=True):
        for camera in CAMERAS:
            got = item[camera].numpy().reshape(-1)
            assert np.array_equal(got, expected[(item["index"], camera)]), (item["index"], camera)
            seen += 1
    assert seen == 2 * total_frames(small_dataset)


def test_episodes_select(small_dataset):
    ds = dataset(small_dataset, episodes=[1, 3])
    episodes = {item["episode_index"] for item in ds}
    assert episodes == {1, 3}


def test_rank_and_world_size_split_the_samples_evenly(small_dataset):
    """DDP's ranks must end an epoch together: per-sample iteration yields as many samples on
    every rank, disjoint, each at most once; what one rank's larger share holds beyond the
    other's is left for the next epoch's plan (batches() pads instead, flagged is_padding)."""
    parts = [
        [i["index"] for i in dataset(small_dataset, rank=r, world_size=2)] for r in range(2)
    ]
    assert len(parts[0]) == len(parts[1]) > 0
    assert not set(parts[0]) & set(parts[1])
    assert len(set(parts[0])) == len(parts[0])
    assert set(parts[0]) | set(parts[1]) <= set(range(total_frames(small_dataset)))
    # Nothing is lost beyond the difference between the shares (5 episodes of ~24 frames).
    assert len(parts[0]) * 2 >= total_frames(small_dataset) - 40


# ---- exact resume ------------------------------------------------------------------------


@pytest.mark.parametrize("stop_after", [0, 1, 13, 40])
def test_resume_continues_exactly(small_dataset, stop_after):
    whole = [i["index"] for i in dataset(small_dataset, loader_batch_size=8)]
    ds = dataset(small_dataset, loader_batch_size=8)
    it = iter(ds)
    head = [next(it)["index"] for _ in range(stop_after)]
    state = json.loads(json.dumps(ds.state_dict()))  # a checkpoint stores it as JSON
    del it
    resumed = dataset(small_dataset, loader_batch_size=8)
    resumed.load_state_dict(state)
    tail = [i["index"] for i in resumed]
    assert head + tail == whole


def test_resume_refuses_another_loader_batch_size(small_dataset):
    ds = dataset(small_dataset, loader_batch_size=8)
    state = ds.state_dict()
    with pytest.raises(ValueError, match="loader_batch_size=8"):
        dataset(small_dataset, loader_batch_size=4).load_state_dict(state)
    with pytest.raises(ValueError, match="not a robostream"):
        ds.load_state_dict({"shards": {}})
    # A checkpoint is hostile input: a skip outside the batch would repeat or drop samples.
    for field, value in [("skip", -3), ("skip", 9), ("skip", "1"), ("skip", True),
                         ("loader", 5), ("loader_batch_size", "8")]:
        bad = dict(state, **{field: value})
        with pytest.raises(ValueError, match=field):
            ds.load_state_dict(bad)
    # Mid-batch positions belong to their rank; a batch boundary resumes on another world size.
    two = dataset(small_dataset, loader_batch_size=8, rank=0, world_size=2)
    it = iter(two)
    next(it)
    mid = two.state_dict()
    del it
    with pytest.raises(ValueError, match="mid-batch"):
        dataset(small_dataset, loader_batch_size=8).load_state_dict(mid)
    # Elastic: both ranks read one whole loader batch, then one rank resumes the rest alone.
    seen, states = [], []
    for rank in range(2):
        part = dataset(small_dataset, loader_batch_size=8, rank=rank, world_size=2)
        it = iter(part)
        seen += [next(it)["index"] for _ in range(8)]
        states.append(part.state_dict())
        del it
    assert states[0]["skip"] == 0 and states[0]["loader"] == states[1]["loader"]
    alone = dataset(small_dataset, loader_batch_size=8)
    alone.load_state_dict(states[0])
    rest = [i["index"] for i in alone]
    assert sorted(seen + rest) == list(range(total_frames(small_dataset)))
    # The loader's own state is checked by the loader: a typed error, not a wrong position.
    ds.load_state_dict(dict(state, loader='{"format": "robostream.stream-state/2", "epoch": -1}'))
    with pytest.raises((ValueError, robostream.RobostreamError)):
        next(iter(ds))


# ---- windows and padding -----------------------------------------------------------------


def test_delta_timestamps_give_windows_and_padding_masks(small_dataset):
    ds = dataset(
        small_dataset,
        delta_timestamps={"action": [-0.1, 0.0, 0.1], CAMERAS[0]: [-0.05, 0.0]},
    )
    lengths = {}
    items = list(ds)
    for item in items:
        lengths[item["episode_index"]] = max(
            lengths.get(item["episode_index"], 0), item["frame_index"] + 1
        )
    for item in items:
        assert item["action"].shape == (3, 6)
        assert item["action_is_pad"].dtype == torch.bool and item["action_is_pad"].shape == (3,)
        assert item[CAMERAS[0]].shape == (2, 3, 64, 64)
        assert item[CAMERAS[1]].shape == (3, 64, 64)  # not windowed
        f, n = item["frame_index"], lengths[item["episode_index"]]
        assert item["action_is_pad"].tolist() == [f - 2 < 0, False, f + 2 >= n]
        assert item[f"{CAMERAS[0]}_is_pad"].tolist() == [f - 1 < 0, False]
        if f == 0:  # padded frames repeat the edge frame, as the reference's clamp does
            assert torch.equal(item[CAMERAS[0]][0], item[CAMERAS[0]][1])


def test_unknown_delta_key_is_a_clear_error(small_dataset):
    with pytest.raises((ValueError, robostream.DatasetError), match="nope"):
        dataset(small_dataset, delta_timestamps={"nope": [0.0]})


# ---- errors cross as typed Python exceptions ---------------------------------------------


def test_a_missing_video_is_a_dataset_error_naming_the_file(small_dataset, copy_of):
    broken = copy_of(small_dataset)
    video = sorted((broken / "videos").rglob("*.mp4"))[0]
    video.unlink()
    with pytest.raises(robostream.DatasetError) as caught:
        dataset(broken)
    assert str(video.relative_to(broken)) in str(caught.value) or str(video) in str(caught.value)
    assert caught.value.java_class.startswith("org.robostream.dataset.DatasetException")
    assert isinstance(caught.value, robostream.RobostreamError)


def test_a_truncated_video_is_a_typed_error_not_a_crash(small_dataset, copy_of):
    broken = copy_of(small_dataset)
    video = sorted((broken / "videos").rglob("*.mp4"))[0]
    data = video.read_bytes()
    video.write_bytes(data[: len(data) // 3])
    with pytest.raises(robostream.RobostreamError) as caught:
        for _ in dataset(broken):
            pass
    assert video.name in str(caught.value)


def test_a_missing_folder_is_a_dataset_error(tmp_path):
    with pytest.raises(robostream.RobostreamError, match="does not exist"):
        StreamingLeRobotDataset("local/none", root=tmp_path / "none")


# ---- the JVM, its class path and its threads ---------------------------------------------


def test_the_jvm_starts_once_per_process_in_this_process(small_dataset):
    dataset(small_dataset)
    jpype = robostream.start_jvm()
    from java.lang import ProcessHandle
    from java.lang.management import ManagementFactory

    started = int(ManagementFactory.getRuntimeMXBean().getStartTime())
    dataset(small_dataset)
    assert robostream.start_jvm() is jpype
    assert int(ManagementFactory.getRuntimeMXBean().getStartTime()) == started
    assert int(ProcessHandle.current().pid()) == os.getpid()
    assert _jvm.started_in_this_process()


def test_the_bridge_never_loads_a_second_libtorch(small_dataset):
    """The JVM's class path is the core library only: JavaCPP's PyTorch (the trainer's) would
    load another libtorch beside the one this process has."""
    cp = robostream.class_path()
    assert not [j for j in cp if "pytorch" in os.path.basename(j) or "robostream-torch" in j]
    assert any(os.path.basename(j).startswith("robostream-") for j in cp)
    for _ in zip(range(5), dataset(small_dataset)):
        pass
    maps = open("/proc/self/maps").read()
    assert "libjnitorch" not in maps
    libtorch = {line.split()[-1] for line in maps.splitlines() if "libtorch_cpu" in line}
    assert len(libtorch) <= 1, libtorch  # only Python's own torch


def _loader_threads():
    from java.lang import Thread

    return [str(t.getName()) for t in Thread.getAllStackTraces().keySet()
            if str(t.getName()).startswith("robostream-worker-")]


def _wait_until(condition, seconds=10.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def test_loader_threads_stop_when_the_iterator_is_dropped(small_dataset):
    # Small loader batches: the workers are still ahead of the consumer (their queues full)
    # after the first sample, not done with the epoch.
    ds = dataset(small_dataset, num_workers=2, loader_batch_size=2)
    it = iter(ds)
    first = next(it)
    assert _loader_threads(), "the loader's workers run while iterating"
    del it, first
    gc.collect()
    assert _wait_until(lambda: not _loader_threads()), _loader_threads()
    # As in the reference, the next iter() is a new pass (exact continuation: state_dict()).
    again = [i["index"] for i in ds]
    assert sorted(again) == list(range(total_frames(small_dataset)))


def test_batches_view_the_loader_memory_and_release_it_with_the_tensors(
    small_dataset, monkeypatch
):
    from robostream import _views

    leases = []
    original = _views.BatchLease.__init__

    def recording(self, batch, owner=None):
        original(self, batch, owner)
        leases.append(weakref.ref(self))

    monkeypatch.setattr(_views.BatchLease, "__init__", recording)
    ds = dataset(small_dataset, num_workers=2)
    gen = ds.batches(8)
    batch = next(gen)
    frames = batch[CAMERAS[0]]
    assert frames.shape == (8, 3, 64, 64) and frames.dtype == torch.float32
    assert batch["timestamp"].dtype == torch.float64 and batch["index"].dtype == torch.int64
    assert batch["is_padding"].dtype == torch.bool and not bool(batch["is_padding"].any())
    # Zero copy: the tensor's memory is the loader batch's.
    lease = leases[0]()
    java_batch = lease.batch
    assert frames.data_ptr() == int(java_batch.tensor(CAMERAS[0]).address())
    loader = lease._owner.loader
    assert int(loader.outstandingBatchBytes()) > 0
    del gen, batch, frames, lease, java_batch
    gc.collect()
    assert _wait_until(lambda: int(loader.outstandingBatchBytes()) == 0)


def test_batches_cover_the_epoch_once(small_dataset):
    ds = dataset(small_dataset)
    seen = []
    for batch in ds.batches(16):
        seen += batch["index"][~batch["is_padding"]].tolist()
    assert sorted(seen) == list(range(total_frames(small_dataset)))


def test_a_callable_image_transform_is_applied_per_camera_tensor(small_dataset):
    calls = []

    def flip(frame):
        calls.append(tuple(frame.shape))
        return frame.flip(-1)

    plain = {i["index"]: i[CAMERAS[0]] for i in dataset(small_dataset, shuffle=False)}
    for item in dataset(small_dataset, shuffle=False, image_transforms=flip):
        assert torch.equal(item[CAMERAS[0]], plain[item["index"]].flip(-1))
    assert set(calls) == {(3, 64, 64)}


def test_default_image_transforms_run_natively(small_dataset):
    plain = {i["index"]: i[CAMERAS[0]] for i in dataset(small_dataset, shuffle=False)}
    changed = 0
    for item in dataset(small_dataset, shuffle=False, image_transforms="default"):
        assert item[CAMERAS[0]].shape == (3, 64, 64)
        changed += not torch.equal(item[CAMERAS[0]], plain[item["index"]])
    assert changed > 0
    with pytest.raises(ValueError, match="image_transforms"):
        dataset(small_dataset, image_transforms="sharpen-everything")


def test_decoder_cache_stats_count_one_lookup_per_sample_and_camera(small_dataset):
    ds = dataset(small_dataset)
    n = sum(1 for _ in ds)
    stats = ds.video_decoder_cache_stats()
    assert stats["hits"] + stats["misses"] == 2 * n
    assert 0.0 <= stats["hit_rate"] <= 1.0
    frames = ds.loader_stats()
    assert frames["frames_delivered"] == 2 * n
    assert frames["frames_decoded"] >= frames["frames_delivered"]  # no cache: each one decoded
    assert frames["amplification"] >= 1.0


def test_h264_long_gop_streams_every_frame(h264_dataset):
    ds = StreamingLeRobotDataset("local/h264", root=h264_dataset, buffer_size=30)
    items = list(ds)
    assert sorted(i["index"] for i in items) == list(range(total_frames(h264_dataset)))
    assert items[0]["observation.images.top"].shape == (3, 64, 96)


# DataLoader workers, forked and spawned, and a fork after this process started its loader:
# test_lerobot_compat.py.


def test_cuda_views_offer_only_the_cuda_interface():
    """The CUDA route's view, checked without a GPU (the route itself has never run: no GPU
    here): torch.as_tensor takes __cuda_array_interface__, numpy must not see host memory."""
    from robostream._views import _View

    view = _View(lease=None, tensor=None, shape=[2, 3, 4, 4], typestr="|u1", address=4096,
                 cuda=True)
    assert not hasattr(view, "__array_interface__")
    assert view.__cuda_array_interface__ == {
        "shape": (2, 3, 4, 4), "typestr": "|u1", "data": (4096, False), "version": 2,
        "strides": None,
    }
    host = _View(lease=None, tensor=None, shape=[2], typestr="<f4", address=8, cuda=False)
    assert not hasattr(host, "__cuda_array_interface__")


@pytest.mark.parametrize("repo_id", ["../etc", "a/../../b", "owner/name/../../x"])
def test_a_repo_id_that_climbs_is_refused_before_any_request(repo_id):
    with pytest.raises((ValueError, robostream.RobostreamError), match=r"owner/name|\.\."):
        StreamingLeRobotDataset(repo_id)


def test_a_revision_that_climbs_is_refused():
    with pytest.raises((ValueError, robostream.RobostreamError), match=r"\.\."):
        StreamingLeRobotDataset("owner/name", revision="../../rev")
