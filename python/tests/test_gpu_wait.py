"""How a GPU batch's frames are waited for before torch reads them: the consumer's stream waits on
the batch's event through robostream's core (``FrameBatch.makeStreamWait``), not through a CUDA
runtime loaded by hand. No GPU here, so torch's current stream is a stand-in (the one test double:
its ``cuda_stream`` is a number, as torch's is); the core's own wait is tested natively and, on a
GPU, by ``scripts/gpu-check.sh``."""

import torch

from robostream._views import wait_for_frames


class _Batch:
    """The two calls wait_for_frames makes of a Java FrameBatch, recorded."""

    def __init__(self, event, device):
        self._event = event
        self._device = device
        self.waited = []

    def syncEvent(self):  # noqa: N802 (the Java name)
        return self._event

    def deviceId(self):  # noqa: N802
        return self._device

    def makeStreamWait(self, stream):  # noqa: N802
        self.waited.append(stream)


class _Stream:
    def __init__(self, device):
        self.cuda_stream = 0x5000 + device.index


def test_the_batch_devices_current_stream_waits_on_its_event(monkeypatch):
    asked = []

    def current_stream(device):
        asked.append(device)
        return _Stream(device)

    monkeypatch.setattr(torch.cuda, "current_stream", current_stream)
    batch = _Batch(event=0xABC0, device=1)
    wait_for_frames(batch)
    assert asked == [torch.device("cuda", 1)], "the batch's device, not the thread's current one"
    assert batch.waited == [0x5001]


def test_a_host_batch_waits_for_nothing(monkeypatch):
    def current_stream(device):
        raise AssertionError("no stream is asked for a host batch")

    monkeypatch.setattr(torch.cuda, "current_stream", current_stream)
    batch = _Batch(event=0, device=0)
    wait_for_frames(batch)
    assert batch.waited == []

