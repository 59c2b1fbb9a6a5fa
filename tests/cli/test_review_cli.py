"""``chouette review`` through the command: each cube decision made at a board, scored by the
real GNU Backgammon for its own pair's cube (``slow``: it runs gnubg), exactly where the
position's answer is exact (the issue's bear-offs) and as gnubg evaluates it elsewhere (a
contact position for each rule that changes the answer: Jacoby on a centred cube, an owned
cube, beavers); its evaluations kept so that a second review asks the engine nothing; and
without gnubg, how to install it, nothing changed."""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine, text

from files.gnubg import find_gnubg
from tests.dump import dump

ACE_AGAINST_SIX = "YAAAGAAAAAAAAA"  # on roll: 2 on the ace point; the opponent 2 on its 6
SIX_AGAINST_ACE = "AwAAAAMAAAAAAA"  # the reverse: on roll wins only with 3-3 to 6-6
START = "4HPwATDgc/ABMA"
#: A blitz, gammonish: under Jacoby a centred cube is doubled and passed; without it the
#: doubler is too good and plays on for the gammon (gnubg 1.07, 2 plies).
BLITZ = "2xJqCiBuLotBAA"
#: A holding game, the doubler 39 pips ahead: double and take on a centred cube, but no
#: redouble when the doubler owns the cube (without Jacoby; gnubg 1.07, 2 plies).
HOLDING = "ujWCsCBejZURAA"

needs_gnubg = pytest.mark.skipif(find_gnubg() is None, reason="gnubg is not installed")


def decisions(chouette, *args: str) -> list[dict]:
    return chouette.json("review", *args)["decisions"]


def by_step(found: list[dict]) -> dict[tuple[int, str], dict]:
    return {(d["step"], d["member"]): d for d in found}


# ---------------------------------------------------------------- without the engine


def test_with_no_position_there_is_nothing_to_review_and_no_engine_is_needed(chouette, monkeypatch):
    monkeypatch.setenv("CHOUETTE_GNUBG", "/nowhere/gnubg")
    chouette("new", "fri", "ann", "bob", "cat")
    chouette("double", "bob")
    chouette("take", "bob")
    chouette("end", "box")
    assert chouette("review").stdout == (
        "No cube decision of fri has a position to review: give one with --position, or "
        "afterwards with chouette position N STEP ID.\n"
    )
    assert chouette.json("review") == {
        "session": "fri",
        "engine": None,
        "plies": 2,
        "decisions": [],
        "players": [],
    }


def test_without_gnubg_review_says_how_to_install_it_and_changes_nothing(
    chouette, monkeypatch, ledger_url
):
    monkeypatch.setenv("CHOUETTE_GNUBG", "/nowhere/gnubg")
    chouette("new", "fri", "ann", "bob", "cat")
    chouette("double", "bob", "--position", START)
    chouette("drop", "bob")
    chouette("end", "box")
    before = dump(ledger_url)
    result = chouette("review", code=1)
    assert result.stderr == (
        "Error: GNU Backgammon (gnubg) is not installed, and chouette review runs it to "
        "evaluate the positions. Install it from your system's packages (Debian, Ubuntu: "
        "sudo apt-get install gnubg; macOS: brew install gnubg), or name the program with "
        "CHOUETTE_GNUBG. Nothing was changed.\n"
    )
    assert dump(ledger_url) == before


@pytest.mark.parametrize(
    ("lang", "start"),
    [
        ("da", "Fejl: GNU Backgammon (gnubg) er ikke installeret"),
        ("cs", "Chyba: GNU Backgammon (gnubg) není nainstalován"),
    ],
)
def test_without_gnubg_the_reader_is_told_in_their_language(chouette, monkeypatch, lang, start):
    monkeypatch.setenv("CHOUETTE_GNUBG", "/nowhere/gnubg")
    chouette("new", "fri", "ann", "bob", "cat")
    chouette("double", "bob", "--position", START)
    chouette("drop", "bob")
    chouette("end", "box")
    result = chouette("--lang", lang, "review", code=1)
    assert result.stderr.startswith(start)
    assert "sudo apt-get install gnubg" in result.stderr and "CHOUETTE_GNUBG" in result.stderr


def test_the_game_in_progress_is_not_reviewed_until_it_is_over(chouette, monkeypatch):
    monkeypatch.setenv("CHOUETTE_GNUBG", "/nowhere/gnubg")
    chouette("new", "fri", "ann", "bob", "cat")
    chouette("double", "bob", "--position", START)
    result = chouette("review", "--game", "1", code=1)
    assert result.stderr == (
        "Error: game 1 is in progress: its decisions are reviewed once it is over (no engine "
        "advises a game while it is played)\n"
    )
    assert chouette.json("review")["decisions"] == []  # the whole session: left out


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--game", "9"], "Error: there is no game 9 in fri\n"),
        (["--player", "zed"], "Error: zed is not a player of fri\n"),
    ],
)
def test_a_review_of_nothing_there_is_refused(chouette, args, said):
    chouette("new", "fri", "ann", "bob", "cat")
    assert chouette("review", *args, code=1).stderr == said


