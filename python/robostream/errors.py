"""robostream's typed errors in Python: each Java exception of the loader crosses the bridge as
the Python class of the same meaning, with the Java message (which names the file and the
problem) as its message, the Java class name in ``java_class`` and the Java exception as
``__cause__``."""

from __future__ import annotations


class RobostreamError(Exception):
    """Root of robostream's errors (Java ``org.robostream.RobostreamException``)."""

    java_class: str = ""


class DatasetError(RobostreamError, ValueError):
    """Metadata, tables or videos that cannot be read as the dataset says (``DatasetException``)."""


class FileError(RobostreamError, OSError):
    """A file that is missing, unreadable or refused (``FileException``)."""


class VideoError(RobostreamError):
    """A video that cannot be decoded as its metadata says (``VideoException``)."""


class SampleError(RobostreamError):
    """One sample could not be built (``SampleException``: names file, episode and frame)."""


class HubError(RobostreamError, OSError):
    """The Hugging Face Hub or a bucket refused or failed a request (``HubException``)."""


class NativeError(RobostreamError):
    """The native core reported an error (``NativeException``)."""


class GpuUnavailableError(RobostreamError):
    """A GPU was asked for and is not there (``GpuUnavailableException``)."""


for _cls in (
    RobostreamError,
    DatasetError,
    FileError,
    VideoError,
    SampleError,
    HubError,
    NativeError,
    GpuUnavailableError,
):
    _cls.__module__ = "robostream"  # shown as robostream.DatasetError, where users import it

# Java simple class name -> Python class; subclasses not listed map through their superclass.
_BY_JAVA_NAME = {
    "RobostreamException": RobostreamError,
    "DatasetException": DatasetError,
    "FileException": FileError,
    "UnreadableFileException": FileError,
    "CacheLimitException": FileError,
    "VideoException": VideoError,
    "SampleException": SampleError,
    "HubException": HubError,
    "NativeException": NativeError,
    "GpuUnavailableException": GpuUnavailableError,
}


def from_java_classes(classes, message: str) -> Exception:
    """The Python error for a Java exception known by its class names (its own first, then its
    superclasses) and message: how a helper JVM's failure crosses over."""
    for name in classes:
        simple = str(name).rsplit(".", 1)[-1].rsplit("$", 1)[-1]
        if str(name).startswith("org.robostream.") and simple in _BY_JAVA_NAME:
            error = _BY_JAVA_NAME[simple](message)
            error.java_class = str(classes[0])
            return error
    first = str(classes[0]) if classes else ""
    if first == "java.lang.IllegalArgumentException":
        return ValueError(message)
    if first == "java.lang.IllegalStateException":
        return RuntimeError(message)
    error = RobostreamError(f"{first}: {message}" if first else message)
    error.java_class = first
    return error


def translate(java_exception) -> Exception:
    """The Python error for a Java exception raised through JPype (``jpype.JException``).

    robostream's own exceptions map by class (walking up the Java class hierarchy); Java's
    IllegalArgumentException becomes ValueError, IllegalStateException RuntimeError, anything else
    RobostreamError. The Java stack trace stays reachable as ``__cause__``.
    """
    # A worker's failure may arrive wrapped (an ExecutionException, a RuntimeException): the
    # first robostream exception in the cause chain is the one that says what happened.
    python_class = None
    current, depth = java_exception, 0
    while current is not None and python_class is None and depth < 8:
        cls = current.getClass()
        while cls is not None:
            simple = str(cls.getSimpleName())
            if str(cls.getName()).startswith("org.robostream.") and simple in _BY_JAVA_NAME:
                python_class = _BY_JAVA_NAME[simple]
                java_exception = current
                break
            cls = cls.getSuperclass()
        current, depth = current.getCause(), depth + 1
    java_name = str(java_exception.getClass().getName())
    message = java_exception.getMessage()
    message = str(message) if message is not None else java_name
    if python_class is None:
        if java_name == "java.lang.IllegalArgumentException":
            error = ValueError(message)
        elif java_name == "java.lang.IllegalStateException":
            error = RuntimeError(message)
        else:
            error = RobostreamError(f"{java_name}: {message}")
            error.java_class = java_name
        return error
    error = python_class(message)
    error.java_class = java_name
    return error
