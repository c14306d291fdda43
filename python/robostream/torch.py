"""LeRobot's ``StreamingLeRobotDataset`` and ``LeRobotDatasetMetadata``, backed by robostream's
loader.

``from robostream.torch import StreamingLeRobotDataset, LeRobotDatasetMetadata`` in place of
LeRobot's imports: the constructors take the reference's arguments in its order with its
defaults, iterating yields its items (same keys, types and shapes), and LeRobot's training code
(its dataset factory, its training script's DataLoader and loop) runs unchanged. Decoding,
shuffling, windows and resume run in robostream's loader, a JVM started through JPype in the
process that iterates.

Where the JVM runs: reading a dataset's metadata and checking it (the constructors) happens in
this process's JVM when it already runs one, else in a short-lived helper JVM, so a process
that only constructs datasets holds no JVM and can fork ``DataLoader`` workers (Linux's default
start method). The loader itself starts in the process that iterates: the main process with
``DataLoader(num_workers=0)`` (the recommended configuration: the loader's own decoding threads,
no copies between processes), or each ``DataLoader`` worker, forked or spawned, reading its own
share of the episodes.

Two ways to read it:

- per sample (``for item in ds``): drop-in, what the reference yields; every item owns copies of
  its values (an item kept costs its own size), and the DataLoader's collation batches them;
- ``ds.batches(batch_size)``: dicts of tensors that view the loader's batch memory (no copy at
  all); the memory goes back to the loader's pool when the tensors are gone.

Threading: a dataset object is iterated by one thread at a time (as a DataLoader does).
"""

from __future__ import annotations

import json
import math
import os
import sys
import warnings
import weakref
from pathlib import Path
from typing import Callable, Dict, Iterator, Optional, Sequence, Union

import numpy as np
import torch
from torch.utils.data import IterableDataset, get_worker_info

from . import _depth, _jvm, _options, _waits
from ._items import Columns
from ._prefetch import ItemReader
from ._meta import LeRobotDatasetMetadata, _describe_metadata  # noqa: F401  (re-exported)
from ._views import BatchLease, LoaderHandle
from .errors import translate

__all__ = ["StreamingLeRobotDataset", "LeRobotDatasetMetadata"]

STATE_FORMAT = "robostream.torch-state/1"

# Depth units LeRobot's depth_output_unit takes.
_DEPTH_UNITS = ("m", "mm")

# Feature dtypes delivered as themselves; text columns of any other dtype hold JSON.
_PLAIN_DTYPES = (
    "string", "video", "image", "bool", "float16", "float32", "float64", "int8", "int16",
    "int32", "int64", "uint8", "uint16", "uint32", "uint64",
)

# LeRobot's default cap on concurrently read sub-streams.
_DEFAULT_MAX_NUM_SHARDS = 16

# Rows of the shared counters: one per DataLoader worker id (the last for ids beyond).
_COUNTER_ROWS = 64
# Columns of the shared counters.
_COUNTERS = ("hits", "misses", "evictions", "frames_decoded", "frames_delivered", "frames_from_cache")


def _call(function, *args):
    """Calls into Java; a Java exception comes out as robostream's Python error of that kind."""
    return _translated(function, *args)


def _wait_for(function, *args):
    """A Java call that may block for long (the next batch, opening a dataset), made so that
    Ctrl-C still reaches the main thread (``_waits``): an interrupted wait comes out as
    ``KeyboardInterrupt``."""
    return _translated(_waits.call, function, *args)


def _translated(function, *args):
    jpype = _jvm.jvm()
    try:
        return function(*args)
    except KeyboardInterrupt:
        # JPype's SIGINT handler also interrupts this thread's Java side: cleared, or the next
        # Java wait of this thread (the loader's stop, the caller's own) would end at once.
        _clear_java_interrupt()
        raise
    except jpype.JException as e:
        if _interrupted(e):
            jpype.JClass("java.lang.Thread").interrupted()  # clear the flag the wait left set
            raise KeyboardInterrupt from None
        raise translate(e) from e


def _clear_java_interrupt():
    """Clears the calling thread's Java interrupt flag."""
    try:
        _jvm.jvm().JClass("java.lang.Thread").interrupted()
    except Exception:
        pass


