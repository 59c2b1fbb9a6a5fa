"""The floor for the benchmark: a bare Typer app that imports sqlmodel and runs one query.

python bench/floor_app.py status --db FILE     (one query on the same ledger file)
python bench/floor_app.py --help
"""

from __future__ import annotations

import json
from typing import Annotated

import typer
from sqlmodel import Session, create_engine, text

app = typer.Typer(add_completion=False)


@app.command()
def status(db: Annotated[str, typer.Option(help="The ledger file.")]) -> None:
    """Print the current session's line as JSON (one query)."""
    engine = create_engine(f"sqlite:///{db}")
    with Session(engine) as session:
        name, line = session.exec(text("SELECT name, line FROM session LIMIT 1")).one()  # type: ignore[call-overload]
    typer.echo(json.dumps({"session": name, "line": json.loads(line)}))


@app.command()
def other() -> None:
    """A second command, so that Typer lists commands as it does for chouette."""


if __name__ == "__main__":
    app()
