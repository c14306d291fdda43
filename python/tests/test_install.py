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


def test_installed_package_runs_the_readme_snippet_and_trains(small_dataset, tmp_path):
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

    snippet = readme_snippet("train")
    line = re.search(r'^DATASET = ".*?"', snippet, re.M)
    assert line, "the snippet names its dataset in one DATASET = line"
    script = tmp_path / "snippet.py"
    script.write_text(snippet.replace(line.group(0), f"DATASET = {str(small_dataset)!r}"))
    run = subprocess.run(
        [str(venv / "bin" / "python"), str(script)],
        capture_output=True, text=True, cwd=tmp_path, timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    losses = [float(l.split()[1]) for l in run.stdout.strip().splitlines()]
    # The small dataset has 5 episodes of ~24 frames: 3 full batches and a partial one.
    assert len(losses) >= 3 and all(loss == loss for loss in losses), run.stdout
