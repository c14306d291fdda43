"""LeRobot's ``StreamingLeRobotDataset``, backed by robostream's loader.

``from robostream.torch import StreamingLeRobotDataset`` in place of LeRobot's import: the
constructor takes the reference's arguments with its defaults, iterating yields its items (same
keys, dtypes and shapes), and ``DataLoader(ds, batch_size=...)`` works unchanged. Decoding,
shuffling, windows and resume run in robostream's loader inside a JVM in this process (JPype);
``num_workers`` decoding threads run there, so the DataLoader itself needs none.

Two ways to read it:

- per sample (``for item in ds``): drop-in, what the reference yields; the item's tensors view
  the loader's batch memory, and the DataLoader's collation copies them into its batch;
- ``ds.batches(batch_size)``: dicts of tensors that view the loader's batch memory (no copy at
  all); the memory goes back to the loader's pool when the tensors are gone.

Threading: a dataset object is iterated by one thread at a time (as a DataLoader does). The JVM
and its loader threads belong to this process; see ``robostream._jvm`` for fork and spawn.
"""

from __future__ import annotations

import json
import os
import weakref
from pathlib import Path
from typing import Callable, Dict, Iterator, List, Optional, Sequence, Union

import numpy as np
import torch
from torch.utils.data import IterableDataset, get_worker_info

from . import _jvm
from ._views import BatchLease, LoaderHandle, cuda_tensor, host_array, wait_for_frames
from .errors import RobostreamError, translate

STATE_FORMAT = "robostream.torch-state/1"

# Columns the loader adds for its own bookkeeping, not part of the reference's items.
_LOADER_COLUMNS = ("is_padding",)

# Integer and float scalar columns the reference yields as Python numbers (the default collate
# then makes int64 / float64 tensors of them).
_SCALAR_INT = "int"
_SCALAR_FLOAT = "float"


def _call(function, *args):
    """Calls into Java; a Java exception comes out as robostream's Python error of that kind."""
    jpype = _jvm.jvm()
    try:
        return function(*args)
    except jpype.JException as e:
        raise translate(e) from e


class DatasetMeta:
    """What the reference's ``meta`` (``LeRobotDatasetMetadata``) offers that a training script
    reads: ``info`` (meta/info.json as a dict), ``fps``, ``features``, ``camera_keys``,
    ``video_keys``, ``image_keys``, ``total_episodes``, ``total_frames``, ``tasks`` (index ->
    string), ``stats`` (meta/stats.json, or None), ``root``. Immutable after construction."""

    def __init__(self, java_metadata):
        info = java_metadata.info()
        self.root = Path(str(java_metadata.root()))
        self.info = _read_json(self.root / "meta" / "info.json")
        self.fps = int(info.fps())
        self.total_episodes = int(info.totalEpisodes())
        self.total_frames = int(info.totalFrames())
        self.features = self.info.get("features", {})
        self.camera_keys = [str(k) for k in info.cameraKeys()]
        self.video_keys = [str(k) for k in info.videoKeys()]
        self.image_keys = [str(k) for k in info.imageKeys()]
        self.tasks = {int(k): str(v) for k, v in dict(java_metadata.tasks()).items()}
        stats = java_metadata.stats()
        self.stats = json.loads(str(stats.get().toString())) if stats.isPresent() else None

    def __repr__(self):
        return (
            f"DatasetMeta(root={str(self.root)!r}, fps={self.fps}, episodes={self.total_episodes},"
            f" frames={self.total_frames}, cameras={self.camera_keys})"
        )


_MAX_INFO_BYTES = 16 << 20


def _read_json(path: Path):
    # The loader has already checked this file; bounded all the same (it came from a dataset).
    with open(path, "rb") as f:
        text = f.read(_MAX_INFO_BYTES + 1)
    if len(text) > _MAX_INFO_BYTES:
        raise RobostreamError(f"{path} is larger than {_MAX_INFO_BYTES} bytes")
    return json.loads(text)


