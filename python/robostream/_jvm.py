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

import atexit
import glob
import json
import os
import shutil
import subprocess
import sys
import threading
import weakref
from pathlib import Path
from typing import List, Optional

from .errors import RobostreamError

_lock = threading.Lock()
_started_pid: Optional[int] = None

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
    4. the checkout this package is imported from (``python/`` on ``sys.path``).

    An installed package knows nothing of the machine it was built on.
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
    target = here.parent.parent / "java" / "target"
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
        # interrupt=False: Ctrl-C reaches Python as KeyboardInterrupt (the default for scripts
        # lets the JVM's own handler end the process, with no traceback and no cleanup).
        # -Xrs: the process's signals stay Python's. Without it the JVM takes SIGTERM (torchrun
        # and SLURM end ranks with it) and exits the process from a Java thread while Python
        # runs: a segfault and a core dump instead of the signal's plain end.
        jpype.startJVM(
            jpype.getDefaultJVMPath(),
            *_jvm_options(),
            "-Xrs",
            classpath=jars,
            convertStrings=False,
            interrupt=False,
        )
        _started_pid = os.getpid()
        _stop_before_the_jvm()
        os.register_at_fork(after_in_child=_no_jvm_in_this_child)
    return jpype


def _no_jvm_in_this_child():
    """A forked child has the JVM's memory but none of its threads: a call into it can wait
    forever. JPype asks the JVM to collect after Python's garbage collections (a callback in
    ``gc.callbacks``); in a child that call hung a DataLoader worker (``JVM_GC`` waiting for the
    JVM's VM thread). So the child drops the callback. The exit hook and the finalizers check
    ``started()`` themselves."""
    import gc

    gc.callbacks[:] = [c for c in gc.callbacks if getattr(c, "__module__", None) != "_jpype"]


# What must end before the JVM stops, in two steps at interpreter exit. Weak: an object collected
# needs no stopping. First the bridge's Python threads (``stop_at_exit()``: item readers, the call
# thread), so none is inside a Java call or copying out of a batch; then the Java resources that
# run threads of their own (``close()``: loaders, whose decoding workers the close joins), so no
# worker is decoding in native code while the JVM is destroyed.
_at_exit: "weakref.WeakSet" = weakref.WeakSet()
_closed_at_exit: "weakref.WeakSet" = weakref.WeakSet()


def stop_at_exit(obj) -> None:
    """Has ``obj.stop_at_exit()`` called at interpreter exit, before the JVM stops."""
    _at_exit.add(obj)


def close_at_exit(obj) -> None:
    """Has ``obj.close()`` called at interpreter exit, after the bridge's threads stopped and
    before the JVM stops."""
    _closed_at_exit.add(obj)


def _stop_all():
    if not started():  # a forked child: its JVM is not there to call
        return
    for group, method in ((_at_exit, "stop_at_exit"), (_closed_at_exit, "close")):
        for obj in list(group):
            try:
                getattr(obj, method)()
            except Exception:  # exiting anyway: the others still get stopped
                pass


def _stop_before_the_jvm():
    """Registers ``_stop_all`` to run before anything at exit frees a batch or stops the JVM.

    atexit runs its functions last registered first. JPype registered its JVM shutdown when it
    was imported. weakref registers the run of every pending ``weakref.finalize`` (which closes
    batches and loaders) at the process's first finalizer: if that is still to come, it would
    run before ``_stop_all`` and free a batch an item thread is copying from (a segfault at
    exit). So a finalizer is made and run now, then ``_stop_all`` is registered after it. If
    weakref's hook came before JPype's (a temporary folder made before JPype was imported), it
    runs after the JVM stopped: that is why ``_stop_all`` closes the loaders itself."""
    weakref.finalize(_Nothing(), lambda: None)
    atexit.register(_stop_all)


class _Nothing:
    pass


def running() -> bool:
    """Whether this process's JVM runs (false once JPype stopped it at exit)."""
    return started() and _jpype().isJVMStarted()


