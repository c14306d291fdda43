"""Java calls that may block for long, made so that Ctrl-C still reaches the caller.

Python delivers a signal to the main thread between bytecodes; a main thread blocked inside a
Java call (a loader's ``next()`` waiting for its workers, a dataset opening over the network)
would not see Ctrl-C until the call returned. So the main thread hands such calls to a helper
thread and waits on an event, which a signal interrupts: on ``KeyboardInterrupt`` it interrupts
the helper's Java thread (a Java wait then ends with ``InterruptedException``) and lets the
caller stop the loader. Calls from other threads run directly (signals never reach them).
"""

from __future__ import annotations

import os
import queue
import threading


class InterruptibleCalls:
    """A daemon thread that runs Java calls for the main thread, one at a time.

    ``call(fn, *args)`` returns ``fn(*args)`` or raises what it raised; ``close()`` ends the
    thread. Not thread-safe: one caller (the thread iterating a dataset).
    """

    def __init__(self):
        self._requests: "queue.Queue" = queue.Queue()
        self._java_thread = None
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="robostream-call", daemon=True)
        self._thread.start()
        from . import _jvm

        _jvm.stop_at_exit(self)

    def _run(self):
        from . import _jvm

        jpype = _jvm.jvm()
        java_thread = jpype.JClass("java.lang.Thread")
        self._java_thread = java_thread.currentThread()
        self._ready.set()
        try:
            while True:
                request = self._requests.get()
                if request is None:
                    return
                fn, args, reply, abandoned = request
                java_thread.interrupted()  # an interrupt meant for an earlier call is not this one's
                try:
                    value = fn(*args)
                    if abandoned.is_set() and hasattr(value, "close"):
                        value.close()  # opened after its caller gave up (Ctrl-C): nobody owns it
                    else:
                        reply.put((True, value))
                except BaseException as e:  # handed to the caller as it is
                    reply.put((False, e))
                finally:
                    java_thread.interrupted()  # an interrupt is for one call only
        finally:
            _detach(jpype)

    def call(self, fn, *args):
        if threading.current_thread() is not threading.main_thread():
            return fn(*args)
        reply: "queue.Queue" = queue.Queue(maxsize=1)
        abandoned = threading.Event()
        self._requests.put((fn, args, reply, abandoned))
        try:
            while True:
                try:
                    # Woken at least every 0.1 s: a signal another thread (a JVM thread) took
                    # does not interrupt this wait, but runs its handler when it wakes.
                    ok, value = reply.get(timeout=0.1)
                    break
                except queue.Empty:
                    continue
        except KeyboardInterrupt:
            abandoned.set()
            self.interrupt()
            raise
        if ok:
            return value
        raise value

    def interrupt(self):
        """Interrupts the Java call in progress, if any (its wait ends at once)."""
        self._ready.wait(5)
        if self._java_thread is not None:
            try:
                self._java_thread.interrupt()
            except Exception:
                pass

    def close(self):
        self._requests.put(None)

    def stop_at_exit(self):
        """Ends the thread, and so detaches it from the JVM, before JPype stops the JVM: a
        thread still attached to a stopped JVM crashed an interpreter's exit once (a segfault in
        JPype's ``_JTerminate`` after every test had passed)."""
        self.close()
        self._thread.join(timeout=2)


_lock = threading.Lock()
_shared = None  # (pid, InterruptibleCalls)


def call(fn, *args):
    """``fn(*args)``; from the main thread through this process's ``InterruptibleCalls``."""
    global _shared
    if threading.current_thread() is not threading.main_thread():
        return fn(*args)
    with _lock:
        if _shared is None or _shared[0] != os.getpid():  # a forked child starts its own
            _shared = (os.getpid(), InterruptibleCalls())
        calls = _shared[1]
    return calls.call(fn, *args)


def _detach(jpype):
    """Detaches the calling thread from the JVM (it ends; JPype attached it on its first call)."""
    try:
        jpype.JClass("java.lang.Thread").detach()
    except Exception:
        pass
