"""Crashes: a ``chouette`` process killed with SIGKILL at a random moment leaves all or nothing.

Each command is one transaction. Killed before its commit, it leaves nothing; after, all of
it. Whatever the moment, the ledger still opens, every game's bookings sum to zero, and
replaying the stored events books exactly what the ledger holds (``tests/invariants.py``).

Each test runs rounds (``ROUNDS``): the first lets the command finish, to time it; the
second kills it the moment it reaches the ledger; the others at delays drawn from a seeded
random generator, up to a little longer than the command took, half of them counted from
the start of the process and half from the moment it reached the ledger (which aims them at
the transaction, where a crash would do harm). The totals are printed (``pytest -s``).
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import time
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlmodel import SQLModel

from chouette.game import Answer, Double, End, Event, apply, start
from chouette.line import Line, new_line
from chouette.outcome import settle_game
from chouette.record import to_record
from chouette.rules import HouseRules
from db import open_ledger
from db.commands import play
from db.engine import dispose_all
from db.migrations import LATEST
from tests import procs
from tests.dump import dump
from tests.invariants import check_ledger, players

pytestmark = [pytest.mark.slow, pytest.mark.backends("sqlite", "postgres")]

SEED = 20261120
PLAYERS = ["ann", "bob", "cat", "dan"]
RECORDS = 300  # games in one `chouette record` file
IMPORTED = 2000  # games in one engine file
ROUNDS = {"record": 6, "end": 8, "import": 5, "new": 4}  # per backend; round 0 is not killed


@dataclass
class Kill:
    """One process killed at a random moment, and what it left behind."""

    delay: float
    from_connect: bool
    killed: bool = False  # False: the command had finished before the kill
    left: str = ""  # "all" or "nothing"
    took: float = 0.0  # seconds from its start to its end
    connected_for: float = 0.0  # seconds from reaching the ledger to its end


NEVER = 600.0  # seconds: a delay that lets the command finish


def kill_at(url: str, args: list[str], delay: float, from_connect: bool) -> Kill:
    """Start ``chouette ARGS``; SIGKILL it ``delay`` seconds after it started (or after it
    reached the ledger), unless it finished first, in which case it must have succeeded."""
    kill = Kill(delay, from_connect)
    began = time.monotonic()
    proc = procs.start(url, *args)
    connected = began
    if from_connect or delay == NEVER:
        while proc.poll() is None and not procs.connected(url, [proc]):
            assert time.monotonic() < began + 60, "the command never reached the ledger"
            time.sleep(0.002)
        connected = time.monotonic()
    try:
        proc.wait(timeout=max(0.0, delay - (time.monotonic() - connected)))
    except subprocess.TimeoutExpired:
        proc.kill()  # (a process that ended just now is not killed: it exits 0)
    out, err = proc.communicate(timeout=120)
    ended = time.monotonic()
    kill.took, kill.connected_for = ended - began, ended - connected
    kill.killed = proc.returncode == -signal.SIGKILL
    assert kill.killed or proc.returncode == 0, (args, proc.returncode, out, err)
    dispose_all()
    return kill


def moment(rng: random.Random, round_: int, timed: Kill | None) -> tuple[float, bool]:
    """Round 0 runs the command to its end, to time it (``timed``); round 1 kills it as soon
    as it reaches the ledger; later rounds kill it at a random delay up to a little longer
    than it took, every other one counted from the moment it reached the ledger (which aims
    it at the transaction)."""
    if timed is None:
        return NEVER, False
    if round_ == 1:
        return 0.0, True
    if round_ % 2:
        return rng.uniform(0, 1.2 * timed.connected_for), True
    return rng.uniform(0, 1.2 * timed.took), False


def tally(kills: list[Kill], what: str) -> None:
    """Print how many kills, and what they left; check that the rounds did what they say
    (the first ran to its end and booked all, at least one was killed)."""
    left = Counter(k.left for k in kills)
    inside = sum(k.killed and k.from_connect for k in kills)
    print(
        f"\n{what}: {sum(k.killed for k in kills)} kills ({inside} after it reached the "
        f"ledger) and {sum(not k.killed for k in kills)} runs to the end; left all "
        f"{left['all']}, nothing {left['nothing']}"
    )
    assert not kills[0].killed and kills[0].left == "all", kills[0]
    assert sum(k.killed for k in kills) >= 1, kills


def opens(url: str) -> None:
    """The CLI opens the ledger, and the standings sum to zero."""
    standings = json.loads(procs.ok(url, "standings", "--all", "--json"))
    assert sum(p["cents"] for p in standings["players"]) == 0
    assert sum(p["points"] for p in standings["players"]) == 0


def new_session(url: str, rules: HouseRules | None = None) -> None:
    rules = rules or HouseRules()
    with open_ledger(url, write=True, now=datetime.now(UTC)) as book:
        book.create_session("friday", new_line(PLAYERS, rules), 250, rules)
    dispose_all()


def current_line(url: str) -> tuple[Line, HouseRules]:
    with open_ledger(url, write=False, now=datetime.now(UTC)) as book:
        info = book.session("friday")
    dispose_all()
    return info.line, info.rules


# ---------------------------------------------------------------- record


def records(line: Line, rules: HouseRules, count: int, seed: int) -> tuple[str, Line]:
    """``count`` games played from ``line`` as chouette records (JSON Lines), varied by
    ``seed``; and the line after them."""
    rng = random.Random(seed)
    lines = []
    for _ in range(count):
        captain, crew = line.captain, line.crew
        assert captain is not None
        events: list[Event] = [Double("box", (captain, *crew)), Answer("take", captain)]
        events += [Answer(rng.choice(["take", "drop"]), m) for m in crew]
        game = start(line, rules)
        for event in events:
            game = apply(game, event)
        end = End(rng.choice(["box", "team"]), rng.choice(["single", "gammon"]), False)
        game = apply(game, end)
        lines.append(json.dumps(to_record(game, "friday")))
        line = settle_game(game, dict.fromkeys(players(game), 250)).next_line
    return "\n".join(lines) + "\n", line


def test_a_record_killed_at_any_moment_books_every_game_or_none(ledger_url, tmp_path, backend):
    rng = random.Random(f"{SEED}-record-{backend}")
    new_session(ledger_url)
    kills: list[Kill] = []
    for round_ in range(ROUNDS["record"]):
        delay, from_connect = moment(rng, round_, kills[0] if kills else None)
        line, rules = current_line(ledger_url)
        text, after = records(line, rules, RECORDS, rng.randrange(1 << 30))
        path = tmp_path / f"evening-{round_}.jsonl"
        path.write_text(text, encoding="utf-8")
        before = check_ledger(ledger_url, replay_games=False).games("friday")
        kill = kill_at(ledger_url, ["record", str(path)], delay, from_connect)
        facts = check_ledger(ledger_url, replay_games=False)
        assert facts.games("friday") in (before, before + RECORDS), (kill, before, facts)
        kill.left = "all" if facts.games("friday") == before + RECORDS else "nothing"
        assert kill.killed or kill.left == "all"
        assert current_line(ledger_url)[0] == (after if kill.left == "all" else line)
        kills.append(kill)
    check_ledger(ledger_url)  # replaying every game books what the ledger holds
    opens(ledger_url)
    tally(kills, f"record [{backend}]")


# ---------------------------------------------------------------- end


def test_an_end_killed_at_any_moment_books_the_game_or_leaves_it_in_progress(ledger_url, backend):
    rng = random.Random(f"{SEED}-end-{backend}")
    new_session(ledger_url)
    kills: list[Kill] = []
    for round_ in range(ROUNDS["end"]):
        delay, from_connect = moment(rng, round_, kills[0] if kills else None)
        before = check_ledger(ledger_url, replay_games=False)
        if before.live["friday"] is None:  # a game in progress: the box doubled, taken
            with open_ledger(ledger_url, write=True, now=datetime.now(UTC)) as book:
                info = book.session("friday", lock=True)
                captain = info.line.team[0]
                play(book, info, [Double("box", (captain,)), Answer("take", captain)], None)
            dispose_all()
            before = check_ledger(ledger_url, replay_games=False)
        number = before.live["friday"]
        assert number is not None
        args = ["end", "box", "--gammon", "--game", str(number)]
        kill = kill_at(ledger_url, args, delay, from_connect)
        facts = check_ledger(ledger_url)
        if facts.live["friday"] == number:
            kill.left = "nothing"
            assert facts.events[("friday", number)] == before.events[("friday", number)]
        else:
            kill.left = "all"
            assert facts.live["friday"] is None and facts.finished["friday"][-1] == number
            assert facts.events[("friday", number)] == before.events[("friday", number)] + 1
        assert kill.killed or kill.left == "all"
        kills.append(kill)
    opens(ledger_url)
    tally(kills, f"end [{backend}]")


# ---------------------------------------------------------------- import


def engine_file(path: Path, count: int, series: str) -> None:
    """An engine-neutral JSON Lines file of ``count`` money games between ann and bob."""
    rng = random.Random(series)
    lines = []
    for game in range(1, count + 1):
        cube = rng.choice([1, 2, 4])
        result = rng.choice(["single", "gammon", "backgammon"])
        winner, loser = rng.sample(["ann", "bob"], 2)
        points = cube * {"single": 1, "gammon": 2, "backgammon": 3}[result]
        lines.append(
            json.dumps(
                {
                    "session": series,
                    "game": game,
                    "winner": winner,
                    "loser": loser,
                    "cube": cube,
                    "result": result,
                    "end": "bearoff",
                    "points": points,
                }
            )
        )
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_an_import_killed_at_any_moment_books_the_whole_file_or_none(ledger_url, tmp_path, backend):
    rng = random.Random(f"{SEED}-import-{backend}")
    new_session(ledger_url)
    kills: list[Kill] = []
    for round_ in range(ROUNDS["import"]):
        delay, from_connect = moment(rng, round_, kills[0] if kills else None)
        path = tmp_path / f"engine-{round_}.jsonl"
        engine_file(path, IMPORTED, f"money-{round_}")
        before = check_ledger(ledger_url, replay_games=False).games("friday")
        files = count(ledger_url, "source_file")
        kill = kill_at(ledger_url, ["import", str(path)], delay, from_connect)
        facts = check_ledger(ledger_url, replay_games=False)
        assert facts.games("friday") in (before, before + IMPORTED), (kill, before, facts)
        kill.left = "all" if facts.games("friday") == before + IMPORTED else "nothing"
        assert count(ledger_url, "source_file") == files + (kill.left == "all")
        assert kill.killed or kill.left == "all"
        kills.append(kill)
    opens(ledger_url)
    tally(kills, f"import [{backend}]")


def count(url: str, table: str) -> int:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return int(conn.execute(text(f"SELECT count(*) FROM {table}")).scalar_one())
    finally:
        engine.dispose()


# ---------------------------------------------------------------- the first command


def test_the_first_command_killed_while_it_creates_the_ledger_leaves_no_half_schema(
    request, tmp_path, backend
):
    """Killed while it creates the schema of an empty ledger, ``new`` leaves either no
    tables or all of them, stamped; the next command works either way."""
    rng = random.Random(f"{SEED}-new-{backend}")
    kills: list[Kill] = []
    for round_ in range(ROUNDS["new"]):
        delay, from_connect = moment(rng, round_, kills[0] if kills else None)
        if backend == "sqlite":
            url = f"sqlite:///{tmp_path / f'first-{round_}.db'}"
        else:
            url = request.getfixturevalue("postgres_server").create_database()
        kill = kill_at(url, ["new", "friday", *PLAYERS], delay, from_connect)
        tables = dump(url)
        kill.left = "all" if tables.get("session") else "nothing"
        if tables:  # the schema, whole and stamped (perhaps without the session yet)
            assert set(tables) == set(SQLModel.metadata.tables), sorted(tables)
            assert tables["schema_version"] == [(LATEST,)]
        procs.ok(url, "new", "saturday", *PLAYERS)  # the next command works either way
        assert [row[1] for row in dump(url)["session"]][-1] == "saturday"
        kills.append(kill)
    tally(kills, f"first command [{backend}]")


# ---------------------------------------------------------------- a full disk


@pytest.mark.backends("sqlite")
def test_a_command_on_a_full_disk_writes_nothing_and_says_so_plainly(tmp_path):
    """A real full disk (a 1 MiB tmpfs, filled): a command that writes, and a report, say
    the disk is full and that nothing was written, exit 1, and leave the ledger as it was;
    with room made, the next command works. SQLite says only "disk I/O error" when its
    shared-memory file cannot grow, "database or disk is full" when the ledger cannot."""
    disk = tmp_path / "disk"
    disk.mkdir()
    with procs.mounted(disk, "-t", "tmpfs", "-o", "size=1m", "tmpfs"):
        url = f"sqlite:///{disk / 'club.db'}"
        procs.ok(url, "new", "friday", *PLAYERS)
        procs.ok(url, "double", "bob")
        before = dump(url)
        for room in (48 << 10, 0):  # the log cannot grow; the shared memory cannot either
            Path(disk / "club.db-shm").unlink(missing_ok=True)
            filler = disk / f"filler-{room}"
            found = os.statvfs(disk)
            filler.write_bytes(b"x" * max(found.f_bavail * found.f_frsize - room, 0))
            paid = ["pay", "bob", "ann", "1.00", "--advance", "--note", "x" * 3000]
            for args in (["take", "bob"], paid):
                done = procs.run(url, *args)
                assert done.returncode == 1, (args, done.stderr)
                assert done.stderr.startswith(
                    f"Error: the disk holding the ledger at {disk / 'club.db'} is full: "
                    "nothing was written; make room on it and try again ("
                ), done.stderr
            filler.unlink()
            assert dump(url) == before  # (read with room made: the test's reads need some)
        assert procs.ok(url, "take", "bob").endswith("  bob: cube 2, bob owns it\n")
