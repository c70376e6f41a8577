"""One module per ``dpspec`` subcommand; each defines ``register(subparsers)``."""
