"""Engine files read back as gnubg itself scored them, and every bad file refused by line.

The truth comes from gnubg's own data (engine-samples/manifest.json and
tests/engine_data/truth.json), never from parsing the files.
"""

from __future__ import annotations

import gzip
import io
import json
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chouette.engines import (
    MULTIPLIER,
    EngineGame,
    EngineRead,
    read_csv,
    read_engine_file,
    read_jsonl,
    read_mat,
    read_sgf,
)
from chouette.errors import EngineFileError
from files.words import words
from tests.examples import examples

HEADER = "session,game,winner,loser,cube,result,end,points\n"
from tests.paths import ENGINE_DATA  # noqa: E402
from tests.samples import SAMPLES  # noqa: E402

DATA = ENGINE_DATA


# ---------------------------------------------------------------------------- helpers


def text_of(path: Path) -> str:
    if path.suffix == ".gz":
        with gzip.open(path, "rt", encoding="utf-8") as f:
            return f.read()
    return path.read_text(encoding="utf-8")


def read_path(
    path: Path, *, jacoby: bool, auto_doubles: int = 0
) -> tuple[EngineRead, list[EngineGame]]:
    """Read a file the way the CLI will: opened as UTF-8 text, streamed line by line."""
    name = path.name.removesuffix(".gz")
    with (
        gzip.open(path, "rt", encoding="utf-8")
        if path.suffix == ".gz"
        else path.open(encoding="utf-8")
    ) as f:
        read = read_engine_file(name, f, jacoby=jacoby, auto_doubles=auto_doubles)
        return read, list(read.games)


def truth_row(game: EngineGame) -> tuple[str, str, int, str, int, str]:
    return (game.winner, game.loser, game.points, game.end, game.cube, game.result)


def expected_row(truth: dict[str, Any]) -> tuple[str, str, int, str, int, str]:
    return (
        truth["winner"],
        truth["loser"],
        truth["points_won"],
        truth["end"],
        truth["final_cube"],
        truth["scored_as"],
    )


def check_invariants(games: list[EngineGame]) -> None:
    """What every booked engine game must satisfy, whatever the file said."""
    for position, game in enumerate(games, 1):
        assert game.position == position
        assert game.winner != game.loser
        assert game.cube >= 1 and game.cube & (game.cube - 1) == 0
        if game.end not in ("settle", "forfeit"):
            assert game.points == game.cube * MULTIPLIER[game.result]


