"""``python -m ledger.cli``: the ``rummy-ledger`` command (:mod:`ledger.console`, as the console script)."""

from ledger.console import main

main()
