"""The first hour at the command line: --version, shell completion, and help that reads well
(an example in every command's help, and metavars in words, never Python types)."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

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
