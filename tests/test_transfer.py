"""Export and re-import: the backup, and the path between databases; and `chouette check`."""

from __future__ import annotations

import shlex
import shutil
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from tests.test_import import SAMPLES

pytestmark = pytest.mark.backends("sqlite", "postgres")

V1 = Path(__file__).parent / "data" / "ledger-v1.sqlite"
REPORTS = [
    ("standings", "--all"),
    ("sheet", "--all"),
    ("ledger", "--all"),
    ("settle", "--all"),
    ("standings", "--all", "--json"),
    ("sheet", "--all", "--json"),
]


CLUB = [
    "new friday ann bob cat dan eve --partner-from 5 --stake 2.50 --player-stake eve=1.00",
    "double bob dan",
    "take bob",
    "beaver dan",
    "take dan",
    "end team --gammon",
    "sit-out cat",
    "deal dan -3",
    "end box --backgammon",
    "pay ann cat 4.25",
    "new saturday B C M1 M2 --cubes single --no-jacoby",
    "double",
    "take C",
    "drop M1",
    "take M2",
    "end box",
    "new money Alice Bob",
    f"import {SAMPLES}/gnubg/sgf/s03_money_jacoby_beavers1_cubenoise.sgf "
    "--as Eve=Alice --as Frank=Bob",
    "--session friday double eve --by member",
]


def club_ledger(chouette):
    """Several evenings: partner, single cube, a payment, an imported file, a live game."""
    for command in CLUB:
        chouette(*shlex.split(command))


def reports(chouette):
    return {args: chouette(*args).stdout for args in REPORTS}


def test_an_export_imported_into_an_empty_database_reproduces_every_report(
    chouette, tmp_path, monkeypatch
):
    club_ledger(chouette)
    before = reports(chouette)
    status = chouette("--session", "friday", "status").stdout
    export = tmp_path / "club.jsonl"
    assert chouette("export", str(export)).stdout.startswith("Exported ")
    monkeypatch.setenv("CHOUETTE_DB", str(tmp_path / "copy.db"))
    out = chouette("import", str(export)).stdout
    assert out == "Restored 3 sessions, 54 games and 1 payment from club.jsonl.\n"
    assert reports(chouette) == before
    assert chouette("--session", "friday", "status").stdout == status
    assert chouette("check").stdout.startswith("The ledger is consistent: 3 sessions, 54 games")
    again = tmp_path / "again.jsonl"
    chouette("export", str(again))
    strip = lambda text: text.split("\n", 1)[1]  # noqa: E731  (the heading has the export time)
    assert strip(again.read_text()) == strip(export.read_text())


def test_an_export_goes_only_into_an_empty_database(chouette, tmp_path):
    chouette("new", "friday", "ann", "bob")
    export = tmp_path / "x.jsonl"
    chouette("export", str(export))
    result = chouette("import", str(export), code=1)
    assert result.stderr == "Error: an export is imported into an empty database only\n"


def test_a_migrated_first_schema_ledger_moves_into_this_backend(
    chouette, tmp_path, monkeypatch, ledger_url
):
    """A schema-1 SQLite file, migrated, exported, and imported into an empty ledger of this
    backend (SQLite, or a PostgreSQL server): the same reports."""
    old = tmp_path / "old.sqlite"
    shutil.copy(V1, old)
    monkeypatch.setenv("CHOUETTE_DB", str(old))
    chouette("migrate")
    before = reports(chouette)
    export = tmp_path / "old.jsonl"
    chouette("export", str(export))
    monkeypatch.setenv("CHOUETTE_DB", ledger_url)
    chouette("import", str(export))
    assert reports(chouette) == before
    chouette("check")


@pytest.mark.postgres  # both ways need the PostgreSQL server, whichever backend starts
def test_an_evening_moves_from_this_backend_to_the_other(
    chouette, tmp_path, monkeypatch, backend, postgres_server
):
    """SQLite to PostgreSQL and back: export, import into an empty ledger, same reports."""
    club_ledger(chouette)
    before = reports(chouette)
    export = tmp_path / "club.jsonl"
    chouette("export", str(export))
    other = postgres_server.create_database() if backend == "sqlite" else str(tmp_path / "x.db")
    monkeypatch.setenv("CHOUETTE_DB", other)
    chouette("import", str(export))
    assert reports(chouette) == before
    chouette("check")