def sample_manifest() -> dict[str, Any]:
    path = SAMPLES / "manifest.json"
    if not path.exists():
        return {"files": []}
    return json.loads(path.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


MANIFEST = sample_manifest()
SAMPLE_FILES = [f for f in MANIFEST["files"] if f["format"] in ("mat", "sgf")]
TRUTH = json.loads((DATA / "truth.json").read_text(encoding="utf-8"))
DATA_FILES = {f["file"]: f for f in TRUTH["files"]}


def session_auto_doubles(session: str) -> int:
    commands = MANIFEST["sessions"][session]["settings"]["commands"]
    found = [int(c.rsplit(" ", 1)[1]) for c in commands if c.startswith("set automatic doubles")]
    return found[0] if found else 0


# ------------------------------------------------------------ the shared sample corpus


def test_the_sample_corpus_has_every_file_the_manifest_lists() -> None:
    assert len(SAMPLE_FILES) == 10
    for entry in SAMPLE_FILES:
        assert (SAMPLES / entry["path"]).exists(), entry["path"]


@pytest.mark.parametrize(
    "entry",
    [f for f in SAMPLE_FILES if f["kind"] == "money"],
    ids=lambda f: f["path"].rsplit("/", 1)[1],
)
def test_every_sample_money_game_reads_as_gnubg_scored_it(entry: dict[str, Any]) -> None:
    read, games = read_path(
        SAMPLES / entry["path"],
        jacoby="Jacoby" in entry["rules"],
        auto_doubles=session_auto_doubles(entry["session"]),
    )
    assert read.session.format == entry["format"]
    assert read.session.players == tuple(entry["players"])
    assert read.session.match_length == 0 and not read.session.is_match
    assert [truth_row(g) for g in games] == [expected_row(t) for t in entry["games"]]
    assert [g.number for g in games] == [t["game"] for t in entry["games"]]
    # every header explains its game: nothing to warn about
    assert [w for g in games for w in g.warnings] == []
    check_invariants(games)


@pytest.mark.parametrize("kind", ["mat", "sgf"])
def test_the_sample_match_file_is_recognised_as_a_seven_point_match(kind: str) -> None:
    entry = next(f for f in SAMPLE_FILES if f["kind"] == "match" and f["format"] == kind)
    read, games = read_path(SAMPLES / entry["path"], jacoby=True, auto_doubles=2)
    assert read.session.match_length == 7
    assert read.session.is_match
    assert read.session.players == ("Match West", "Match East")
    assert [truth_row(g) for g in games] == [expected_row(t) for t in entry["games"]]


def test_the_sample_sessions_settle_to_gnubgs_final_score() -> None:
    for entry in SAMPLE_FILES:
        _, games = read_path(SAMPLES / entry["path"], jacoby="Jacoby" in entry["rules"])
        players = entry["players"]
        score = [0, 0]
        for game in games:
            score[players.index(game.winner)] += game.points
        assert score == entry["final_score"], entry["path"]


# ---------------------------------------------- files generated with gnubg for these tests


def data_read(name: str, **rules: Any) -> tuple[EngineRead, list[EngineGame], dict[str, Any]]:
    entry = DATA_FILES[name]
    jacoby = rules.pop("jacoby", "Jacoby" in entry["rules"])
    auto_doubles = rules.pop("auto_doubles", entry["auto_doubles"])
    read, games = read_path(DATA / name, jacoby=jacoby, auto_doubles=auto_doubles)
    return read, games, entry


@pytest.mark.parametrize(
    "name",
    [n for n in DATA_FILES if n != "s04_money_autodoubles_raccoons.mat"],
)
def test_every_generated_game_reads_as_gnubg_scored_it(name: str) -> None:
    read, games, entry = data_read(name)
    assert read.session.players == tuple(entry["players"])
    assert [truth_row(g) for g in games] == [expected_row(t) for t in entry["games"]]
    assert [w for g in games for w in g.warnings] == []
    check_invariants(games)


def test_automatic_doubles_come_from_the_score_headers_of_a_mat_file() -> None:
    read, games, entry = data_read("s04_money_autodoubles_raccoons.mat")
    assert read.session.players == ("Big Al", "Zoë")
    truth = entry["games"]
    assert any(t["initial_cube"] > 1 for t in truth[:-1])
    assert sum(t["raccoons"] for t in truth) > 0
    assert [truth_row(g) for g in games[:-1]] == [expected_row(t) for t in truth[:-1]]
    assert [w for g in games[:-1] for w in g.warnings] == []


def test_the_last_game_of_a_mat_file_cannot_show_its_automatic_doubles() -> None:
    _, games, entry = data_read("s04_money_autodoubles_raccoons.mat")
    last, truth = games[-1], entry["games"][-1]
    assert truth["initial_cube"] == 2  # gnubg's opening double, not in the file
    assert (last.winner, last.points, last.end) == ("Big Al", 1, "drop")
    assert last.points * truth["initial_cube"] == truth["points_won"]
    assert tuple(map(str, last.warnings)) == (
        "game 25: no score header follows the last game, so automatic doubles (up to 2) "
        "cannot be seen; booked at 1 point as the moves say",
    )


def test_automatic_doubles_beyond_the_house_rule_are_booked_as_the_headers_say() -> None:
    _, games, entry = data_read("s04_money_autodoubles_raccoons.mat", auto_doubles=0)
    truth = entry["games"]
    assert [truth_row(g)[:3] for g in games[:-1]] == [expected_row(t)[:3] for t in truth[:-1]]
    doubled = [t["game"] for t in truth[:-1] if t["initial_cube"] > 1]
    warned = [g.number for g in games if g.warnings]
    assert warned == doubled
    assert tuple(map(str, games[1].warnings)) == (
        "game 2: the file's moves say 16 points, the next score header says 32 points",
    )
    assert games[-1].warnings == ()  # no automatic doubles by the house rule: nothing to doubt


def centred_gammons(entry: dict[str, Any]) -> list[int]:
    """Games whose final board shows a gammon that gnubg scored single (Jacoby)."""
    return [
        t["game"]
        for t in entry["games"]
        if t.get("board_result") == "gammon" and t["scored_as"] == "single"
    ]


def test_centred_cube_gammons_count_single_under_jacoby() -> None:
    read, games, entry = data_read("s08_money_jacoby_scripted_never_doubles.mat")
    assert read.session.jacoby is None  # gnubg does not say: the house rule decides
    gammons = centred_gammons(entry)
    assert len(gammons) == 3
    for number in gammons:
        game = games[number - 1]
        assert (game.points, game.cube, game.result, game.end) == (1, 1, "single", "bearoff")
        assert entry["games"][number - 1]["file_wins_line_points"] == 2


def test_a_house_rule_without_jacoby_is_overruled_by_the_headers_with_a_warning() -> None:
    _, games, entry = data_read("s08_money_jacoby_scripted_never_doubles.mat", jacoby=False)
    assert [truth_row(g) for g in games[:-1]] == [expected_row(t) for t in entry["games"][:-1]]
    gammons = [number for number in centred_gammons(entry) if number < len(games)]
    warned = {g.position: tuple(map(str, g.warnings)) for g in games if g.warnings}
    assert sorted(warned) == gammons
    assert warned[gammons[0]] == (
        f"game {gammons[0]}: the next score header counts the gammon at a centred cube as a "
        "single (1 point), as if Jacoby were on",
    )


def test_nackgammon_is_read_from_the_variation_tag() -> None:
    read, _, _ = data_read("s06_money_nackgammon.mat")
    assert read.session.variation == "NackGammon"
    read, _, _ = data_read("s06_money_nackgammon.sgf")
    assert read.session.variation == "Nackgammon"
    assert read.session.jacoby is True


def test_an_analysed_sgf_file_reads_as_gnubg_scored_it() -> None:
    path = DATA / "s07_money_1ply_analysis.sgf.gz"
    text = text_of(path)
    assert len(text) > 700_000 and "DA[" in text and "A[0]" in text
    entry = DATA_FILES["s07_money_1ply_analysis.sgf.gz"]
    for chunks in (io.StringIO(text), chunked(text, 65536), chunked(text, 997)):
        games = list(read_sgf(chunks, jacoby=True).games)
        assert [truth_row(g) for g in games] == [expected_row(t) for t in entry["games"]]


def chunked(text: str, size: int) -> Iterator[str]:
    return (text[i : i + size] for i in range(0, len(text), size))


@pytest.mark.parametrize("size", [1, 2, 3, 64, 4096])
def test_sgf_reads_the_same_in_chunks_of_any_size(size: int) -> None:
    text = text_of(DATA / "s04_money_autodoubles_raccoons.sgf")
    by_lines = list(read_sgf(io.StringIO(text), jacoby=False).games)
    assert list(read_sgf(chunked(text, size), jacoby=False).games) == by_lines
    assert len(by_lines) == 25


def test_sgf_with_a_byte_order_mark_and_windows_line_ends_reads_the_same() -> None:
    text = text_of(DATA / "s06_money_nackgammon.sgf")
    windows = "\ufeff" + text.replace("\n", "\r\n")
    expected = list(read_sgf(io.StringIO(text), jacoby=True).games)
    assert list(read_sgf(io.StringIO(windows, newline=""), jacoby=True).games) == expected
    assert list(read_sgf(chunked(windows, 5), jacoby=True).games) == expected


def test_sgf_dates_every_game_by_the_first() -> None:
    _, games, _ = data_read("s04_money_autodoubles_raccoons.sgf")
    assert {g.played_at for g in games} == {"2024-01-27"}
    _, games, _ = data_read("s04_money_autodoubles_raccoons.mat")
    assert {g.played_at for g in games} == {"2024-01-27"}


def test_the_first_game_starts_on_its_own_line() -> None:
    _, mat_games, _ = data_read("s06_money_nackgammon.mat")
    lines = (DATA / "s06_money_nackgammon.mat").read_text(encoding="utf-8").splitlines()
    assert [lines[g.line - 1].strip() for g in mat_games[:3]] == ["Game 1", "Game 2", "Game 3"]
    _, sgf_games, _ = data_read("s06_money_nackgammon.sgf")
    lines = (DATA / "s06_money_nackgammon.sgf").read_text(encoding="utf-8").splitlines()
    assert all(lines[g.line - 1].startswith("(;FF[4]GM[6]") for g in sgf_games)


# -------------------------------------------------------------------- XG-style .mat tags


def test_xg_header_tags_are_read() -> None:
    read, games = read_path(DATA / "xg_money_tags.mat", jacoby=False)
    session = read.session
    assert session.players == ("Big Al", "Zoë Ångström")
    assert (session.match_length, session.jacoby, session.beavers) == (0, True, True)
    assert (session.cube_limit, session.stake, session.currency) == (1024, "30.00", "USD")
    assert (session.variation, session.name) == ("Backgammon", "Tuesday money at the club")
    assert session.tags["Crawford"] == "Off"
    assert session.tags["Match ID"] == "20240527"
    assert session.tags["Player 2"] == "Zoë Ångström"
    assert [(g.winner, g.points, g.cube, g.result, g.end) for g in games] == [
        ("Zoë Ångström", 4, 2, "gammon", "bearoff"),  # a gammon with the cube taken
        ("Big Al", 1, 1, "single", "bearoff"),  # the Jacoby tag beats the house rule
        ("Zoë Ångström", 8, 8, "single", "resign"),  # double, beaver, raccoon, resignation
        ("Big Al", 1, 1, "single", "drop"),
    ]
    assert [g.line for g in games] == [19, 34, 47, 56]
    assert {g.played_at for g in games} == {"2024-05-27"}
    assert [w for g in games for w in g.warnings] == []


def test_a_jacoby_tag_set_off_beats_a_jacoby_house_rule() -> None:
    text = (DATA / "xg_money_tags.mat").read_text(encoding="utf-8")
    text = text.replace('[Jacoby "On"]', '[Jacoby "Off"]')
    text = re.sub(r"Big Al : 1( +Zoë Ångström : (4|12))", r"Big Al : 2\1", text)  # gammon: 2
    read = read_mat(io.StringIO(text), jacoby=True)
    assert read.session.jacoby is False
    games = list(read.games)
    assert (games[1].points, games[1].result) == (2, "gammon")
    assert [w for g in games for w in g.warnings] == []


# ------------------------------------------------------------- hand-made .mat scenarios


def turn(number: int, left: str = "", right: str = "") -> str:
    """A numbered line as gnubg lays it out: the right column starts at 33."""
    return f"{number:3d}) {left:<28}{right}".rstrip()


def wins(player: int, points: int) -> str:
    word = "point" if points == 1 else "points"
    return ("      " if player == 0 else " " * 34) + f"Wins {points} {word}"


def game(number: int, ann: int, bob: int, *rows: str) -> list[str]:
    return [f" Game {number}", f" {f'Ann : {ann}':<31}Bob : {bob}", *rows, ""]


def mat(*games: list[str], header: str = " 0 point match", tags: Iterable[str] = ()) -> str:
    lines = [*tags, "", header, ""]
    for rows in games:
        lines += rows
    return "\n".join(lines) + "\n"


OPENING = turn(1, "31: 8/5 6/5", "42: 8/4 6/4")
#: Ann doubles, Bob drops: Ann wins 1 point.
ANN_DOUBLE_BOB_DROPS = (OPENING, turn(2, " Doubles => 2", " Drops"), wins(0, 1))
#: Bob doubles, Ann drops (gnubg puts the Wins line on the same line).
BOB_DOUBLE_ANN_DROPS = (
    turn(1, "31: 8/5 6/5", " Doubles => 2"),
    turn(2, " Drops", "Wins 1 point"),
)
#: Ann bears off all 15 while Bob has none off: the board says gammon (Wins 2 at cube 1).
ANN_GAMMON_CENTRED = (
    turn(1, "66: 6/0 6/0 6/0 6/0", "21: 13/11 6/5"),
    turn(2, "66: 6/0(4)", "32: 13/10 13/11"),
    turn(3, "55: 5/0 5/0 5/0 5/0", "43: 24/20 24/21"),
    turn(4, "33: 3/0 3/0 3/0"),
    wins(0, 2),
)
#: Bob doubles, Ann beavers, Bob raccoons (no Takes), Ann gives up a single at 8.
RACCOON_RESIGN = (
    turn(1, "31: 8/5 6/5", " Doubles => 2"),
    turn(2, " Beavers => 4", " Beavers => 8"),
    turn(3, "52: 13/8 13/11", "64: 24/18 13/9"),
    wins(1, 8),
)


def read_text(text: str, **rules: Any) -> list[EngineGame]:
    rules.setdefault("jacoby", False)
    return list(read_mat(io.StringIO(text), **rules).games)


def booked(games: list[EngineGame]) -> list[tuple[str, int, int, str, str]]:
    return [(g.winner, g.points, g.cube, g.result, g.end) for g in games]


def test_drops_and_wins_on_one_line_and_on_two() -> None:
    games = read_text(
        mat(game(1, 0, 0, *ANN_DOUBLE_BOB_DROPS), game(2, 1, 0, *BOB_DOUBLE_ANN_DROPS))
    )
    assert booked(games) == [("Ann", 1, 1, "single", "drop"), ("Bob", 1, 1, "single", "drop")]


def test_a_raccoon_is_written_as_a_second_beaver_and_needs_no_take() -> None:
    games = read_text(mat(game(1, 0, 0, *RACCOON_RESIGN), game(2, 0, 8, *ANN_DOUBLE_BOB_DROPS)))
    assert booked(games)[0] == ("Bob", 8, 8, "single", "resign")
    assert games[0].warnings == ()


def test_refusing_a_beaver_pays_the_beavered_cube() -> None:
    rows = (turn(1, "31: 8/5 6/5", " Doubles => 2"), turn(2, " Beavers => 4", " Drops"), wins(0, 2))
    assert booked(read_text(mat(game(1, 0, 0, *rows)))) == [("Ann", 2, 2, "single", "drop")]


@pytest.mark.parametrize(
    ("jacoby", "next_score", "expected", "warning"),
    [
        (True, (1, 0), ("Ann", 1, 1, "single", "bearoff"), None),
        (False, (2, 0), ("Ann", 2, 1, "gammon", "bearoff"), None),
        (
            True,
            (2, 0),
            ("Ann", 2, 1, "gammon", "bearoff"),
            "game 1: the next score header counts the gammon at a centred cube (2 points), "
            "as if Jacoby were off",
        ),
        (
            False,
            (1, 0),
            ("Ann", 1, 1, "single", "bearoff"),
            "game 1: the next score header counts the gammon at a centred cube as a single "
            "(1 point), as if Jacoby were on",
        ),
        (
            True,
            (0, 4),
            ("Bob", 4, 4, "single", "bearoff"),
            "game 1: the file's moves say Ann won, the next score header says Bob",
        ),
        (
            True,
            (8, 0),
            ("Ann", 8, 8, "single", "bearoff"),
            "game 1: the file's moves say 1 point, the next score header says 8 points",
        ),
    ],
)
def test_the_next_score_header_decides_a_centred_gammon(
    jacoby: bool,
    next_score: tuple[int, int],
    expected: tuple[str, int, int, str, str],
    warning: str | None,
) -> None:
    text = mat(game(1, 0, 0, *ANN_GAMMON_CENTRED), game(2, *next_score, *ANN_DOUBLE_BOB_DROPS))
    first = read_text(text, jacoby=jacoby)[0]
    assert booked([first]) == [expected]
    assert tuple(map(str, first.warnings)) == (() if warning is None else (warning,))


def test_a_centred_gammon_in_the_last_game_follows_the_house_rule() -> None:
    assert booked(read_text(mat(game(1, 0, 0, *ANN_GAMMON_CENTRED)), jacoby=True)) == [
        ("Ann", 1, 1, "single", "bearoff")
    ]
    assert booked(read_text(mat(game(1, 0, 0, *ANN_GAMMON_CENTRED)), jacoby=False)) == [
        ("Ann", 2, 1, "gammon", "bearoff")
    ]


#: Ann moves once, then Bob gives up a backgammon at the centred cube.
BOB_RESIGNS_A_BACKGAMMON = (OPENING, turn(2, "52: 13/8 13/11"), wins(0, 3))


@pytest.mark.parametrize("jacoby", [True, False])
@pytest.mark.parametrize("last", [True, False])
def test_a_resignation_is_booked_at_its_full_value_whatever_the_jacoby_rule(
    jacoby: bool, last: bool
) -> None:
    """Issue 34: gnubg scores a resignation in full, Jacoby or not (play.c, MOVE_RESIGN:
    nPoints = nCube * nResigned) and its .mat line says that value: 'Wins 3 points' at a
    centred cube is 3 points, with no warning, in the last game as before a score header."""
    games = [game(1, 0, 0, *BOB_RESIGNS_A_BACKGAMMON)]
    if not last:
        games.append(game(2, 3, 0, *ANN_DOUBLE_BOB_DROPS))
    first = read_text(mat(*games), jacoby=jacoby)[0]
    assert booked([first]) == [("Ann", 3, 1, "backgammon", "resign")]
    assert first.warnings == ()


def test_a_game_played_out_still_takes_jacoby_from_the_file_or_the_house_rule() -> None:
    """gnubg's .mat export writes a game played out as the board's level × the cube the file
    shows (export.c, ExportGameJF: n * nFileCube), without Jacoby: that is still applied."""
    played = read_text(mat(game(1, 0, 0, *ANN_GAMMON_CENTRED)), jacoby=True)
    assert booked(played) == [("Ann", 1, 1, "single", "bearoff")]


def test_a_turn_number_written_again_before_the_right_hand_roll_reads_the_same() -> None:
    # as Backgammon Galaxy writes some lines: the line is read word by word, not at once
    again = (turn(2, "66: 6/0(4)", "2) 32: 13/10 13/11"), *ANN_GAMMON_CENTRED[2:])
    first = read_text(mat(game(1, 0, 0, *ANN_GAMMON_CENTRED[:1], *again)), jacoby=False)
    assert first == read_text(mat(game(1, 0, 0, *ANN_GAMMON_CENTRED)), jacoby=False)
    assert booked(first) == [("Ann", 2, 1, "gammon", "bearoff")]


def test_an_automatic_double_is_seen_in_the_next_header() -> None:
    text = mat(game(1, 0, 0, *ANN_DOUBLE_BOB_DROPS), game(2, 4, 0, *ANN_DOUBLE_BOB_DROPS))
    first, last = read_text(text, auto_doubles=2)
    assert booked([first]) == [("Ann", 4, 4, "single", "drop")]
    assert first.warnings == ()
    assert tuple(map(str, last.warnings)) == (
        "game 2: no score header follows the last game, so automatic doubles (up to 2) "
        "cannot be seen; booked at 1 point as the moves say",
    )


def test_net_score_headers_are_understood() -> None:
    text = mat(game(1, 0, 0, *ANN_DOUBLE_BOB_DROPS), game(2, 1, -1, *BOB_DOUBLE_ANN_DROPS))
    assert booked(read_text(text))[0] == ("Ann", 1, 1, "single", "drop")


def test_a_resignation_is_a_win_that_does_not_follow_the_last_checker_off() -> None:
    short = (*ANN_GAMMON_CENTRED[:3], turn(4, "33: 3/0 3/0"), wins(0, 2))
    assert booked(read_text(mat(game(1, 0, 0, *short)))) == [("Ann", 2, 1, "gammon", "resign")]
    early = (OPENING, wins(1, 3))
    assert booked(read_text(mat(game(1, 0, 0, *early)))) == [("Bob", 3, 1, "backgammon", "resign")]


def test_a_match_file_is_read_as_a_match_without_jacoby() -> None:
    read = read_mat(
        io.StringIO(mat(game(1, 0, 0, *ANN_GAMMON_CENTRED), header=" 7 point match")), jacoby=True
    )
    assert read.session.is_match and read.session.match_length == 7
    assert booked(list(read.games)) == [("Ann", 2, 1, "gammon", "bearoff")]


def test_names_with_spaces_and_accents_run_up_to_the_score() -> None:
    text = mat(game(1, 0, 0, *ANN_DOUBLE_BOB_DROPS)).replace(
        " Ann : 0                        Bob : 0", " Big Al : 0                     Zoë : 0"
    )
    read = read_mat(io.StringIO("\ufeff" + text), jacoby=False)
    assert read.session.players == ("Big Al", "Zoë")
    assert [(g.winner, g.loser) for g in read.games] == [("Big Al", "Zoë")]


def test_games_stream_one_at_a_time() -> None:
    text = mat(*(game(n, n - 1, 0, *ANN_DOUBLE_BOB_DROPS) for n in range(1, 6)))
    consumed: list[int] = []

    def lines() -> Iterator[str]:
        for number, line in enumerate(text.splitlines(keepends=True), 1):
            consumed.append(number)
            yield line

    read = read_mat(lines(), jacoby=True)
    assert read.session.players == ("Ann", "Bob")
    assert len(consumed) == 5  # the header and the first game's score line
    first = next(read.games)
    assert first.position == 1
    assert len(consumed) == 11  # up to the second game's score line
    assert len(list(read.games)) == 4


# ------------------------------------------------------------------ malformed .mat files


MAT_REFUSALS = [
    ("", "line 1: the file ends before its ' N point match' line"),
    ("Game 1\n", "line 1: expected the ' N point match' line of a .mat file, found 'Game 1'"),
    (" 0 point match\n\n", "line 1: the file has no games (no ' Game 1' line)"),
    (" 0 point match\n Game 1\n", "line 3: the file ends before the game's score line"),
    (
        " 0 point match\n Game 1\n  1) 31: 8/5 6/5\n",
        "line 3: expected the score line 'name : score   name : score', found '1) 31: 8/5 6/5'",
    ),
    (
        mat(game(1, 0, 0, OPENING), game(2, 0, 0, *ANN_DOUBLE_BOB_DROPS)),
        "line 8: game 1 has no winner (no 'Wins' line)",
    ),
    (
        mat(game(1, 0, 0, OPENING, turn(2, "33: 8/5 ?? 6/3"))),
        "line 7: cannot read '??' in '2) 33: 8/5 ?? 6/3'",
    ),
    (mat(game(1, 0, 0, OPENING, turn(3, "33: 8/5"))), "line 7: turn 3) follows turn 1)"),
    (mat(game(1, 0, 0, OPENING, turn(2, " Takes"))), "line 7: Ann takes but no double is pending"),
    (
        mat(game(1, 0, 0, OPENING, turn(2, " Doubles => 3"))),
        "line 7: Ann offers a cube of 3, which no cube shows",
    ),
    (
        mat(game(1, 0, 0, OPENING, turn(2, " Doubles => 2", " Beavers => 8"))),
        "line 7: Bob answers an offer of 2 with 8",
    ),
    (
        mat(game(1, 0, 0, OPENING, turn(2, " Doubles => 2", "55: 8/3 8/3 6/1 6/1"))),
        "line 7: Bob neither takes nor drops the double to 2",
    ),
    (
        mat(game(1, 0, 0, OPENING, turn(2, " Doubles => 2", " Drops"), wins(1, 1))),
        "line 8: Bob drops and then wins",
    ),
    (
        mat(game(1, 0, 0, *ANN_DOUBLE_BOB_DROPS, turn(3, "31: 8/5 6/5"))),
        "line 9: Ann plays on after the game has ended",
    ),
    (
        mat(game(1, 0, 0, *ANN_DOUBLE_BOB_DROPS), game(3, 1, 0, *ANN_DOUBLE_BOB_DROPS)),
        "line 10: Game 3 follows Game 1",
    ),
    (
        mat(game(1, 5, 3, *ANN_DOUBLE_BOB_DROPS), game(2, 4, 4, *ANN_DOUBLE_BOB_DROPS)),
        "line 11: the score goes from 5-3 to 4-4, which no single game result makes",
    ),
    (
        mat(game(1, 0, 0, *ANN_DOUBLE_BOB_DROPS), game(2, 5, 0, *ANN_DOUBLE_BOB_DROPS)),
        "line 11: game 1 is worth 5 points by the score headers, which no cube × 1, 2 or 3 makes",
    ),
    (
        mat(game(1, 0, 0, OPENING, wins(0, 5))),
        "line 7: game 1: 'Wins 5 points' is not the cube 1 × 1, 2 or 3",
    ),
    (
        mat(game(1, 0, 0, *ANN_DOUBLE_BOB_DROPS), tags=['; [Jacoby "Maybe"]']),
        'line 1: the Jacoby tag must be "On" or "Off", not "Maybe"',
    ),
    (
        mat(game(1, 0, 0, *ANN_DOUBLE_BOB_DROPS), tags=['; [CubeLimit "lots"]']),
        'line 1: CubeLimit must be a whole number of 1 or more, not "lots"',
    ),
    (
        mat(game(1, 0, 0, *ANN_DOUBLE_BOB_DROPS)).replace("Bob : 0", "Ann : 0"),
        "line 5: both players are called 'Ann'",
    ),
    (
        mat(game(1, 0, 0, *ANN_DOUBLE_BOB_DROPS)).replace(" Game 1\n", ""),
        "line 4: expected ' Game N', found 'Ann : 0                        Bob : 0'",
    ),
]


@pytest.mark.parametrize(("text", "message"), MAT_REFUSALS)
def test_a_malformed_mat_file_is_refused_by_line(text: str, message: str) -> None:
    with pytest.raises(EngineFileError) as refused:
        read_text(text)
    assert str(refused.value) == message


@pytest.mark.parametrize(
    ("name", "raw"),
    [
        ("x.mat", mat(game(1, 0, 0, *ANN_DOUBLE_BOB_DROPS)).encode() + b"\xff\xfe garbage\n"),
        ("x.sgf", b"(;GM[6]PW[\xff])"),
        ("x.jsonl", b'{"session": "\xff"}\n'),
        ("x.csv", HEADER.encode() + b"\xe9\n"),
    ],
)
def test_text_that_is_not_utf8_is_refused_by_line(name: str, raw: bytes) -> None:
    """A decoding error while the caller's file is read (Python decodes in blocks, so the
    line is where the block starts)."""
    with pytest.raises(EngineFileError, match=r"^line [0-9]+: not UTF-8 text$"):
        lines = io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8")
        list(read_engine_file(name, lines, jacoby=True).games)


# --------------------------------------------------------------------------------- SGF


def sgf_game(number: int, ws: int, bs: int, result: str, *nodes: str, root: str = "") -> str:
    return (
        f"(;FF[4]GM[6]CA[UTF-8]AP[GNU Backgammon:1.07.001]MI[length:0][game:{number}]"
        f"[ws:{ws}][bs:{bs}]PW[Ann]PB[Bob]RU[Jacoby]{root}RE[{result}]GS[M:0 0 9 9]\n"
        + "".join(f";{node}\n" for node in nodes)
        + ")\n"
    )


def read_sgf_text(text: str) -> list[EngineGame]:
    return list(read_sgf(io.StringIO(text), jacoby=True).games)


def test_sgf_beavers_raccoons_and_the_starting_cube() -> None:
    text = sgf_game(
        0,
        0,
        0,
        "B+32R",
        "W[31hefe]",
        "B[double]",
        "W[double]",
        "B[double]",
        "W[double]",
        "B[take]",
        "W[52fdmh]",
        root="CV[2]",
    ) + sgf_game(1, 0, 32, "W+2", "B[42hdfd]", "W[double]", "B[double]", "W[drop]")
    games = read_sgf_text(text)
    assert booked(games) == [("Bob", 32, 32, "single", "resign"), ("Ann", 2, 2, "single", "drop")]
    assert [g.warnings for g in games] == [(), ()]


def test_sgf_escapes_are_read_in_kept_values_and_skipped_in_others() -> None:
    text = sgf_game(
        0, 0, 0, "W+2", "W[66]A[0][x \\] y \\\\]C[a comment with \\] and ( ; )]"
    ).replace("PW[Ann]", "PW[Ann \\] \\\\ O'Neil]")
    (only,) = read_sgf_text(text)
    assert (only.winner, only.points, only.result, only.end) == (
        "Ann ] \\ O'Neil",
        2,
        "gammon",
        "bearoff",
    )


def test_sgf_results_that_do_not_fit_the_cube_or_the_next_score_are_warned() -> None:
    text = sgf_game(0, 0, 0, "W+8", "W[double]", "B[take]") + sgf_game(1, 4, 0, "B+1", "B[55]")
    first, second = read_sgf_text(text)
    assert booked([first]) == [("Ann", 8, 8, "single", "bearoff")]
    assert tuple(map(str, first.warnings)) == (
        "game 1: RE[] gives 8 points, which does not fit the cube 2",
        "game 1: RE[] gives Ann 8 points, but the next game starts 4-0 after 0-0",
    )
    assert second.warnings == ()


SGF_REFUSALS = [
    ("", "line 1: no game in the file (an SGF game starts with '(;')"),
    ("hello", "line 1: property hello outside a game tree '(…)'"),
    ("(;GM[6] 42)", "line 1: unexpected '4' (expected '(', ';', ')' or a property)"),
    (
        sgf_game(0, 0, 0, "W+1").replace("GM[6]", "GM[1]"),
        "line 1: GM[1] is not a backgammon game (GM[6])",
    ),
    (
        sgf_game(0, 0, 0, "W+1").replace("RE[W+1]", "") + sgf_game(1, 0, 0, "W+1"),
        "line 1: game 1 has no winner (no RE[] result)",
    ),
    (
        sgf_game(0, 0, 0, "W+1").replace("RE[W+1]", "RE[W+Resign]"),
        "line 1: cannot read the result RE[W+Resign] (expected W+n or B+n)",
    ),
    (sgf_game(0, 0, 0, "W+1").replace("PB[Bob]", ""), "line 1: the game has no PB[] (player name)"),
    (
        sgf_game(0, 0, 0, "W+1", "W[31hefe]")[:-3],
        "line 1: the file ends inside a game tree (no closing ')')",
    ),
    (sgf_game(0, 0, 0, "W+1", "W[31hefe")[:-2], "line 3: the file ends inside the value of W[]"),
    (sgf_game(0, 0, 0, "W+1", "B[take]"), "line 2: Bob takes with no double pending (B[take])"),
    (
        sgf_game(0, 0, 0, "W+1", "W[double]", "B[44]"),
        "line 3: Bob plays on with a double to 2 unanswered",
    ),
    (sgf_game(0, 0, 0, "W+1", "W[double]"), "line 3: game 1 ends with a double to 2 unanswered"),
    (sgf_game(0, 0, 0, "W+1", "W[double]", "W[double]"), "line 3: Ann doubles Ann's own offer"),
    (
        sgf_game(0, 0, 0, "W+1", "W[double]", "B[drop]", "W[33]"),
        "line 4: a move after the game was dropped",
    ),
    (
        sgf_game(0, 0, 0, "W+1", "W[31](;B[11])"),
        "line 2: a game with variations (a tree inside a tree)",
    ),
    (sgf_game(0, 0, 0, "W+5"), "line 1: game 1: 5 points is no cube × 1, 2 or 3"),
    (sgf_game(0, 0, 0, "W+1", root="CV[3]"), "line 1: the cube CV[3] is not a power of two"),
    (
        "(;FF[4]GM[6]MI[length:x]PW[a]PB[b]RE[W+1])",
        "line 1: cannot read MI[length:x] (expected key:number)",
    ),
    (";FF[4]", "line 1: ';' outside a game tree '(…)'"),
]


@pytest.mark.parametrize(("text", "message"), SGF_REFUSALS)
def test_a_malformed_sgf_file_is_refused_by_line(text: str, message: str) -> None:
    with pytest.raises(EngineFileError) as refused:
        read_sgf_text(text)
    assert str(refused.value) == message


def test_a_mat_or_sgf_files_refusal_is_said_in_the_readers_words() -> None:
    """The line, the players' names and the file's own words are values in a sentence of the
    reader's language (a count of points in each language's plural)."""
    with pytest.raises(EngineFileError) as drops:
        read_text(mat(game(1, 0, 0, OPENING, turn(2, " Doubles => 2", " Drops"), wins(1, 1))))
    assert words("da")(drops.value.said) == "linje 8: Bob dropper og vinder derefter"
    assert words("cs")(drops.value.said) == "řádek 8: Bob nepřijme a pak vyhraje"
    with pytest.raises(EngineFileError) as worth:
        read_text(mat(game(1, 0, 0, OPENING, wins(0, 5))))
    assert words("cs")(worth.value.said) == (
        "řádek 7: hra 1: 'Wins 5 points' není kostka 1 × 1, 2 nebo 3"
    )
    with pytest.raises(EngineFileError) as take:
        read_sgf_text(sgf_game(0, 0, 0, "W+1", "B[take]"))
    assert words("da")(take.value.said) == ("linje 2: Bob tager uden en ventende dobling (B[take])")


# ------------------------------------------------------------- the engine-neutral record


RECORD: dict[str, Any] = {
    "session": "club-2024-05-01",
    "game": 1,
    "winner": "ann",
    "loser": "bob",
    "cube": 2,
    "result": "gammon",
    "end": "bearoff",
    "points": 4,
}


def jsonl(*records: dict[str, Any]) -> str:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)


