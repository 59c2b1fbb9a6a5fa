"""Export and re-import: the backup, and the path between databases; and `chouette check`."""

from __future__ import annotations

import json
import shlex
import shutil

import pytest
from sqlalchemy import create_engine, text

from tests.cli.test_extras_cli import evening
from tests.dump import unchained
from tests.paths import DATA
from tests.samples import SAMPLES

pytestmark = pytest.mark.backends("sqlite", "postgres")

V1 = DATA / "ledger-v1.sqlite"
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
    "pay ann cat 4.25 --advance",
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
    """Several evenings: partner, single cube, a payment, an imported file, a live game (on
    SQLite, a copy of the ledger the commands made once)."""
    chouette.begun(*(tuple(shlex.split(command)) for command in CLUB))


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
    danish = chouette("--lang", "da", "import", str(export), code=1).stderr
    assert danish == "Fejl: en eksport importeres kun i en tom database\n"


@pytest.mark.parametrize(
    ("lang", "message"),
    [
        ("da", "Fejl: linje 5: anns point skal være et helt tal, ikke 1.5"),
        ("cs", "Chyba: řádek 5: body hráče ann: musí být celé číslo, ne 1.5"),
    ],
)
def test_a_damaged_export_is_refused_in_the_readers_language(
    chouette, tmp_path, monkeypatch, backend, request, lang, message
):
    import json

    lines = _damage(_small_export(chouette, tmp_path, backend), "points of a fraction")
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(json.dumps(line) + "\n" for line in lines), "utf-8")
    monkeypatch.setenv("CHOUETTE_DB", _empty_ledger(backend, request, tmp_path))
    refused = chouette("--lang", lang, "import", str(bad), code=1).stderr
    assert refused.startswith(message), refused


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
    assert unchained(reports(chouette)) == unchained(before)  # chained as it moved
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
        ["money game 2: the bookings are not bob +2 from Alice"],  # as the ledger spells bob
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

    # the chains as they were: they are checked against the record as restored, whose
    # moments are the same (a link's own time is its text, and kept as it is)
    lines = export.read_text("utf-8").splitlines()
    moved = tmp_path / "moved.jsonl"
    moved.write_text(
        "\n".join(
            line if '"kind": "chain"' in line else json.dumps(walk(json.loads(line), i))
            for i, line in enumerate(lines)
        )
        + "\n",
        "utf-8",
    )
    assert moved.read_text("utf-8") != export.read_text("utf-8")
    monkeypatch.setenv("CHOUETTE_DB", _empty_ledger(backend, request, tmp_path))
    chouette("import", str(moved))
    assert unchained(reports(chouette)) == unchained(before)
    again = tmp_path / "again.jsonl"
    chouette("export", str(again))
    assert unchained(again.read_text().split("\n", 1)[1]) == unchained(
        export.read_text().split("\n", 1)[1]
    )


# The small export on each backend, made once (the clock is pinned: every test would make
# the same) and copied for each test to damage.
_SMALL_EXPORTS: dict[str, list[dict]] = {}


def _small_export(chouette, tmp_path, backend):
    """An export of two chouette games, an imported file of two games and a payment (in the
    test's own ledger the first time on its backend; a copy of that export after)."""
    import copy

    if backend not in _SMALL_EXPORTS:
        _SMALL_EXPORTS[backend] = _export_small(chouette, tmp_path)
    return copy.deepcopy(_SMALL_EXPORTS[backend])


def _export_small(chouette, tmp_path):
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
    chouette("pay", "bob", "ann", "1.00", "--advance")
    export = tmp_path / "club.jsonl"
    chouette("export", str(export))
    return [json.loads(line) for line in export.read_text("utf-8").splitlines()]


