"""``rummy-ledger serve``: the replay viewer, the write API and the live
stream (:mod:`replay_web`) on the store, with Werkzeug's threaded server.
"""

from __future__ import annotations

import os

import click

from ledger.cli.context import CliState
from ledger.params import ASCII_INT
from ledger.store.settings import DB_ENV_VAR


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=5000, show_default=True, type=ASCII_INT)
@click.pass_obj
def serve_cmd(state: CliState, host: str, port: int) -> None:
    """Serve the replay viewer, the write API and the live stream (replay_web) on the store.

    Werkzeug's threaded server, for one machine; in production use gunicorn
    with threads (each open stream holds one):
    gunicorn -k gthread -w 2 --threads 64 'replay_web:create_app()'."""
    from replay_web import create_app

    if state.db:
        os.environ[DB_ENV_VAR] = state.db  # for anything else that opens the store
    click.echo(f"serving {state.store} on http://{host}:{port}/ (Ctrl-C stops)", err=True)
    create_app({"LEDGER_DB": state.db} if state.db else None).run(host=host, port=port, threaded=True)


def register(cli_group: click.Group) -> None:
    """Add ``serve`` to the ``rummy-ledger`` group."""
    cli_group.add_command(serve_cmd)
