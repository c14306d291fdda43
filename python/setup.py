"""Builds the robostream Python package. Besides the Python code, the wheel carries the loader's
jars when the checkout it is built from has them (``java/target``, after ``mvn install``), so an
installed package needs nothing from the checkout afterwards; and it records where the checkout
is, the fallback when the jars were not built at install time.

Environment: ROBOSTREAM_BUNDLE_JARS=0 builds without the jars (a small wheel that uses the
checkout's build, or ROBOSTREAM_HOME, at run time).
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
        (package / "_build_info.py").write_text(
            "# Written by setup.py: the checkout this package was built from.\n"
            f"CHECKOUT = {str(CHECKOUT)!r}\n"
        )
        if os.environ.get("ROBOSTREAM_BUNDLE_JARS", "1") == "0":
            return
        target = CHECKOUT / "java" / "target"
        found = _from_folder(target, target / "python-classpath")
        if not found:
            print(
                "robostream: java/target has no built jars; the package will use the checkout's"
                " build at run time (build it with `mvn -q install -DskipTests`)"
            )
            return
        jars = package / "jars"
        (jars / "lib").mkdir(parents=True, exist_ok=True)
        shutil.copy2(found[0], jars)  # the newest core jar, then its dependencies
        for lib in found[1:]:
            shutil.copy2(lib, jars / "lib")


setup(cmdclass={"build_py": BuildWithJars})