def test_neutral_records_read_from_json_lines() -> None:
    full = {
        **RECORD,
        "game": 2,
        "played_at": "2024-05-01T21:30:00Z",
        "rules": {"jacoby": True},
        "source": {"engine": "gnubg", "file": "may.sgf", "sha256": "AB" * 32, "game_index": 2},
    }
    settle = {**RECORD, "game": 3, "end": "settle", "points": 3, "winner": "Zoë", "loser": "Big Al"}
    read = read_jsonl(io.StringIO(jsonl(RECORD) + "\n   \n" + jsonl(full, settle)))
    assert read.session.format == "jsonl" and read.session.name == "club-2024-05-01"
    games = list(read.games)
    assert [(g.position, g.line, g.number) for g in games] == [(1, 1, 1), (2, 4, 2), (3, 5, 3)]
    assert booked(games) == [
        ("ann", 4, 2, "gammon", "bearoff"),
        ("ann", 4, 2, "gammon", "bearoff"),
        ("Zoë", 3, 2, "gammon", "settle"),
    ]
    second = games[1]
    assert second.played_at == "2024-05-01T21:30:00Z"
    assert second.rules == '{"jacoby": true}'
    assert second.source is not None
    assert (second.source.engine, second.source.sha256, second.source.game_index) == (
        "gnubg",
        "ab" * 32,
        2,
    )


