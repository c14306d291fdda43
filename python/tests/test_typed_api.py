"""The package's public API is typed (it ships ``py.typed``): every public function and method of
``robostream`` and ``robostream.torch`` annotates each parameter and its return, so a type checker
sees what LeRobot's code passes and gets."""

import inspect

import robostream
import robostream.torch as robostream_torch

_DUNDERS = ("__init__", "__iter__", "__len__", "__getitem__")


def _unannotated(name, function):
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return []
    missing = [
        f"{name}({p.name})"
        for p in signature.parameters.values()
        if p.name not in ("self", "cls")
        and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
        and p.annotation is inspect.Parameter.empty
    ]
    if signature.return_annotation is inspect.Signature.empty and not name.endswith("__init__"):
        missing.append(f"{name} -> ?")
    return missing


def _members(cls):
    for name, member in vars(cls).items():
        if name.startswith("_") and name not in _DUNDERS:
            continue
        if isinstance(member, property):
            yield name, member.fget
        elif isinstance(member, (staticmethod, classmethod)):
            yield name, member.__func__
        elif inspect.isfunction(member):
            yield name, member


def test_every_public_function_and_method_is_annotated():
    missing = []
    checked = 0
    for module in (robostream, robostream_torch):
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.isfunction(obj):
                missing += _unannotated(f"{module.__name__}.{name}", obj)
                checked += 1
            elif inspect.isclass(obj) and not issubclass(obj, BaseException):
                for member, function in _members(obj):
                    missing += _unannotated(f"{obj.__name__}.{member}", function)
                    checked += 1
    assert checked >= 35, f"only {checked} public callables found: the walk lost them"
    assert not missing, "not annotated: " + ", ".join(missing)


def test_the_package_ships_py_typed():
    from pathlib import Path

    assert (Path(robostream.__file__).parent / "py.typed").is_file()
