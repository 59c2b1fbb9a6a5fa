"""A command that waits behind another writer says so, and gives up after the lock timeout.

Two connections: the test holds the write lock (on PostgreSQL the session's row, ``SELECT …
FOR UPDATE``, as a writing command takes it; on SQLite a write transaction, ``BEGIN
IMMEDIATE``) and runs the real console script beside it. The script says on standard error
that it waits (after a moment), goes on when the lock is released, and gives up after
``CHOUETTE_LOCK_TIMEOUT`` seconds with a message, having written nothing.
"""

from __future__ import annotations

import gc
import json
import sqlite3
import subprocess
import threading
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime

import pytest
from sqlalchemy import Engine, create_engine, text

from db import locks, open_ledger
from db.engine import connect, dispose_all
from tests import procs
from tests.dump import dump

pytestmark = [pytest.mark.slow, pytest.mark.backends("sqlite", "postgres")]

WAITS = (
    "Note: waiting for another command that is writing to the ledger (giving up after {} s; "
    "CHOUETTE_LOCK_TIMEOUT sets how long)"
)


@contextmanager
def holding(url: str) -> Iterator[None]:
    """The write lock of session friday, held by another connection until the block ends."""
    if url.startswith("sqlite"):
        conn = sqlite3.connect(url.split("///", 1)[1], isolation_level=None)
        try:
            conn.execute("BEGIN IMMEDIATE")
            yield
            conn.execute("COMMIT")
        finally:
            conn.close()
        return
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            conn.execute(text("SELECT id FROM session WHERE name = 'friday' FOR UPDATE")).all()
            yield
    finally:
        engine.dispose()


def start(url: str, *args: str, timeout: str | None = None) -> subprocess.Popen[str]:
    env = procs.environment(url)
    env.pop("CHOUETTE_LOCK_TIMEOUT", None)
    if timeout is not None:
        env["CHOUETTE_LOCK_TIMEOUT"] = timeout
    return subprocess.Popen(
        [procs.script(), *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def test_a_command_behind_another_writer_says_it_waits_and_goes_on(chouette, ledger_url):
    chouette("new", "friday", "ann", "bob", "cat")
    chouette("double", "bob")
    with holding(ledger_url):
        waiting = start(ledger_url, "take", "bob")
        said = waiting.stderr.readline()  # blocks until the command says something
        assert said.rstrip("\n") == WAITS.format(30)
        assert waiting.poll() is None  # still waiting, while the lock is held
    out, err = waiting.communicate(timeout=120)
    assert waiting.returncode == 0, err
    assert err == "" and out.startswith("Game 1: bob takes.")
    cubes = json.loads(procs.ok(ledger_url, "status", "--json"))["game"]["cubes"]
    assert cubes["bob"]["value"] == 2 and cubes["bob"]["pending"] is None


def test_a_command_gives_up_after_the_lock_timeout_and_writes_nothing(chouette, ledger_url):
    chouette("new", "friday", "ann", "bob", "cat")
    chouette("double", "bob")
    before = dump(ledger_url)
    with holding(ledger_url):
        waiting = start(ledger_url, "take", "bob", timeout="2")
        out, err = waiting.communicate(timeout=120)
    assert waiting.returncode == 1 and out == ""
    lines = err.splitlines()
    assert lines[0] == WAITS.format(2)
    assert lines[1].startswith(
        "Error: the ledger is busy: another command held it longer than 2 s "
        "(CHOUETTE_LOCK_TIMEOUT sets how long to wait); nothing was written, try again ("
    )
    assert len(lines) == 2 and "Traceback" not in err
    assert dump(ledger_url) == before


def test_a_report_beside_a_writer_neither_waits_nor_says_so(chouette, ledger_url):
    chouette("new", "friday", "ann", "bob", "cat")
    with holding(ledger_url):
        done = subprocess.run(
            [procs.script(), "standings"],
            capture_output=True,
            text=True,
            env=procs.environment(ledger_url),
            timeout=60,
        )
    assert done.returncode == 0 and done.stderr == ""


@pytest.mark.parametrize("value", ["0", "abc", "1.5", "3601", "9" * 500])
def test_a_lock_timeout_that_is_no_whole_number_of_seconds_is_refused(chouette, monkeypatch, value):
    chouette("new", "friday", "ann", "bob", "cat")
    monkeypatch.setenv("CHOUETTE_LOCK_TIMEOUT", value)
    shown = value if len(value) <= 100 else f"{'9' * 75}…(500 characters)…{'9' * 25}"
    for command in (["pay", "ann", "bob", "1", "--advance"], ["standings"]):
        result = chouette(*command, code=1)
        assert result.stderr == (
            f"Error: CHOUETTE_LOCK_TIMEOUT is {shown!r}: give the seconds a command waits for "
            "another's lock, a whole number from 1 to 3,600 (default 30)\n"
        )


@pytest.mark.backends("postgres")
def test_a_writers_look_at_the_server_is_over_when_its_transaction_is(
    chouette, ledger_url, monkeypatch
):
    """The watch over a writer asks the server, on another pooled connection, whether the
    writer waits for a lock. A look still under way when the transaction ended gave its
    connection back after the engine was disposed, to the pool thrown away, where only the
    garbage collector found it, open, during some later test (twice in CI). The transaction
    now ends after the look: every connection is back in the pool, and none is left open."""
    chouette("new", "friday", "ann", "bob", "cat")
    dispose_all()
    monkeypatch.setattr(locks, "_say", lambda said: None)  # a command that says its waits
    monkeypatch.setattr(locks, "NOTE_AFTER", 0.01)  # a look at once, not after a second
    looks: list[str] = []
    looking = Engine.raw_connection

    def slow_look(engine: Engine) -> object:
        raw = looking(engine)
        if threading.current_thread().name == "chouette-lock-wait":
            looks.append("looked")  # (not the connection: that would keep it alive)
            time.sleep(0.5)  # a look under load, still at the server when the writer ends
        return raw

    monkeypatch.setattr(Engine, "raw_connection", slow_look)
    with open_ledger(ledger_url, write=True, now=datetime.now(UTC)) as book:
        book.session("friday", lock=True)
        for _ in range(500):
            if looks:
                break
            time.sleep(0.01)
        engine = connect(ledger_url)
    assert looks, "the watch never looked"
    assert engine.pool.checkedout() == 0  # the look's connection too
    dispose_all()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for thread in threading.enumerate():  # (a look that outlived the writer ends now)
            if thread.name == "chouette-lock-wait":
                thread.join()
        gc.collect()
    assert [str(w.message) for w in caught if issubclass(w.category, ResourceWarning)] == []
