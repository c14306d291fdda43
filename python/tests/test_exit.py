"""What the bridge must not do at interpreter exit or in a forked child. At exit, its threads end
and its loaders close before anything frees a batch or stops the JVM: an item thread copying out
of a freed batch, and workers decoding while the JVM was destroyed, crashed exits. A forked child
has no JVM threads, so nothing of the bridge may call the JVM there: JPype's collection callback
hung a DataLoader worker."""

import gc
import os
import signal
import subprocess
import sys
from pathlib import Path

from robostream import _jvm, _waits

PACKAGE = Path(__file__).resolve().parents[1]


def test_the_call_thread_is_stopped_and_detached_before_the_jvm():
    calls = _waits.InterruptibleCalls()
    jpype = _jvm.jvm()
    integer = jpype.JClass("java.lang.Integer")
    assert calls.call(lambda: int(integer.valueOf(7))) == 7  # ran on the call thread
    assert calls in set(_jvm._at_exit), "stopped by the exit hook that runs before JPype's"
    calls.stop_at_exit()
    assert not calls._thread.is_alive()


# A process that exits mid-pass through ``batches()``: the generator's own cleanup runs only at
# module teardown, after JPype stopped the JVM, and its loader is left open. A temporary folder made before JPype was imported puts weakref's exit hook (which
# would close the loader) after JPype's. Java's thread list is read between robostream's exit
# hook and JPype's.
_EXIT_MID_PASS = """
import atexit, sys, tempfile
sys.path.insert(0, sys.argv[1])
early = tempfile.TemporaryDirectory()
import jpype

def workers_at_jvm_stop():
    threads = jpype.JClass("java.lang.Thread").getAllStackTraces().keySet()
    names = sorted(str(t.getName()) for t in threads if str(t.getName()).startswith("robostream-worker"))
    print("workers when the JVM stops:", names, flush=True)

atexit.register(workers_at_jvm_stop)
from robostream.torch import StreamingLeRobotDataset
ds = StreamingLeRobotDataset("local/small", root=sys.argv[2], num_workers=2, loader_batch_size=2)
batches = ds.batches(2)
next(batches)
print("left mid-pass", flush=True)
"""


def test_a_loader_left_open_has_its_workers_joined_before_the_jvm_stops(small_dataset):
    run = subprocess.run(
        [sys.executable, "-X", "faulthandler", "-c", _EXIT_MID_PASS, str(PACKAGE), str(small_dataset)],
        capture_output=True, text=True, timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "left mid-pass" in run.stdout, run.stdout + run.stderr
    assert "workers when the JVM stops: []" in run.stdout, run.stdout + run.stderr


# Batches and loaders are closed by weakref finalizers, which weakref runs from an exit hook of
# its own, registered at the process's first finalizer. A finalizer first made after the JVM
# started must still run after robostream's exit hook: else it frees a batch an item thread is
# copying from (a segfault at exit, test_lerobot_compat's unfinished pass).
_FINALIZERS_AFTER_THE_STOP = """
import sys, weakref
sys.path.insert(0, sys.argv[1])
from robostream import _jvm
_jvm.jvm()

class Thread:
    def stop_at_exit(self):
        print("threads stopped", flush=True)

class Batch:
    pass

thread, batch = Thread(), Batch()
_jvm.stop_at_exit(thread)
weakref.finalize(batch, print, "batch freed", flush=True)
"""


def test_batches_are_freed_after_the_bridges_threads_stopped():
    run = subprocess.run(
        [sys.executable, "-c", _FINALIZERS_AFTER_THE_STOP, str(PACKAGE)],
        capture_output=True, text=True, timeout=120,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.split("\n")[:2] == ["threads stopped", "batch freed"], run.stdout + run.stderr


def _in_a_forked_child(check) -> int:
    """``check()``'s exit code in a child forked from this process (which runs the JVM); the
    child ends with os._exit, as DataLoader's forked workers do."""
    pid = os.fork()
    if pid == 0:
        try:
            os._exit(check())
        finally:
            os._exit(99)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


def test_a_forked_child_drops_jpypes_collection_callback():
    # JPype asks the JVM to collect after Python's collections; in a child that call waits
    # forever for the JVM's VM thread (a DataLoader worker hung in JVM_GC).
    _jvm.jvm()
    assert any(getattr(c, "__module__", None) == "_jpype" for c in gc.callbacks)
    code = _in_a_forked_child(
        lambda: 1 if any(getattr(c, "__module__", None) == "_jpype" for c in gc.callbacks) else 0
    )
    assert code == 0, "the child still has JPype's gc callback"


def test_a_forked_childs_exit_hook_calls_nothing_of_the_jvm():
    _jvm.jvm()

    class Loader:
        closed = False

        def close(self):
            Loader.closed = True

    loader = Loader()
    _jvm.close_at_exit(loader)

    def child_exit_hook():
        _jvm._stop_all()
        return 1 if Loader.closed else 0

    assert _in_a_forked_child(child_exit_hook) == 0, "the child's exit hook closed a loader"
    _jvm._closed_at_exit.discard(loader)


_STREAMING_UNTIL_KILLED = """
import sys, time
sys.path.insert(0, sys.argv[1])
from robostream.torch import StreamingLeRobotDataset
ds = StreamingLeRobotDataset("local/small", root=sys.argv[2], loader_batch_size=4)
it = iter(ds)
next(it)
print("streaming", flush=True)
while True:
    next(it, None)
    time.sleep(0.01)
"""


def test_sigterm_ends_a_streaming_process_as_it_ends_any_process(small_dataset, tmp_path):
    # torchrun and SLURM end ranks with SIGTERM. The JVM must not take the signal: it would run
    # its shutdown and exit the process from a Java thread while Python runs (a segfault seen
    # in a rank torchrun ended).
    process = subprocess.Popen(
        [sys.executable, "-c", _STREAMING_UNTIL_KILLED, str(PACKAGE), str(small_dataset)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
    )
    try:
        assert "streaming" in process.stdout.readline()
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == -signal.SIGTERM, (process.returncode, err)
    assert "fatal error" not in err and not list(tmp_path.glob("hs_err*")), err
