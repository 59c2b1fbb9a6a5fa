"""Many writers at once: real ``chouette`` processes on one SQLite file or PostgreSQL database.

Each writer is an OS process running the installed console script, as at a club: several
tables recording their evenings into one ledger, and two terminals at the same table.
Nothing is lost, nothing is booked twice, every game sums to zero. The processes read the
real clock: the guard against a second ``end`` compares real times.
"""

from __future__ import annotations

import json
import shlex
import sqlite3
import subprocess
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from chouette.game import Answer, Double, End, Event, Game, apply, start
from chouette.line import Line, new_line
from chouette.outcome import settle_game
from chouette.record import to_record
from chouette.rules import HouseRules
from db import open_ledger
from db.commands import play
from db.engine import dispose_all
from tests import procs
from tests.invariants import check_ledger, players

pytestmark = [pytest.mark.slow, pytest.mark.backends("sqlite", "postgres")]

WRITERS = 4
GAMES = 10
STAKE = 250  # cents a point


# ---------------------------------------------------------------- several tables at once


@dataclass
class Table:
    """One writer's evening: its session, and the line as the rules say it must be now."""

    session: str
    line: Line
    rules: HouseRules

    def game(self, number: int) -> tuple[list[Event], End | None, Game]:
        """Game ``number``: cube action between the box, the captain and a crew member, how
        the board ends (None: every pair was over before), and the game as the rules play
        it. The line moves on to the next game's."""
        captain, crew = self.line.captain, self.line.crew
        assert captain is not None
        events: list[Event] = []
        end: End | None = End("box" if number % 8 == 0 else "team", "single", False)
        if number % 4:
            events = [Double("box", (captain, *crew[:1])), Answer("take", captain)]
            events += [Answer("drop", crew[0])] if crew else []
            end = End("team" if number % 2 else "box", "gammon", False)
            if number % 3 == 0:
                events += [Double("member", (captain,)), Answer("drop", captain)]
                end = End("box", "gammon", False) if crew[1:] else None
        game = start(self.line, self.rules)
        for event in [*events, *([end] if end else [])]:
            game = apply(game, event)
        self.line = settle_game(game, dict.fromkeys(players(game), STAKE)).next_line
        return events, end, game


def live_commands(events: list[Event], end: End | None, number: int) -> list[str]:
    """The live commands for a game (``--game N`` on every other one)."""
    out = []
    for i, event in enumerate([*events, *([end] if end else [])]):
        if isinstance(event, Double):
            words = ["double", *event.members, "--by", event.by]
        elif isinstance(event, Answer):
            words = [event.act, event.member]
        else:
            assert isinstance(event, End)
            words = ["end", event.winner, *(["--gammon"] if event.kind == "gammon" else [])]
        out.append(shlex.join(words + (["--game", str(number)] if i % 2 else [])))
    return out


#: What a command says on standard error while another one writes (a busy machine).
WAITING = "Note: waiting for another command that is writing to the ledger"


def evening(url: str, writer: int, folder: Path) -> dict[int, dict[str, int]]:
    """One writer: ``new`` on its own; GAMES games at a ``chouette table`` prompt (live
    commands, and ``record`` of a file of one game); GAMES more games in one ``chouette
    record`` of JSON Lines. The points each game must book, by the rules."""
    seats = ("ann", "bob", "cat", "dan", "eve")[: 3 + writer % 3]
    names = [f"{seat} {writer}" for seat in seats]
    session = f"table {writer}"
    procs.ok(url, "new", session, *names, "--stake", f"{STAKE / 100:.2f}")
    table = Table(session, new_line(names, HouseRules()), HouseRules())
    expected: dict[int, dict[str, int]] = {}
    script = []
    for number in range(1, GAMES + 1):
        events, end, game = table.game(number)
        expected[number] = settle_game(game, dict.fromkeys(players(game), STAKE)).points
        if number % 2:
            path = folder / f"{writer}-{number}.json"
            path.write_text(json.dumps(to_record(game, session)), encoding="utf-8")
            script.append(shlex.join(["record", str(path)]))
        else:  # --session on each line: see test_a_table_prompt_stays_with_its_session
            script += [
                f"--session {shlex.quote(session)} {c}" for c in live_commands(events, end, number)
            ]
    done = procs.run(url, "--session", session, "table", input="\n".join(script) + "\n")
    # a writer may wait for the others (and say so, on a busy machine); nothing else is said
    said = [line for line in done.stderr.splitlines() if not line.startswith(WAITING)]
    assert (done.returncode, said) == (0, []), (writer, done.stderr)
    assert done.stdout.count("Next line:") == GAMES // 2, done.stdout
    lines = []
    for number in range(GAMES + 1, 2 * GAMES + 1):
        _, _, game = table.game(number)
        expected[number] = settle_game(game, dict.fromkeys(players(game), STAKE)).points
        lines.append(json.dumps(to_record(game, session)))
    booked = json.loads(procs.ok(url, "record", "-", "--json", input="\n".join(lines)))
    assert [b["game"] for b in booked] == list(range(GAMES + 1, 2 * GAMES + 1))
    assert booked[-1]["next_line"] == list(table.line.order)
    return expected


