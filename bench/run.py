"""The benchmark: chouette's cost measured side by side with its floors, in one run.

    python bench/run.py            # everything (some minutes: it builds a 500,000-game ledger)
    python bench/run.py --quick    # smaller sizes, for a first look
    python bench/run.py --only stream

Prints one line per figure with the goal it is measured against. Nothing here is a test:
the numbers depend on the machine; the ratios are what matter. Costs are CPU time (user and
system, of the process that ran the command, from ``os.wait4``; in-process work by
``time.process_time``), each command run in turn with its floor so both see the same
machine; on a machine shared with others, wall times mislead, CPU times much less (the
load is printed at the start and the end). Only ``serve``'s figures are wall times: how
soon a page shows something is a latency.
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
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from chouette.errors import ChouetteError  # noqa: E402
from chouette.game import ANSWERS, Answer, AutoDouble, Deal, Double, End, Event, apply  # noqa: E402
from chouette.line import new_line  # noqa: E402
from chouette.rules import HouseRules  # noqa: E402
from chouette.settlement import EXACT_LIMIT, settlement  # noqa: E402

PYTHON = sys.executable
CHOUETTE = [PYTHON, "-c", "import cli; cli.run()"]
# shell completion asks the console script (its name is in the variable Typer reads)
COMPLETE = [PYTHON, "-c", "import sys; sys.argv[0] = 'chouette'; import cli; cli.run()"]
BENCH = ROOT / "bench"
FLOOR = [PYTHON, str(BENCH / "floor_app.py")]
FLOOR_HELP = [PYTHON, str(BENCH / "floor_help.py")]
FLOOR_DUMP = [PYTHON, str(BENCH / "floor_dump.py")]
FLOOR_TABULATE = [PYTHON, str(BENCH / "floor_tabulate.py")]
FLOOR_SQLITE = [PYTHON, "-c", "import sqlite3"]
FLOOR_IMPORT = [PYTHON, str(BENCH / "floor_import.py")]
FLOOR_REGEX = [PYTHON, str(BENCH / "floor_regex.py")]
PLAYERS = ["ann", "bob", "cat", "dan", "eve"]
NOW = datetime(2026, 11, 20, 20, 0, tzinfo=UTC)


# A chouette command that notes its peak memory as it exits: VmHWM, the high-water mark of
# its own memory since it started Python (the rusage of a process forked from this one
# would count the pages of this, by then big, process too).
PEAK = (
    "import atexit, os\n"
    "def peak():\n"
    "    with open('/proc/self/status') as status, open(os.environ['CHOUETTE_PEAK'], 'w') as out:\n"
    "        out.write(next(x for x in status if x.startswith('VmHWM:')).split()[1])\n"
    "atexit.register(peak)\n"
    "import cli\n"
    "cli.run()\n"
)


def cost(command: Sequence[str], env: dict[str, str] | None = None) -> tuple[float, int]:
    """CPU seconds (user + system) of one run of ``command``, and, for a chouette command,
    its peak memory (kB; else 0)."""
    if list(command[:3]) == CHOUETTE:
        command = [PYTHON, "-c", PEAK, *command[3:]]
    with tempfile.TemporaryFile() as err, tempfile.NamedTemporaryFile("r") as peak:
        proc = subprocess.Popen(
            command,
            stdout=subprocess.DEVNULL,
            stderr=err,
            env={**(env or os.environ), "CHOUETTE_PEAK": peak.name},
            cwd=ROOT,
        )
        _, status, usage = os.wait4(proc.pid, 0)
        if os.waitstatus_to_exitcode(status) != 0:
            err.seek(0)
            raise RuntimeError(f"{command} failed: {err.read().decode()[-2000:]}")
        kept = peak.read().strip()
    return usage.ru_utime + usage.ru_stime, int(kept) if kept else 0


def side_by_side(
    ours: Sequence[str],
    floor: Sequence[str],
    runs: int,
    env: dict[str, str] | None = None,
    before: Callable[[], None] | None = None,
) -> tuple[float, float]:
    """Median CPU seconds of the two commands, run in turn (``before`` each pair)."""
    a, b = [], []
    for _ in range(runs):
        if before is not None:
            before()
        a.append(cost(ours, env)[0])
        b.append(cost(floor, env)[0])
    return statistics.median(a), statistics.median(b)


def line(name: str, value: str, goal: str, ok: bool) -> None:
    print(f"{name:<62} {value:>34}   goal {goal:<18} {'met' if ok else 'NOT MET'}", flush=True)


def ratio(name: str, ours: float, floor: float, goal: float, unit: str = "ms") -> None:
    shown = (lambda t: f"{t * 1000:.0f} ms") if unit == "ms" else (lambda t: f"{t:.2f} s")
    line(
        name,
        f"{shown(ours)} vs {shown(floor)} = {ours / floor:.2f}x",
        f"<= {goal:g}x",
        ours / floor <= goal,
    )


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min) on {os.cpu_count()} cores"


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
    from db.commands import play

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


def one_shot(evening: Path, runs: int) -> None:
    """A command that answers at once: ``status --json``, ``--help``, a Tab (against Python
    starting and importing sqlite3, which a Tab needs to read the ledger's names)."""
    ours = [*CHOUETTE, "--db", str(evening), "status", "--json"]
    cost(ours)  # the first run reads the file into the page cache
    a, b = side_by_side(ours, [*FLOOR, "--db", str(evening), "status", "--json"], runs)
    ratio("one-shot `status --json` (500 games) vs a bare Typer app", a, b, 1.5)
    print(f"    ({imports_of([*ours[1:]])})")
    a, b = side_by_side([*CHOUETTE, "--help"], [*FLOOR_HELP, "--help"], runs)
    ratio("`chouette --help` vs a bare Typer app's --help", a, b, 1.2)
    for what, words in (
        ("a player's name", "chouette take "),
        ("a session", "chouette --session "),
    ):
        env = {
            **os.environ,
            "_CHOUETTE_COMPLETE": "complete_bash",
            "COMP_WORDS": words,
            "COMP_CWORD": str(len(words.split(" ")) - 1),
            "CHOUETTE_DB": str(evening),
        }
        a, b = side_by_side(COMPLETE, FLOOR_SQLITE, runs, env)
        ratio(f"a Tab completing {what} (500 games) vs `python -c 'import sqlite3'`", a, b, 6)
        print(f"    ({imports_of(COMPLETE[1:], env)})")


def imports_of(args: Sequence[str], env: dict[str, str] | None = None) -> str:
    """What ``python -X importtime ARGS`` says a command imported: how many modules, their
    import time in all (the sum of each module's own), and the three heaviest packages."""
    done = subprocess.run(
        [PYTHON, "-X", "importtime", *args],
        capture_output=True, text=True, env=env or os.environ, cwd=ROOT, check=True,
    )  # fmt: skip
    own: dict[str, int] = {}
    count, total = 0, 0
    for text in done.stderr.splitlines():
        if not text.startswith("import time:") or "|" not in text or "self" in text:
            continue
        mine, _, name = text[len("import time:") :].split("|")
        count, total = count + 1, total + int(mine)
        package = name.strip().split(".")[0]
        own[package] = own.get(package, 0) + int(mine)
    top = sorted(own.items(), key=lambda kv: -kv[1])[:3]
    heaviest = ", ".join(f"{name} {us / 1000:.0f} ms" for name, us in top)
    orm = [name for name in ("sqlalchemy", "sqlmodel", "pydantic") if name in own]
    return f"-X importtime: {count} modules in {total / 1000:.0f} ms, the heaviest {heaviest}; " + (
        f"loads {', '.join(orm)}" if orm else "no sqlalchemy, sqlmodel or pydantic"
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
            start = time.process_time()
            with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
                cli.dispatch([*prefix, *words], opts)
            times.setdefault(" ".join(words), []).append(time.process_time() - start)
    worst = max(statistics.median(v) for v in times.values())
    detail = ", ".join(
        f"{k.split()[0]} {statistics.median(v) * 1000:.1f}" for k, v in list(times.items())[:6]
    )
    line(
        "table mode, in-process CPU per live command (500 games)",
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


def new_ledger(db: Path, players: Sequence[str]) -> None:
    for stale in db.parent.glob(db.name + "*"):
        stale.unlink()
    env = {**os.environ, "CHOUETTE_DB": str(db)}
    subprocess.run(
        [*CHOUETTE, "new", "bench", *players], check=True, env=env, stdout=subprocess.DEVNULL
    )


def imports(folder: Path, big: int, small: int, runs: int) -> None:
    """``import`` of neutral records against a raw importer, and its peak memory."""
    players = [f"p{i:02d}" for i in range(12)]
    data = {n: folder / f"neutral-{n}.jsonl" for n in (small, big)}
    for n, path in data.items():
        neutral_file(path, n, players, n)
    db, raw = folder / "import.db", folder / "raw-import.db"

    def fresh() -> None:
        new_ledger(db, players)
        for stale in folder.glob(raw.name + "*"):
            stale.unlink()

    a, b = side_by_side(
        [*CHOUETTE, "--db", str(db), "import", str(data[big])],
        [*FLOOR_IMPORT, str(data[big]), str(raw)],
        runs,
        before=fresh,
    )
    ratio(f"import {big:,} neutral records vs a raw importer", a, b, 3, unit="s")
    peaks = []
    for n in (small, big):
        fresh()
        peaks.append(cost([*CHOUETTE, "--db", str(db), "import", str(data[n])])[1])
    line(
        f"peak memory importing {small:,} vs {big:,} records",
        f"{peaks[0] / 1024:.0f} MB vs {peaks[1] / 1024:.0f} MB",
        "flat (<= 1.25x)",
        peaks[1] <= peaks[0] * 1.25,
    )


def mat_import(folder: Path, runs: int) -> None:
    """``import`` of a 2 MB .mat file against a single regex pass over it."""
    data = folder / "session-2mb.mat"
    games = mat_file(data, 2, 2)
    db = folder / "mat-2.db"
    a, b = side_by_side(
        [*CHOUETTE, "--db", str(db), "import", str(data)],
        [*FLOOR_REGEX, str(data)],
        runs,
        before=lambda: new_ledger(db, ["Ann", "Bob"]),
    )
    ratio(f"import of a 2 MB .mat file ({games:,} games) vs one regex pass", a, b, 25)
    import re

    start = time.process_time()
    for _ in range(10):
        with data.open(encoding="utf-8") as file:
            sum(1 for _ in re.finditer(r"^ Game (\d+)$", file.read(), re.M))
    regex = (time.process_time() - start) / 10
    code = (
        "import resource, sys, time, cli, db.imports\n"
        "start = time.process_time()\n"
        "try:\n    cli.run()\nexcept SystemExit: pass\n"
        "print(time.process_time() - start, file=sys.stderr)\n"
    )
    new_ledger(db, ["Ann", "Bob"])
    done = subprocess.run(
        [PYTHON, "-c", code, "--db", str(db), "import", str(data)],
        check=True, capture_output=True, text=True, cwd=ROOT,
    )  # fmt: skip
    inside = float(done.stderr.strip().splitlines()[-1])
    print(
        f"    (inside the process, once Python and its libraries have started: {inside:.2f} s "
        f"vs {regex * 1000:.1f} ms = {inside / regex:.0f}x)"
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
    """The import's CPU time and peak memory for a .mat file of ``small`` and ``big`` MB:
    time linear in the size, memory flat."""
    figures = []
    for size in (small, big):
        data = folder / f"session-{size}mb.mat"
        games = mat_file(data, size, size)
        db = folder / f"mat-{size}.db"
        new_ledger(db, ["Ann", "Bob"])
        seconds, peak = cost([*CHOUETTE, "--db", str(db), "import", str(data)])
        figures.append((size, games, seconds, peak))
        data.unlink()
    (s_mb, s_games, s_cpu, s_peak), (b_mb, b_games, b_cpu, b_peak) = figures
    per_small, per_big = s_cpu / s_games * 1e6, b_cpu / b_games * 1e6
    line(
        f"import of a {s_mb} MB vs a {b_mb} MB .mat file ({s_games:,} / {b_games:,} games)",
        f"{s_cpu:.1f} s vs {b_cpu:.1f} s",
        "linear",
        per_big <= per_small * 1.25,
    )
    print(f"    ({per_small:.0f} µs vs {per_big:.0f} µs a game, Python's start included)")
    line(
        f"peak memory importing the {s_mb} MB vs the {b_mb} MB .mat file",
        f"{s_peak / 1024:.0f} MB vs {b_peak / 1024:.0f} MB",
        "flat (<= 1.25x)",
        b_peak <= s_peak * 1.25,
    )


def club(folder: Path, games: int) -> Path:
    """A club ledger of ``games`` imported games between 16 players."""
    players = [f"p{i:02d}" for i in range(16)]
    data = folder / f"club-{games}.jsonl"
    neutral_file(data, games, players, 7)
    db = folder / f"club-{games}.db"
    new_ledger(db, players)
    cost([*CHOUETTE, "--db", str(db), "import", str(data)])
    data.unlink()
    return db


def stream(folder: Path, small: int, big: int, runs: int) -> None:
    """Reports over the whole ledger: ``ledger --all`` as a table against python, sqlite3
    and tabulate on the same bookings, as CSV and JSON against a plain sqlite3 dump of them;
    and the peak memory of every whole-ledger report in a machine's format (they stream) at
    ``small`` and at ``big`` games. A table is laid out whole by tabulate: its peak memory
    grows with the ledger, and is shown without a goal."""
    dbs = {n: club(folder, n) for n in (small, big)}
    page = folder / "page.html"
    ledger = [*CHOUETTE, "--db", str(dbs[big]), "ledger", "--all"]
    a, b = side_by_side(ledger, [*FLOOR_TABULATE, str(dbs[big])], runs)
    ratio(f"`ledger --all` (a table) over {big:,} games vs sqlite3 + tabulate", a, b, 1.5, "s")
    for fmt in (["--format", "csv"], ["--json"]):
        a, b = side_by_side([*ledger, *fmt], [*FLOOR_DUMP, str(dbs[big])], runs)
        ratio(f"`ledger --all {' '.join(fmt)}` over {big:,} games vs a sqlite3 dump", a, b, 5, "s")
    peaks = [cost([*CHOUETTE, "--db", str(dbs[n]), "ledger", "--all"])[1] for n in (small, big)]
    print(
        f"    (`ledger --all` as a table holds its rows: {peaks[0] / 1024:.0f} MB at "
        f"{small:,} games, {peaks[1] / 1024:.0f} MB at {big:,})"
    )
    for report in (
        ["ledger", "--all", "--format", "csv"],
        ["ledger", "--all", "--json"],
        ["sheet", "--all", "--format", "csv"],
        ["sheet", "--all", "--json"],
        ["standings", "--all"],
        ["settle", "--all"],
        ["report", "--all", "--html", str(page)],
    ):
        peaks, seconds = [], []
        for n in (small, big):
            spent, peak = cost([*CHOUETTE, "--db", str(dbs[n]), *report])
            peaks.append(peak)
            seconds.append(spent)
        name = " ".join(report[:4]) if report[0] != "report" else "report --all --html"
        line(
            f"peak memory of `{name}`, {small:,} vs {big:,} games",
            f"{peaks[0] / 1024:.0f} MB vs {peaks[1] / 1024:.0f} MB "
            f"({seconds[0]:.2f} s, {seconds[1]:.2f} s)",
            "<= 1.5x",
            peaks[1] <= peaks[0] * 1.5,
        )


def reports(folder: Path, games: int, runs: int) -> None:
    """Standings and settlement over a long ledger: a few rows, however long it is."""
    db = club(folder, games)
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE raw AS SELECT player, points, cents FROM booking")
    conn.commit()
    conn.close()
    floor = [
        PYTHON,
        "-c",
        "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
        "print(c.execute('SELECT player, SUM(points), SUM(cents) FROM raw GROUP BY player')"
        ".fetchall())",
        str(db),
    ]
    for report in ("standings", "settle"):
        a, b = side_by_side([*CHOUETTE, "--db", str(db), report, "--all", "--json"], floor, runs)
        line(
            f"`{report} --all` over {games:,} games vs one raw GROUP BY",
            f"{a * 1000:.0f} ms vs {b * 1000:.0f} ms = {a / b:.2f}x",
            "<= 3x and < 1 s",
            a / b <= 3 and a < 1,
        )


def zero_sum_groups(rng: random.Random, sizes: Sequence[int]) -> dict[str, int]:
    """Balances made of zero-sum groups of these sizes, amounts of every size mixed."""
    amounts: list[int] = []
    for size in sizes:
        group = [rng.randint(1, 400) * 100 * rng.choice((1, -1)) for _ in range(size - 1)]
        amounts += [*group, -sum(group)]
    rng.shuffle(amounts)
    return {f"p{i:02d}": a for i, a in enumerate(amounts)}


def settlements() -> None:
    """The fewest payments for a whole club night, proven: CPU time of the worst case."""
    cases: list[tuple[str, dict[str, int]]] = []
    for seed in range(5):
        rng = random.Random(seed)
        cases.append(("groups of 3 and 4", zero_sum_groups(rng, [3, 3, 3, 3, 4, 4, 4])))
        cases.append(("eight groups of 3", zero_sum_groups(rng, [3] * 8)))
        cases.append(("random amounts", zero_sum_groups(rng, [EXACT_LIMIT])))
    worst: dict[str, float] = {}
    payments: dict[str, int] = {}
    for name, balances in cases:
        start = time.process_time()
        found = settlement(balances)
        spent = time.process_time() - start
        assert found.proven
        worst[name] = max(worst.get(name, 0.0), spent)
        payments[name] = max(payments.get(name, 0), len(found.payments))
    top = max(worst.values())
    line(
        f"exact settlement of {EXACT_LIMIT} non-zero balances (worst of 15)",
        f"{top * 1000:.0f} ms",
        "< 1 s",
        top < 1,
    )
    print(
        "    ("
        + "; ".join(f"{k}: {worst[k] * 1000:.0f} ms, {payments[k]} payments" for k in worst)
        + ")"
    )
    rng = random.Random(40)
    amounts = [rng.randint(1, 10**6) * rng.choice((1, -1)) for _ in range(39)]
    balances = {f"p{i:02d}": a for i, a in enumerate([*amounts, -sum(amounts)])}
    start = time.process_time()
    found = settlement(balances)
    spent = time.process_time() - start
    print(
        f"    (40 balances, beyond the limit: {len(found.payments)} payments, at most n − 1 = "
        f"{found.bound}, not proven fewest; {spent * 1000:.0f} ms)"
    )


ADVERSARIAL = {
    "a score header of many names": " Game 1\n" + "a : 1 " * 150_000 + "x\n",
    "a score-like line inside a game": " Game 1\n a : 0   b : 0\n" + "a : 1   " * 110_000 + "\n",
    "a long tag": "; [" + ' "' * 400_000 + "\n",
    "a long move": " Game 1\n a : 0   b : 0\n  1) 31: " + "8/" * 400_000 + "5\n",
}


def readers() -> None:
    """The engine readers are linear: 100,000 records as one JSON array against the same as
    JSON Lines (the line of each record counted from the one before, not from the top), and
    crafted lines near the 1 MiB limit (no pattern goes quadratic)."""
    from chouette.engines import neutral
    from chouette.engines.mat import read_mat
    from chouette.errors import EngineFileError

    record = (
        '  {"session": "s", "game": %d, "winner": "ann", "loser": "bob", "cube": 1,\n'
        '   "result": "single", "end": "bearoff", "points": 1}'
    )
    count = 100_000
    array = ["[", *",\n".join(record % i for i in range(1, count + 1)).split("\n"), "]"]
    jsonl = [(record % i).replace("\n", "") for i in range(1, count + 1)]
    spent = []
    for lines in (array, jsonl):
        start = time.process_time()
        games = list(neutral.read_jsonl(lines).games)
        spent.append(time.process_time() - start)
        assert len(games) == count
    ratio(f"reading {count:,} records as a JSON array vs as JSON Lines", *spent, 1.5)
    worst, which = 0.0, ""
    for name, crafted in ADVERSARIAL.items():
        text = (
            (" 0 point match\n\n" + crafted)
            if not crafted.startswith(";")
            else (crafted + " 0 point match\n")
        )
        start = time.process_time()
        with contextlib.suppress(EngineFileError):
            list(read_mat(io.StringIO(text), jacoby=True).games)
        spent_one = time.process_time() - start
        if spent_one > worst:
            worst, which = spent_one, name
    line(
        "a crafted .mat line near the 1 MiB limit, read or refused",
        f"worst {worst * 1000:.0f} ms ({which})",
        "< 1 s",
        worst < 1,
    )


# ---------------------------------------------------------------- chouette serve


class Board:
    """A scoreboard page's event stream, read in a thread: when each board arrived
    (``source``: the loopback address of its device; the server keeps 20 streams a device)."""

    def __init__(self, host: str, port: int, source: str | None = None) -> None:
        import http.client
        import threading

        bind = None if source is None else (source, 0)
        self.conn = http.client.HTTPConnection(host, port, timeout=600, source_address=bind)
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
                    if kind in ("board", "room", "parts"):  # (--room, --event: room, parts)
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


def server_env(db: Path) -> dict[str, str]:
    """The environment of a command on the ledger ``db``, with the real clock."""
    env = {**os.environ, "CHOUETTE_DB": str(db), "PYTHONUNBUFFERED": "1"}
    env.pop("CHOUETTE_NOW", None)
    return env


def start_server(db: Path, *options: str) -> tuple[subprocess.Popen[str], str, int, str]:
    """`chouette serve OPTIONS` on the ledger ``db`` with the PIN 2468 (its page's log lines
    read and dropped): the server, its host and port, and the scorekeeper's cookie."""
    import http.client
    import threading
    from urllib.parse import urlsplit

    env = server_env(db)
    server = subprocess.Popen(
        [*CHOUETTE, "serve", *options, "--port", "0", "--pin", "2468"],
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
    return server, host, port, cookie


def serve(folder: Path, evening: Path, rounds: int, seconds: float) -> None:
    """`chouette serve` on the 500-game evening: how soon a scoreboard page shows an action
    made on the scorekeeper's page or in a terminal, and how many actions a second the page
    books while twenty scoreboards watch."""
    import http.client
    import signal
    import threading
    from urllib.parse import urlencode

    db = folder / "serve.db"
    db.write_bytes(evening.read_bytes())
    server, host, port, cookie = start_server(db)
    env = server_env(db)
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
            assert post(line="take --all" if i % 2 == 0 else "undo", session="bench")
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
        assert post(line="take --all", session="bench")
        watchers = [Board(host, port, f"127.0.1.{i + 1}") for i in range(20)]  # 20 devices
        for watcher in watchers:
            watcher.next_after(0)
        for clients in (1, 4):
            booked = [0] * clients

            def hammer(index: int, stop: float, booked: list[int]) -> None:
                while time.perf_counter() < stop:
                    booked[index] += post(line="end team", session="bench")

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


def build_event(path: Path, players: int) -> None:
    """A ledger holding a chouette tournament of ``players`` entries, level 1 drawn (tables
    of 3 to 5: 26 tables for 128), a game in progress at its first table."""
    from chouette.event import EventRules
    from db import open_ledger
    from db.commands import play
    from db.events import create, draw, enter

    url = f"sqlite:///{path}"
    names = [f"p{i:03d}" for i in range(players)]
    rules = EventRules(
        bank=50,
        levels=(1, 2, 4, 8),
        organiser="org",
        house=HouseRules(table_stakes=50),
        minutes=45,
        entry=1000,
        payout=(50, 30, 20),
    )
    with open_ledger(url, write=True, now=NOW) as book:
        info = create(book, "cup", rules, None)
        enter(book, info, names)
        draw(book, info, 1)
    with open_ledger(url, write=True, now=NOW) as book:
        table = book.session("cup-L1-T1", lock=True)
        play(book, table, [Double("box", table.line.team[:2])], None)


def open_boards(host: str, port: int, count: int, first: int = 1) -> list[Board]:
    """``count`` scoreboards' event streams, each from its own loopback address (the server
    keeps 20 streams a device), each once it has its first event."""
    boards = [Board(host, port, f"127.0.2.{first + i}") for i in range(count)]
    for board in boards:
        board.next_after(0, timeout=120)
    return boards


def room(folder: Path, players: int, streams: int, changes: int, seconds: float) -> None:
    """`chouette serve --event` at tournament scale: ``streams`` scoreboards (the phones and
    the TV, each from its own address) on the live stream of a ``players``-player event;
    how soon each change reaches every stream (wall), and the server's CPU for each change
    beyond what it spends idle (the change itself included: an action of the keeper's page
    at a table, run by the CLI in the server)."""
    import http.client
    import signal
    from urllib.parse import urlencode

    db = folder / "event.db"
    build_event(db, players)
    server, host, port, cookie = start_server(db, "--event")

    def post(line: str) -> bool:
        """One action of the keeper's page (a connection of its own: the server closes an
        idle one after a few seconds, and opening the streams takes longer)."""
        keeper = http.client.HTTPConnection(host, port, timeout=60)
        body = urlencode({"line": line, "session": "cup-L1-T1"})
        headers = {
            "Content-Type": "application/x-www-form-urlencoded",
            "Accept": "application/json",
            "Cookie": cookie,
        }
        keeper.request("POST", "/keeper/act", body=body, headers=headers)
        answer = keeper.getresponse()
        done = answer.status == 200 and bool(json.loads(answer.read())["ok"])
        keeper.close()
        return done

    ticks = os.sysconf("SC_CLK_TCK")

    def cpu() -> float:
        fields = Path(f"/proc/{server.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / ticks

    def idle_rate() -> float:
        before, start = cpu(), time.perf_counter()
        time.sleep(seconds)
        return (cpu() - before) / (time.perf_counter() - start)

    def burst(boards: list[Board]) -> tuple[list[float], float]:
        """``changes`` changes, one after another once every board has the one before:
        each board's delay for each, and the CPU a change beyond idle."""
        idle = idle_rate()
        delays: list[float] = []
        before, start = cpu(), time.perf_counter()
        for i in range(changes):
            seen = [len(b.boards) for b in boards]
            began = time.perf_counter()
            assert post("take --all" if i % 2 == 0 else "undo")
            for board, count in zip(boards, seen, strict=True):
                delays.append(board.next_after(count, timeout=60)[0] - began)
        spent = cpu() - before - idle * (time.perf_counter() - start)
        return delays, spent / changes

    try:
        # one stream, not none: each change then waits until it is shown, as with many (with
        # none, a change is posted while the one before is still being read, and the hub
        # reads and makes the two as one, which halves the figure)
        for count in (1, streams // 2, streams):
            boards = open_boards(host, port, count)
            delays, each = burst(boards)
            if delays:
                delays.sort()
                p99 = delays[min(len(delays) - 1, int(len(delays) * 0.99))]
                line(
                    f"`serve --event` ({players} players): a change reaches {count} stream"
                    + ("s" if count != 1 else ""),
                    f"p99 {p99 * 1000:.0f} ms, worst {delays[-1] * 1000:.0f} ms",
                    "p99 < 1 s",
                    p99 < 1,
                )
            line(
                f"`serve --event`: CPU a change costs beyond idle, {count} stream"
                + ("s" if count != 1 else ""),
                f"{each * 1000:.0f} ms",
                "<= 50 ms" if count == streams else "(for comparison)",
                each <= 0.05 or count != streams,
            )
            for board in boards:
                board.close()
            time.sleep(1)
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=30)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes, fewer runs")
    parser.add_argument(
        "--only",
        help="one figure: oneshot, table, import, mat, bigfile, stream, reports, settle, "
        "readers, serve, room",
    )
    args = parser.parse_args(argv)
    # the commands it times run as `python -c "import cli; ..."`: from the clone, wherever
    # the benchmark is started (installed, cli.py lives inside the package, not on the path)
    os.chdir(ROOT)
    quick = args.quick
    runs = 5 if quick else 11
    steps: dict[str, Callable[[Path, Path], None]] = {
        "oneshot": lambda f, e: one_shot(e, runs),
        "table": lambda f, e: table_mode(e, 5 if quick else 20),
        "import": lambda f, e: imports(
            f, 20_000 if quick else 100_000, 2_000 if quick else 10_000, 3 if quick else 5
        ),
        "mat": lambda f, e: mat_import(f, runs),
        "bigfile": lambda f, e: big_files(f, 2 if quick else 10, 20 if quick else 100),
        "stream": lambda f, e: stream(
            f, 2_000 if quick else 5_000, 20_000 if quick else 50_000, 3 if quick else 5
        ),
        "reports": lambda f, e: reports(f, 50_000 if quick else 500_000, 3 if quick else 5),
        "settle": lambda f, e: settlements(),
        "readers": lambda f, e: readers(),
        "serve": lambda f, e: serve(f, e, 10 if quick else 30, 3 if quick else 10),
        "room": lambda f, e: room(
            f, 128, 64 if quick else 128, 10 if quick else 30, 3 if quick else 10
        ),
    }
    if args.only is not None and args.only not in steps:
        parser.error(f"--only: one of {', '.join(steps)}")
    # An installed package has its bytecode compiled (pip does it); an editable checkout run
    # with PYTHONDONTWRITEBYTECODE would compile chouette's own modules on every start.
    subprocess.run(
        [
            *[PYTHON, "-m", "compileall", "-q", "cli.py", "typer_internals.py"],
            *["chouette", "files", "db", "web", "bench"],
        ],
        check=True,
        cwd=ROOT,
        env={k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
    )
    print(
        f"chouette benchmark, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, Python "
        f"{sys.version.split()[0]}, sqlite {sqlite3.sqlite_version}; {load()}"
    )
    command = (
        "python bench/run.py"
        + (" --quick" if quick else "")
        + (f" --only {args.only}" if args.only else "")
    )
    print(f"(CPU time of each process; rerun with: {command})")
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
    print(f"(at the end: {load()})")


if __name__ == "__main__":
    main()
