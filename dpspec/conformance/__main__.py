import sys

from dpspec.conformance.cli import main

sys.exit(main())