def test_neutral_records_read_from_a_json_array() -> None:
    text = "[\n" + json.dumps(RECORD) + ",\n\n  " + json.dumps({**RECORD, "game": 2}) + "\n]\n"
    games = list(read_jsonl(io.StringIO(text)).games)
    assert [(g.position, g.line, g.number) for g in games] == [(1, 2, 1), (2, 4, 2)]


CSV_TEXT = (
    "\ufeffsession,game,winner,loser,cube,result,end,points,played_at,rules,"
    "source_engine,source_file,source_sha256,source_game_index\r\n"
    'club,1,ann,bob,2,gammon,bearoff,4,2024-05-01,"jacoby, beavers",gnubg,may.sgf,,3\r\n'
    "\r\n"
    'club,2,"Big Al",Zoë,1,single,drop,1,,,,,,\r\n'
    'club,3,"a ""quoted""\nname",bob,4,single,forfeit,0,,,,,,\r\n'
)


def test_neutral_records_read_from_csv() -> None:
    read = read_csv(io.StringIO(CSV_TEXT, newline=""))
    assert read.session.format == "csv"
    games = list(read.games)
    assert [(g.position, g.line) for g in games] == [(1, 2), (2, 4), (3, 5)]
    assert booked(games) == [
        ("ann", 4, 2, "gammon", "bearoff"),
        ("Big Al", 1, 1, "single", "drop"),
        ('a "quoted"\nname', 0, 4, "single", "forfeit"),
    ]
    first = games[0]
    assert (first.rules, first.played_at) == ("jacoby, beavers", "2024-05-01")
    assert first.source is not None and first.source.game_index == 3
    assert games[1].source is None and games[1].rules is None


