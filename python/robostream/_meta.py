"""LeRobot's ``LeRobotDatasetMetadata``, read by robostream's loader.

The loader's Java side reads and checks ``meta/`` (info.json, tasks, the episodes table,
statistics) and describes it as JSON (``org.robostream.bridge.PythonBridge``); this module turns
that description into the objects LeRobot's training code reads: ``info`` with attribute and
dict access and tuple shapes, ``tasks`` as a pandas DataFrame indexed by task, ``episodes`` as a
table with row and column access, ``stats`` as numpy arrays per feature and statistic (v2.1:
aggregated from ``episodes_stats.jsonl`` as LeRobot aggregates them).

The description is made in this process's JVM when it runs one, else in a short-lived helper JVM
(``_jvm.run_helper``), so reading metadata never leaves a JVM in a process that may fork.
Immutable after construction, except ``stats``, which LeRobot's factory edits in place.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from os import PathLike
from typing import Callable, Dict, Iterator, List, Optional, Sequence, Union

import numpy as np

# LeRobot's DEFAULT_FEATURES: the columns every LeRobot writer adds. A dataset whose info.json
# leaves some out is read as if it declared them (the loader says so once).
DEFAULT_FEATURES = {
    "timestamp": {"dtype": "float32", "shape": (1,), "names": None},
    "frame_index": {"dtype": "int64", "shape": (1,), "names": None},
    "episode_index": {"dtype": "int64", "shape": (1,), "names": None},
    "index": {"dtype": "int64", "shape": (1,), "names": None},
    "task_index": {"dtype": "int64", "shape": (1,), "names": None},
}

# LeRobot's language columns (lerobot.datasets.language.LANGUAGE_COLUMNS): lists of message
# dicts per row, kept as Python lists by its collate function.
LANGUAGE_COLUMNS = ("language_persistent", "language_events")

# LeRobot's default tool schema (lerobot.datasets.language.SAY_TOOL_SCHEMA): what
# LeRobotDatasetMetadata.tools returns for a dataset that declares none.
_SAY_TOOL = {
    "type": "function",
    "function": {
        "name": "say",
        "description": "Speak a short utterance to the user via the TTS executor.",
        "parameters": {
            "type": "object",
            "properties": {"text": {"type": "string", "description": "The verbatim text to speak."}},
            "required": ["text"],
        },
    },
}

# LeRobot's CODEBASE_VERSION: the revision its metadata asks the Hub for by default.
CODEBASE_VERSION = "v3.0"


class DatasetInfo:
    """``meta/info.json`` as LeRobot's typed ``DatasetInfo``: fields as attributes
    (``info.fps``, ``info.features``), also readable as a dict (``info["fps"]``, ``"fps" in
    info``, ``info.get``), feature shapes as tuples. ``to_dict()`` gives the JSON form."""

    def __init__(self, raw: dict, features: dict):
        self._raw = copy.deepcopy(raw)
        self.codebase_version: str = raw.get("codebase_version")
        self.fps: int = int(raw.get("fps"))
        self.features: Dict[str, dict] = features
        self.total_episodes: int = int(raw.get("total_episodes", 0))
        self.total_frames: int = int(raw.get("total_frames", 0))
        self.total_tasks: int = int(raw.get("total_tasks", 0))
        self.chunks_size: int = int(raw.get("chunks_size", 1000))
        self.data_files_size_in_mb: int = int(raw.get("data_files_size_in_mb", 100))
        self.video_files_size_in_mb: int = int(raw.get("video_files_size_in_mb", 200))
        self.data_path: str = raw.get("data_path")
        self.video_path: Optional[str] = raw.get("video_path")
        self.robot_type: Optional[str] = raw.get("robot_type")
        self.splits: dict = raw.get("splits") or {}
        self.tools: Optional[list] = raw.get("tools")
        # v2.x fields LeRobot's current reader ignores, kept for scripts that read them.
        for key in ("total_chunks", "total_videos"):
            if key in raw:
                setattr(self, key, raw[key])

    def to_dict(self) -> dict:
        out = copy.deepcopy(self._raw)
        out["features"] = {
            key: {**ft, "shape": list(ft["shape"])} if "shape" in ft else dict(ft)
            for key, ft in self.features.items()
        }
        return out

    def __getitem__(self, key: str):
        try:
            return getattr(self, key)
        except AttributeError as err:
            raise KeyError(key) from err

    def __contains__(self, key: str) -> bool:
        return hasattr(self, key) and not key.startswith("_")

    def get(self, key: str, default=None):
        return getattr(self, key, default) if not key.startswith("_") else default

    def keys(self):
        return self.to_dict().keys()

    def __repr__(self):
        return f"DatasetInfo(codebase_version={self.codebase_version!r}, fps={self.fps}, features={list(self.features)})"


class EpisodesTable:
    """The episodes table as LeRobot's ``meta.episodes`` (an HF ``Dataset``) is read by training
    code: ``episodes[i]`` is row i as a dict, ``episodes["column"]`` the column as a list,
    ``len()``, iteration over rows, ``column_names``, ``num_rows``, ``filter``,
    ``select_columns`` and ``to_pandas()``. Rows are the episodes the table lists, in its
    order; columns as LeRobot v3.0 names them (``episode_index``, ``tasks``, ``length``,
    ``dataset_from_index``, ``dataset_to_index``, ``data/chunk_index``, ``data/file_index``,
    ``videos/<camera>/chunk_index``, ``.../file_index``, ``.../from_timestamp``,
    ``.../to_timestamp``; a chunk or file index the path does not say is None)."""

    def __init__(self, rows: List[dict]):
        self._rows = rows
        names: List[str] = []
        for row in rows:
            for key in row:
                if key not in names:
                    names.append(key)
        self.column_names = names

    @classmethod
    def from_description(cls, episodes: List[dict]) -> "EpisodesTable":
        rows = []
        for e in episodes:
            row = {
                "episode_index": int(e["episode_index"]),
                "tasks": list(e["tasks"]),
                "length": int(e["length"]),
                "dataset_from_index": int(e["dataset_from_index"]),
                "dataset_to_index": int(e["dataset_to_index"]),
            }
            row["data/chunk_index"], row["data/file_index"] = _chunk_and_file(e["data_file"])
            for camera, span in e["videos"].items():
                chunk, file = _chunk_and_file(span["file"])
                row[f"videos/{camera}/chunk_index"] = chunk
                row[f"videos/{camera}/file_index"] = file
                row[f"videos/{camera}/from_timestamp"] = float(span["from_timestamp"])
                row[f"videos/{camera}/to_timestamp"] = float(span["to_timestamp"])
            rows.append(row)
        return cls(rows)

    @property
    def num_rows(self) -> int:
        return len(self._rows)

    def __len__(self) -> int:
        return len(self._rows)

    def __iter__(self) -> Iterator[dict]:
        return (dict(r) for r in self._rows)

    def __getitem__(self, key):
        if isinstance(key, str):
            if key not in self.column_names:
                raise KeyError(f"{key!r}: the episodes table has columns {self.column_names}")
            return [row.get(key) for row in self._rows]
        if isinstance(key, slice):
            return EpisodesTable(self._rows[key])
        return dict(self._rows[int(key)])

    def filter(self, predicate, **_ignored) -> "EpisodesTable":
        return EpisodesTable([r for r in self._rows if predicate(dict(r))])

    def select_columns(self, names: Sequence[str]) -> "EpisodesTable":
        names = [names] if isinstance(names, str) else list(names)
        return EpisodesTable([{n: r.get(n) for n in names} for r in self._rows])

    def to_pandas(self):
        import pandas as pd

        return pd.DataFrame(self._rows, columns=self.column_names)

    def __repr__(self):
        return f"EpisodesTable(num_rows={self.num_rows}, columns={self.column_names})"


def _chunk_and_file(path: str):
    chunk = re.search(r"chunk-(\d+)", path)
    file = re.search(r"file-(\d+)", path)
    return (int(chunk.group(1)) if chunk else None, int(file.group(1)) if file else None)


def stats_to_numpy(stats: dict) -> Dict[str, Dict[str, np.ndarray]]:
    """LeRobot's ``cast_stats_to_numpy``: every statistic as a numpy array of at least one
    dimension; nested keys (``observation.images.top`` -> ``mean``) kept as nested dicts."""
    out: Dict[str, dict] = {}
    for feature, values in stats.items():
        if not isinstance(values, dict):
            continue
        out[feature] = {
            name: np.atleast_1d(np.array(value)) for name, value in values.items()
        }
    return out


def aggregate_stats(per_episode: List[Dict[str, Dict[str, np.ndarray]]]) -> Dict[str, dict]:
    """LeRobot's ``aggregate_stats``: one set of statistics from per-episode ones. ``min`` and
    ``max`` over the episodes, ``mean`` weighted by ``count``, ``std`` by the parallel variance
    formula, ``count`` summed; quantiles ``qNN`` (where every episode has them) as a
    conservative envelope (min for NN <= 50, else max), as LeRobot keeps them."""
    keys: List[str] = []
    for stats in per_episode:
        for key in stats:
            if key not in keys:
                keys.append(key)
    out: Dict[str, dict] = {}
    for key in keys:
        items = [s[key] for s in per_episode if key in s]
        means = np.stack([s["mean"] for s in items])
        variances = np.stack([s["std"] ** 2 for s in items])
        counts = np.stack([s["count"] for s in items])
        total = counts.sum(axis=0)
        while counts.ndim < means.ndim:
            counts = np.expand_dims(counts, axis=-1)
        mean = (means * counts).sum(axis=0) / total
        variance = ((variances + (means - mean) ** 2) * counts).sum(axis=0) / total
        aggregated = {
            "min": np.min(np.stack([s["min"] for s in items]), axis=0),
            "max": np.max(np.stack([s["max"] for s in items]), axis=0),
            "mean": mean,
            "std": np.sqrt(variance),
            "count": total,
        }
        for q in [k for k in items[0] if k.startswith("q") and k[1:].isdigit()]:
            if all(q in s for s in items):
                values = np.stack([s[q] for s in items])
                aggregated[q] = values.min(axis=0) if int(q[1:]) <= 50 else values.max(axis=0)
        out[key] = aggregated
    return out


class LeRobotDatasetMetadata:
    """LeRobot's ``LeRobotDatasetMetadata(repo_id, root=None, revision=None,
    force_cache_sync=False, metadata_buffer_size=10, *, repo_type="dataset", token=None)``,
    read-only: what training code reads before and after the dataset exists.

    Attributes: ``repo_id``, ``repo_type``, ``revision``, ``root``, ``info``
    (:class:`DatasetInfo`), ``tasks`` (pandas DataFrame indexed by ``task`` with column
    ``task_index``), ``episodes`` (:class:`EpisodesTable`), ``stats`` (``{feature: {stat:
    np.ndarray}}`` or None; v2.1: aggregated from ``episodes_stats.jsonl``; LeRobot's factory
    adds ImageNet statistics into it). Properties as LeRobot's: ``fps``, ``features``,
    ``camera_keys``, ``video_keys``, ``image_keys``, ``depth_keys``, ``has_language_columns``,
    ``names``, ``shapes``, ``robot_type``, ``total_episodes``, ``total_frames``,
    ``total_tasks``, ``chunks_size``, ``data_path``, ``video_path``, ``url_root``, ``tools``; methods
    ``get_data_file_path``, ``get_video_file_path``, ``get_task_index``, ``filter_episodes``.

    Reading: ``meta/`` only (a local folder's data and videos are not opened, so a dataset
    with files absent still reads); a dataset on the Hub (``root=None``) or in a bucket
    (``repo_type="bucket"``) has its ``meta/`` mirrored into robostream's Hub cache. Nothing is
    written: robostream reads datasets, it does not record them.
    """

    def __init__(
        self,
        repo_id: str,
        root: Union[str, PathLike, None] = None,
        revision: Optional[str] = None,
        force_cache_sync: bool = False,
        metadata_buffer_size: int = 10,
        *,
        repo_type: str = "dataset",
        token: Union[str, bool, None] = None,
        data_files_root: Optional[str] = None,
    ) -> None:
        from . import _options

        options = _options.source(repo_id, root, revision, repo_type, token, data_files_root)
        description = _describe_metadata(options)
        self._init(repo_id, repo_type, revision, description)

    @classmethod
    def _from_description(
        cls, repo_id: str, repo_type: str, revision, description: dict, cameras=None
    ) -> "LeRobotDatasetMetadata":
        meta = cls.__new__(cls)
        meta._init(repo_id, repo_type, revision, description, cameras)
        return meta

    def _init(self, repo_id, repo_type, revision, description, cameras=None):
        if repo_type not in ("dataset", "bucket"):
            raise ValueError(f"repo_type must be 'dataset' or 'bucket', got {repo_type!r}")
        self.repo_id = repo_id
        self.repo_type = repo_type
        self.revision = revision if revision else CODEBASE_VERSION
        self.root = Path(description["root"])
        raw = description["info"]
        features = _features(raw.get("features", {}), description["features"], cameras)
        self.info = DatasetInfo(raw, features)
        self._depth = [k for k in description.get("depth_keys", []) if k in features] + [
            k for k, ft in features.items() if _is_depth(ft) and k not in description.get("depth_keys", [])
        ]
        import pandas as pd

        tasks = description["tasks"]
        self.tasks = (
            pd.DataFrame(
                {"task_index": [int(i) for i, _ in tasks]},
                index=pd.Index([str(t) for _, t in tasks], name="task"),
            )
            if tasks
            else None
        )
        self.episodes = EpisodesTable.from_description(description["episodes"])
        self._files = {int(e["episode_index"]): e for e in description["episodes"]}
        self.stats = _stats(description, self._version_major())

    def _version_major(self) -> int:
        match = re.match(r"v?(\d+)\.(\d+)", str(self.info.codebase_version))
        return int(match.group(1)) * 10 + int(match.group(2)) if match else 30

    # ---- LeRobot's properties --------------------------------------------------------------

    @property
    def url_root(self) -> str:
        kind = "buckets" if self.repo_type == "bucket" else "datasets"
        return f"hf://{kind}/{self.repo_id}"

    @property
    def data_path(self) -> str:
        return self.info.data_path

    @property
    def video_path(self) -> Optional[str]:
        return self.info.video_path

    @property
    def robot_type(self) -> Optional[str]:
        return self.info.robot_type

    @property
    def fps(self) -> int:
        return self.info.fps

    @property
    def features(self) -> Dict[str, dict]:
        return self.info.features

    @property
    def image_keys(self) -> List[str]:
        return [k for k, ft in self.features.items() if ft.get("dtype") == "image"]

    @property
    def video_keys(self) -> List[str]:
        return [k for k, ft in self.features.items() if ft.get("dtype") == "video"]

    @property
    def camera_keys(self) -> List[str]:
        return [k for k, ft in self.features.items() if ft.get("dtype") in ("video", "image")]

    @property
    def depth_keys(self) -> List[str]:
        return list(self._depth)

    @property
    def has_language_columns(self) -> bool:
        return any(c in self.features for c in LANGUAGE_COLUMNS)

    @property
    def tools(self) -> List[dict]:
        """The tool schemas info.json declares, else LeRobot's default (its ``say`` tool), as
        LeRobot's chat-template consumers read them; a copy."""
        declared = self.info.tools
        return copy.deepcopy(declared) if declared else [copy.deepcopy(_SAY_TOOL)]

    @property
    def names(self) -> Dict[str, object]:
        return {k: ft.get("names") for k, ft in self.features.items()}

    @property
    def shapes(self) -> Dict[str, tuple]:
        return {k: tuple(ft["shape"]) for k, ft in self.features.items()}

    @property
    def total_episodes(self) -> int:
        return self.info.total_episodes

    @property
    def total_frames(self) -> int:
        return self.info.total_frames

    @property
    def total_tasks(self) -> int:
        return self.info.total_tasks if self.info.total_tasks else (
            0 if self.tasks is None else len(self.tasks)
        )

    @property
    def chunks_size(self) -> int:
        return self.info.chunks_size

    @property
    def data_files_size_in_mb(self) -> int:
        return self.info.data_files_size_in_mb

    @property
    def video_files_size_in_mb(self) -> int:
        return self.info.video_files_size_in_mb

    # ---- LeRobot's methods -----------------------------------------------------------------

    def _episode_files(self, ep_index: int) -> dict:
        if ep_index not in self._files:
            raise IndexError(
                f"Episode index {ep_index} out of range. Episodes: {len(self.episodes)}"
            )
        return self._files[ep_index]

    def get_data_file_path(self, ep_index: int) -> Path:
        """The data file of episode ``ep_index``, relative to the dataset root."""
        return Path(self._episode_files(ep_index)["data_file"])

    def get_video_file_path(self, ep_index: int, vid_key: str) -> Path:
        """The video of camera ``vid_key`` holding episode ``ep_index``, relative to the root."""
        videos = self._episode_files(ep_index)["videos"]
        if vid_key not in videos:
            raise KeyError(f"{vid_key!r} is not a video of episode {ep_index}: {list(videos)}")
        return Path(videos[vid_key]["file"])

    def get_task_index(self, task: str) -> Optional[int]:
        if self.tasks is not None and task in self.tasks.index:
            return int(self.tasks.loc[task].task_index)
        return None

    def filter_episodes(
        self, predicate: Callable[[dict], bool], candidates: Optional[Sequence[int]] = None
    ) -> List[int]:
        keep = set(candidates) if candidates is not None else None
        return sorted(
            int(row["episode_index"])
            for row in self.episodes
            if (keep is None or row["episode_index"] in keep) and predicate(row)
        )

    def __repr__(self):
        return (
            f"LeRobotDatasetMetadata(repo_id={self.repo_id!r}, total_episodes={self.total_episodes},"
            f" total_frames={self.total_frames}, features={list(self.features)})"
        )