def test_check_passes_on_an_honest_ledger(chouette):
    club_ledger(chouette)
    assert chouette("check").stdout == (
        "The ledger is consistent: 3 sessions, 54 games, 115 bookings.\n"
    )


TAMPERING = [
    (
        "UPDATE balance SET cents = cents + 5 WHERE player = 'ann'",
        ["friday: ann's running balance is -8 points (-13.70); the bookings sum to -8 (-13.75)"],
    ),
    (
        "UPDATE booking SET cents = cents + 1 WHERE id = 1",
        [
            "the whole ledger does not sum to zero",
            "friday game 1: the bookings do not sum to zero",
            "friday game 1: ann is booked",
        ],
    ),
    (
        "UPDATE booking SET cents = -cents, points = -points WHERE game_id = 2",
        ["friday game 2: ann is booked +1 points (+2.50); the events give -1 (-2.50)"],
    ),
    ("DELETE FROM event WHERE game_id = 1 AND seq = 2", ["friday game 1: its events are not"]),
    ("UPDATE pair SET points = 99 WHERE game_id = 3", ["saturday game 1: its pair results"]),
    (
        "UPDATE booking SET cents = 0 WHERE payment_id IS NOT NULL",
        ["payment ann → cat 4.25: its bookings are"],
    ),
    (
        "UPDATE game SET line_after = line_before WHERE id = 1",
        ["friday game 1: the line after it is not the rotation its result gives"],
    ),
    (
        "UPDATE source_file SET last_game = 49",
        ["money: s03_money_jacoby_beavers1_cubenoise.sgf booked 50 games, but names games 1 to 49"],
    ),
    (
        "UPDATE booking SET cents = cents * 2 WHERE game_id = 5",
        ["money game 2: the bookings are not Bob +2 from Alice"],
    ),
]


@pytest.mark.parametrize(("sql", "problems"), TAMPERING)
def test_check_lists_every_problem_and_exits_1(chouette, ledger_url, sql, problems):
    club_ledger(chouette)
    engine = create_engine(ledger_url)
    with engine.begin() as raw:
        raw.execute(text(sql))
    engine.dispose()
    result = chouette("check", code=1)
    for problem in problems:
        assert f"Problem: {problem}" in result.stderr, result.stderr
    count = len(result.stderr.splitlines()) - 1
    assert result.stderr.endswith(f"Error: {count} problem{'s' * (count > 1)} in the ledger\n")


def _empty_ledger(backend, request, tmp_path) -> str:
    """Another, empty ledger on this test's backend."""
    if backend == "postgres":
        return request.getfixturevalue("postgres_server").create_database()
    return str(tmp_path / "copy.db")


def test_an_export_whose_times_carry_another_offset_restores_the_same_moments(
    chouette, tmp_path, monkeypatch, backend, request
):
    """An export edited or written elsewhere may give its times in another zone (or none:
    UTC, as chouette writes them): the same moments are restored, on either backend."""
    import json
    from datetime import UTC, datetime, timedelta, timezone

    club_ledger(chouette)
    before = reports(chouette)
    export = tmp_path / "club.jsonl"
    chouette("export", str(export))
    zones = [timezone(timedelta(hours=2)), timezone(timedelta(hours=-5)), None]
    times = {"created_at", "joined_at", "started_at", "ended_at", "at", "imported_at"}

    def shifted(value, step):
        if not isinstance(value, str):
            return value
        try:
            moment = datetime.fromisoformat(value)
        except ValueError:
            return value
        zone = zones[step % len(zones)]
        return (
            moment.astimezone(zone).isoformat()
            if zone
            else moment.astimezone(UTC).replace(tzinfo=None).isoformat()
        )

    def walk(data, step):
        if isinstance(data, dict):
            return {k: shifted(v, step) if k in times else walk(v, step) for k, v in data.items()}
        if isinstance(data, list):
            return [walk(v, step) for v in data]
        return data

    lines = export.read_text("utf-8").splitlines()
    moved = tmp_path / "moved.jsonl"
    moved.write_text(
        "\n".join(json.dumps(walk(json.loads(line), i)) for i, line in enumerate(lines)) + "\n",
        "utf-8",
    )
    assert moved.read_text("utf-8") != export.read_text("utf-8")
    monkeypatch.setenv("CHOUETTE_DB", _empty_ledger(backend, request, tmp_path))
    chouette("import", str(moved))
    assert reports(chouette) == before
    again = tmp_path / "again.jsonl"
    chouette("export", str(again))
    assert again.read_text().split("\n", 1)[1] == export.read_text().split("\n", 1)[1]