def record_with(**changes: Any) -> dict[str, Any]:
    record = {**RECORD, **changes}
    return {key: value for key, value in record.items() if value is not ...}


def test_a_value_that_reads_like_a_field_name_is_not_a_repeated_field() -> None:
    record = record_with(session="winner", winner="loser", loser="bob")
    (game,) = list(read_jsonl([jsonl(record)]).games)
    assert (game.session, game.winner, game.loser) == ("winner", "loser", "bob")


JSONL_REFUSALS = [
    ("", "line 1: no records in the file"),
    ("{nope\n", "line 1: not JSON: Expecting property name enclosed in double quotes"),
    ("nope\n", "line 1: not JSON: Expecting value"),
    (jsonl(RECORD).strip() + " {}\n", "line 1: not JSON: Extra data"),
    (jsonl(RECORD) + '"text"\n', "line 2: a record must be a JSON object, not the text 'text'"),
    ("[1, 2]\n", "line 1: a record must be a JSON object, not the number 1"),
    ("[]\n", "line 1: no records in the file"),
    (jsonl(RECORD) + "[1]\n", "line 2: a record must be a JSON object, not a list"),
    ('{"cube": NaN}\n', "line 1: not JSON: NaN is not a number a record can hold"),
    ('{"game": 1, "game": 2}\n', "line 1: not JSON: field 'game' given twice"),
    ('{"game": 1, "\\u0067ame": 2}\n', "line 1: not JSON: field 'game' given twice"),
    ('{"source": {"file": "a", "file": "b"}}\n', "line 1: not JSON: field 'file' given twice"),
    (
        jsonl(record_with(colour="red")),
        "line 1: unknown field 'colour' (the fields are: "
        "session, game, winner, loser, cube, result, end, points, played_at, rules, source)",
    ),
    (jsonl(record_with(points=..., cube=...)), "line 1: missing fields cube, points"),
    (jsonl(record_with(game=0)), "line 1: game must be 1 or more, not 0"),
    (jsonl(record_with(game="1")), "line 1: game must be a whole number, not the text '1'"),
    (jsonl(record_with(cube=2.0)), "line 1: cube must be a whole number, not the number 2.0"),
    (jsonl(record_with(cube=True)), "line 1: cube must be a whole number, not true/false"),
    (jsonl(record_with(cube=3, points=6)), "line 1: cube must be 1, 2, 4, 8, …, not 3"),
    (jsonl(record_with(points=-1)), "line 1: points must be 0 or more, not -1"),
    (jsonl(record_with(points=6)), "line 1: points must be 4 (cube 2 × 2 for a gammon), not 6"),
    (jsonl(record_with(loser="ann")), "line 1: winner and loser are both 'ann'"),
    (jsonl(record_with(winner=" ")), "line 1: winner must not be empty"),
    (jsonl(record_with(winner=None)), "line 1: winner must be text, not null"),
    (
        jsonl(record_with(result="double")),
        "line 1: result must be one of single, gammon, backgammon, not 'double'",
    ),
    (
        jsonl(record_with(end="timeout")),
        "line 1: end must be one of bearoff, drop, resign, settle, forfeit, not 'timeout'",
    ),
    (jsonl(record_with(end="drop")), "line 1: result must be single for a drop, not 'gammon'"),
    (
        jsonl(record_with(played_at="yesterday")),
        "line 1: played_at must be an ISO 8601 date or time, not 'yesterday'",
    ),
    (jsonl(record_with(rules=7)), "line 1: rules must be text or a JSON object, not the number 7"),
    (
        jsonl(record_with(source={"sha256": "abc"})),
        "line 1: source.sha256 must be 64 hexadecimal digits",
    ),
    (
        jsonl(record_with(source={"engine": "gnubg", "size": 3})),
        "line 1: unknown field source.size (the fields are: engine, file, sha256, game_index)",
    ),
    (
        jsonl(record_with(source={"game_index": "2"})),
        "line 1: source.game_index must be a whole number, not '2'",
    ),
    (jsonl(RECORD) + "\n" + jsonl(record_with(session="")), "line 3: session must not be empty"),
    (
        "[" + json.dumps(RECORD) + "\n" + json.dumps(RECORD) + "]",
        "line 2: expected ',' or ']' after a record of the JSON array",
    ),
    ("[" + json.dumps(RECORD) + "]\nmore", "line 2: text after the end of the JSON array"),
]