def _describe_metadata(options: dict) -> dict:
    """The bridge's description of a dataset: in this process's JVM when it runs one, else in a
    helper JVM (this process then stays free to fork)."""
    from . import _jvm

    if _jvm.started():
        from .errors import translate

        jpype = _jvm.jvm()
        from org.robostream.bridge import PythonBridge  # type: ignore

        try:
            return json.loads(str(PythonBridge.describeMetadata(json.dumps(options))))
        except jpype.JException as e:
            raise translate(e) from e
    return _jvm.run_helper("metadata", options)


def _features(raw_features: dict, loader_features: dict, cameras) -> Dict[str, dict]:
    """info.json's features in its order (shapes as tuples), then LeRobot's defaults the loader
    reads although info.json leaves them out; without the cameras a selection leaves out."""
    out: Dict[str, dict] = {}
    for key, ft in raw_features.items():
        if cameras is not None and ft.get("dtype") in ("video", "image") and key not in cameras:
            continue
        ft = copy.deepcopy(ft)
        if isinstance(ft.get("shape"), list):
            ft["shape"] = tuple(ft["shape"])
        out[key] = ft
    for key in loader_features:
        if key not in out and key in DEFAULT_FEATURES:
            out[key] = copy.deepcopy(DEFAULT_FEATURES[key])
    return out


def _is_depth(ft: dict) -> bool:
    info = ft.get("info") or ft.get("video_info") or {}
    return bool(info.get("is_depth_map") or info.get("video.is_depth_map"))


def _stats(description: dict, version: int):
    """meta/stats.json as numpy arrays; for v2.1 (as LeRobot 0.3 read it) the aggregate of
    episodes_stats.jsonl."""
    per_episode = description.get("episodes_stats") or {}
    if version >= 21 and version < 30 and per_episode:
        return aggregate_stats([stats_to_numpy(s) for s in per_episode.values()])
    stats = description.get("stats")
    return stats_to_numpy(stats) if isinstance(stats, dict) else None
