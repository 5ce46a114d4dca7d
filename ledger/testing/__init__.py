"""Record builders for the tests, the fixture generators and the benchmarks.

One place for writing records by hand (:mod:`ledger.testing.records`: events,
stacked deals, the audit's findings as tuples) and for generating long ones
(:mod:`ledger.testing.games`). It lives inside the installed package, not in
``tests/``, so that ``tests/``, ``tools/`` and ``bench/`` all import it the
same way, as ``ledger.testing``, without ``sys.path`` edits: the scripts in
``tools/`` and ``bench/`` run as ``python bench/NAME.py``, where only
installed packages import. Pure like the domain it builds for: dicts, events
and bytes in memory, no I/O; nothing in the service imports it.
"""
