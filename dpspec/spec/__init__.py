"""dpspec: the normative algorithms.

Every module mirrors a section of a source document and cites it. ``spec`` never imports
``conformance``. Randomness is always an argument (see :mod:`dpspec.spec.tape`).
"""

from dpspec import __version__

__all__ = ["__version__"]
