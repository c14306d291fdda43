"""The Python arguments as the bridge's options document (``org.robostream.bridge.BridgeOptions``
reads it): one JSON object, the same whether the loader opens in this process or a helper JVM
describes the dataset. Stateless."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional


def location(repo_id: str, root, revision: Optional[str], repo_type: str) -> str:
    """Where the loader reads: the local ``root``, else the Hub repository (spelled as a Hub
    location, so that a local folder named like the repository is never read instead: the
    reference reads the Hub when root is None) or, for ``repo_type="bucket"``, the bucket."""
    if repo_type not in ("dataset", "bucket"):
        raise ValueError(f"repo_type must be 'dataset' or 'bucket', got {repo_type!r}")
    if repo_type == "bucket":
        # Buckets are unversioned; a local root is only a metadata cache in the reference, and
        # robostream keeps its own (HF_LEROBOT_HOME), so the bucket is always the source.
        return "hf://buckets/" + repo_id
    if root is not None:
        return str(Path(root).expanduser())
    return "hf://datasets/" + repo_id + (f"@{revision}" if revision else "")


def environment(token) -> dict:
    """The variables the loader's Hub client reads, changed for ``token`` as huggingface_hub
    reads it: a string is the token; ``False`` sends none (the stored token is not read);
    ``True`` requires a stored one; ``None`` leaves the environment as it is."""
    if token is None:
        return {}
    if token is False:
        return {"HF_TOKEN": None, "HF_HUB_DISABLE_IMPLICIT_TOKEN": "1"}
    if token is True:
        home = Path(os.environ.get("HF_HOME", Path.home() / ".cache" / "huggingface"))
        if not os.environ.get("HF_TOKEN") and not (home / "token").is_file():
            raise ValueError(
                "token=True asks for the stored Hugging Face token, and none is stored (set"
                f" HF_TOKEN or log in so that {home / 'token'} exists)"
            )
        return {}
    if isinstance(token, str):
        return {"HF_TOKEN": token}
    raise TypeError("token must be a string, True, False or None")


def source(repo_id, root, revision, repo_type, token, data_files_root) -> dict:
    """The options that name a dataset and how to reach it."""
    options = {
        "location": location(repo_id, root, revision, repo_type),
        "environment": environment(token),
    }
    if data_files_root is not None:
        options["data_files_root"] = str(data_files_root).rstrip("/")
    return options

