"""The bridge's own threads end before the JVM stops at interpreter exit: a Python thread still
attached to a stopped JVM crashed one CI run's exit (a segfault in JPype's ``_JTerminate`` after
every test had passed)."""

from robostream import _jvm, _waits


def test_the_call_thread_is_stopped_and_detached_before_the_jvm():
    calls = _waits.InterruptibleCalls()
    jpype = _jvm.jvm()
    integer = jpype.JClass("java.lang.Integer")
    assert calls.call(lambda: int(integer.valueOf(7))) == 7  # ran on the call thread
    assert calls in set(_jvm._at_exit), "stopped by the exit hook that runs before JPype's"
    calls.stop_at_exit()
    assert not calls._thread.is_alive()
