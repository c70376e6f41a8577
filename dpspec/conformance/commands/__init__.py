"""One module per ``dpspec`` subcommand; each defines ``register(subparsers)``.

:data:`COMMANDS` lists them with their one-line help, so that ``dpspec --help`` and
``dpspec --version`` import no command module and ``dpspec NAME ...`` imports only ``NAME``'s
(the CLI starts fast; ``tests/benchmarks/bench_cli.py``). ``tests/test_cli.py`` checks the table
against the modules.
"""

COMMANDS: dict[str, str] = {
    "account": "privacy accounting of a mechanism run",
    "budget": "on-device privacy budget accountant (MJTB+22 4.3)",
    "calibrate": "calibrate noise for a target (epsilon, delta)",
    "conformance": "run the conformance harness against implementations",
    "experiment": "reproduce the experiments of a source paper",
    "policy": "run a DP policy over Prio3, list the policies",
    "sa2": "SA2: write a recipe, simulate a collection",
    "sample": "draw samples from an exact sampler with a given seed",
    "spec": "render the specification document (kramdown-rfc)",
    "tables": "recompute the seeds' privacy tables",
    "vectors": "generate and check the test vectors",
}
