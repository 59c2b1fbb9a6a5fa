"""End to end: gnubg plays a fresh session, and both readers book it as gnubg scored it."""

from __future__ import annotations

from pathlib import Path

import pytest

from chouette.engines import EngineGame, read_engine_file
from tests.gnubg_driver import (
    GnubgSession,
    Resigned,
    find_gnubg,
    play_money_session,
    resign_session,
)

pytestmark = pytest.mark.slow


def read_all(path: Path) -> list[EngineGame]:
    with path.open(encoding="utf-8") as f:
        return list(read_engine_file(path.name, f, jacoby=True, auto_doubles=2).games)


def final_score(session: GnubgSession, games: list[EngineGame]) -> tuple[int, int]:
    score = [0, 0]
    for game in games:
        score[session.players.index(game.winner)] += game.points
    return score[0], score[1]


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> GnubgSession:
    assert find_gnubg() is not None, "GNU Backgammon is not installed: apt-get install gnubg"
    return play_money_session(tmp_path_factory.mktemp("gnubg"), games=16, seed=4711)


def test_a_session_gnubg_plays_is_read_back_as_gnubg_scored_it(session: GnubgSession) -> None:
    truth = [(g.winner, g.loser, g.points, g.end) for g in session.games]
    assert len(truth) == 16
    assert session.players == ("Big Al", "Zoë")
    # the seed gives the cube noise the session is for
    assert any(g.initial_cube > 1 for g in session.games[:-1])
    assert sum(g.beavers for g in session.games) > 0
    assert sum(g.raccoons for g in session.games) > 0

    sgf = read_all(session.sgf)
    assert [(g.winner, g.loser, g.points, g.end) for g in sgf] == truth
    assert [g.cube for g in sgf] == [g.cube for g in session.games]
    assert final_score(session, sgf) == session.final_score

    mat = read_all(session.mat)
    assert [(g.winner, g.loser, g.points, g.end) for g in mat[:-1]] == truth[:-1]
    assert [w for g in mat[:-1] for w in g.warnings] == []
    # the last game has no score header after it: an opening double is invisible there
    last, last_truth = mat[-1], session.games[-1]
    assert (last.winner, last.end) == (last_truth.winner, last_truth.end)
    assert last.points * last_truth.initial_cube == last_truth.points
    assert any("automatic doubles" in str(w) for w in last.warnings)


def test_the_ledger_books_the_session_as_gnubg_scored_it(
    session: GnubgSession, chouette, tmp_path
) -> None:
    """Both exports imported through the CLI: the ledger's balance is gnubg's session score;
    in one ledger, the second export is the same games, booked once."""
    p0, p1 = session.players
    net = session.final_score[0] - session.final_score[1]
    chouette("new", "from-sgf", p0, p1, "--auto-doubles", "2")
    chouette("import", str(session.sgf))
    standings = {p["name"]: p["points"] for p in chouette.json("standings")["players"]}
    assert standings == {p0: net, p1: -net}
    twin = chouette.json("import", str(session.mat))[0]
    assert (twin["booked"], twin["already_in_ledger"]) == (0, len(session.games))
    other = ("--db", str(tmp_path / "mat.db"))
    chouette(*other, "new", "from-mat", p0, p1, "--auto-doubles", "2")
    said = chouette(*other, "import", str(session.mat))
    assert "cannot be seen" in said.stderr  # the last game's opening doubles, a warning
    sheet = chouette.json(*other, "sheet")["games"]
    assert [g["points"] for g in sheet[:-1]] == [
        {g.winner: g.points, g.loser: -g.points} for g in session.games[:-1]
    ]
    chouette(*other, "check")


@pytest.fixture(scope="module")
def resigned(tmp_path_factory: pytest.TempPathFactory) -> Resigned:
    """gnubg's own files of resignations at a centred cube under Jacoby (issue 34)."""
    assert find_gnubg() is not None, "GNU Backgammon is not installed: apt-get install gnubg"
    levels = ("backgammon", "gammon", "single", "backgammon")
    return resign_session(tmp_path_factory.mktemp("resign"), levels, seed=34)


def test_a_resignation_is_booked_at_the_points_gnubg_scored_whatever_jacoby(
    resigned: Resigned,
) -> None:
    """gnubg scores a resignation in full under Jacoby (play.c, MOVE_RESIGN), the .mat's last
    game included, where no score header follows to say so."""
    assert [points for _, points, _ in resigned.games] == [3, 2, 1, 3]
    assert all(resigned for _, _, resigned in resigned.games)
    for path in (resigned.mat, resigned.sgf):
        with path.open(encoding="utf-8") as f:
            games = list(read_engine_file(path.name, f, jacoby=True).games)
        assert [(g.winner, g.points, g.end) for g in games] == [
            (winner, points, "resign") for winner, points, _ in resigned.games
        ]
        assert [w for g in games for w in g.warnings] == []


def test_gnubgs_mat_and_sgf_of_resignations_are_the_same_games(
    resigned: Resigned, chouette
) -> None:
    """The dice a player rolled before resigning are in both files (the .mat writes ``61:``
    alone, the SGF ``DI[61]``): the same games, booked once (issue 34)."""
    chouette("new", "money", *resigned.players)
    first = chouette.json("import", str(resigned.sgf))[0]
    again = chouette.json("import", str(resigned.mat))[0]
    assert first["booked"] == 4 and (again["booked"], again["already_in_ledger"]) == (0, 4)
    standings = {p["name"]: p["points"] for p in chouette.json("standings")["players"]}
    assert standings == {"Ann": -9, "Bob": 9}
