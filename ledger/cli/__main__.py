"""``python -m ledger.cli``: the ``rummy-ledger`` command."""

from ledger.cli import main

main()
