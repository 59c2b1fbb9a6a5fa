"""The benchmark: chouette's speed measured side by side with its floors, in one run.

    python bench/run.py            # everything (a few minutes: it builds a 500,000-game ledger)
    python bench/run.py --quick    # smaller sizes, for a first look

Prints one line per figure with the goal it is measured against. Nothing here is a test:
the numbers depend on the machine; the ratios are what matter.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from chouette.errors import ChouetteError  # noqa: E402
from chouette.game import ANSWERS, Answer, AutoDouble, Deal, Double, End, Event, apply  # noqa: E402
from chouette.line import new_line  # noqa: E402
from chouette.rules import HouseRules  # noqa: E402
from chouette.settlement import settle  # noqa: E402

PYTHON = sys.executable
CHOUETTE = [PYTHON, "-c", "import cli; cli.run()"]
FLOOR = [PYTHON, str(ROOT / "bench" / "floor_app.py")]
FLOOR_HELP = [PYTHON, str(ROOT / "bench" / "floor_help.py")]
PLAYERS = ["ann", "bob", "cat", "dan", "eve"]
NOW = datetime(2026, 11, 20, 20, 0, tzinfo=UTC)


def wall(command: Sequence[str], runs: int, env: dict[str, str] | None = None) -> float:
    """Median wall time of a command, in seconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=env, cwd=ROOT)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def side_by_side(ours: Sequence[str], floor: Sequence[str], runs: int) -> tuple[float, float]:
    """Alternate the two commands so that both see the same machine."""
    a, b = [], []
    for _ in range(runs):
        a.append(wall(ours, 1))
        b.append(wall(floor, 1))
    return statistics.median(a), statistics.median(b)


def line(name: str, value: str, goal: str, ok: bool) -> None:
    print(f"{name:<58} {value:>28}   goal {goal:<16} {'met' if ok else 'NOT MET'}", flush=True)


# ---------------------------------------------------------------- a played-out evening


def random_game(line_, rules: HouseRules, rng: random.Random) -> list[Event]:
    """A legal random game: cube play first, then the board ends."""
    from chouette.game import start

    game = start(line_, rules)
    events: list[Event] = []
    for _ in range(rng.randint(0, 6)):
        members = list(game.members)
        candidates: list[Event] = [AutoDouble(), Double("box", tuple(rng.sample(members, 2)))]
        candidates += [Double("member", (m,)) for m in members]
        candidates += [Answer(a, m) for a in ANSWERS for m in members]
        candidates += [Deal(rng.choice(members), rng.randint(-2, 2))]
        rng.shuffle(candidates)
        for event in candidates:
            try:
                game = apply(game, event)
            except ChouetteError:
                continue
            events.append(event)
            break
        if game.over:
            return events
    for member in list(game.pending):
        if not game.cubes[member].live or game.cubes[member].offer is None:
            continue
        try:
            game = apply(game, Answer("take", member))
            events.append(Answer("take", member))
        except ChouetteError:
            game = apply(game, Answer("drop", member))
            events.append(Answer("drop", member))
    if not game.over:
        events.append(End(rng.choice(["box", "team"]), rng.choice(["single", "single", "gammon"])))
    return events


def build_evening(path: Path, games: int) -> None:
    from db import open_ledger
    from db.actions import play

    rules = HouseRules(auto_doubles=1)
    rng = random.Random(500)
    url = f"sqlite:///{path}"
    with open_ledger(url, write=True, now=NOW) as book:
        book.create_session("bench", new_line(PLAYERS, rules), 100, rules)
    for _ in range(games):
        with open_ledger(url, write=True, now=NOW) as book:
            info = book.session(None, lock=True)
            play(book, info, random_game(info.line, rules, rng), None)
    with open_ledger(url, write=True, now=NOW) as book:  # leave a game in progress
        info = book.session(None, lock=True)
        play(book, info, [Double("box", info.line.team[:2])], None)


# ---------------------------------------------------------------- the figures