class StreamingLeRobotDataset(IterableDataset):
    """LeRobot's ``StreamingLeRobotDataset`` (``lerobot.datasets.streaming_dataset``) on
    robostream's loader.

    The reference's arguments, with its defaults and meaning:

    - ``repo_id``: the Hub dataset (``OWNER/NAME``); ``root``: a local folder to read instead
      (then ``repo_id`` only names it); ``revision``: a Hub branch, tag or commit;
    - ``episodes``: the episode indices to read (the reference stores and ignores them; here
      they select);
    - ``image_transforms``: a callable applied to each camera's frame tensor of each sample, as
      the reference applies it; or ``"default"`` / ``"lerobot"`` for LeRobot's default
      ``ImageTransformsConfig(enable=True)``, which runs as native code in the loader, or a dict
      ``{"max_num_transforms": 3, "random_order": False, "only": [names]}``;
    - ``delta_timestamps`` (``{key: [seconds]}``) and ``tolerance_s``: windows, with
      ``<key>_is_pad`` masks;
    - ``buffer_size``, ``max_num_shards``, ``seed``, ``rng`` (a numpy Generator: the order's
      seed is drawn from it), ``shuffle``: the sample order;
    - ``return_uint8``: frames as uint8 0..255 instead of float32 in [0, 1];
    - ``rank``, ``world_size``: this process's share (default: torch.distributed when it is
      initialised, else ``RANK``/``WORLD_SIZE``, else 0 of 1);
    - ``video_decoder_cache_size``: open decoders per loader worker (``None``: the reference's
      rule); ``data_files_root``: a second root (or ``hf://buckets/...``) for data/ and videos/;
    - ``video_decode_device``: ``"cpu"`` or ``"cuda[:N]"`` (NVDEC; frames stay on the GPU).

    ``force_cache_sync`` and ``streaming`` are accepted for compatibility: robostream always
    streams, and opens a Hub revision at the commit it resolves to at every construction.

    robostream's own: ``num_workers`` (decoding threads in the loader; the DataLoader needs
    none), ``frame_cache`` (``"memory:2GiB"``, ``"shared:8GiB"``, ``"DIR:SIZE"``: later epochs
    served from decoded frames), ``cameras`` (a subset of the camera keys),
    ``loader_batch_size`` (samples per loader batch behind per-sample iteration),
    ``memory_budget_mb`` and ``timestamps`` (``"position"`` or ``"strict"``, the rule of which
    frame a row gets).
    """

    def __init__(
        self,
        repo_id: str,
        root: Optional[Union[str, os.PathLike]] = None,
        episodes: Optional[Sequence[int]] = None,
        image_transforms: Optional[Union[Callable, str, dict]] = None,
        delta_timestamps: Optional[Dict[str, Sequence[float]]] = None,
        tolerance_s: float = 1e-4,
        revision: Optional[str] = None,
        force_cache_sync: bool = False,
        streaming: bool = True,
        buffer_size: int = 1000,
        max_num_shards: int = 16,
        seed: int = 42,
        rng: Optional[np.random.Generator] = None,
        shuffle: bool = True,
        return_uint8: bool = False,
        rank: Optional[int] = None,
        world_size: Optional[int] = None,
        video_decoder_cache_size: Optional[int] = None,
        data_files_root: Optional[str] = None,
        video_decode_device: str = "cpu",
        *,
        num_workers: int = 2,
        frame_cache: Optional[str] = None,
        cameras: Optional[Sequence[str]] = None,
        loader_batch_size: int = 32,
        memory_budget_mb: Optional[int] = None,
        timestamps: Optional[str] = None,
    ):
        super().__init__()
        if rng is not None:
            seed = int(rng.integers(0, 2**63 - 1))
        if rank is None and world_size is None:
            rank, world_size = _rank_and_world()
        elif rank is None or world_size is None:
            raise ValueError("give both rank and world_size, or neither")
        if not (0 <= rank < world_size):
            raise ValueError(f"rank {rank} is not in 0..{world_size - 1}")
        if loader_batch_size < 1 or num_workers < 1:
            raise ValueError("loader_batch_size and num_workers must be >= 1")
        self.repo_id = repo_id
        self.root = Path(root).expanduser() if root is not None else None
        self.revision = revision
        self.episodes = list(episodes) if episodes is not None else None
        self.image_transforms = image_transforms
        self.delta_timestamps = (
            {k: [float(x) for x in v] for k, v in delta_timestamps.items()}
            if delta_timestamps
            else None
        )
        self.tolerance_s = tolerance_s
        self.buffer_size = buffer_size
        self.max_num_shards = max_num_shards
        self.seed = seed
        self.shuffle = shuffle
        self.return_uint8 = return_uint8
        self.rank = rank
        self.world_size = world_size
        self.video_decoder_cache_size = video_decoder_cache_size
        self.data_files_root = data_files_root
        self.video_decode_device = video_decode_device
        self.num_workers = num_workers
        self.frame_cache = frame_cache
        self.cameras = list(cameras) if cameras is not None else None
        self.loader_batch_size = loader_batch_size
        self.memory_budget_mb = memory_budget_mb
        self.timestamps = timestamps
        self._staged_state: Optional[dict] = None
        self._position: Optional[dict] = None  # where per-sample iteration stands
        self._handle: Optional[LoaderHandle] = None  # the loader; closed when nothing uses it
        self._worker_handle: Optional[LoaderHandle] = None  # a DataLoader worker's share
        self._batches_handle = None  # weak reference to the latest batches() loader
        self._meta = None
        self._open()  # errors in the dataset surface here, at construction, as in the reference

    # ---- the Java loader ------------------------------------------------------------------

    def _location(self) -> str:
        if self.root is not None:
            return str(self.root)
        # Spelled as a Hub location, so that a local folder that happens to be named like the
        # repository is never read instead (the reference reads the Hub when root is None).
        return "hf://datasets/" + self.repo_id + (f"@{self.revision}" if self.revision else "")

    def _build(
        self,
        rank: int,
        world: int,
        batch_size: int,
        resume: Optional[str],
        epoch=None,
        drop_last: bool = False,
    ):
        jpype = _jvm.jvm()
        from org.robostream.stream import StreamingDataset  # type: ignore

        b = StreamingDataset.builder(self._location())
        b.toleranceSeconds(float(self.tolerance_s))
        b.bufferSize(int(self.buffer_size)).maxNumShards(int(self.max_num_shards))
        b.seed(int(self.seed)).shuffle(bool(self.shuffle)).returnUint8(bool(self.return_uint8))
        b.rank(int(rank), int(world)).workers(int(self.num_workers)).batchSize(int(batch_size))
        b.dropLast(bool(drop_last))
        if self.delta_timestamps:
            HashMap = jpype.JClass("java.util.LinkedHashMap")
            deltas = HashMap()
            for key, seconds in self.delta_timestamps.items():
                deltas.put(key, jpype.JArray(jpype.JDouble)(seconds))
            b.deltaTimestamps(deltas)
        if self.episodes is not None:
            Integer = jpype.JClass("java.lang.Integer")
            b.episodes(jpype.JClass("java.util.ArrayList")([Integer(int(e)) for e in self.episodes]))
        if self.cameras is not None:
            b.cameras(*self.cameras)
        if self.video_decoder_cache_size is not None:
            b.decoderCacheSize(int(self.video_decoder_cache_size))
        if self.data_files_root is not None:
            b.dataFilesRoot(str(self.data_files_root))
        device = str(self.video_decode_device)
        if device != "cpu":
            from org.robostream.video import DecodeDeviceSpec  # type: ignore

            b.decodeDevice(DecodeDeviceSpec.parse(device)).deviceBatches(True)
        if self.frame_cache is not None:
            from org.robostream.framecache import FrameCacheOptions  # type: ignore

            b.frameCache(FrameCacheOptions.parse(str(self.frame_cache)))
        if self.memory_budget_mb is not None:
            b.memoryBudgetBytes(int(self.memory_budget_mb) << 20)
        if self.timestamps is not None:
            from org.robostream.dataset import TimestampRule  # type: ignore

            b.timestamps(TimestampRule.valueOf(str(self.timestamps).upper()))
        native = _native_transforms(self.image_transforms)
        if native is not None:
            b.imageTransforms(native)
        if resume is not None:
            b.resumeFrom(resume)
        elif epoch is not None:
            b.epoch(int(epoch))
        return b.build()

    def _open(self):
        java = _call(self._build, self.rank, self.world_size, self.loader_batch_size, None, None)
        self._handle = LoaderHandle(java)
        self._meta = DatasetMeta(java.metadata())

    def _java_dataset(self):
        """The loader this process iterates; reopened after unpickling (a spawned worker)."""
        _jvm.jvm()  # refuses a forked child before any Java call could hang
        if self._handle is None:
            self._open()
        return self._handle.loader

    def __getstate__(self):
        # Pickled into a spawned DataLoader worker: the settings travel, the JVM objects do not.
        state = self.__dict__.copy()
        state["_handle"] = None
        state["_worker_handle"] = None
        state["_batches_handle"] = None
        state["_meta"] = None
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)

    # ---- the reference's properties and methods -------------------------------------------

    @property
    def meta(self) -> DatasetMeta:
        self._java_dataset()
        return self._meta

    @property
    def fps(self) -> int:
        return self.meta.fps

    @property
    def num_frames(self) -> int:
        return self.meta.total_frames

    @property
    def num_episodes(self) -> int:
        return self.meta.total_episodes

    def video_decoder_cache_stats(self) -> dict:
        """``{hits, misses, evictions, hit_rate}`` summed over the loader's workers, one lookup
        per sample and camera (the reference's counting); ``hit_rate`` rounded to 4 decimals."""
        s = _call(self._java_dataset().decoderCacheStats)
        return {
            "hits": int(s.hits()),
            "misses": int(s.misses()),
            "evictions": int(s.evictions()),
            "hit_rate": round(float(s.hitRate()), 4),
        }

    def state_dict(self) -> dict:
        """The exact position of per-sample iteration: resuming yields exactly the samples not
        yet yielded, in the same order (the reference's resume is approximate). Unlike the
        reference's, valid before iterating too (the start). Per rank: with several ranks, each
        saves and loads its own (a state taken mid-batch resumes only on its rank and world
        size; one taken at a batch boundary, on any world size, as the loader's own state)."""
        if get_worker_info() is not None:
            raise RuntimeError(
                "state_dict() inside a DataLoader worker describes only that worker's share;"
                " take it in the main process with DataLoader(num_workers=0) and this dataset's"
                " num_workers"
            )
        position = self._position or {
            "loader": str(_call(self._java_dataset().state)),
            "skip": 0,
        }
        return {
            "format": STATE_FORMAT,
            "loader_batch_size": self.loader_batch_size,
            "rank": self.rank,
            "world_size": self.world_size,
            **position,
        }

    def load_state_dict(self, state_dict: dict) -> None:
        """Stages a ``state_dict()``; the next iteration continues from it."""
        if not isinstance(state_dict, dict) or state_dict.get("format") != STATE_FORMAT:
            raise ValueError(
                f"not a robostream StreamingLeRobotDataset state (format {STATE_FORMAT} expected)"
            )
        # A checkpoint is input like any other: every field checked before it is used.
        loader, skip, batch = (
            state_dict.get("loader"),
            state_dict.get("skip"),
            state_dict.get("loader_batch_size"),
        )
        if not isinstance(loader, str) or len(loader) > 1 << 20:
            raise ValueError("state_dict['loader'] must be the loader's state (a JSON string)")
        if not isinstance(batch, int) or isinstance(batch, bool):
            raise ValueError("state_dict['loader_batch_size'] must be a whole number")
        if (
            not isinstance(skip, int)
            or isinstance(skip, bool)
            or not 0 <= skip <= self.loader_batch_size
        ):
            raise ValueError(
                f"state_dict['skip'] must be a whole number from 0 to {self.loader_batch_size},"
                f" got {skip!r}"
            )
        same_ranks = (state_dict.get("rank"), state_dict.get("world_size")) == (
            self.rank,
            self.world_size,
        )
        if skip and not same_ranks:
            # The skip counts samples of this rank's current batch; another rank's batch, or
            # another world's, holds other samples.
            raise ValueError(
                f"this state was taken mid-batch ({skip} samples into a loader batch) by rank"
                f" {state_dict.get('rank')} of {state_dict.get('world_size')}; resume it with that"
                f" rank and world size (each rank saves and loads its own state_dict()). A state"
                f" taken at a batch boundary resumes on any world size"
            )
        if int(state_dict["loader_batch_size"]) != self.loader_batch_size:
            raise ValueError(
                f"the state was taken with loader_batch_size={state_dict['loader_batch_size']};"
                f" construct the dataset with the same to resume it"
            )
        self._staged_state = dict(state_dict)

    def loader_stats(self) -> dict:
        """The loader's frame counters, summed over this dataset's per-sample loader and the
        loader of its latest ``batches()``: ``frames_decoded`` (every frame the decoders made,
        those decoded only to reach another included), ``frames_delivered`` (frames in
        delivered samples), ``frames_from_cache`` (served by the frame cache) and
        ``amplification`` (decoded / delivered by decoding). A benchmark reads them around its
        window to know how much of what it delivered was decoded inside it."""
        totals = {"frames_decoded": 0, "frames_delivered": 0, "frames_from_cache": 0}
        batches = self._batches_handle() if self._batches_handle is not None else None
        for handle in (self._handle, batches):
            if handle is None:
                continue
            snap = _call(handle.loader.stats)
            totals["frames_decoded"] += int(snap.framesDecoded())
            totals["frames_delivered"] += int(snap.framesDelivered())
            totals["frames_from_cache"] += int(snap.framesFromCache())
        by_decoding = totals["frames_delivered"] - totals["frames_from_cache"]
        totals["amplification"] = (
            round(totals["frames_decoded"] / by_decoding, 4) if by_decoding > 0 else 0.0
        )
        return totals

    # ---- iteration ------------------------------------------------------------------------

    def _loader_for_iteration(self, batch_size: int):
        """The loader (a ``LoaderHandle``) to iterate in this process and how many samples of
        its first batch to skip: the constructed one (resumed from a
        staged state when there is one), or in a DataLoader worker one that reads this worker's
        share (rank * workers + id of world * workers)."""
        info = get_worker_info()
        if info is None or info.num_workers <= 1:
            self._java_dataset()
            if self._staged_state is not None:
                staged, self._staged_state = self._staged_state, None
                java = _call(
                    self._build,
                    self.rank,
                    self.world_size,
                    self.loader_batch_size,
                    staged["loader"],
                    None,
                )
                self._handle = LoaderHandle(java)  # the old loader closes once unused
                self._meta = DatasetMeta(java.metadata())
                return self._handle, int(staged["skip"])
            return self._handle, 0
        if self._staged_state is not None:
            raise RuntimeError(
                "load_state_dict() with DataLoader(num_workers>0): each worker would resume the"
                " whole state; resume with DataLoader(num_workers=0) and this dataset's"
                " num_workers"
            )
        if self._worker_handle is None:
            self._worker_handle = LoaderHandle(
                _call(
                    self._build,
                    self.rank * info.num_workers + info.id,
                    self.world_size * info.num_workers,
                    batch_size,
                    None,
                    None,
                )
            )
        return self._worker_handle, 0

    def __iter__(self) -> Iterator[dict]:
        handle, skip = self._loader_for_iteration(self.loader_batch_size)
        java = handle.loader
        iterator = _call(java.iterator)
        finished = False
        # The loader's state at each batch boundary, read once per batch: one batch's "after" is
        # the next one's "before".
        after = str(_call(java.state))
        try:
            while _call(iterator.hasNext):
                before = after
                lease = BatchLease(_call(iterator.next), owner=handle)
                after = str(_call(java.state))  # the batch handed out: a batch boundary
                columns = _Columns(lease, self, per_sample=True)
                start, skip = skip, 0
                for i in range(start, columns.size):
                    self._position = (
                        {"loader": after, "skip": 0}
                        if i + 1 == columns.size
                        else {"loader": before, "skip": i + 1}
                    )
                    if columns.padding is not None and columns.padding[i]:
                        continue  # a repeat that evens out ranks' batch counts
                    yield columns.item(i, self.image_transforms)
                del columns, lease
            finished = True
            self._position = {"loader": after, "skip": 0}
        finally:
            if not finished:
                # Dropped, broken out of, or failed: the loader's threads stop now, and the next
                # iteration continues after the last sample yielded (the loader's own position
                # is a whole batch further: it handed out the batch being yielded from).
                try:
                    java.stopIterating()
                except Exception:
                    pass
                if self._position is not None and get_worker_info() is None:
                    self._staged_state = self.state_dict()

    def batches(self, batch_size: int, drop_last: bool = False) -> Iterator[dict]:
        """Batches of ``batch_size`` samples as dicts of tensors that view the loader's memory
        (no copy): the keys and shapes of ``DataLoader(ds, batch_size)``'s collated batches,
        plus ``is_padding`` (True for a sample repeated to even out ranks' batch counts when
        ``world_size`` > 1). The loader's batch memory is released when the tensors are (keep a
        ``.clone()`` of what must outlive them). A callable ``image_transforms`` runs per sample
        and camera as in per-sample iteration (that copies the frames); native transforms
        (``"default"``) do not. Frames NVDEC decoded are CUDA tensors, viewed in place after the
        current stream waits for the decode (built, not run: no GPU here)."""
        if batch_size < 1:
            raise ValueError("batch_size must be >= 1")
        if get_worker_info() is not None:
            raise RuntimeError("batches() is for the main process: its threads are the loader's")
        # A loader of its own with this batch size and the dataset's settings, at the epoch the
        # per-sample iteration is in (which it leaves where it is).
        java = _call(
            self._build,
            self.rank,
            self.world_size,
            batch_size,
            None,
            self._current_epoch(),
            drop_last,
        )
        handle = LoaderHandle(java)  # closes the loader once the last batch is released
        self._batches_handle = weakref.ref(handle)
        iterator = _call(java.iterator)
        try:
            while _call(iterator.hasNext):
                lease = BatchLease(_call(iterator.next), owner=handle)
                yield _Columns(lease, self, per_sample=False).batch(self.image_transforms)
                del lease
        finally:
            try:
                java.stopIterating()  # the loader's threads end now; its memory with the batches
            except Exception:
                pass

    def _current_epoch(self) -> int:
        return int(self._java_dataset().epoch())

    def close(self):
        """Stops the loader's threads and releases its native memory (batches still viewed by
        live tensors stay valid until those are gone)."""
        for handle in (self._handle, self._worker_handle):
            if handle is not None:
                handle.close()
        self._handle = self._worker_handle = None

    def __repr__(self):
        return (
            f"StreamingLeRobotDataset(repo_id={self.repo_id!r}, root={str(self.root)!r},"
            f" rank={self.rank}/{self.world_size}, num_workers={self.num_workers})"
        )


