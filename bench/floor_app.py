"""The floor for a one-shot command: a bare Typer app that answers at once.

python bench/floor_app.py --db FILE status --json    (prints a fixed line; reads nothing)
python bench/floor_app.py --help

Shaped like chouette's ``status --json``: a global ``--db`` option and a ``--json`` flag,
so Typer parses, coerces and dispatches as much as it does for chouette.
"""

from __future__ import annotations

import json
from typing import Annotated

import typer

app = typer.Typer(add_completion=False)


@app.callback()
def main(db: Annotated[str | None, typer.Option("--db", help="The ledger file.")] = None) -> None:
    """A bare Typer app."""


@app.command()
def status(as_json: Annotated[bool, typer.Option("--json", help="JSON.")] = False) -> None:
    """Print the status (a fixed line)."""
    typer.echo(json.dumps({"session": "bench", "game": None}))


@app.command()
def other() -> None:
    """A second command, so that Typer lists commands as it does for chouette."""


if __name__ == "__main__":
    app()