def _damage(lines, how):
    """The export's lines: heading, session, games 1–4 (3 and 4 imported), payment, file
    (and the session's chain, last: dropped, as a hand that edits an export would)."""
    lines = [line for line in lines if line["kind"] != "chain"]
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
    elif how == "an imported game's winner changed":
        game3["detail"]["winner"], game3["detail"]["loser"] = "bob", "ann"
    elif how == "an imported game's points not cube times level":
        game3["detail"]["points"] = 2
        for b, sign in zip(game3["bookings"], (1, -1), strict=True):
            b["points"], b["cents"] = 2 * sign, 200 * sign
    elif how == "an imported game's cube changed":
        game3["detail"]["cube"] = 2
    elif how == "an imported game booked at twice the stake":
        for b in game3["bookings"]:
            b["cents"] *= 2
    elif how == "an imported game's result not a result":
        game3["detail"] = ["ann", "bob"]
    elif how == "an imported game's winner a number":
        game3["detail"]["winner"] = 7
    elif how == "an imported game in progress":
        game3["over"] = False
    elif how == "over given as text":
        game1["over"] = "no"
    elif how == "over given as a number":
        game2["over"] = 1
    elif how == "current given as text":
        lines[1]["current"] = "no"
    elif how == "a house rule given as text":
        lines[1]["rules"]["jacoby"] = "no"
    elif how == "a house rule's number as text":
        lines[1]["rules"]["partner-share"] = "50"
    elif how == "a game of no known type":
        game1["type"] = "record"
    elif how == "a game's source as text":
        game3["source"] = "ab"
    elif how == "a game's index as text":
        game3["source"][1] = "1"
    elif how == "a game's identity as a number":
        game3["key"] = 12
    elif how == "a file's count as text":
        lines[-1]["games"] = "2"
    elif how == "a file's name as a number":
        lines[-1]["name"] = 3
    elif how == "a file's format as a list":
        lines[-1]["format"] = ["jsonl"]
    elif how == "a file naming games it did not book":
        lines[-1]["last_game"] = 9
    elif how == "a payment's note as a number":
        payment["note"] = 5
    elif how == "a session's name as a number":
        lines[1]["name"] = 5
    elif how == "a gap in the game numbers":
        game2["number"] = 9
    elif how == "a stranger seated in a game":
        game1["line"]["order"].append("zed")
    elif how == "someone seated twice in an imported game":
        game3["line"]["order"] = ["ann", "ann"]
    elif how == "a stranger seated in the session":
        lines[1]["line"]["order"].append("zed")
    elif how == "two games in progress":
        lines.insert(7, {**game1, "number": 5, "over": False, "events": []})
        lines.insert(8, {**game1, "number": 6, "over": False, "events": []})
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
    ("an imported game's winner changed", "line 5: club game 3: the bookings are not bob +1 "),
    ("an imported game's points not cube times level", "line 5: club game 3: 2 points is not "),
    ("an imported game's cube changed", "line 5: club game 3: 1 points is not cube × single"),
    ("an imported game booked at twice the stake", "line 5: club game 3: the bookings are not"),
    ("an imported game's result not a result", "line 5: club game 3: its stored result is not"),
    ("an imported game's winner a number", "line 5: club game 3: its stored result is not a "),
    ("an imported game in progress", "line 5: club game 3: an imported game is over, not in"),
    ("over given as text", "line 3: club game 1: over must be true or false, not 'no'"),
    ("over given as a number", "line 4: club game 2: over must be true or false, not 1"),
    ("current given as text", "line 2: current must be true or false, not 'no'"),
    ("a house rule given as text", "line 2: jacoby must be true or false, not 'no'"),
    ("a house rule's number as text", "line 2: partner-share must be a whole number, not '50'"),
    ("a game of no known type", "line 3: club game 1: its type must be chouette or engine, "),
    ("a game's source as text", "line 5: a game's source must be [file, index] or [null, nu"),
    ("a game's index as text", "line 5: a game's index in its file must be a whole number,"),
    ("a game's identity as a number", "line 5: club game 3: its identity must be text, not 12"),
    ("a file's count as text", "line 8: a file's count of games must be a whole number, no"),
    ("a file's name as a number", "line 8: a file's name must be text, not 3"),
    ("a file's format as a list", "line 8: a file's format must be text, not ['jsonl']"),
    ("a file naming games it did not book", "line 8: club: g.jsonl booked 2 games, but names "),
    ("a payment's note as a number", "line 7: a payment's note must be text, not 5"),
    ("a session's name as a number", "line 2: a session's name must be text, not 5"),
    ("a gap in the game numbers", "line 2: club: its games are not numbered 1 to 4 (missing: 2"),
    ("a stranger seated in a game", "line 3: club game 1: zed is seated or booked but not a "),
    ("someone seated twice in an imported game", "line 5: club game 3: someone sits twice "),
    ("a stranger seated in the session", "line 2: the session club: zed is seated or booked"),
    ("two games in progress", "line 2: club: 2 games are in progress at once"),
]


@pytest.mark.parametrize(("how", "message"), DAMAGE)
def test_a_damaged_export_is_refused_naming_the_line_and_restores_nothing(
    chouette, tmp_path, monkeypatch, backend, request, how, message
):
    """An export edited by hand (or damaged) that would restore a ledger `chouette check`
    refuses, or that the database's own unique keys refuse, is refused with a message
    naming its line, not a clash with "another command", and nothing is written."""
    import json

    lines = _damage(_small_export(chouette, tmp_path, backend), how)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(json.dumps(line) + "\n" for line in lines), "utf-8")
    monkeypatch.setenv("CHOUETTE_DB", _empty_ledger(backend, request, tmp_path))
    refused = chouette("import", str(bad), code=1).stderr
    assert refused.startswith(f"Error: {message}"), refused
    chouette("new", "empty", "x", "y")  # nothing was restored: the ledger is empty
    assert [s["name"] for s in chouette.json("sessions")["sessions"]] == ["empty"]