class _Columns:
    """One loader batch as numpy views (and strings), and the items or batch made of them."""

    def __init__(self, lease: BatchLease, ds: StreamingLeRobotDataset, per_sample: bool):
        batch = lease.batch
        self.size = int(batch.size())
        self.lease = lease
        self.cameras = [str(c) for c in batch.cameras()]
        frames = batch.deviceFrames()
        self.on_cuda = not bool(frames.onHost())
        if self.on_cuda:
            wait_for_frames(frames)
        self.arrays: Dict[str, object] = {}
        self.kinds: Dict[str, str] = {}
        self.strings: Dict[str, List[str]] = {}
        self.padding = None
        for name in [str(n) for n in batch.columnNames()]:
            vector = batch.column(name)
            type_name = str(vector.getField().getType().getTypeID().name())
            if type_name in ("Utf8", "LargeUtf8"):
                self.strings[name] = [str(s) for s in batch.strings(name)]
                continue
            array = host_array(lease, batch.tensor(name))
            if name in _LOADER_COLUMNS:
                self.padding = array if name == "is_padding" else self.padding
                if per_sample:
                    continue
            self.arrays[name] = array
            if array.ndim == 1 and array.dtype != np.bool_:
                # Scalars: the reference yields Python numbers (collated: int64 / float64).
                self.kinds[name] = _SCALAR_INT if array.dtype.kind in "iu" else _SCALAR_FLOAT
        for camera in self.cameras:
            tensor = batch.tensor(camera)
            self.arrays[camera] = (
                cuda_tensor(lease, tensor) if self.on_cuda else host_array(lease, tensor)
            )

    def item(self, i: int, transform) -> dict:
        out = {}
        for name, array in self.arrays.items():
            kind = self.kinds.get(name)
            if kind == _SCALAR_INT:
                out[name] = int(array[i])
            elif kind == _SCALAR_FLOAT:
                out[name] = float(array[i])
            elif isinstance(array, torch.Tensor):
                out[name] = array[i]
            else:
                out[name] = torch.from_numpy(array[i])
            if callable(transform) and name in self.cameras:
                out[name] = transform(out[name])
        for name, values in self.strings.items():
            out[name] = values[i]
        return out

    def batch(self, transform) -> dict:
        out = {}
        for name, array in self.arrays.items():
            tensor = array if isinstance(array, torch.Tensor) else torch.from_numpy(array)
            if self.kinds.get(name) == _SCALAR_FLOAT and tensor.dtype == torch.float32:
                tensor = tensor.double()  # what collating Python floats makes
            if callable(transform) and name in self.cameras:
                tensor = torch.stack([transform(t) for t in tensor])
            out[name] = tensor
        for name, values in self.strings.items():
            out[name] = values
        return out