@pytest.mark.parametrize(("text", "message"), JSONL_REFUSALS)
def test_a_malformed_neutral_record_is_refused_by_line_and_field(text: str, message: str) -> None:
    with pytest.raises(EngineFileError) as refused:
        list(read_jsonl(io.StringIO(text)).games)
    assert str(refused.value) == message


CSV_REFUSALS = [
    ("", "line 1: no header row (expected: session,game,winner,loser,cube,result,end,points)"),
    (HEADER, "line 1: no records in the file"),
    ("session,game,winner\n", "line 1: the header row lacks loser, cube, result, end, points"),
    (
        HEADER.replace("points", "points,colour"),
        "line 1: unknown column 'colour' (the columns "
        "are: session, game, winner, loser, cube, result, end, points, played_at, rules, "
        "source_engine, source_file, source_sha256, source_game_index)",
    ),
    (HEADER.replace("points", "points,cube"), "line 1: column 'cube' named twice"),
    (
        HEADER + "club,1,ann,bob,2,gammon,bearoff\n",
        "line 2: 7 values, but the header row names 8 columns",
    ),
    (
        HEADER + "club,one,ann,bob,2,gammon,bearoff,4\n",
        "line 2: game must be a whole number, not 'one'",
    ),
    (HEADER + "club,1,ann,bob,,gammon,bearoff,4\n", "line 2: cube must be a whole number, not ''"),
    (
        HEADER.strip() + ",source_game_index\nclub,1,ann,bob,2,gammon,bearoff,4, ３\n",
        "line 2: source_game_index must be a whole number, not ' ３'",
    ),
    (
        HEADER + "club,1,ann,bob,2,gammon,bearoff,5\n",
        "line 2: points must be 4 (cube 2 × 2 for a gammon), not 5",
    ),
    (
        HEADER + 'club,1,"ann,bob,2,gammon,bearoff,4\n',
        "line 2: cannot read the CSV: unexpected end of data",
    ),
]


