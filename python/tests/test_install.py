"""The README's install command and its Python snippet, as a new user runs them: the package
installed from the checkout with no package index (pip --no-index --no-build-isolation, Debian's
setuptools) into a venv that sees Debian's packages, then the snippet run from another folder,
where only the installed package (with its bundled jars) can be imported."""

import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def readme_snippet(name: str) -> str:
    text = (REPO / "README.md").read_text()
    match = re.search(
        r"<!-- python snippet: " + re.escape(name) + r"\b[^>]*-->\n```python\n(.*?)```", text, re.S
    )
    assert match, f"README.md has no python snippet {name!r}"
    return match.group(1)


def test_installed_package_runs_the_readme_snippets(small_dataset, tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    pip = subprocess.run(
        [str(venv / "bin" / "pip"), "install", "--no-index", "--no-build-isolation", "-q",
         str(REPO / "python")],
        capture_output=True, text=True, timeout=300,
    )
    assert pip.returncode == 0, pip.stdout + pip.stderr
    installed = subprocess.run(
        [str(venv / "bin" / "python"), "-c",
         "import robostream, os; print(robostream.__file__); print(robostream.class_path()[0])"],
        capture_output=True, text=True, cwd=tmp_path, check=True,
    ).stdout.split("\n")
    assert str(venv) in installed[0], "the snippet must run the installed package"
    assert str(venv) in installed[1], "the installed package carries its jars"
    package = Path(installed[0]).parent
    assert (package / "py.typed").is_file(), "PEP 561: the package says it is typed"
    for file in package.rglob("*.py"):
        assert str(REPO) not in file.read_text(), f"{file} names the checkout it was built from"

    for name in ("train", "lerobot"):
        run = run_snippet(venv, name, small_dataset, tmp_path)
        assert run.returncode == 0, run.stdout + run.stderr
        if name == "train":
            losses = [float(l.split()[1]) for l in run.stdout.strip().splitlines()]
            # The small dataset has 5 episodes of ~24 frames: 3 full batches and a partial one.
            assert len(losses) >= 3 and all(loss == loss for loss in losses), run.stdout
        else:
            lines = run.stdout.strip().splitlines()
            assert [l.split()[0] for l in lines[:3]] == ["0", "1", "2"], run.stdout
            assert "(8, 20, 6)" in lines[0]
            assert "'hits'" in lines[-1] and "'hits': 0," not in lines[-1], run.stdout


def run_snippet(venv, name, dataset, tmp_path):
    """README snippet ``name`` run by the installed package, its DATASET line pointed at
    ``dataset`` (the demo's dataset takes minutes to generate; the line itself is checked to
    name the folder the demo makes)."""
    snippet = readme_snippet(name)
    line = re.search(r'^( *)DATASET = "(.*?)"', snippet, re.M)
    assert line, "the snippet names its dataset in one DATASET = line"
    assert line.group(2) == "~/.cache/robostream/samples/" + demo_dataset_name()
    script = tmp_path / f"snippet_{name}.py"
    script.write_text(
        snippet.replace(line.group(0), f"{line.group(1)}DATASET = {str(dataset)!r}")
    )
    return subprocess.run(
        [str(venv / "bin" / "python"), str(script)],
        capture_output=True, text=True, cwd=tmp_path, timeout=300,
    )


def demo_dataset_name() -> str:
    """The folder scripts/demo.sh generates: DefaultDataset's name for the bench's default of
    50 episodes of 200 frames."""
    source = (REPO / "cli/src/main/java/org/robostream/bench/DefaultDataset.java").read_text()
    pattern = re.search(r'"(camera-[^"]*-e)" \+ episodes \+ "(-f)" \+ framesPerEpisode', source)
    assert pattern, "DefaultDataset names its folder as it did"
    return f"{pattern.group(1)}50{pattern.group(2)}200"