def test_plies_are_zero_to_three(chouette):
    chouette("new", "fri", "ann", "bob", "cat")
    result = chouette("review", "--plies", "4", code=2)
    assert "give a whole number from 0 to 3" in result.stderr


# ---------------------------------------------------------------- the engine, for real


def certain_loss_taken(chouette) -> None:
    """The box doubles bob and cat, who are sure to lose (no beavers): bob takes, cat drops."""
    chouette("new", "fri", "ann", "bob", "cat", "--stake", "5", "--no-beavers", "--no-raccoons")
    chouette("double", "bob", "cat", "--position", ACE_AGAINST_SIX)
    chouette("take", "bob")
    chouette("drop", "cat")
    chouette("end", "box")


@pytest.mark.slow
@needs_gnubg
def test_a_take_of_a_certain_loss_costs_exactly_the_cube_in_points_and_money(chouette):
    certain_loss_taken(chouette)
    found = decisions(chouette)
    assert [(d["player"], d["action"], d["proper"], d["verdict"]) for d in found] == [
        ("ann", "double", "double", "double, drop"),
        ("ann", "double", "double", "double, drop"),
        ("bob", "take", "drop", "double, drop"),
        ("cat", "drop", "drop", "double, drop"),
    ]
    take = found[2]
    assert take["equities"] == {"no_double": 1.0, "double_take": 2.0, "double_pass": 1.0}
    assert (take["error_emg"], take["cost_points"], take["cost_cents"]) == (1.0, 1.0, 500)
    players = {p["player"]: p for p in chouette.json("review")["players"]}
    assert players["bob"] == {
        "player": "bob",
        "decisions": 1,
        "errors": 1,
        "unscored": 0,
        "error_emg": 1.0,
        "cost_points": 1.0,
        "cost_cents": 500,
    }
    assert players["ann"]["errors"] == 0 and players["cat"]["cost_cents"] == 0


@pytest.mark.slow
@needs_gnubg
def test_the_long_shots_double_costs_seven_ninths_and_more_where_it_can_be_beavered(chouette):
    chouette("new", "fri", "ann", "bob", "cat", "--stake", "5", "--no-beavers", "--no-raccoons")
    chouette("double", "bob", "--position", SIX_AGAINST_ACE)
    chouette("take", "bob")
    chouette("end", "team")
    double, take = decisions(chouette)
    assert (double["proper"], double["verdict"]) == ("no double", "no double, take")
    assert round(double["error_emg"], 3) == 0.778 and double["cost_cents"] == 389
    assert take["error_emg"] == 0.0
    chouette("new", "sat", "ann", "bob", "cat", "--stake", "5")  # beavers and raccoons on
    chouette("double", "bob", "--position", SIX_AGAINST_ACE)
    chouette("take", "bob")
    chouette("end", "team")
    double, take = decisions(chouette)
    assert double["verdict"] == "no double, beaver"
    assert round(double["error_emg"], 3) == 1.222  # beavered, ann refuses: pays 2
    assert (take["proper"], round(take["error_emg"], 3)) == ("beaver", 0.444)


def played_under(
    chouette, first: list[str], second: list[str], board: str, answer: str, winner: str
) -> tuple[list[dict], list[dict]]:
    """The same game under two sets of house rules: the box doubles bob at ``board``, bob
    answers, ``winner`` wins; each session's decisions reviewed."""
    found = []
    for number, rules in enumerate((first, second)):
        chouette("new", f"rules{number}", "ann", "bob", "cat", *rules)
        chouette("double", "bob", "--position", board)
        chouette(answer, "bob")
        chouette("end", winner)
        found.append(chouette.json("--session", f"rules{number}", "review")["decisions"])
    return found[0], found[1]


@pytest.mark.slow
@needs_gnubg
def test_jacoby_on_a_centred_cube_makes_a_double_of_what_is_too_good_without_it(chouette):
    jacoby, plain = played_under(chouette, [], ["--no-jacoby"], BLITZ, "drop", "box")
    assert (jacoby[0]["proper"], jacoby[0]["verdict"], jacoby[0]["error_emg"]) == (
        "double",
        "double, drop",
        0.0,
    )
    assert jacoby[0]["cube"]["jacoby"] is True and plain[0]["cube"]["jacoby"] is False
    assert (plain[0]["proper"], plain[0]["verdict"]) == ("no double", "too good, drop")
    assert plain[0]["error_emg"] > 0.2


