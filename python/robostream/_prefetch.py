"""A pass's items made one loader batch ahead, in a thread of their own.

Per-sample iteration turns each loader batch into items that own their values (copies). Done
when the consumer asks, that work (and the wait for the loader's next batch) would add to every
step's data wait; done here, while the training step runs (torch releases the GIL in its
kernels), the consumer finds the next batch's items ready. One batch ahead at most: the
memory is two batches' items.

The main thread waits on a queue with a timeout, so Ctrl-C reaches it; stopping (``close``)
makes the loader's iterator throw and ends the thread. Not thread-safe: one consumer.
"""

from __future__ import annotations

import queue
import threading
from dataclasses import dataclass
from typing import Callable, List, Optional, Tuple


@dataclass
class BatchItems:
    """One loader batch's items: ``items`` as (row, item), its ``size`` in rows (padding
    included), and the loader's state before and after it (resume positions)."""

    items: List[Tuple[int, dict]]
    size: int
    before: str
    after: str


class ItemReader:
    """Reads a loader's batches in a thread and makes their items with ``make_items(batch,
    skip)`` (which must release the batch); ``next_batch()`` returns the next ``BatchItems`` or
    None at the end of the pass. A failure in the thread is raised by ``next_batch()``."""

    _END = object()

    def __init__(self, iterator, loader, make_items: Callable, first_skip: int, first_state: str):
        self._iterator = iterator
        self._loader = loader
        self._make_items = make_items
        self._skip = first_skip
        self._state = first_state
        self._queue: "queue.Queue" = queue.Queue(maxsize=1)
        self._stopped = threading.Event()
        self._java_thread = None
        self._thread = threading.Thread(target=self._run, name="robostream-items", daemon=True)
        self._thread.start()
        from . import _jvm

        _jvm.stop_at_exit(self)

    def _run(self):
        from . import _jvm

        jpype = _jvm.jvm()
        self._java_thread = jpype.JClass("java.lang.Thread").currentThread()
        try:
            after = self._state
            skip = self._skip
            while not self._stopped.is_set() and self._iterator.hasNext():
                before = after
                batch = self._iterator.next()
                after = str(self._loader.state())  # the batch handed out: a batch boundary
                items, size = self._make_items(batch, skip)
                skip = 0
                self._put(BatchItems(items, size, before, after))
            self._put((self._END, after))
        except BaseException as e:  # handed to the consumer
            self._put(e)
        finally:
            _detach(jpype)

    def _put(self, value):
        while not self._stopped.is_set():
            try:
                self._queue.put(value, timeout=0.1)
                return
            except queue.Full:
                continue

    def next_batch(self) -> Optional[BatchItems]:
        """The next batch's items; None when the pass ended (``end_state`` then holds the
        loader's state after its last batch)."""
        while True:
            try:
                value = self._queue.get(timeout=0.1)  # woken so that Ctrl-C is seen
                break
            except queue.Empty:
                if not self._thread.is_alive() and self._queue.empty():
                    raise RuntimeError("the item reader ended without a word")
        if isinstance(value, BaseException):
            raise value
        if isinstance(value, tuple) and value[0] is self._END:
            self.end_state = value[1]
            return None
        return value

    def close(self, stop_loader: Callable[[], None]):
        """Stops the thread: ``stop_loader`` ends the loader's iterator (its ``next()`` throws),
        the Java wait in progress is interrupted, and what was made ahead is dropped."""
        self._stopped.set()
        try:
            stop_loader()
        finally:
            if self._java_thread is not None:
                try:
                    self._java_thread.interrupt()
                except Exception:
                    pass
            while True:
                try:
                    self._queue.get_nowait()
                except queue.Empty:
                    break
            self._thread.join(timeout=10)


    def stop_at_exit(self):
        """At interpreter exit, before the JVM and the batches go: the thread must not be
        copying out of a batch then (a reader nobody closed: a pass left unfinished)."""
        if self._thread.is_alive():
            self.close(self._loader.stopIterating)


def _detach(jpype):
    """Detaches the calling thread from the JVM (it ends; JPype attached it on its first call)."""
    try:
        jpype.JClass("java.lang.Thread").detach()
    except Exception:
        pass
