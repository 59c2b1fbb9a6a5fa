"""The real ``chouette`` console script in OS processes, for the concurrency and crash tests.

These processes read the real clock (``CHOUETTE_NOW`` is taken out of their environment):
the guard against two terminals ending one game compares real times.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text


def script() -> str:
    """The installed ``chouette`` console script of this virtualenv."""
    beside = Path(sys.executable).with_name("chouette")
    found = str(beside) if beside.exists() else shutil.which("chouette")
    if found is None:
        pytest.fail("the `chouette` console script is not installed: pip install -e '.[test]'")
    return found


def environment(url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "CHOUETTE_NOW"}
    env["CHOUETTE_DB"] = url
    return env


def run(url: str, *args: str, input: str | None = None) -> subprocess.CompletedProcess[str]:
    """``chouette ARGS`` in its own process, to the end."""
    return subprocess.run(
        [script(), *args],
        input=input,
        capture_output=True,
        text=True,
        env=environment(url),
        timeout=180,
    )


def ok(url: str, *args: str, input: str | None = None) -> str:
    """``chouette ARGS``, which must succeed: its standard output."""
    done = run(url, *args, input=input)
    assert done.returncode == 0, (args, done.returncode, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    return done.stdout


def start(url: str, *args: str, stdin: int | None = subprocess.DEVNULL) -> subprocess.Popen[str]:
    """``chouette ARGS`` started in the background."""
    return subprocess.Popen(
        [script(), *args],
        stdin=stdin,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment(url),
    )


def wait_for(condition: Callable[[], bool], what: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting until {what}")
        time.sleep(0.01)


def has_open(pid: int, path: Path) -> bool:
    """Whether process ``pid`` has the file ``path`` open (Linux's /proc)."""
    folder = Path(f"/proc/{pid}/fd")
    try:
        links = [os.readlink(folder / fd) for fd in os.listdir(folder)]
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        return False
    return str(path) in links


def connected(url: str, procs: Sequence[subprocess.Popen[str]]) -> bool:
    """Whether every one of ``procs`` has reached the ledger (opened the file, or a session
    of the server)."""
    if url.startswith("sqlite"):
        path = Path(url.split("///", 1)[1])
        return all(has_open(p.pid, path) for p in procs)
    return backends(url) >= len(procs)


def backends(url: str, waiting: bool = False) -> int:
    """How many other server sessions are connected to the ledger (``waiting``: for a lock)."""
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            query = (
                "SELECT count(*) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
            if waiting:
                query += " AND wait_event_type = 'Lock'"
            return int(conn.execute(text(query)).scalar_one())
    finally:
        engine.dispose()


@contextmanager
def mounted(target: Path, *args: str) -> Iterator[None]:
    """``mount ARGS TARGET`` for the length of a test, taken away after. Mounting needs root
    (CI and the development machine run the tests as root, where a mount that fails fails
    the test); for another user the test is skipped, and pytest's summary says so."""
    done = subprocess.run(["mount", *args, str(target)], capture_output=True, text=True)
    if done.returncode != 0:
        if os.geteuid() == 0:
            pytest.fail(f"root cannot mount {target}: {done.stderr.strip()}")
        pytest.skip(f"this user cannot mount a filesystem: {done.stderr.strip()}")
    try:
        yield
    finally:
        subprocess.run(["umount", "-l", str(target)], check=False, capture_output=True)