def _interrupted(java_exception) -> bool:
    current, depth = java_exception, 0
    while current is not None and depth < 8:
        if str(current.getClass().getName()) == "java.lang.InterruptedException":
            return True
        current, depth = current.getCause(), depth + 1
    return False


class StreamingLeRobotDataset(IterableDataset):
    """LeRobot's ``StreamingLeRobotDataset`` (``lerobot.datasets.streaming_dataset``) on
    robostream's loader.

    The reference's arguments, in its order, with its defaults and meaning:

    - ``repo_id``: the Hub dataset (``OWNER/NAME``) or, with ``repo_type="bucket"``, the bucket;
      ``root``: a local folder to read instead (then ``repo_id`` only names it); ``revision``: a
      Hub branch, tag or commit;
    - ``episodes``: the episode indices to read (the reference stores and ignores them; here
      they select);
    - ``image_transforms``: a callable applied to each camera's frame tensor of each sample, as
      the reference applies it; or ``"default"`` for LeRobot's default
      ``ImageTransformsConfig(enable=True)``, run as native code in the loader, or a dict
      ``{"max_num_transforms": 3, "random_order": False, "only": [names]}``;
    - ``delta_timestamps`` (``{key: [seconds]}``) and ``tolerance_s``: windows, with
      ``<key>_is_pad`` masks;
    - ``force_cache_sync``, ``streaming``: accepted; robostream always streams, and opens a Hub
      revision at the commit it resolves to at every construction;
    - ``buffer_size``, ``max_num_shards``, ``seed``, ``rng`` (a numpy Generator: the order's
      seed is drawn from it), ``shuffle``: the sample order. ``max_num_shards`` caps the episode
      streams each loader worker reads at once; LeRobot's training script passes its DataLoader
      worker count, 0 without workers, and 0 (or None) means the reference's default, 16: the
      DataLoader's workers read disjoint episodes whatever it says;
    - ``return_uint8``: frames as uint8 0..255 instead of float32 in [0, 1];
    - ``depth_output_unit``: ``"mm"`` or ``"m"``: depth cameras (12-bit codes in their video)
      dequantized to that unit as LeRobot does, their statistics rescaled to it;
    - keyword-only ``repo_type`` (``"dataset"`` or ``"bucket"``: ``hf://buckets/<repo_id>``) and
      ``token`` (a string, ``True``: the stored token, ``False``: none, ``None``: the default).

    The seed's: ``video_decode_device`` (``"cpu"`` or ``"cuda[:N]"``: NVDEC, frames stay on the
    GPU) and ``data_files_root`` (a second root, or ``hf://buckets/...``, for data/ and videos/).

    robostream's own, keyword-only: ``rank``, ``world_size`` (this process's share; default:
    torch.distributed when initialised, else ``RANK``/``WORLD_SIZE``, else 0 of 1; with several
    ranks every rank yields the same number of samples per epoch, each sample at most once, so
    DDP never waits at an epoch's end), ``video_decoder_cache_size``, ``num_workers`` (decoding
    threads in the loader: default 2, or 1 in each DataLoader worker), ``frame_cache``
    (``"memory:2GiB"``, ``"shared:8G"``, ``"DIR:SIZE"``: later epochs served from decoded frames),
    ``cameras`` (a subset of the camera keys), ``loader_batch_size`` (samples per loader batch
    behind per-sample iteration), ``memory_budget_mb`` and ``timestamps`` (which frame a row
    gets: ``"position"``, the default, ``"lerobot"``: by the row's timestamp as LeRobot picks
    it, ``"strict"``: timestamps must agree with positions; docs/DATASETS.md).
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
        max_num_shards: Optional[int] = 16,
        seed: int = 42,
        rng: Optional[np.random.Generator] = None,
        shuffle: bool = True,
        return_uint8: bool = False,
        depth_output_unit: str = "mm",
        *,
        repo_type: str = "dataset",
        token: Union[str, bool, None] = None,
        video_decode_device: str = "cpu",
        data_files_root: Optional[str] = None,
        rank: Optional[int] = None,
        world_size: Optional[int] = None,
        video_decoder_cache_size: Optional[int] = None,
        num_workers: Optional[int] = None,
        frame_cache: Optional[str] = None,
        cameras: Optional[Sequence[str]] = None,
        loader_batch_size: int = 32,
        memory_budget_mb: Optional[int] = None,
        timestamps: Optional[str] = None,
    ):
        super().__init__()
        if depth_output_unit not in _DEPTH_UNITS:
            raise ValueError(f"depth_output_unit must be 'm' or 'mm', got {depth_output_unit!r}")
        if rng is not None:
            seed = int(rng.integers(0, 2**63 - 1))
        if rank is None and world_size is None:
            rank, world_size = _rank_and_world()
        elif rank is None or world_size is None:
            raise ValueError("give both rank and world_size, or neither")
        if not (0 <= rank < world_size):
            raise ValueError(f"rank {rank} is not in 0..{world_size - 1}")
        if loader_batch_size < 1 or (num_workers is not None and num_workers < 1):
            raise ValueError("loader_batch_size and num_workers must be >= 1")
        self.repo_id = repo_id
        self.repo_type = repo_type
        self.root = Path(root).expanduser() if root is not None else None
        self.revision = revision
        self.episodes = list(episodes) if episodes is not None else None
        self.image_transforms = image_transforms
        self.delta_timestamps = _windows(delta_timestamps, cameras)
        self.tolerance_s = tolerance_s
        self.streaming = streaming
        self.buffer_size = buffer_size
        self.max_num_shards = (
            max_num_shards if max_num_shards and max_num_shards > 0 else _DEFAULT_MAX_NUM_SHARDS
        )
        self.seed = seed
        self.shuffle = shuffle
        self.return_uint8 = return_uint8
        self._depth_output_unit = depth_output_unit
        self.video_decode_device = video_decode_device
        self.data_files_root = data_files_root
        self.rank = rank
        self.world_size = world_size
        self.video_decoder_cache_size = video_decoder_cache_size
        self.num_workers = num_workers
        self.frame_cache = frame_cache
        self.cameras = list(cameras) if cameras is not None else None
        self.loader_batch_size = loader_batch_size
        self.memory_budget_mb = memory_budget_mb
        self.timestamps = timestamps
        # The token reaches the loader through its environment and is not kept on the object
        # (as the reference), except in the options the loader is rebuilt from.
        self._source = _options.source(
            repo_id, self.root, revision, repo_type, token, data_files_root
        )
        self._staged_state: Optional[dict] = None
        self._position: Optional[dict] = None  # where per-sample iteration stands
        self._pass_open = False  # a pass began and did not end: the next iter() starts anew
        self._pass = None  # the current pass (a token): only it moves the position or stops
        self._epoch: Optional[int] = None  # set_epoch()'s, for workers created after it
        self._handle: Optional[LoaderHandle] = None  # this process's loader
        self._handle_pid: Optional[int] = None
        self._batches_handle = None  # weak reference to the latest batches() loader
        # Decoder-cache and frame counters of DataLoader worker processes, one row per worker
        # id, in shared memory: forked workers inherit it, spawned ones receive it.
        self._counters = torch.zeros((_COUNTER_ROWS, len(_COUNTERS)), dtype=torch.int64)
        self._counters.share_memory_()
        self._counter_base = None
        self._shown_log: set = set()  # the loader's log lines this dataset printed
        description = self._open()  # errors in the dataset surface here, as in the reference
        self.meta = LeRobotDatasetMetadata._from_description(
            repo_id, repo_type, revision, description, cameras=description.get("cameras")
        )
        self.num_shards = min(int(description.get("data_files", 1)), self.max_num_shards)
        for warning in description.get("warnings", []):
            warnings.warn(warning, UserWarning, stacklevel=2)
        said = (self.meta.total_frames, self.meta.total_episodes)
        if said != (self.num_frames, self.num_episodes):
            warnings.warn(
                f"meta/info.json says {said[0]} frames in {said[1]} episodes, the episodes table"
                f" {self.num_frames} in {self.num_episodes}: num_frames and num_episodes report"
                " the table's (what streams)",
                UserWarning,
                stacklevel=2,
            )
        for key in self.meta.depth_keys:  # statistics in the unit the maps are delivered in
            _depth.rescale_stats(self.meta.stats, self.meta.features[key], key, depth_output_unit)

    # ---- the Java loader ------------------------------------------------------------------

    def _loader_options(self, rank, world, batch_size, per_sample, workers, resume=None, epoch=None):
        """The bridge's options for a loader of this dataset (org.robostream.bridge)."""
        options = dict(self._source)
        options.update(
            rank=int(rank),
            world_size=int(world),
            workers=int(workers),
            batch_size=int(batch_size),
            buffer_size=int(self.buffer_size),
            max_num_shards=int(self.max_num_shards),
            seed=int(self.seed),
            shuffle=bool(self.shuffle),
            return_uint8=bool(self.return_uint8),
            tolerance_s=float(self.tolerance_s),
            video_decode_device=str(self.video_decode_device),
        )
        if per_sample and (self.world_size > 1 or get_worker_info() is None):
            # Every rank yields as many samples (its surplus flagged like the repeats, which
            # per-sample iteration never yields), each at most once: DDP's ranks end an epoch
            # together. Also with one rank, so that a state resumes on any world size. Between
            # the DataLoader workers of one rank nothing needs evening out.
            options["rank_balance"] = "even"
        for key, value in (
            ("delta_timestamps", self.delta_timestamps),
            ("episodes", self.episodes),
            ("cameras", self.cameras),
            ("decoder_cache_size", self.video_decoder_cache_size),
            ("frame_cache", self.frame_cache),
            ("memory_budget_mb", self.memory_budget_mb),
            ("timestamps", self.timestamps),
            ("image_transforms", _native_transforms(self.image_transforms)),
            ("resume", resume),
            ("epoch", epoch),
        ):
            if value is not None:
                options[key] = value
        return options

    def _main_options(self, resume=None, epoch=None):
        workers = self.num_workers if self.num_workers is not None else 2
        return self._loader_options(
            self.rank, self.world_size, self.loader_batch_size, True, workers, resume, epoch
        )

    def _open(self) -> dict:
        """Checks the dataset as the loader of this process will read it and describes it: in
        this process's JVM when one runs (the loader is then kept for iterating), else in a
        helper JVM, leaving this process free to fork."""
        options = self._main_options(epoch=self._epoch)
        if _jvm.started():
            java = self._open_java(options)
            self._set_handle(LoaderHandle(java))
            return json.loads(str(_call(_bridge().describe, java)))
        return _jvm.run_helper("dataset", options, quiet=_QUIET, shown=self._shown_log)

    def _open_java(self, options: dict):
        """A Java loader for ``options``; what it logged while opening is printed unless this
        dataset already showed it (its construction, another worker's open)."""
        jpype = _jvm.jvm()
        logged = jpype.JClass("java.util.ArrayList")()
        java = _wait_for(_bridge().open, json.dumps(options), logged)
        _jvm.print_log(list(logged), self._shown_log, _QUIET)
        return java

    def _set_handle(self, handle: Optional[LoaderHandle]):
        self._handle, self._handle_pid = handle, os.getpid()

    def _main_loader(self) -> LoaderHandle:
        """This process's loader for per-sample iteration, opened when first needed (a process
        that forked from one with a loader opens its own; the inherited one is not usable)."""
        _jvm.jvm()  # refuses, with the way through, a forked child that inherited a JVM
        if self._handle is None or self._handle_pid != os.getpid():
            java = self._open_java(self._main_options(epoch=self._epoch))
            self._set_handle(LoaderHandle(java))
        return self._handle

    def __getstate__(self):
        # Pickled into a spawned DataLoader worker: the settings travel, the JVM objects do not;
        # the shared counters travel as shared memory (torch's pickler).
        state = self.__dict__.copy()
        state["_handle"] = None
        state["_handle_pid"] = None
        state["_batches_handle"] = None
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)

    # ---- the reference's properties and methods -------------------------------------------

    @property
    def fps(self) -> int:
        return self.meta.fps

    @property
    def num_frames(self) -> int:
        """Frames of every episode the episodes table lists (info.json's ``total_frames`` when
        they agree, as they do in datasets LeRobot writes; what is read when they do not)."""
        return sum(int(n) for n in self.meta.episodes["length"])

    @property
    def num_episodes(self) -> int:
        """Episodes the episodes table lists (info.json's ``total_episodes`` when they agree)."""
        return len(self.meta.episodes)

    @property
    def depth_output_unit(self) -> str:
        return self._depth_output_unit

    def set_epoch(self, epoch: int) -> None:
        """Starts the next pass at ``epoch`` (the order of a shuffled dataset depends on it), in
        this process and in DataLoader workers created afterwards: for
        ``DataLoader(persistent_workers=False)``, whose workers begin from the dataset as it
        was when they were made."""
        if isinstance(epoch, bool) or int(epoch) != epoch or not 0 <= epoch <= MAX_EPOCH:
            raise ValueError(f"epoch must be a whole number from 0 to {MAX_EPOCH}, got {epoch!r}")
        if self._staged_state is not None and _state_epoch(self._staged_state) == int(epoch):
            return  # a loaded state of this epoch: the next pass resumes it (Accelerate calls
            # set_epoch at every iter() of its prepared DataLoader)
        self._epoch = int(epoch)
        self._staged_state = None
        self._pass_open = False
        if self._handle is not None and self._handle_pid == os.getpid():
            _call(self._handle.loader.setEpoch, int(epoch))

    def video_decoder_cache_stats(self) -> dict:
        """``{hits, misses, evictions, hit_rate}`` summed over the loader's decoding threads and
        over every DataLoader worker process (shared counters, as the reference aggregates
        them): one lookup per sample and camera; ``hit_rate`` rounded to 4 decimals."""
        totals = self._totals()
        lookups = totals["hits"] + totals["misses"]
        return {
            "hits": totals["hits"],
            "misses": totals["misses"],
            "evictions": totals["evictions"],
            "hit_rate": round(totals["hits"] / lookups, 4) if lookups else 0.0,
        }

    def loader_stats(self) -> dict:
        """The loader's frame counters, summed over this process's loaders (per-sample and the
        latest ``batches()``) and every DataLoader worker: ``frames_decoded`` (every frame the
        decoders made, those decoded only to reach another included), ``frames_delivered``
        (frames in delivered samples), ``frames_from_cache`` (served by the frame cache) and
        ``amplification`` (decoded / delivered by decoding). A benchmark reads them around its
        window to know how much of what it delivered was decoded inside it."""
        totals = self._totals()
        out = {k: totals[k] for k in ("frames_decoded", "frames_delivered", "frames_from_cache")}
        by_decoding = out["frames_delivered"] - out["frames_from_cache"]
        out["amplification"] = (
            round(out["frames_decoded"] / by_decoding, 4) if by_decoding > 0 else 0.0
        )
        return out

    def _totals(self) -> dict:
        totals = dict(zip(_COUNTERS, (int(v) for v in self._counters.sum(dim=0))))
        batches = self._batches_handle() if self._batches_handle is not None else None
        for handle in (self._handle if self._handle_pid == os.getpid() else None, batches):
            if handle is not None:
                for key, value in zip(_COUNTERS, _loader_counts(handle.loader)):
                    totals[key] += value
        return totals

    def state_dict(self) -> dict:
        """The exact position of per-sample iteration: resuming yields exactly the samples not
        yet yielded, in the same order (the reference's resume is approximate). Unlike the
        reference's, valid before iterating too (the start). Per rank: with several ranks, each
        saves and loads its own (a state taken mid-batch resumes only on its rank and world
        size; one at a loader-batch boundary on another world size too, exactly when every rank
        stopped after the same number of loader batches: docs/PYTHON.md)."""
        if get_worker_info() is not None:
            raise RuntimeError(
                "state_dict() inside a DataLoader worker describes only that worker's share;"
                " take it in the main process with DataLoader(num_workers=0) and this dataset's"
                " num_workers"
            )
        if self._staged_state is not None:
            return dict(self._staged_state)
        position = self._position or {
            "loader": str(_call(self._main_loader().loader.state)),
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
        rank, world = state_dict.get("rank"), state_dict.get("world_size")
        if not (_whole(world) and 1 <= world <= _MAX_WORLD and _whole(rank) and 0 <= rank < world):
            raise ValueError(
                f"state_dict's rank {rank!r} of world_size {world!r} is not a rank of a world"
                f" (1 to {_MAX_WORLD} ranks)"
            )
        ran_with = _last_segment_world(loader)
        if ran_with is not None and ran_with != world:
            raise ValueError(
                f"state_dict says world_size {world}, but its loader state's last stretch ran with"
                f" {ran_with} ranks: the state was altered"
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

    # ---- iteration ------------------------------------------------------------------------

    def _loader_for_pass(self):
        """The loader (a ``LoaderHandle``) this pass iterates and how many samples of its first
        batch to skip. In the main process: this process's loader, resumed from a staged state,
        or moved to a new epoch when the last pass was left before its end (each ``iter()`` is
        a new pass, as in the reference). In a DataLoader worker: a loader of its own that reads
        this worker's share (rank * workers + id of world * workers)."""
        info = get_worker_info()
        if info is not None:
            return self._worker_loader(info), 0
        if self._staged_state is not None:
            staged = self._staged_state
            _jvm.jvm()
            java = self._open_java(self._main_options(resume=staged["loader"]))
            self._staged_state = None  # opened: the state is the loader's position now
            self._set_handle(LoaderHandle(java))  # the old loader closes once unused
            self._position = {"loader": staged["loader"], "skip": int(staged["skip"])}
            return self._handle, int(staged["skip"])
        handle = self._main_loader()
        if self._pass_open:
            _call(handle.loader.setEpoch, int(handle.loader.epoch()) + 1)
        self._position = None  # the pass's start: state_dict() reads the loader's own state
        return handle, 0

    def _worker_loader(self, info) -> LoaderHandle:
        if self._staged_state is not None:
            raise RuntimeError(
                "load_state_dict() with DataLoader(num_workers>0): each worker would resume the"
                " whole state; resume with DataLoader(num_workers=0) and this dataset's"
                " num_workers"
            )
        _jvm.jvm()  # refuses, with the way through, a forked child that inherited a JVM
        if self._handle is None or self._handle_pid != os.getpid():
            workers = self.num_workers if self.num_workers is not None else 1
            options = self._loader_options(
                self.rank * info.num_workers + info.id,
                self.world_size * info.num_workers,
                self.loader_batch_size,
                True,
                workers,
                epoch=self._epoch,
            )
            self._set_handle(LoaderHandle(self._open_java(options)))
            row = min(info.id, _COUNTER_ROWS - 1)
            self._counter_base = (row, self._counters[row].clone())
        elif self._pass_open:
            _call(self._handle.loader.setEpoch, int(self._handle.loader.epoch()) + 1)
        return self._handle

    def _publish_counters(self, handle: LoaderHandle):
        """A DataLoader worker's counters into its row of the shared counters."""
        if self._counter_base is None or get_worker_info() is None:
            return
        row, base = self._counter_base
        self._counters[row] = base + torch.tensor(_loader_counts(handle.loader), dtype=torch.int64)

    def __iter__(self) -> Iterator[dict]:
        try:
            yield from self._pass_items()
        except KeyboardInterrupt:
            # JPype's SIGINT handler also interrupts this thread's Java side, wherever in the
            # pass Ctrl-C landed (opening the loader, between Java calls): cleared, or the
            # caller's next Java call would end at once.
            _clear_java_interrupt()
            raise

    def _pass_items(self) -> Iterator[dict]:
        _clear_java_interrupt()  # a Ctrl-C the caller caught earlier is not this pass's
        handle, skip = self._loader_for_pass()
        java = handle.loader
        iterator = _call(java.iterator)
        self._pass_open = True
        this_pass = self._pass = object()  # a later iter() makes another pass the current one
        finished = False
        language = self._language_columns()
        depth = self._dequantizers()
        transform = self.image_transforms

        def make_items(batch, skip):
            # In the reader's thread: the batch's items (copies, padding left out), then the
            # batch goes back to the loader's pool at once.
            columns = Columns(BatchLease(batch, owner=handle), language, depth)
            items = [
                (i, columns.item(i, transform))
                for i in range(skip, columns.size)
                if not columns.is_padding(i)  # repeats that even out ranks: never yielded
            ]
            size = columns.size
            columns.settle()  # GPU copies done before the batch's memory is the loader's again
            del columns
            self._publish_counters(handle)
            return items, size

        reader = ItemReader(iterator, java, make_items, skip, str(_call(java.state)))
        try:
            while True:
                batch = _translated(reader.next_batch)
                if batch is None:
                    break
                for i, item in batch.items:
                    if self._pass is this_pass:
                        self._position = (
                            {"loader": batch.after, "skip": 0}
                            if i + 1 == batch.size
                            else {"loader": batch.before, "skip": i + 1}
                        )
                    yield item
                if not batch.items and self._pass is this_pass:
                    self._position = {"loader": batch.after, "skip": 0}
                del batch
            finished = True
            if self._pass is this_pass:
                self._pass_open = False
                self._position = {"loader": reader.end_state, "skip": 0}
            self._publish_counters(handle)
        finally:
            # Dropped, broken out of, interrupted or failed: the loader's threads stop now; the
            # next iter() starts a new pass, and state_dict() still says where this one stopped.
            # A pass a later iter() replaced leaves the loader alone (Java stopped its run when
            # the new one started). JPype interrupts this thread's Java side on Ctrl-C: cleared,
            # or the stop's joins (and the caller's next Java call) would see it.
            if _jvm.running():  # else the exit stopped the reader (a generator ended late)
                _clear_java_interrupt()
                current = self._pass is this_pass
                reader.close(java.stopIterating if current and not finished else (lambda: None))
                _clear_java_interrupt()

    def _dequantizers(self) -> dict:
        """Each depth camera's dequantizer: its 12-bit codes to ``depth_output_unit``, as LeRobot
        returns depth maps (made per pass: closures do not travel to spawned workers)."""
        return {
            key: _depth.dequantizer(self.meta.features[key], self._depth_output_unit)
            for key in self.meta.depth_keys
            if key in self.meta.video_keys  # LeRobot quantizes depth video, not depth images
        }

    def _language_columns(self):
        """Text columns that carry JSON: LeRobot's language columns, and any column of an
        unknown dtype the loader delivers as one JSON text per sample (lists of structs)."""
        return [
            k for k, ft in self.meta.features.items() if ft.get("dtype") not in _PLAIN_DTYPES
        ]

    def batches(self, batch_size: int, drop_last: bool = False) -> Iterator[dict]:
        """Batches of ``batch_size`` samples as dicts of tensors that view the loader's memory
        (no copy): the keys and types of ``DataLoader(ds, batch_size)``'s collated batches,
        plus ``is_padding`` (True for a sample repeated to even out ranks' batch counts when
        ``world_size`` > 1: every rank gets as many batches). The loader's batch memory is
        released when the tensors are (keep a ``.clone()`` of what must outlive them). A
        callable ``image_transforms`` runs per sample and camera as in per-sample iteration
        (that copies the frames); native transforms (``"default"``) do not. Frames NVDEC
        decoded are CUDA tensors, viewed in place after the current stream waits for the decode
        (built, not run: no GPU here)."""
        if batch_size < 1:
            raise ValueError("batch_size must be >= 1")
        if get_worker_info() is not None:
            raise RuntimeError("batches() is for the main process: its threads are the loader's")
        # A loader of its own with this batch size and the dataset's settings, at the epoch the
        # per-sample iteration is in (which it leaves where it is).
        workers = self.num_workers if self.num_workers is not None else 2
        epoch = int(self._main_loader().loader.epoch())
        options = self._loader_options(
            self.rank, self.world_size, batch_size, False, workers, epoch=epoch
        )
        options["drop_last"] = bool(drop_last)
        java = self._open_java(options)
        handle = LoaderHandle(java)  # closes the loader once the last batch is released
        self._batches_handle = weakref.ref(handle)
        language = self._language_columns()
        depth = self._dequantizers()
        iterator = _call(java.iterator)
        try:
            while _call(iterator.hasNext):
                lease = BatchLease(_wait_for(iterator.next), owner=handle)
                yield Columns(lease, language, depth).batch(self.image_transforms)
                del lease
        finally:
            try:
                java.stopIterating()  # the loader's threads end now; its memory with the batches
            except Exception:
                pass

    def close(self) -> None:
        """Stops the loader's threads and releases its native memory (batches still viewed by
        live tensors stay valid until those are gone)."""
        if self._handle is not None and self._handle_pid == os.getpid():
            self._handle.close()
        self._handle = None

    def __repr__(self):
        return (
            f"StreamingLeRobotDataset(repo_id={self.repo_id!r}, root={str(self.root)!r},"
            f" rank={self.rank}/{self.world_size}, num_workers={self.num_workers})"
        )


# Java log lines the constructors repeat as Python warnings (not printed twice).
_QUIET = ("LeRobot would",)


def _bridge():
    _jvm.jvm()
    from org.robostream.bridge import PythonBridge  # type: ignore

    return PythonBridge


def _loader_counts(java) -> tuple:
    """A loader's counters in ``_COUNTERS``' order."""
    cache = java.decoderCacheStats()
    frames = java.stats()
    return (
        int(cache.hits()),
        int(cache.misses()),
        int(cache.evictions()),
        int(frames.framesDecoded()),
        int(frames.framesDelivered()),
        int(frames.framesFromCache()),
    )


def _native_transforms(image_transforms):
    """LeRobot's default transforms as the bridge's option, for a string or dict; None for a
    callable (applied in Python) or no transforms."""
    if image_transforms is None or callable(image_transforms):
        return None
    if isinstance(image_transforms, str):
        if image_transforms.lower() not in ("default", "lerobot", "lerobot-default"):
            raise ValueError(
                f"image_transforms={image_transforms!r}: a callable, 'default' (LeRobot's"
                " ImageTransformsConfig(enable=True), run natively) or a dict"
            )
        return "default"
    if isinstance(image_transforms, dict):
        unknown = set(image_transforms) - {"max_num_transforms", "random_order", "only"}
        if unknown:
            raise ValueError(f"image_transforms: unknown keys {sorted(unknown)}")
        out = dict(image_transforms)
        if "only" in out:
            out["only"] = [str(n) for n in out["only"]]
        return out
    raise TypeError("image_transforms must be a callable, a string or a dict")


def _state_epoch(state: dict) -> Optional[int]:
    """The epoch a staged ``state_dict()`` resumes (its loader state's), or None."""
    try:
        return int(json.loads(state["loader"]).get("epoch"))
    except (ValueError, TypeError, AttributeError, KeyError):
        return None


def _accelerate_runs() -> bool:
    """Whether Accelerate's state is initialised in this process (LeRobot's training script
    builds its Accelerator before its dataset); Accelerate is not imported here if the caller
    did not."""
    accelerate = sys.modules.get("accelerate")
    if accelerate is None:
        return False
    try:
        from accelerate.state import PartialState

        return bool(getattr(PartialState, "_shared_state", None))
    except Exception:  # an Accelerate without PartialState: not the one this rule knows
        return False


# As the loader's state bounds them (StreamState): epochs JSON keeps exactly, worlds beyond any
# cluster.
MAX_EPOCH = (1 << 53) - 1
_MAX_WORLD = 1 << 20


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _last_segment_world(loader_state: str):
    """The world size the loader state's last stretch ran with; None before its first batch (or
    when the state is no JSON object: the loader's own parse then names what is wrong)."""
    try:
        segments = json.loads(loader_state).get("segments")
        return segments[-1].get("world") if segments else None
    except (ValueError, AttributeError, TypeError, IndexError):
        return None


def _windows(delta_timestamps, cameras):
    """``delta_timestamps`` as floats, without the windows of cameras a ``cameras=`` selection
    leaves out: LeRobot's factory gives every image key of the metadata a window (keys starting
    with ``observation.image``, its own rule), and a camera that is not read has none to give."""
    if not delta_timestamps:
        return None
    out = {k: [float(x) for x in v] for k, v in delta_timestamps.items()}
    for key, values in out.items():
        for value in values:
            if not math.isfinite(value):
                # (JSON, which carries options to Java, has no NaN or infinity either)
                raise ValueError(f"delta_timestamps of {key} holds {value}: not a number of seconds")
    if cameras is not None:
        kept = set(cameras)
        out = {
            k: v for k, v in out.items() if k in kept or not k.startswith("observation.image")
        }
    return out or None


def _rank_and_world():
    """This process's share when none is given: 0 of 1 under Accelerate (its prepared
    DataLoader dispatches the stream from rank 0, or shards it itself: a share read here would
    be split again), else an initialised torch.distributed process group (plain DDP, torchrun),
    else RANK / WORLD_SIZE, else 0 of 1."""
    import torch.distributed as dist

    if _accelerate_runs():
        return 0, 1
    if dist.is_available() and dist.is_initialized():
        return dist.get_rank(), dist.get_world_size()
    if "RANK" in os.environ and "WORLD_SIZE" in os.environ:
        return int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    return 0, 1

