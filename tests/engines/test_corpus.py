"""Real exports players download, read as their score headers say.

``tests/corpus/`` holds files from Backgammon Galaxy, Backgammon Studio, Backgammon ABC,
eXtreme Gammon (desktop and Mobile), gnubg and an online server, each with its source and
licence (``tests/corpus/SOURCES.md``). ``truth.json`` gives every game's winner and points
as ``truth.py`` works them out from the files' score headers and ``Wins`` lines, with no
code of chouette's; this test reads every file through the importer's own path (encoding,
gzip, the reader) and compares game by game.

Where the truth and the booking rules of the README differ on purpose, the test says so:
the last game of a match is booked at the file's own ``Wins`` line (its scored result), not
capped at what the winner needed; a forfeit (``????`` then a ``Wins`` line that is no cube
result) is booked at the cube in force, a single; an unfinished last game is not booked.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from chouette.engines import EngineGame
from chouette.rules import HouseRules
from files.engine import check_file
from tests.paths import CORPUS

TRUTH: dict[str, Any] = json.loads((CORPUS / "truth.json").read_text(encoding="utf-8"))
SOURCES: dict[str, Any] = json.loads((CORPUS / "sources.json").read_text(encoding="utf-8"))
NAMELESS = ("Player 1", "Player 2")


def read(path: Path) -> tuple[list[EngineGame], tuple[str, ...]]:
    with check_file(path, HouseRules(), match_as_money=True) as checked:
        games = [game for batch in checked.batches() for game in batch]
    assert len(games) == checked.games
    return games, checked.notes


def expected(file: dict[str, Any], game: dict[str, Any]) -> tuple[str, int | None]:
    """The winner and points the booking rules give, from the independent truth."""
    side = game["side"]
    winner = game["winner"] or NAMELESS[side - 1]
    wins = game.get("wins_line_points")
    if "forfeit_marker" in game["flags"] and not cube_result(wins):
        return winner, None  # 'Wins 4016 point' after ????: the cube in force, checked apart
    if "match_capped" in game["flags"]:
        return winner, wins  # the file's own scored result
    return winner, game["points"]


def cube_result(points: int | None) -> bool:
    """Whether ``points`` is some cube (1, 2, 4, …) × 1, 2 or 3."""
    return points is not None and any(
        points % level == 0 and (points // level) & (points // level - 1) == 0
        for level in (1, 2, 3)
    )


def test_the_corpus_is_what_sources_md_lists() -> None:
    # the binary .xg and .bgf files are checked against their text twins' truth apart
    # (tests/engines/test_binary_files.py): truth.py reads text
    text = {name for name, source in SOURCES.items() if "binary" not in source["features"]}
    assert set(TRUTH) == text
    files = [p for p in CORPUS.rglob("*") if p.is_file() and not p.name.startswith("LICENSE")]
    data = {str(p.relative_to(CORPUS)) for p in files if p.suffix not in (".py", ".json", ".md")}
    assert data == set(SOURCES)
    producers = {s["producer"] for s in SOURCES.values()}
    assert {"galaxy", "backgammon-studio", "backgammon-abc", "xg", "gnubg"} <= producers
    for name, source in SOURCES.items():
        for licence in source.get("licence_copy", []):
            assert (CORPUS / licence).is_file(), (name, licence)


@pytest.mark.parametrize("name", sorted(TRUTH), ids=sorted(TRUTH))
def test_every_real_file_books_its_games_as_the_score_headers_say(name: str) -> None:
    file = TRUTH[name]
    games, notes = read(CORPUS / name)
    truth = [g for g in file["games"] if g["determined"]]
    unfinished = [g for g in file["games"] if "unfinished" in g["flags"]]
    assert len(games) == len(truth), notes
    for game, want in zip(games, truth, strict=True):
        winner, points = expected(file, want)
        assert game.number in (None, want["number"]) or file["format"] == "sgf"
        assert game.winner == winner, (want["number"], game)
        if points is None:
            assert (game.end, game.result, game.points) == ("forfeit", "single", game.cube)
        else:
            assert game.points == points, (want["number"], game)
    if unfinished:
        assert any(f"game {unfinished[0]['number']} (line " in str(n) for n in notes), notes
    if "galaxy_money_as_16pt" in file["flags"]:
        assert any(
            "Backgammon Galaxy writes its money games as 16-point matches" in str(n) for n in notes
        )


def test_every_dialect_of_the_issue_is_in_the_corpus() -> None:
    """Empty names, Losses lines, repeated turn numbers, Cannot Move, ???? forfeits, capped
    last games, Galaxy's 16-point money, BOM, CRLF and each derived storage variant."""
    text = {name: (CORPUS / name).read_bytes() for name in TRUTH if not name.endswith(".gz")}
    flags = {f for file in TRUTH.values() for f in file["flags"]}
    game_flags = {f for file in TRUTH.values() for g in file["games"] for f in g["flags"]}
    assert {"empty_player_name", "galaxy_money_as_16pt"} <= flags
    assert {"match_capped", "forfeit_marker", "capped_at_16", "unfinished"} <= game_flags
    assert any(b"Losses" in t for t in text.values())
    assert any(b"Cannot Move" in t for t in text.values())
    assert any(b"????" in t for t in text.values())
    assert any(t.startswith(b"\xef\xbb\xbf") for t in text.values())
    assert any(b"\r\n" in t for t in text.values())
    derived = {name.split("/", 1)[1] for name in TRUTH if name.startswith("derived/")}
    assert {"xg-mobile-money.tabs.mat", "xg-mobile-money.cr-only.mat", "xg-mobile-money.mat.gz",
            "xg-mobile-money.utf16le-bom.mat", "xg-test.cp1252.mat", "gnubg-charlot.sgf.gz",
            "xg-mobile-money.unfinished-last-game.mat"} <= derived  # fmt: skip