def one_shot(folder: Path, evening: Path, runs: int) -> None:
    env_free = {**os.environ, "CHOUETTE_DB": str(evening)}
    ours = [*CHOUETTE, "--db", str(evening), "status", "--json"]
    floor = [*FLOOR, "status", "--db", str(evening)]
    subprocess.run(ours, check=True, stdout=subprocess.DEVNULL, env=env_free)
    a, b = side_by_side(ours, floor, runs)
    line(
        "one-shot `status --json` (500 games) vs bare Typer+sqlmodel",
        f"{a * 1000:.0f} ms vs {b * 1000:.0f} ms = {a / b:.2f}x",
        "<= 1.3x",
        a / b <= 1.3,
    )
    a, b = side_by_side([*CHOUETTE, "--help"], [*FLOOR_HELP, "--help"], runs)
    line(
        "`chouette --help` vs a bare Typer app's --help",
        f"{a * 1000:.0f} ms vs {b * 1000:.0f} ms = {a / b:.2f}x",
        "<= 1.2x",
        a / b <= 1.2,
    )


def table_mode(evening: Path, rounds: int) -> None:
    import cli

    copy = evening.with_name("table.db")
    copy.write_bytes(evening.read_bytes())
    opts = cli.Options(str(copy), None)
    prefix = ["--db", str(copy)]
    script = [
        ["status"],
        ["double", "bob", "--by", "member"],
        ["take", "bob"],
        ["status", "--json"],
        ["end", "team"],
        ["standings"],
        ["undo"],
        ["undo"],
        ["undo"],
    ]
    times: dict[str, list[float]] = {}
    sink = io.StringIO()
    for _ in range(rounds):
        for words in script:
            start = time.perf_counter()
            with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
                cli.dispatch([*prefix, *words], opts)
            times.setdefault(" ".join(words), []).append(time.perf_counter() - start)
    worst = max(statistics.median(v) for v in times.values())
    detail = ", ".join(
        f"{k.split()[0]} {statistics.median(v) * 1000:.1f}" for k, v in list(times.items())[:6]
    )
    line(
        "table mode, in-process per live command (500 games)",
        f"worst median {worst * 1000:.1f} ms",
        "< 20 ms",
        worst < 0.020,
    )
    print(f"    ({detail} ms)")


def neutral_file(path: Path, count: int, players: Sequence[str], seed: int) -> None:
    rng = random.Random(seed)
    with path.open("w", encoding="utf-8") as out:
        for i in range(1, count + 1):
            winner, loser = rng.sample(list(players), 2)
            cube = rng.choice([1, 1, 2, 2, 4, 8])
            result = rng.choice(["single", "single", "single", "gammon", "backgammon"])
            points = cube * {"single": 1, "gammon": 2, "backgammon": 3}[result]
            out.write(
                json.dumps(
                    {
                        "session": "bench",
                        "game": i,
                        "winner": winner,
                        "loser": loser,
                        "cube": cube,
                        "result": result,
                        "end": "bearoff",
                        "points": points,
                    }
                )
                + "\n"
            )