@pytest.mark.slow
@needs_gnubg
def test_the_same_double_is_right_for_a_centred_cube_and_wrong_for_an_owned_one(chouette):
    chouette("new", "fri", "ann", "bob", "cat", "--no-jacoby")
    chouette("double", "bob", "--by", "member")
    chouette("take", "bob")  # ann owns bob's cube, at 2
    chouette("double", "bob", "cat", "--position", HOLDING)
    chouette("take", "--all")
    chouette("end", "box")
    found = by_step(decisions(chouette))
    owned, centred = found[(3, "bob")], found[(3, "cat")]
    assert owned["cube"] == {
        "value": 2,
        "centred": False,
        "jacoby": False,
        "beaver": True,
        "raccoon": True,
    }
    assert (owned["proper"], owned["verdict"]) == ("no double", "no double, take")
    assert (centred["proper"], centred["verdict"]) == ("double", "double, take")
    assert centred["error_emg"] == 0.0 and owned["error_emg"] > 0.05
    assert owned["cost_points"] == pytest.approx(2 * owned["error_emg"])


@pytest.mark.slow
@needs_gnubg
def test_beavers_allowed_make_a_beaver_the_answer_to_a_bad_double(chouette):
    without = ["--no-beavers", "--no-raccoons"]
    beavers, none = played_under(chouette, [], without, START, "take", "team")
    assert [d["proper"] for d in beavers] == ["no double", "beaver"]
    assert [d["proper"] for d in none] == ["no double", "take"]
    assert beavers[1]["error_emg"] > 0.15 and none[1]["error_emg"] == 0.0
    assert beavers[0]["error_emg"] > none[0]["error_emg"]  # a beaver doubles the doubler's loss


@pytest.mark.slow
@needs_gnubg
def test_a_second_review_asks_the_engine_nothing(chouette, monkeypatch, ledger_url):
    chouette("new", "fri", "ann", "bob", "cat")
    chouette("double", "bob", "cat", "--position", START)
    chouette("take", "--all")
    chouette("end", "box")
    first = chouette("review").stdout
    engine = create_engine(ledger_url)
    with engine.connect() as conn:
        kept = conn.execute(text("SELECT position, centred, jacoby, plies FROM evaluation")).all()
    engine.dispose()
    assert kept == [(START, True, True, 2)]  # one board, one cube: asked once
    monkeypatch.setenv("CHOUETTE_GNUBG", "/nowhere/gnubg")  # no engine to ask now
    assert chouette("review").stdout == first
    assert chouette("review", "--plies", "1", code=1).stderr.startswith(
        "Error: GNU Backgammon (gnubg) is not installed"
    )


@pytest.mark.slow
@needs_gnubg
def test_a_review_by_game_and_by_player_and_its_table(chouette):
    certain_loss_taken(chouette)
    chouette("double", "cat", "--by", "member")
    chouette("take", "cat")
    chouette("end", "team")
    assert [d["player"] for d in decisions(chouette, "--player", "BOB")] == ["bob"]
    assert len(decisions(chouette, "--game", "2")) == 0
    out = chouette("review").stdout
    assert out.splitlines()[0] == (
        f"fri: 4 cube decisions reviewed by {chouette.json('review')['engine']} at 2 plies."
    )
    row = next(
        line.split() for line in out.splitlines() if line.split()[:4] == ["1", "2", "bob", "bob"]
    )
    assert row[4:] == [
        "1,", "centred,", "Jacoby", "take", "drop", "+1.000", "+2.000", "+1.000", "1.000",
        "1.000", "5.00",
    ]  # fmt: skip
    assert out.splitlines()[-3].split() == ["bob", "1", "1", "1.000", "1.000", "5.00"]


@pytest.mark.slow
@needs_gnubg
@pytest.mark.parametrize(
    ("lang", "head", "take", "drop"),
    [
        ("da", ["spil", "trin", "spiller", "par", "terning"], "tage", "droppe"),
        ("cs", ["hra", "krok", "hráč", "dvojice", "kostka"], "přijmout", "nepřijmout"),
    ],
)
def test_a_review_is_told_in_danish_and_czech_with_their_decimal_comma(
    chouette, lang, head, take, drop
):
    certain_loss_taken(chouette)
    lines = chouette("--lang", lang, "review").stdout.splitlines()
    assert lines[1].split()[:5] == head
    row = next(line.split() for line in lines if line.split()[:4] == ["1", "2", "bob", "bob"])
    assert row[-8:] == [take, drop, "+1,000", "+2,000", "+1,000", "1,000", "1,000", "5,00"]
    assert lines[-3].split()[-3:] == ["1,000", "1,000", "5,00"]
    assert (
        chouette("--lang", lang, "review", "--json").stdout == chouette("review", "--json").stdout
    )  # what programs read is the same in every language