def test_several_tables_record_their_evenings_at_once(ledger_url, tmp_path):
    """WRITERS sessions started at the same moment on an empty ledger; then each books GAMES
    games at a table prompt and GAMES in one record, all at once, in separate processes."""
    with ThreadPoolExecutor(WRITERS) as pool:
        results = list(pool.map(lambda w: evening(ledger_url, w, tmp_path), range(WRITERS)))
    facts = check_ledger(ledger_url)
    for writer, expected in enumerate(results):
        session = f"table {writer}"
        assert facts.finished[session] == list(range(1, 2 * GAMES + 1))
        assert facts.live[session] is None
        sheet = json.loads(procs.ok(ledger_url, "--session", session, "sheet", "--json"))
        assert {g["game"]: g["points"] for g in sheet["games"]} == expected
        assert all(sum(g["cents"].values()) == 0 for g in sheet["games"])
    standings = json.loads(procs.ok(ledger_url, "standings", "--all", "--json"))
    assert sum(p["cents"] for p in standings["players"]) == 0
    assert len(standings["players"]) == sum(3 + w % 3 for w in range(WRITERS))


# ---------------------------------------------------------------- two terminals, one table


def test_terminals_at_one_table_interleave_live_events_and_nothing_is_lost(ledger_url):
    """Three terminals at one table each work one member's cube, at the same time."""
    procs.ok(ledger_url, "new", "friday", "ann", "bob", "cat", "dan")

    def terminal(member: str) -> list[subprocess.CompletedProcess[str]]:
        steps = [
            ["double", member, "--by", "member"],
            ["take", member, "--game", "1"],
            ["double", member],
            ["take", member, "--game", "1"],
        ]
        return [procs.run(ledger_url, *words) for words in steps]

    with ThreadPoolExecutor(3) as pool:
        done = [d for ds in pool.map(terminal, ["bob", "cat", "dan"]) for d in ds]
    assert [(d.returncode, d.stderr) for d in done] == [(0, "")] * 12
    status = json.loads(procs.ok(ledger_url, "status", "--json"))
    assert {m: (c["value"], c["owner"]) for m, c in status["game"]["cubes"].items()} == {
        "bob": (4, "bob"),
        "cat": (4, "cat"),
        "dan": (4, "dan"),
    }
    shape = json.loads(procs.ok(ledger_url, "end", "box", "--json"))
    assert shape["points"] == {"ann": 12, "bob": -4, "cat": -4, "dan": -4}
    facts = check_ledger(ledger_url)
    assert facts.finished["friday"] == [1] and facts.events[("friday", 1)] == 13


@contextmanager
def table_held(url: str, session: str) -> Iterator[None]:
    """Hold the session's write lock, as a slow command would, until the block ends."""
    if url.startswith("sqlite"):
        raw = sqlite3.connect(url.split("///", 1)[1], isolation_level=None)
        raw.execute("BEGIN IMMEDIATE")
        try:
            yield
        finally:
            raw.execute("ROLLBACK")
            raw.close()
        return
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            conn.execute(
                text("SELECT id FROM session WHERE name = :name FOR UPDATE"), {"name": session}
            )
            yield
    finally:
        engine.dispose()