def test_export_writes_over_an_earlier_export_and_nothing_else_without_force(chouette, tmp_path):
    chouette("new", "fri", "ann", "bob")
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    result = chouette("export", str(notes), code=1)
    assert result.stderr == (
        f"Error: {notes} exists and is not a file chouette export wrote: nothing was written "
        "(give --force to write over it)\n"
    )
    assert notes.read_text() == "my notes\n"
    chouette("export", str(notes), "--force")
    chouette("end", "team")
    chouette("export", str(notes))  # an earlier export is replaced without asking
    assert '"game"' in notes.read_text()


# ------------------------------------------------------------ the club rules kept whole


def test_extras_proxies_and_a_split_survive_an_export_and_an_import(
    chouette, tmp_path, monkeypatch
):
    evening(chouette, "--proxies", "--split-at", "5")
    chouette("end", "team", "--gammon")
    chouette("join", "eve")
    chouette("join", "fay")
    chouette("proxy", "dan", "--by", "cat")
    chouette("split", "fri-2")
    chouette("--session", "fri-2", "extra", "eve", "box")
    chouette("--session", "fri-2", "end", "team")
    chouette("--session", "fri-2", "extra", "ann", "fay", "--points", "1")
    chouette("--session", "fri", "double", "cat")
    shown = ("sheet", "standings", "status", "game 1")
    before = {
        (name, what): chouette("--session", name, *what.split()).stdout
        for name in ("fri", "fri-2")
        for what in shown
        if not (name == "fri-2" and what == "game 1")
    }
    export = tmp_path / "club.jsonl"
    chouette("export", str(export))
    monkeypatch.setenv("CHOUETTE_DB", str(tmp_path / "copy.db"))
    chouette("import", str(export))
    after = {
        (name, what): chouette("--session", name, *what.split()).stdout for name, what in before
    }
    assert after == before
    assert "game 1: eve +3 from ann (+6.00)" in before["fri-2", "sheet"]
    assert "(away: cat decides for dan)" in before["fri", "status"]
    assert chouette("check").stdout.startswith("The ledger is consistent: 2 sessions")


def test_the_boards_of_cube_decisions_survive_an_export_and_an_import(
    chouette, tmp_path, monkeypatch
):
    chouette("new", "fri", "ann", "bob", "cat")
    chouette("double", "bob", "cat", "--position", "4HPwATDgc/ABMA")
    chouette("take", "bob")
    chouette("drop", "cat")
    chouette("end", "box")
    chouette("position", "1", "3", "4HPwATDgc/ABMA")
    chouette("double", "bob", "--by", "member", "--position", "YAAAGAAAAAAAAA")  # in progress
    before = [chouette("game", n).stdout for n in ("1", "2")]
    fingerprint = chouette("sheet").stdout.splitlines()[-1]
    export = tmp_path / "club.jsonl"
    chouette("export", str(export))
    monkeypatch.setenv("CHOUETTE_DB", str(tmp_path / "copy.db"))
    chouette("import", str(export))
    assert [chouette("game", n).stdout for n in ("1", "2")] == before
    assert "  3. drop cat --position 4HPwATDgc/ABMA\n" in before[0]
    assert chouette("sheet").stdout.splitlines()[-1] == fingerprint
    assert chouette("check").stdout.startswith("The ledger is consistent")


def test_check_finds_a_games_extras_that_its_events_do_not_give(chouette, ledger_url):
    from sqlalchemy import create_engine, text

    evening(chouette)
    chouette("end", "box")
    engine = create_engine(ledger_url)
    with engine.begin() as conn:
        conn.execute(text("UPDATE game SET detail = NULL"))
    engine.dispose()
    assert chouette("check", code=1).stderr.splitlines()[0] == (
        "Problem: fri game 1: the extras it keeps are not what its events booked"
    )


def test_check_finds_someone_away_who_is_not_in_the_line(chouette, ledger_url):
    from sqlalchemy import create_engine, text

    chouette("new", "fri", "ann", "bob", "cat", "--proxies")
    chouette("proxy", "cat", "--by", "bob")
    engine = create_engine(ledger_url)
    with engine.begin() as conn:
        line = conn.execute(text("SELECT line FROM session")).scalar_one()
        damaged = json.loads(line) | {"away": [["zed", "dan"]]}
        conn.execute(text("UPDATE session SET line = :line"), {"line": json.dumps(damaged)})
    engine.dispose()
    assert chouette("check", code=1).stderr.splitlines()[0] == (
        "Problem: fri: someone is away who is not in the line, or away twice"
    )
