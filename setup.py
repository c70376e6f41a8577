"""Build hook: the wheel carries the committed vectors/ (and their schemas) as ``dpspec/vectors``.

Everything else is declared in pyproject.toml. In a checkout (editable install) the code reads
``vectors/`` directly; see ``dpspec.conformance.store.default_vectors_dir``.
"""

import os

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildPyWithVectors(build_py):
    def run(self) -> None:
        super().run()
        if not getattr(self, "editable_mode", False):
            self.copy_tree("vectors", os.path.join(self.build_lib, "dpspec", "vectors"))


setup(cmdclass={"build_py": BuildPyWithVectors})
