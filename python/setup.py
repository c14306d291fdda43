"""Builds the robostream Python package. Besides the Python code, the wheel carries the loader's
jars when the checkout it is built from has them (``java/target``, after ``mvn install``), so an
installed package needs nothing from the checkout afterwards. Nothing of the build machine is
written into the wheel (no checkout path): a wheel built without jars finds them at run time
through ROBOSTREAM_HOME or ROBOSTREAM_CLASSPATH.

Environment: ROBOSTREAM_BUNDLE_JARS=0 builds without the jars (a small wheel).
"""

import os
import shutil
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
CHECKOUT = HERE.parent
sys.path.insert(0, str(HERE))
from robostream._jvm import _from_folder  # noqa: E402  (one rule for finding jars)


class BuildWithJars(build_py):
    def run(self):
        super().run()
        package = Path(self.build_lib) / "robostream"
        # An earlier build's leftovers in the reused build folder: its jars (perhaps other
        # versions) and the checkout path older versions of this file wrote.
        (package / "_build_info.py").unlink(missing_ok=True)
        shutil.rmtree(package / "jars", ignore_errors=True)
        if os.environ.get("ROBOSTREAM_BUNDLE_JARS", "1") == "0":
            return
        target = CHECKOUT / "java" / "target"
        found = _from_folder(target, target / "python-classpath")
        if not found:
            print(
                "robostream: java/target has no built jars; the package will need ROBOSTREAM_HOME"
                " (a built checkout) at run time (build it with `mvn -q install -DskipTests`)"
            )
            return
        jars = package / "jars"
        (jars / "lib").mkdir(parents=True, exist_ok=True)
        shutil.copy2(found[0], jars)  # the newest core jar, then its dependencies
        for lib in found[1:]:
            shutil.copy2(lib, jars / "lib")


setup(cmdclass={"build_py": BuildWithJars})