def blocked(url: str, waiting: list[subprocess.Popen[str]]) -> bool:
    """Both commands have started and reached the ledger (on PostgreSQL: wait for the lock)."""
    if url.startswith("sqlite"):
        return procs.connected(url, waiting)
    return procs.backends(url, waiting=True) >= len(waiting)


def game_in_progress(url: str) -> None:
    """The next game of friday in progress: the box doubled the captain, who took."""
    with open_ledger(url, write=True, now=datetime.now(UTC)) as book:
        info = book.session("friday", lock=True)
        captain = info.line.captain
        assert captain is not None
        play(book, info, [Double("box", (captain,)), Answer("take", captain)], None)
    dispose_all()


STALE = "was ended by another command after this one was given: nothing written"
OVER = "is over, and game"


@pytest.mark.parametrize(
    ("guard", "refusals"),
    [([], (STALE,)), (["--game", "{n}"], (STALE, OVER))],
    ids=["guarded-by-time", "guarded-by-game-number"],
)
def test_two_ends_of_one_game_book_it_once(ledger_url, guard, refusals):
    """Two terminals end the same game at the same moment (their commands both wait while
    another command holds the table): exactly one books it, the other is refused."""
    procs.ok(ledger_url, "new", "friday", "ann", "bob", "cat")
    for number in (1, 2):
        game_in_progress(ledger_url)
        words = [w.format(n=number) for w in guard]
        with table_held(ledger_url, "friday"):
            both = [
                procs.start(ledger_url, "end", "box", "--json", *words),
                procs.start(ledger_url, "end", "team", "--gammon", "--json", *words),
            ]
            procs.wait_for(lambda: blocked(ledger_url, both), "both ends wait")  # noqa: B023
        outputs = [(*p.communicate(timeout=120), p.returncode) for p in both]
        outputs = [(code, out, err) for out, err, code in outputs]
        assert sorted(code for code, _, _ in outputs) == [0, 1], outputs
        (won,) = [json.loads(out) for code, out, _ in outputs if code == 0]
        (err,) = [err for code, _, err in outputs if code == 1]
        assert won["game"] == number
        # a busy machine may make the loser wait for the lock first, and say so on a line above
        refused = err.splitlines()[-1]
        assert refused.startswith(f"Error: game {number} "), err
        assert any(r in refused for r in refusals), err
        assert "Traceback" not in err
        facts = check_ledger(ledger_url)
        assert facts.finished["friday"] == list(range(1, number + 1))
        assert facts.live["friday"] is None  # the refused end started no new game
        assert facts.events[("friday", number)] == 3  # double, take, one end


def test_the_first_two_sessions_started_at_once_both_begin(ledger_url):
    """Two terminals start the ledger's first two sessions at the same moment: the second
    waits for the first, and both are there (neither is told another command interfered)."""
    rules = HouseRules()
    with open_ledger(ledger_url, write=True, now=datetime.now(UTC)) as book:
        book.create_session("friday", new_line(["ann", "bob", "cat"], rules), 100, rules)
        second = procs.start(ledger_url, "new", "saturday", "dan", "eve", "fay")
        procs.wait_for(lambda: blocked(ledger_url, [second]), "the second `new` waits")
    dispose_all()
    out, err = second.communicate(timeout=120)
    code = second.returncode
    assert (code, err) == (0, ""), err
    assert out.startswith("Session saturday: ")
    sessions = json.loads(procs.ok(ledger_url, "sessions", "--json"))["sessions"]
    assert [(s["name"], s["current"]) for s in sessions] == [("friday", False), ("saturday", True)]


def test_a_table_prompt_stays_with_its_session_while_another_terminal_starts_one(ledger_url):
    procs.ok(ledger_url, "new", "friday", "ann", "bob", "cat")
    table = procs.start(ledger_url, "--session", "friday", "table", stdin=subprocess.PIPE)
    assert table.stdin is not None and table.stdout is not None
    table.stdin.write("double bob\n")
    table.stdin.flush()
    seen = ""
    while "doubles bob" not in seen:
        line = table.stdout.readline()
        assert line, seen
        seen += line
    procs.ok(ledger_url, "new", "saturday", "dan", "eve", "fay")  # the next table starts
    _, err = table.communicate("take bob\nend box\nquit\n", timeout=120)
    assert err == "", err
    facts = check_ledger(ledger_url)
    assert facts.finished == {"friday": [1], "saturday": []}
