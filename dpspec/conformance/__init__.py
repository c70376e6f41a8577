"""dpspec conformance: vector format and I/O, generators, the harness, adapters and the CLI.

``conformance`` imports ``spec``; never the other way round.
"""

from dpspec.spec import __version__

GENERATOR_VERSION = __version__