def _jvm_options() -> List[str]:
    """The options every JVM of the bridge starts with, in this process or as a helper."""
    options = [
        # Arrow reads direct buffers' addresses.
        "--add-opens=java.base/java.nio=ALL-UNNAMED",
        "-Dorg.slf4j.simpleLogger.defaultLogLevel=" + os.environ.get("ROBOSTREAM_LOG_LEVEL", "warn"),
    ]
    return options + [o for o in os.environ.get("ROBOSTREAM_JVM_OPTIONS", "").split() if o]


def started() -> bool:
    """Whether this process runs the JVM (started here, not inherited through fork)."""
    jpype = _jpype()
    return jpype.isJVMStarted() and _started_pid == os.getpid()


def java_executable() -> str:
    """The ``java`` that matches the JVM JPype would load (``JAVA_HOME``, else the system's)."""
    candidates = []
    if os.environ.get("JAVA_HOME"):
        candidates.append(Path(os.environ["JAVA_HOME"]) / "bin" / "java")
    try:
        libjvm = Path(_jpype().getDefaultJVMPath()).resolve()
        # .../lib/server/libjvm.so -> .../bin/java (JDK 9 and later)
        candidates.append(libjvm.parent.parent.parent / "bin" / "java")
    except Exception:  # no JVM found by JPype: fall back to PATH
        pass
    for candidate in candidates:
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    found = shutil.which("java")
    if found:
        return found
    raise RobostreamError("no java executable found: install a JDK 17 or set JAVA_HOME")


# Seconds a helper JVM may take (a Hub dataset's metadata is downloaded there).
_HELPER_TIMEOUT_S = float(os.environ.get("ROBOSTREAM_HELPER_TIMEOUT_S", "1800"))


def print_log(lines, shown: Optional[set] = None, quiet: tuple = ()) -> None:
    """Prints a JVM's log lines to standard error once: not those ``shown`` already holds (the
    same warning from another open of the dataset; compared without the logging thread's name),
    nor those containing one of ``quiet``'s texts (warnings the caller repeats as Python
    warnings). Adds what it sees to ``shown``."""
    for line in lines:
        line = str(line)
        key = line.split("] ", 1)[1] if line.startswith("[") and "] " in line else line
        if shown is not None:
            if key in shown:
                continue
            shown.add(key)
        if not any(text and text in line for text in quiet):
            print(line, file=sys.stderr)


def run_helper(kind: str, options: dict, quiet: tuple = (), shown: Optional[set] = None) -> dict:
    """Runs ``PythonBridge`` in a short-lived JVM (``kind``: ``dataset`` or ``metadata``) and
    returns its JSON answer, so that this process holds no JVM and may still fork. The helper's
    log lines go to this process's standard error (``print_log``). A failure in the helper
    raises the Python error of the Java exception's kind, with its message."""
    from .errors import from_java_classes

    jars = class_path()
    command = [
        java_executable(),
        # A helper lives for one answer: the client compiler and the serial collector start
        # fastest.
        "-XX:TieredStopAtLevel=1",
        "-XX:+UseSerialGC",
        *_jvm_options(),
        "-cp",
        os.pathsep.join(jars),
        "org.robostream.bridge.PythonBridge",
        kind,
    ]
    done = subprocess.run(
        command,
        input=json.dumps(options).encode(),
        capture_output=True,
        timeout=_HELPER_TIMEOUT_S,
    )
    print_log(done.stderr.decode(errors="replace").splitlines(), shown, quiet)
    try:
        answer = json.loads(done.stdout)
    except ValueError:
        answer = None
    if isinstance(answer, dict) and "error" in answer:
        error = answer["error"]
        raise from_java_classes(error.get("classes", []), str(error.get("message", "")))
    if done.returncode != 0 or not isinstance(answer, dict):
        raise RobostreamError(
            f"the helper JVM ({' '.join(command[:1] + command[-2:])}) failed with exit code"
            f" {done.returncode}: {done.stderr.decode(errors='replace')[-2000:]}"
        )
    return answer


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