def _small_export(chouette, tmp_path):
    """An export of two chouette games, an imported file of two games and a payment."""
    import json

    chouette("new", "club", "ann", "bob")
    chouette("end", "box")
    chouette("end", "team")
    games = tmp_path / "g.jsonl"
    games.write_text(
        "".join(
            json.dumps(
                {"session": "club", "game": n, "winner": w, "loser": lo, "cube": 1,
                 "result": "single", "end": "bearoff", "points": 1}
            ) + "\n"
            for n, w, lo in ((1, "ann", "bob"), (2, "bob", "ann"))
        ),
        "utf-8",
    )  # fmt: skip
    chouette("import", str(games))
    chouette("pay", "bob", "ann", "1.00")
    export = tmp_path / "club.jsonl"
    chouette("export", str(export))
    return [json.loads(line) for line in export.read_text("utf-8").splitlines()]


def _damage(lines, how):
    """The export's lines: heading, session, games 1–4 (3 and 4 imported), payment, file."""
    game1, game2, game3, game4, payment = lines[2], lines[3], lines[4], lines[5], lines[6]
    if how == "a game number twice":
        game2["number"] = 1
    elif how == "a game number 0":
        game1["number"] = 0
    elif how == "points of a fraction":
        game3["bookings"][0]["points"], game3["bookings"][1]["points"] = 1.5, -1.5
    elif how == "money as text":
        game3["bookings"][0]["cents"] = "100"
    elif how == "bookings past zero":
        game3["bookings"][0]["points"] = 5
    elif how == "a stranger booked":
        game3["bookings"][0]["player"] = "zed"
    elif how == "one game's identity twice":
        game4["key"] = game3["key"]
    elif how == "one game's source twice":
        game4["source"] = game3["source"]
    elif how == "a file twice":
        lines.append(dict(lines[-1]))
    elif how == "a payment to oneself":
        payment["payee"] = payment["payer"]
    elif how == "a payment by a stranger":
        payment["payer"] = "zed"
    elif how == "a stranger partners the box":
        lines[1]["line"]["partner"] = "zed"
    elif how == "a stranger is away":
        lines[1]["line"]["away"] = [["zed", None]]
    elif how == "someone seated twice":
        lines[1]["line"]["order"] = ["ann", "ann"]
    return lines


DAMAGE = [
    ("a game number twice", "line 4: game 1 of club is given twice in the export"),
    ("a game number 0", "line 3: a game's number must be 1 or more, not 0"),
    ("points of a fraction", "line 5: ann's points must be a whole number, not 1.5"),
    ("money as text", "line 5: ann's money must be a whole number, not '100'"),
    ("bookings past zero", "line 5: game 3 of club: its bookings do not sum to zero"),
    ("a stranger booked", "line 5: game 3 of club books 'zed': not a player of the session"),
    ("one game's identity twice", "line 6: the game identity "),
    ("one game's source twice", "line 6: game 1 of the file "),
    ("a file twice", "line 9: the file "),
    ("a payment to oneself", "line 7: bob cannot pay themselves"),
    ("a payment by a stranger", "line 7: zed has not played in club"),
    ("a stranger partners the box", "line 2: the session club: the partner zed is not a"),
    ("a stranger is away", "line 2: the session club: someone is away who is not in the line"),
    ("someone seated twice", "line 2: the session club: someone sits twice in the line"),
]


@pytest.mark.parametrize(("how", "message"), DAMAGE)
def test_a_damaged_export_is_refused_naming_the_line_and_restores_nothing(
    chouette, tmp_path, monkeypatch, backend, request, how, message
):
    """An export edited by hand (or damaged) that would restore a ledger `chouette check`
    refuses, or that the database's own unique keys refuse, is refused with a message
    naming its line, not a clash with "another command", and nothing is written."""
    import json

    lines = _damage(_small_export(chouette, tmp_path), how)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(json.dumps(line) + "\n" for line in lines), "utf-8")
    monkeypatch.setenv("CHOUETTE_DB", _empty_ledger(backend, request, tmp_path))
    refused = chouette("import", str(bad), code=1).stderr
    assert refused.startswith(f"Error: {message}"), refused
    chouette("new", "empty", "x", "y")  # nothing was restored: the ledger is empty
    assert [s["name"] for s in chouette.json("sessions")["sessions"]] == ["empty"]
