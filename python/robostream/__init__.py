"""robostream from Python: LeRobot datasets streamed by robostream's loader (a JVM in this
process, through JPype) into PyTorch.

    from robostream.torch import StreamingLeRobotDataset

The errors the loader raises cross over as the classes below (``robostream.DatasetError`` etc.),
with the loader's message.
"""

from types import ModuleType
from typing import List

from .errors import (
    DatasetError,
    FileError,
    GpuUnavailableError,
    HubError,
    NativeError,
    RobostreamError,
    SampleError,
    VideoError,
)

__version__ = "0.1.0"

__all__ = [
    "DatasetError",
    "FileError",
    "GpuUnavailableError",
    "HubError",
    "NativeError",
    "RobostreamError",
    "SampleError",
    "VideoError",
    "start_jvm",
    "class_path",
]


def start_jvm() -> ModuleType:
    """Starts the loader's JVM now (otherwise the first dataset does); returns ``jpype``."""
    from ._jvm import jvm

    return jvm()


def class_path() -> List[str]:
    """The jars the JVM starts (or started) with: the core library and its dependencies."""
    from ._jvm import class_path as _class_path

    return _class_path()
