"""An import books each game once: one the ledger holds already (from another file, or from
earlier in the same file) is skipped, however the file's games fall into batches.

The import books a batch as though none of its games were in the ledger, and the ledger's
unique index on a game's identity refuses the batch if one is; then the batch is taken back
and booked asking the ledger first (db/imports.py). These tests make batches of a few games
(``files.engine.BATCH``), so that a clash falls in any batch."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import files.engine
from tests.examples import examples

pytestmark = pytest.mark.backends("sqlite", "postgres")

PLAYERS = ("ann", "bob", "cat")
#: each example of the law its own session and games: the ledger outlives the examples
RUNS = itertools.count()


def record(series: str, game: int) -> dict[str, object]:
    """Game ``game`` of the neutral series ``series``: its players and cube by its number."""
    winner, loser = PLAYERS[game % 3], PLAYERS[(game + 1 + game // 3) % 3]
    if winner == loser:
        loser = PLAYERS[(game + 2) % 3]
    cube = 2 ** (game % 3)
    return {
        "session": series,
        "game": game,
        "winner": winner,
        "loser": loser,
        "cube": cube,
        "result": "single",
        "end": "bearoff",
        "points": cube,
    }


def write(path: Path, records: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def totals(chouette, session: str) -> dict[str, int]:
    standings = chouette.json("--session", session, "standings")
    return {p["name"]: p["points"] for p in standings["players"] if p["points"]}


def expected(records: list[dict[str, object]]) -> dict[str, int]:
    points: dict[str, int] = {}
    for r in records:
        winner, loser, won = str(r["winner"]), str(r["loser"]), int(str(r["points"]))
        points[winner] = points.get(winner, 0) + won
        points[loser] = points.get(loser, 0) - won
    return {player: p for player, p in points.items() if p}


def test_games_booked_already_from_another_file_are_skipped_and_the_rest_booked(
    chouette, tmp_path, monkeypatch
):
    monkeypatch.setattr(files.engine, "BATCH", 3)
    chouette("new", "club", *PLAYERS, "dan")
    dans = {**record("may", 9), "winner": "dan"}  # dan plays only in a game booked already
    first = [record("may", g) for g in range(1, 6)] + [dans]
    chouette("import", str(write(tmp_path / "first.jsonl", first)))
    later = [dans] + [record("may", g) for g in range(1, 9)]  # the same six, and three more
    done = chouette("import", str(write(tmp_path / "later.jsonl", later)))
    assert done.stdout.startswith("later.jsonl: 3 games booked into club, 6 already in the ledger")
    assert "6 games of this file were booked already from first.jsonl" in done.stderr
    summary = [line.split()[0] for line in done.stdout.splitlines()[3:]]
    assert sorted(summary) == ["ann", "bob", "cat"]  # the players of the games booked now
    assert len(chouette.json("sheet")["games"]) == 9
    assert totals(chouette, "club") == expected([*first, *later[6:]])
    chouette("check")


def test_a_game_another_file_booked_is_named_though_its_cited_source_skips_it_first(
    chouette, tmp_path
):
    """A record citing its source is skipped once that source is booked; the import still
    says it was booked from another file."""
    chouette("new", "club", *PLAYERS)
    cited = {**record("may", 1), "source": {"sha256": "ab" * 32, "game_index": 1}}
    chouette("import", str(write(tmp_path / "first.jsonl", [cited])))
    done = chouette("import", str(write(tmp_path / "again.jsonl", [cited, record("may", 2)])))
    assert done.stdout.startswith("again.jsonl: 1 game booked into club, 1 already in the")
    assert "1 game of this file was booked already from another file" in done.stderr
    chouette("undo")
    told = chouette("--lang", "cs", "import", str(tmp_path / "again.jsonl")).stderr
    assert "1 hra tohoto souboru už byla zapsána z jiného souboru: tytéž hry, přeskočeno" in told
    assert len(chouette.json("sheet")["games"]) == 2
    chouette("check")


def test_a_game_a_file_holds_twice_a_batch_apart_is_booked_once(chouette, tmp_path, monkeypatch):
    monkeypatch.setattr(files.engine, "BATCH", 3)
    chouette("new", "club", *PLAYERS)
    games = [record("may", g) for g in range(1, 7)]
    twice = [*games[:4], games[1], *games[4:]]  # game 2 again, in the second batch
    out = chouette("import", str(write(tmp_path / "twice.jsonl", twice))).stdout
    assert out.startswith("twice.jsonl: 6 games booked into club, 1 already in the ledger")
    assert len(chouette.json("sheet")["games"]) == 6
    assert totals(chouette, "club") == expected(games)
    chouette("check")


@pytest.mark.backends("sqlite")
@settings(
    max_examples=examples(20),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    drawn=st.lists(st.lists(st.integers(1, 8), min_size=1, max_size=10), min_size=1, max_size=4),
    batch=st.integers(1, 4),
)
def test_files_of_overlapping_games_book_each_game_once_whatever_the_order(
    chouette, tmp_path, drawn, batch
):
    run = next(RUNS)
    session, series = f"club{run}", f"series{run}"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(files.engine, "BATCH", batch)
        chouette("new", session, *PLAYERS)
        booked = 0
        for i, games in enumerate(drawn):
            path = write(tmp_path / f"run{run}-{i}.jsonl", [record(series, g) for g in games])
            out = chouette("--session", session, "import", str(path)).stdout
            if "nothing booked" not in out:
                booked += int(out.split(": ", 1)[1].split(" ", 1)[0])
    union = sorted({g for games in drawn for g in games})
    assert booked == len(union)
    sheet = chouette.json("--session", session, "sheet")
    assert len(sheet["games"]) == len(union)
    assert totals(chouette, session) == expected([record(series, g) for g in union])
    chouette("check")
