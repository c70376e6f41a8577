"""Adapters: programs that speak the dpspec adapter protocol (JSON lines on stdin/stdout).

``protocol.serve`` is the loop a Python adapter needs; ``reference`` serves this project's own
implementation of every op that a vector family defines.
"""