def _native_transforms(image_transforms):
    """LeRobot's default transforms as robostream's native ones, for a string or dict; None for
    a callable (applied in Python) or no transforms."""
    if image_transforms is None or callable(image_transforms):
        return None
    from org.robostream.transform import ImageTransformsConfig  # type: ignore

    if isinstance(image_transforms, str):
        if image_transforms.lower() not in ("default", "lerobot", "lerobot-default"):
            raise ValueError(
                f"image_transforms={image_transforms!r}: a callable, 'default' (LeRobot's"
                " ImageTransformsConfig(enable=True), run natively) or a dict"
            )
        return ImageTransformsConfig.lerobotDefaults()
    if isinstance(image_transforms, dict):
        unknown = set(image_transforms) - {"max_num_transforms", "random_order", "only"}
        if unknown:
            raise ValueError(f"image_transforms: unknown keys {sorted(unknown)}")
        config = ImageTransformsConfig.lerobotDefaults()
        if "only" in image_transforms:
            config = config.only(*image_transforms["only"])
        if "max_num_transforms" in image_transforms:
            config = config.withMaxNumTransforms(int(image_transforms["max_num_transforms"]))
        if "random_order" in image_transforms:
            config = config.withRandomOrder(bool(image_transforms["random_order"]))
        return config
    raise TypeError("image_transforms must be a callable, a string or a dict")


def _rank_and_world():
    """The reference's rule, with torch.distributed in Accelerate's place: an initialised
    process group, else RANK / WORLD_SIZE, else 0 of 1."""
    import torch.distributed as dist

    if dist.is_available() and dist.is_initialized():
        return dist.get_rank(), dist.get_world_size()
    if "RANK" in os.environ and "WORLD_SIZE" in os.environ:
        return int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    return 0, 1
