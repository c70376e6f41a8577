"""dpspec: the normative algorithms.

Every module mirrors a section of a source document and cites it. ``spec`` never imports
``conformance``. Randomness is always an argument (see :mod:`spec.tape`).
"""

__version__ = "0.1.0"
