"""The candidate supervisor: the process that starts, limits, watches and reaps candidate
processes (``server.py``, run by path with the standard library only, inside the sandbox when
contained) and what it shares with its client (``_sv_procs.py``). The server imports its sibling
modules by their plain names (its folder is its ``sys.path[0]``), so they carry names no
candidate's module would.
"""
