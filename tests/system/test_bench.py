"""The benchmark runs as the README says, from wherever it is started."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.paths import ROOT


@pytest.mark.slow
def test_the_benchmark_runs_from_another_folder(tmp_path):
    # the commands it times are `python -c "import cli; ..."`, which only the clone's own
    # folder can import (installed, cli.py lives inside the package)
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "run.py"), "--quick", "--only", "oneshot"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "one-shot `status --json` (500 games)" in done.stdout
    assert "`chouette --help` vs a bare Typer app's --help" in done.stdout
