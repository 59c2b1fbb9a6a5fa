"""The first hour at the command line: --version, shell completion, and help that reads well
(an example in every command's help, and metavars in words, never Python types)."""

from __future__ import annotations

import re
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def test_version_prints_the_installed_distributions_version(chouette):
    assert chouette("--version").stdout == f"chouette {version('chouette')}\n"


def test_version_opens_no_ledger_and_imports_no_database_code(tmp_path):
    """``--version`` is as quick as ``--help``: no database layer, even with a --db that
    does not exist (nothing is created there either)."""
    missing = tmp_path / "nowhere" / "ledger.db"
    probe = (
        "import sys, cli\n"
        "try:\n"
        f"    cli.app(['--db', {str(missing)!r}, '--version'])\n"
        "except SystemExit as done:\n"
        "    assert done.code in (0, None), done.code\n"
        "loaded = [m for m in ('db', 'sqlalchemy', 'sqlmodel') if m in sys.modules]\n"
        "assert not loaded, loaded\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"chouette {version('chouette')}\n"
    assert not missing.parent.exists()


# ---------------------------------------------------------------- help in words


def commands() -> dict[str, Any]:
    """Every command of the app, by name, as Click sees it."""
    from typer.main import get_command

    from cli import app

    group = get_command(app)
    return {"": group, **group.commands}  # type: ignore[attr-defined]


def test_help_shows_no_python_types(chouette):
    for name in commands():
        text = chouette(*([name] if name else []), "--help").stdout
        assert not re.search(r"<[^>]*>|\{[A-Z]|\b(list|tuple|dict|set)\[", text), (name, text)


def test_every_argument_and_option_has_a_metavar_in_words(chouette):
    for name, command in commands().items():
        text = chouette(*([name] if name else []), "--help").stdout
        usage = text.splitlines()[0]
        for param in command.params:
            if param.param_type_name == "argument":
                assert param.metavar and re.fullmatch(r"[A-Z_|=-]+|box\|team", param.metavar)
                assert param.metavar in usage, (name, param.metavar, usage)
                assert re.search(rf"^  {re.escape(param.metavar)}", text, re.M), (name, text)
            elif not param.is_flag and not param.hidden:
                assert param.metavar, (name, param.opts)
                shown = f"{param.opts[0]} {param.metavar}"
                assert shown in text, (name, shown, text)