@pytest.mark.parametrize(("text", "message"), CSV_REFUSALS)
def test_a_malformed_csv_record_is_refused_by_line_and_column(text: str, message: str) -> None:
    with pytest.raises(EngineFileError) as refused:
        list(read_csv(io.StringIO(text)).games)
    assert str(refused.value) == message


def test_a_files_refusal_is_said_in_the_readers_words() -> None:
    """The line number and the file's own words (a column, a value as written) are values
    in a sentence of the reader's language."""
    text = HEADER + "club,1,ann,bob,2,gammon,bearoff,5\n"
    with pytest.raises(EngineFileError) as refused:
        list(read_csv(io.StringIO(text)).games)
    assert words("da")(refused.value.said) == (
        "linje 2: points skal være 4 (cube 2 × 2 for et gammon), ikke 5"
    )
    assert words("cs")(refused.value.said) == (
        "řádek 2: points musí být 4 (cube 2 × 2 za gammon), ne 5"
    )
    with pytest.raises(EngineFileError) as missing:
        list(read_jsonl(io.StringIO(jsonl({"session": "club"}))).games)
    assert words("cs")(missing.value.said) == (
        "řádek 1: chybí pole game, winner, loser, cube, result, end, points"
    )


# ------------------------------------------------------------------------- the dispatcher


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("evening.mat", "mat"),
        ("EVENING.MAT", "mat"),
        ("export.txt", "mat"),
        ("games.sgf", "sgf"),
        ("results.jsonl", "jsonl"),
        ("results.json", "jsonl"),
        ("results.csv", "csv"),
    ],
)
def test_files_are_read_by_their_extension(name: str, kind: str) -> None:
    texts = {
        "mat": mat(game(1, 0, 0, *ANN_DOUBLE_BOB_DROPS)),
        "sgf": sgf_game(0, 0, 0, "W+1", "W[double]", "B[drop]"),
        "jsonl": jsonl(
            record_with(winner="Ann", loser="Bob", cube=1, result="single", end="drop", points=1)
        ),
        "csv": HEADER + "club,1,Ann,Bob,1,single,drop,1\n",
    }
    read = read_engine_file(name, io.StringIO(texts[kind]), jacoby=True, auto_doubles=0)
    assert read.session.format == kind
    assert booked(list(read.games)) == [("Ann", 1, 1, "single", "drop")]


@pytest.mark.parametrize("name", ["notes", "archive.mat.zip", "match.xgp"])
def test_an_unknown_kind_of_file_is_refused_by_name(name: str) -> None:
    with pytest.raises(EngineFileError, match=rf"^{re.escape(name)}: not an engine file this "):
        read_engine_file(name, io.StringIO(""), jacoby=True)


@pytest.mark.parametrize("name", ["match.xg", "game.bgf"])
def test_a_binary_engine_file_is_never_read_as_text(name: str) -> None:
    """.xg and .bgf are read as bytes by the importer (tests/engines/test_binary_files.py)."""
    with pytest.raises(EngineFileError, match=rf"^{re.escape(name)}: an .* file is binary"):
        read_engine_file(name, io.StringIO(""), jacoby=True)


# ------------------------------------------------------ mutated real files never crash


def first_games(text: str, count: int, start: str) -> str:
    """The file cut before its game ``count + 1`` (games begin with ``start``)."""
    cut = -1
    for _ in range(count + 1):
        cut = text.find(start, cut + 1)
        if cut < 0:
            return text
    return text[:cut]


MUTATION_SOURCES = {
    "mat": first_games(text_of(DATA / "s04_money_autodoubles_raccoons.mat"), 6, " Game "),
    "handmade": mat(game(1, 0, 0, *RACCOON_RESIGN), game(2, 0, 8, *ANN_GAMMON_CENTRED)),
    "xg": text_of(DATA / "xg_money_tags.mat"),
    "sgf": first_games(text_of(DATA / "s04_money_autodoubles_raccoons.sgf"), 5, "(;"),
    "analysis": first_games(text_of(DATA / "s07_money_1ply_analysis.sgf.gz"), 1, "(;"),
    "jsonl": jsonl(
        RECORD,
        record_with(game=2, end="settle", points=7, source={"engine": "x", "game_index": 1}),
    ),
    "csv": CSV_TEXT,
}
READERS = {
    "mat": "x.mat",
    "handmade": "x.mat",
    "xg": "x.mat",
    "sgf": "x.sgf",
    "analysis": "x.sgf",
    "jsonl": "x.jsonl",
    "csv": "x.csv",
}
GARBAGE = [
    "]",
    "[",
    "\\",
    "(",
    ")",
    ";",
    ":",
    ",",
    '"',
    "{",
    "}",
    "=>",
    "0",
    "9",
    "-1",
    " ",
    "\n",
    "\r",
    "\ufeff",
    "é",
    "Wins",
    "Doubles => 3",
    "Beavers => 4",
    "Takes",
    "Drops",
    " Game 2",
    "W[double]",
    "RE[W+3]",
    "\x00",
    "99999999999999999999",
]


