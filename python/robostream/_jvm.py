"""Starts the JVM that runs robostream's loader, once per process, through JPype.

Threading: ``jvm()`` is safe to call from any thread; the first call starts the JVM under a lock.
A JVM cannot survive ``fork()``: a child process that inherited a started JVM gets a
``RobostreamError`` naming the way through (spawn, or the loader's own ``num_workers``) instead
of the deadlock JPype would give it.

The class path is the core library only (the ``robostream`` jar and its run-time dependencies,
Maven's ``java/target/python-classpath``): never the trainer's JavaCPP libtorch, which must not
load beside the torch this process already has.
"""

from __future__ import annotations

import glob
import os
import threading
from pathlib import Path
from typing import List, Optional

from .errors import RobostreamError

_lock = threading.Lock()
_started_pid: Optional[int] = None

# Set by setup.py when the package is built from a checkout: where that checkout is.
try:
    from ._build_info import CHECKOUT  # type: ignore
except ImportError:  # running from the source tree
    CHECKOUT = None

_CORE_JAR = "robostream-[0-9]*.jar"  # not -tests.jar / -sources.jar (filtered below)


def _core_jars(folder: Path) -> List[str]:
    """The core jar in ``folder`` (a Maven target folder or the bundled jars), newest first."""
    jars = [
        j
        for j in glob.glob(str(folder / _CORE_JAR))
        if not j.endswith(("-tests.jar", "-sources.jar", "-javadoc.jar"))
    ]
    return sorted(jars, key=os.path.getmtime, reverse=True)


def _from_folder(jar_folder: Path, lib_folder: Path) -> Optional[List[str]]:
    core = _core_jars(jar_folder)
    libs = sorted(glob.glob(str(lib_folder / "*.jar")))
    if core and libs:
        return [core[0]] + libs
    return None


def class_path() -> List[str]:
    """The jars the JVM starts with, from the first place that has them.

    1. ``ROBOSTREAM_CLASSPATH`` (``os.pathsep``-separated jars), for unusual layouts;
    2. ``ROBOSTREAM_HOME``: a checkout whose ``java`` module was built (``mvn install``);
    3. the jars bundled into this package when its wheel was built from a built checkout;
    4. the checkout this package is imported from (``python/`` on ``sys.path``), or the one it
       was installed from.
    """
    explicit = os.environ.get("ROBOSTREAM_CLASSPATH")
    if explicit:
        jars = [j for j in explicit.split(os.pathsep) if j]
        missing = [j for j in jars if not os.path.isfile(j)]
        if missing:
            raise RobostreamError(f"ROBOSTREAM_CLASSPATH names jars that do not exist: {missing}")
        return jars
    here = Path(__file__).resolve().parent
    places = []  # (core jar folder, dependency folder)
    if os.environ.get("ROBOSTREAM_HOME"):
        target = Path(os.environ["ROBOSTREAM_HOME"]) / "java" / "target"
        places.append((target, target / "python-classpath"))
    places.append((here / "jars", here / "jars" / "lib"))
    for checkout in (here.parent.parent, Path(CHECKOUT) if CHECKOUT else None):
        if checkout is not None:
            target = checkout / "java" / "target"
            places.append((target, target / "python-classpath"))
    for jar_folder, lib_folder in places:
        found = _from_folder(jar_folder, lib_folder)
        if found:
            return found
    raise RobostreamError(
        "robostream's jars were not found (looked in "
        + ", ".join(dict.fromkeys(str(p[0]) for p in places))
        + "). Build them in the checkout with `mvn -q install -DskipTests`, then reinstall this"
        " package (`pip install ./python`) or set ROBOSTREAM_HOME to the checkout"
    )


def _jpype():
    try:
        import jpype  # noqa: F401
        import jpype.imports  # noqa: F401  (enables `import org.robostream...`)
    except ImportError as e:
        raise RobostreamError(
            "robostream needs JPype to run its loader in this process: install Debian's"
            " python3-jpype (apt-get install python3-jpype) or JPype1 from PyPI"
        ) from e
    return jpype


def jvm():
    """Starts the JVM if this process has not yet; returns the ``jpype`` module."""
    global _started_pid
    jpype = _jpype()
    with _lock:
        if jpype.isJVMStarted():
            if _started_pid is not None and _started_pid != os.getpid():
                raise RobostreamError(
                    "this process was forked from one whose JVM was already running, and a JVM"
                    " does not survive fork(). With DataLoader(num_workers>0) pass"
                    " multiprocessing_context='spawn' (each worker then starts its own JVM and"
                    " reads its own share of the data), or keep DataLoader(num_workers=0) and"
                    " use StreamingLeRobotDataset(num_workers=N): decoding threads inside the JVM"
                )
            return jpype
        jars = class_path()
        jpype_jar = _jpype_support_jar(jpype)
        if jpype_jar:
            jars = jars + [jpype_jar]
        options = [
            # Arrow reads direct buffers' addresses.
            "--add-opens=java.base/java.nio=ALL-UNNAMED",
            "-Dorg.slf4j.simpleLogger.defaultLogLevel=" + os.environ.get("ROBOSTREAM_LOG_LEVEL", "warn"),
        ]
        options += [o for o in os.environ.get("ROBOSTREAM_JVM_OPTIONS", "").split() if o]
        jpype.startJVM(jpype.getDefaultJVMPath(), *options, classpath=jars, convertStrings=False)
        _started_pid = os.getpid()
    return jpype


def _jpype_support_jar(jpype) -> Optional[str]:
    """JPype's own jar: passing ``classpath=`` to Debian's JPype drops it unless it is listed."""
    for candidate in (
        Path(jpype.__file__).resolve().parent.parent / "org.jpype.jar",
        Path("/usr/share/java/org.jpype.jar"),
    ):
        if candidate.is_file():
            return str(candidate)
    return None


def started_in_this_process() -> bool:
    return _started_pid == os.getpid()