def run_import(db: Path, data: Path, players: Sequence[str]) -> tuple[float, float, int]:
    """`chouette import` of ``data`` into a new session: the command's wall time, the time
    of the import inside the process (after Python and the libraries have started), and the
    peak memory (kB)."""
    env = {**os.environ, "CHOUETTE_DB": str(db)}
    subprocess.run(
        [*CHOUETTE, "new", "bench", *players], check=True, env=env, stdout=subprocess.DEVNULL
    )
    code = (
        "import resource, sys, time, cli, db.imports\n"
        "start = time.perf_counter()\n"
        "try:\n    cli.run()\nexcept SystemExit: pass\n"
        "inside = time.perf_counter() - start\n"
        "peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "print(inside, peak, file=sys.stderr)\n"
    )
    start = time.perf_counter()
    done = subprocess.run(
        [PYTHON, "-c", code, "import", str(data)],
        check=True,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    seconds = time.perf_counter() - start
    inside, peak = done.stderr.strip().splitlines()[-1].split()
    return seconds, float(inside), int(peak)


def raw_bookings(rows: list[dict[str, Any]], at: str) -> Iterator[tuple[Any, ...]]:
    """The two bookings of each record (game id, player, points, cents at 1.00 a point, time)."""
    for i, r in enumerate(rows, 1):
        yield (i, r["winner"], r["points"], r["points"] * 100, at)
        yield (i, r["loser"], -r["points"], -r["points"] * 100, at)


def raw_executemany(db: Path, data: Path, with_games: bool, parse: bool = False) -> float:
    """The floor: a raw sqlite3 executemany of the same bookings (and games) into bare
    tables, one transaction. ``parse``: the timing includes reading and parsing the file
    (a raw importer)."""
    start = time.perf_counter()
    rows = [json.loads(text) for text in data.open(encoding="utf-8")]
    if not parse:
        start = time.perf_counter()
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute(
        "CREATE TABLE IF NOT EXISTS raw_game (id INTEGER PRIMARY KEY, session_id, "
        "number, kind, detail, source_sha256, source_index, at)"
    )
    conn.execute(
        "CREATE TABLE IF NOT EXISTS raw_booking (id INTEGER PRIMARY KEY, session_id, "
        "game_id, player, points, cents, at)"
    )
    at = NOW.isoformat()
    with conn:
        if with_games:
            conn.executemany(
                "INSERT INTO raw_game VALUES (?, 1, ?, 'engine', ?, 'x', ?, ?)",
                ((i, i, json.dumps(r), i, at) for i, r in enumerate(rows, 1)),
            )
        conn.executemany(
            "INSERT INTO raw_booking (session_id, game_id, player, points, cents, at) "
            "VALUES (1, ?, ?, ?, ?, ?)",
            raw_bookings(rows, at),
        )
    conn.close()
    return time.perf_counter() - start


def raw_into_ledger(db: Path, data: Path, players: Sequence[str]) -> float:
    """The floor of chouette's own schema: raw sqlite3 writing the rows an import writes
    (game rows as `import` fills them, two bookings each) into a fresh ledger's tables, with
    their keys, indexes and foreign keys, as `import` does: one transaction, WAL."""
    env = {**os.environ, "CHOUETTE_DB": str(db)}
    subprocess.run(
        [*CHOUETTE, "new", "bench", *players], check=True, env=env, stdout=subprocess.DEVNULL
    )
    rows = [json.loads(text) for text in data.open(encoding="utf-8")]
    sha = "0" * 64
    at = NOW.strftime("%Y-%m-%d %H:%M:%S.%f")
    start = time.perf_counter()
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute("BEGIN IMMEDIATE")
    conn.executemany(
        "INSERT INTO game (id, session_id, number, kind, over, line_before, detail, "
        "source_sha256, source_index, started_at, ended_at) "
        "VALUES (?, 1, ?, 'engine', 1, ?, ?, ?, ?, ?, ?)",
        (
            (
                i,
                i,
                json.dumps({"order": [r["winner"], r["loser"]]}),
                json.dumps({k: r[k] for k in ("winner", "loser", "points", "cube", "result")}),
                sha,
                i,
                at,
                at,
            )
            for i, r in enumerate(rows, 1)
        ),
    )
    conn.executemany(
        "INSERT INTO booking (session_id, game_id, payment_id, player, points, cents, at) "
        "VALUES (1, ?, NULL, ?, ?, ?, ?)",
        raw_bookings(rows, at),
    )
    conn.execute("COMMIT")
    conn.close()
    return time.perf_counter() - start


def imports(folder: Path, big: int, small: int) -> None:
    players = [f"p{i:02d}" for i in range(12)]
    data = {n: folder / f"neutral-{n}.jsonl" for n in (small, big)}
    for n, path in data.items():
        neutral_file(path, n, players, n)
    # peak memory first, while this process is small: a forked child's VmHWM counts the
    # pages it shared with a big parent
    *_, peak_small = run_import(folder / "import-small.db", data[small], players)
    *_, peak_big = run_import(folder / "import-big2.db", data[big], players)
    seconds, inside, _ = run_import(folder / "import-big.db", data[big], players)
    raw = raw_executemany(folder / "raw.db", data[big], with_games=False)
    raw_games = raw_executemany(folder / "raw-games.db", data[big], with_games=True)
    raw_importer = raw_executemany(folder / "raw-importer.db", data[big], True, parse=True)
    schema = raw_into_ledger(folder / "raw-ledger.db", data[big], players)
    line(
        f"import {big:,} neutral records vs raw sqlite3 executemany",
        f"{seconds:.2f} s vs {raw:.2f} s = {seconds / raw:.2f}x",
        "<= 3x",
        seconds / raw <= 3,
    )
    print(
        f"    (inside the process, once Python and its libraries have started: {inside:.2f} s "
        f"= {inside / raw:.2f}x)\n"
        f"    (floor with bare game rows too: {raw_games:.2f} s = {seconds / raw_games:.2f}x; "
        f"a raw importer that also reads and parses the file: {raw_importer:.2f} s = "
        f"{seconds / raw_importer:.2f}x)\n"
        f"    (raw sqlite3 writing the same rows into the ledger's own tables, keys and "
        f"indexes: {schema:.2f} s = {schema / raw:.2f}x the bare floor by itself)"
    )
    line(
        f"peak memory importing {small:,} vs {big:,} records",
        f"{peak_small / 1024:.0f} MB vs {peak_big / 1024:.0f} MB",
        "flat",
        peak_big <= peak_small * 1.25,
    )


def mat_file(path: Path, megabytes: int, seed: int) -> int:
    """A money session between Ann and Bob as a Jellyfish .mat file of about ``megabytes``
    MB: games of a dozen turns, some doubled and taken or dropped, each ending in a Wins line,
    with cumulative score headers (as gnubg writes them). Returns the number of games."""
    rng = random.Random(seed)
    score = [0, 0]
    games = 0
    with path.open("w", encoding="utf-8") as out:
        out.write('; [EventDate "2026.11.20"]\n\n 0 point match\n\n')
        while out.tell() < megabytes << 20:
            games += 1
            out.write(f" Game {games}\n Ann : {score[0]:<26}Bob : {score[1]}\n")
            turns = rng.randint(8, 16)
            cube, winner, dropped = 1, rng.randint(0, 1), False
            for turn in range(1, turns + 1):
                if turn == turns // 2 and rng.random() < 0.4:
                    out.write(f"{turn:3d})  Doubles => 2                Takes\n")
                    cube = 2
                    continue
                if turn == turns and rng.random() < 0.2:
                    out.write(f"{turn:3d})  Doubles => {cube * 2:<15} Drops\n")
                    winner, dropped = 0, True
                    break
                out.write(f"{turn:3d}) 31: 8/5 6/5                 52: 13/8 13/11\n")
            points = cube if dropped else cube * rng.choice([1, 1, 1, 2])
            if not dropped and points > cube:  # a gammon only on a turned cube (Jacoby)
                points = cube if cube == 1 else points
            side = " " * 33 if winner else "     "
            out.write(f"{side} Wins {points} point{'s' if points > 1 else ''}\n\n")
            score[winner] += points
    return games


def big_files(folder: Path, small: int, big: int) -> None:
    """The import's time and peak memory for a .mat file of ``small`` and ``big`` MB: time
    linear in the size, memory flat."""
    figures = []
    for size in (small, big):
        data = folder / f"session-{size}mb.mat"
        games = mat_file(data, size, size)
        seconds, inside, peak = run_import(folder / f"mat-{size}.db", data, ["Ann", "Bob"])
        figures.append((size, games, seconds, inside, peak))
        data.unlink()
    (s_mb, s_games, _, s_inside, s_peak), (b_mb, b_games, _, b_inside, b_peak) = figures
    per_small, per_big = s_inside / s_games * 1e6, b_inside / b_games * 1e6
    line(
        f"import of a {s_mb} MB vs a {b_mb} MB .mat file ({s_games:,} / {b_games:,} games)",
        f"{s_inside:.1f} s vs {b_inside:.1f} s",
        "linear",
        per_big <= per_small * 1.25,
    )
    print(f"    ({per_small:.0f} µs vs {per_big:.0f} µs a game, inside the process)")
    line(
        f"peak memory importing the {s_mb} MB vs the {b_mb} MB .mat file",
        f"{s_peak / 1024:.0f} MB vs {b_peak / 1024:.0f} MB",
        "flat",
        b_peak <= s_peak * 1.25,
    )


def reports(folder: Path, games: int) -> None:
    players = [f"p{i:02d}" for i in range(16)]
    data = folder / f"neutral-{games}.jsonl"
    neutral_file(data, games, players, 7)
    db = folder / "club.db"
    run_import(db, data, players)
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE raw AS SELECT player, points, cents FROM booking")
    conn.commit()
    start = time.perf_counter()
    for _ in range(3):
        conn.execute("SELECT player, SUM(points), SUM(cents) FROM raw GROUP BY player").fetchall()
    raw = (time.perf_counter() - start) / 3
    conn.close()
    for report in ("standings", "settle"):
        ours = wall([*CHOUETTE, "--db", str(db), report, "--all", "--json"], 3)
        line(
            f"`{report} --all` over {games:,} games vs one raw GROUP BY",
            f"{ours:.2f} s vs {raw:.2f} s = {ours / raw:.2f}x",
            "<= 3x and < 1 s",
            ours / raw <= 3 and ours < 1,
        )


def settlement() -> None:
    worst = 0.0
    for seed in range(5):
        rng = random.Random(seed)
        amounts = [rng.randint(-100_000, 100_000) for _ in range(15)]
        balances = {f"p{i}": a for i, a in enumerate([*amounts, -sum(amounts)])}
        start = time.perf_counter()
        settle(balances)
        worst = max(worst, time.perf_counter() - start)
    line(
        "exact settlement of 16 non-zero balances (worst of 5)",
        f"{worst * 1000:.0f} ms",
        "< 500 ms",
        worst < 0.5,
    )


# ---------------------------------------------------------------- chouette serve


class Board:
    """A scoreboard page's event stream, read in a thread: when each board arrived."""

    def __init__(self, host: str, port: int) -> None:
        import http.client
        import threading

        self.conn = http.client.HTTPConnection(host, port, timeout=600)
        self.conn.request("GET", "/events")
        self.response = self.conn.getresponse()
        self.boards: list[tuple[float, str]] = []
        self.changed = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        kind, data = "", []
        try:
            for raw in self.response:
                text = raw.decode("utf-8").rstrip("\n")
                if not text:
                    if kind == "board":
                        with self.changed:
                            self.boards.append((time.perf_counter(), "\n".join(data)))
                            self.changed.notify_all()
                    kind, data = "", []
                elif text.startswith("event: "):
                    kind = text[7:]
                elif text.startswith("data: "):
                    data.append(text[6:])
        except (OSError, ValueError, AttributeError):
            pass

    def next_after(self, count: int, timeout: float = 10) -> tuple[float, str]:
        """The first board after the first ``count`` ones."""
        with self.changed:
            if not self.changed.wait_for(lambda: len(self.boards) > count, timeout):
                raise RuntimeError("the scoreboard did not change")
            return self.boards[count]

    def close(self) -> None:
        import socket

        with contextlib.suppress(OSError):
            if self.conn.sock is not None:
                self.conn.sock.shutdown(socket.SHUT_RDWR)
        self.conn.close()


def serve(folder: Path, evening: Path, rounds: int, seconds: float) -> None:
    """`chouette serve` on the 500-game evening: how soon a scoreboard page shows an action
    made on the scorekeeper's page or in a terminal, and how many actions a second the page
    books while twenty scoreboards watch."""
    import http.client
    import signal
    import threading
    from urllib.parse import urlencode, urlsplit

    db = folder / "serve.db"
    db.write_bytes(evening.read_bytes())
    env = {**os.environ, "CHOUETTE_DB": str(db), "PYTHONUNBUFFERED": "1"}
    env.pop("CHOUETTE_NOW", None)
    server = subprocess.Popen(
        [*CHOUETTE, "serve", "--port", "0", "--pin", "2468"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
        cwd=ROOT,
    )
    assert server.stdout is not None
    url = next(x.split(": ", 1)[1].strip() for x in server.stdout if x.startswith("Scoreboard"))
    threading.Thread(target=server.stdout.read, daemon=True).start()  # the page's log lines
    host, port = urlsplit(url).hostname or "127.0.0.1", urlsplit(url).port or 80
    conn = http.client.HTTPConnection(host, port)
    conn.request(
        "POST",
        "/keeper",
        body="pin=2468",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    reply = conn.getresponse()
    reply.read()
    cookie = (reply.getheader("set-cookie") or "").split(";")[0]
    conn.close()
    local = threading.local()

    def post(**fields: str) -> bool:
        body = urlencode(fields)
        headers = {
            "Content-Type": "application/x-www-form-urlencoded",
            "Accept": "application/json",
            "Cookie": cookie,
        }
        for _ in range(2):  # a kept-alive connection the server has closed meanwhile
            if not hasattr(local, "conn"):
                local.conn = http.client.HTTPConnection(host, port, timeout=60)
            try:
                local.conn.request("POST", "/keeper/act", body=body, headers=headers)
                answer = local.conn.getresponse()
                return answer.status == 200 and json.loads(answer.read())["ok"]
            except (http.client.RemoteDisconnected, ConnectionError):
                local.conn.close()
                del local.conn
        raise RuntimeError("the server does not answer")

    try:
        board = Board(host, port)
        board.next_after(0)
        # an action on the page, then in a terminal: until the scoreboard shows it
        page_times, cli_exit, cli_start = [], [], []
        for i in range(rounds):
            seen = len(board.boards)
            start = time.perf_counter()
            assert post(act="take-all" if i % 2 == 0 else "undo", session="bench")
            page_times.append(board.next_after(seen)[0] - start)
        for i in range(rounds):
            seen = len(board.boards)
            start = time.perf_counter()
            words = ["take", "--all"] if i % 2 == 0 else ["undo"]
            subprocess.run([*CHOUETTE, *words], check=True, env=env, stdout=subprocess.DEVNULL)
            done = time.perf_counter()
            shown = board.next_after(seen)[0]
            cli_exit.append(max(shown - done, 0.0))  # shown before the process had exited: 0
            cli_start.append(shown - start)
        worst = max(page_times)
        line(
            "`serve`: an action on the page, until a scoreboard shows it",
            f"median {statistics.median(page_times) * 1000:.0f} ms, worst {worst * 1000:.0f} ms",
            "< 1 s",
            worst < 1,
        )
        worst = max(cli_exit)
        line(
            "`serve`: a terminal's command, from its exit until shown",
            f"median {statistics.median(cli_exit) * 1000:.0f} ms, worst {worst * 1000:.0f} ms",
            "< 1 s",
            worst < 1,
        )
        early = sum(1 for t in cli_exit if t == 0)
        print(
            f"    (from the command's start: median {statistics.median(cli_start) * 1000:.0f}"
            f" ms, worst {max(cli_start) * 1000:.0f} ms; a terminal's own start included"
            + (
                f"; {early} of {rounds} shown before the command's process had exited, "
                "counted as 0)"
                if early
                else ")"
            )
        )
        # idle: what polling the ledger four times a second costs
        ticks = os.sysconf("SC_CLK_TCK")

        def cpu() -> float:
            fields = Path(f"/proc/{server.pid}/stat").read_text().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / ticks

        before, start = cpu(), time.perf_counter()
        time.sleep(seconds)
        idle = (cpu() - before) / (time.perf_counter() - start)
        line(
            "`serve`: idle, polling the ledger 4 times a second",
            f"{idle * 100:.1f}% of a core",
            "< 5%",
            idle < 0.05,
        )
        # throughput: the page ends game after game, from 1 and from 4 browsers at once,
        # while twenty scoreboards watch
        assert post(act="take-all", session="bench")
        watchers = [Board(host, port) for _ in range(20)]
        for watcher in watchers:
            watcher.next_after(0)
        for clients in (1, 4):
            booked = [0] * clients

            def hammer(index: int, stop: float, booked: list[int]) -> None:
                while time.perf_counter() < stop:
                    booked[index] += post(act="end", end="team single", session="bench")

            stop = time.perf_counter() + seconds
            threads = [
                threading.Thread(target=hammer, args=(i, stop, booked)) for i in range(clients)
            ]
            start = time.perf_counter()
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            rate = sum(booked) / (time.perf_counter() - start)
            line(
                f"`serve`: games ended on the page, {clients} browser(s), 20 boards watching",
                f"{rate:.0f} actions/s",
                ">= 10/s",
                rate >= 10,
            )
        time.sleep(1)
        sheet = subprocess.run(
            [*CHOUETTE, "sheet", "--json"], check=True, env=env, capture_output=True, text=True
        )
        number = f'data-number="{json.loads(sheet.stdout)["games"][-1]["game"] + 1}"'
        caught_up = sum(1 for w in watchers if w.boards and number in w.boards[-1][1])
        events = statistics.median(len(w.boards) for w in watchers)
        print(
            f"    ({caught_up} of 20 scoreboards show the last game; each got a median of "
            f"{events:.0f} boards: a slow page skips to the newest)"
        )
        for watcher in [board, *watchers]:
            watcher.close()
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=30)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes")
    parser.add_argument(
        "--only", help="one figure: oneshot, table, import, bigfile, reports, settle, serve"
    )
    args = parser.parse_args(argv)
    # the commands it times run as `python -c "import cli; ..."`: from the clone, wherever
    # the benchmark is started (installed, cli.py lives inside the package, not on the path)
    os.chdir(ROOT)
    runs = 5 if args.quick else 15
    steps: dict[str, Callable[[Path, Path], None]] = {
        "oneshot": lambda f, e: one_shot(f, e, runs),
        "table": lambda f, e: table_mode(e, 5 if args.quick else 20),
        "import": lambda f, e: imports(
            f, 20_000 if args.quick else 100_000, 2_000 if args.quick else 10_000
        ),
        "bigfile": lambda f, e: big_files(f, 2 if args.quick else 10, 20 if args.quick else 100),
        "reports": lambda f, e: reports(f, 50_000 if args.quick else 500_000),
        "settle": lambda f, e: settlement(),
        "serve": lambda f, e: serve(f, e, 10 if args.quick else 30, 3 if args.quick else 10),
    }
    # An installed package has its bytecode compiled (pip does it); an editable checkout run
    # with PYTHONDONTWRITEBYTECODE would compile chouette's own modules on every start.
    subprocess.run(
        [PYTHON, "-m", "compileall", "-q", "cli.py", "chouette", "db", "web", "bench"],
        check=True,
        cwd=ROOT,
        env={k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
    )
    print(
        f"chouette benchmark, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, Python "
        f"{sys.version.split()[0]}, {os.cpu_count()} cores, sqlite {sqlite3.sqlite_version}"
    )
    with tempfile.TemporaryDirectory(prefix="chouette-bench-") as tmp:
        folder = Path(tmp)
        evening = folder / "evening.db"
        if args.only in (None, "oneshot", "table", "serve"):
            build_evening(evening, 500)
            from db.engine import dispose_all

            dispose_all()
        for name, step in steps.items():
            if args.only in (None, name):
                step(folder, evening)


if __name__ == "__main__":
    main()