@st.composite
def mutated(draw: st.DrawFn) -> tuple[str, str]:
    kind = draw(st.sampled_from(sorted(MUTATION_SOURCES)))
    lines = MUTATION_SOURCES[kind].splitlines(keepends=True)
    for _ in range(draw(st.integers(1, 4))):
        if not lines:
            break
        op = draw(
            st.sampled_from(["truncate", "delete", "duplicate", "garble", "number", "swap", "cut"])
        )
        i = draw(st.integers(0, len(lines) - 1))
        if op == "truncate":
            lines = lines[:i]
        elif op == "delete":
            del lines[i]
        elif op == "duplicate":
            lines.insert(i, lines[i])
        elif op == "garble":
            at = draw(st.integers(0, len(lines[i])))
            lines[i] = lines[i][:at] + draw(st.sampled_from(GARBAGE)) + lines[i][at + 1 :]
        elif op == "number":
            new = draw(st.sampled_from(["0", "1", "2", "3", "5", "64", "-2", "12345678901"]))
            lines[i] = re.sub(r"\d+", new, lines[i], count=draw(st.integers(0, 3)))
        elif op == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        else:
            text = "".join(lines)
            lines = text[: draw(st.integers(0, len(text)))].splitlines(keepends=True)
    return kind, "".join(lines)


def test_the_files_mutated_below_are_whole_and_valid() -> None:
    for kind, text in MUTATION_SOURCES.items():
        read = read_engine_file(READERS[kind], io.StringIO(text), jacoby=True, auto_doubles=2)
        assert len(list(read.games)) >= (1 if kind == "analysis" else 2)


@settings(max_examples=examples(500), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated(), st.booleans(), st.integers(0, 3))
def test_a_mutated_file_is_read_or_refused_with_an_engine_file_error(
    case: tuple[str, str], jacoby: bool, auto_doubles: int
) -> None:
    kind, text = case
    try:
        read = read_engine_file(
            READERS[kind], io.StringIO(text), jacoby=jacoby, auto_doubles=auto_doubles
        )
        games = list(read.games)
    except EngineFileError as error:
        assert re.match(r"line [0-9]+: \S", str(error)), str(error)
        return
    check_invariants(games)


# ------------------------------------------------------------ the reader's quick path


@settings(max_examples=examples(400), deadline=None)
@given(
    st.fixed_dictionaries(
        {
            "session": st.sampled_from(["club", " ", "", 7]),
            "game": st.sampled_from([1, 0, 5, True, "2"]),
            "winner": st.sampled_from(["ann", "bob", " ", None]),
            "loser": st.sampled_from(["bob", "ann", ""]),
            "cube": st.sampled_from([1, 2, 3, 4, 0, -2, True, 2.0]),
            "result": st.sampled_from(["single", "gammon", "backgammon", "double", ["single"]]),
            "end": st.sampled_from(["bearoff", "drop", "resign", "settle", "forfeit", "x"]),
            "points": st.sampled_from([0, 1, 2, 3, 4, 6, 8, 12, -1, False]),
        },
        optional={"played_at": st.sampled_from(["2024-05-01", "soon"]), "colour": st.just("red")},
    )
)
def test_the_quick_path_reads_a_record_exactly_as_the_checks_do(record: dict[str, Any]) -> None:
    from chouette.engines.neutral import _checked_game, _game

    def outcome(read: Any) -> Any:
        try:
            return read(3, 9, record)
        except EngineFileError as error:
            return str(error)

    assert outcome(lambda *at: _game(*at, {}.setdefault)) == outcome(_checked_game)


def test_the_games_of_many_records_share_one_copy_of_each_name_and_word() -> None:
    """A big file's games hold a handful of strings, not five per record: what the import
    keeps while it checks the file, and books from, stays small."""
    pairs = [("ann", "bob"), ("bob", "ann"), ("ann", "bob")]
    text = jsonl(
        *({**RECORD, "game": n, "winner": w, "loser": o} for n, (w, o) in enumerate(pairs, 1))
    )
    first, second, third = read_jsonl(io.StringIO(text)).games
    assert (first.winner, first.loser) == (third.winner, third.loser) == ("ann", "bob")
    assert first.winner is second.loser is third.winner
    assert first.loser is second.winner is third.loser
    assert first.session is second.session is third.session
    assert first.result is third.result and first.end is third.end
    assert first.key != third.key  # each game is still its own


def test_a_neutral_records_identity_is_the_same_however_it_is_checked() -> None:
    """The plain record's quick path and the field-by-field path give one key."""
    plain = {"session": "s", "game": 3, "winner": "ann", "loser": "bob", "cube": 2,
             "result": "gammon", "end": "bearoff", "points": 4}  # fmt: skip
    dated = {**plain, "played_at": "2026-11-20"}
    quick, slow, other = (
        next(read_jsonl([json.dumps(r)]).games) for r in (plain, {**plain, "rules": "x"}, dated)
    )
    assert quick.key == slow.key != other.key
    assert quick.key is not None and len(quick.key) == 32


def test_net_score_headers_that_come_back_to_0_0_still_decide_the_game() -> None:
    # Ann +2 (an automatic double), then Bob wins 2 at the automatically doubled cube: the
    # net score is even again, which is the header's word on game 2, not a writer repeating
    # 0 : 0 on every game.
    text = mat(
        game(1, 0, 0, *ANN_DOUBLE_BOB_DROPS),
        game(2, 2, -2, *BOB_DOUBLE_ANN_DROPS),
        game(3, 0, 0, *ANN_DOUBLE_BOB_DROPS),
    )
    read = read_mat(io.StringIO(text), jacoby=False, auto_doubles=1)
    first, second, _ = list(read.games)
    assert booked([first, second]) == [
        ("Ann", 2, 2, "single", "drop"),
        ("Bob", 2, 2, "single", "drop"),
    ]
    assert second.warnings == ()
    assert read.notes == []


def test_a_forfeit_in_the_middle_is_worth_the_cube_in_force_not_the_next_headers_4016() -> None:
    """Backgammon Studio counts a timeout as 4016 points in its score headers; the game is
    booked at the cube in force, a single, whether it is the file's last game or not."""
    forfeit = (
        turn(1, "31: 8/5 6/5", " Doubles => 2"),
        turn(2, " Takes", "32: ????"),
        wins(0, 4016),
    )
    games = read_text(mat(game(1, 0, 0, *forfeit), game(2, 4016, 0, *ANN_DOUBLE_BOB_DROPS)))
    assert booked(games) == [("Ann", 2, 2, "single", "forfeit"), ("Ann", 1, 1, "single", "drop")]
    assert tuple(map(str, games[0].warnings)) == (
        "game 1: a forfeit (Bob's last move is '????', the next score header counting "
        "4016 points): booked at the cube in force, 2 points",
    )
