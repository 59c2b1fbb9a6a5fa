"""The floor for `--help`: a bare Typer app with two commands and nothing else imported."""

from __future__ import annotations

import typer

app = typer.Typer(add_completion=False)


@app.command()
def status() -> None:
    """Print the status."""


@app.command()
def other() -> None:
    """A second command, so that Typer lists commands as it does for chouette."""


if __name__ == "__main__":
    app()
