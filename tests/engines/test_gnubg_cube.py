"""GNU Backgammon run as its own program to evaluate cube decisions (``files/gnubg.py``): the
command file it is given, its answers read and checked against what was asked (a board it
did not set up as asked is an error, never a guess), and, with the real program (``slow``),
exact answers where the position's answer is exact, and its Position IDs agreeing with
chouette's own reading of the same boards typed as XGIDs."""

from __future__ import annotations

import random
import subprocess
from decimal import Decimal

import pytest

from chouette.position import BAR, Position, parse_position
from chouette.review import Asked, CubeState, Equities
from files.gnubg import EngineFailed, EngineMissing, commands, evaluate, find_gnubg, read_answers

ACE_AGAINST_SIX = "YAAAGAAAAAAAAA"
SIX_AGAINST_ACE = "AwAAAAMAAAAAAA"
START = "4HPwATDgc/ABMA"
CENTRED = CubeState(centred=True, jacoby=False)

#: What gnubg 1.07 prints for one ``eval`` (its board drawing left out).
ANSWER = """Position ID:\t{position}
Match ID:\t{match}

Evaluator: \tContact

Cube analysis
2-ply cubeless equity +0.075862
  0.525211 0.149291 0.006836 - 0.474789 0.125359 0.005326
Cubeful equities:
1. No double           +0.105192
2. Double, pass        +1.000000  (+0.894808)
3. Double, take        -0.171133  (-0.276325)
Proper cube action: No double, beaver (23.6%)
"""


def test_the_command_file_sets_each_board_and_cube_and_a_session_per_jacoby_setting():
    asked = [
        Asked(START, CubeState(centred=True, jacoby=True)),
        Asked(ACE_AGAINST_SIX, CubeState(centred=False, jacoby=False)),
    ]
    text = commands(asked, beavers=False, plies=2)
    lines = text.splitlines()
    assert "set beavers 0" in lines and "set evaluation cubedecision evaluation plies 2" in lines
    tail = lines[lines.index("set jacoby on") :]
    assert tail == [
        "set jacoby on",
        "new session",
        "set turn 1",
        f"set board {START}",
        "set cube value 1",
        "set cube centre",
        "eval",
        "set jacoby off",
        "new session",
        "set turn 1",
        f"set board {ACE_AGAINST_SIX}",
        "set cube value 2",
        "set cube owner 1",
        "eval",
    ]


def test_each_answer_is_read_by_its_labels_whatever_their_order():
    asked = [Asked(START, CENTRED)]
    answers = read_answers(ANSWER.format(position=START, match="cAkAAAAAAAAE"), asked)
    assert answers == {
        asked[0]: Equities(Decimal("0.105192"), Decimal("-0.171133"), Decimal("1.000000"))
    }


@pytest.mark.parametrize(
    ("position", "match", "cube", "problem"),
    [
        (ACE_AGAINST_SIX, "cAkAAAAAAAAE", CENTRED, f"it evaluated {ACE_AGAINST_SIX}"),
        (START, "UQkAAAAAAAAE", CENTRED, "it set another cube value"),
        (START, "cAkAAAAAAAAA", CENTRED, "it set the Jacoby rule otherwise"),
        (
            START,
            "cAkAAAAAAAAE",
            CubeState(centred=False, jacoby=False),
            "it set another cube value",
        ),
        (START, "cIkJAAAAAAAE", CENTRED, "it had the dice rolled"),
    ],
)
def test_an_answer_for_another_board_or_cube_than_asked_is_an_error(position, match, cube, problem):
    asked = [Asked(START, cube)]
    with pytest.raises(EngineFailed) as err:
        read_answers(ANSWER.format(position=position, match=match), asked)
    assert str(err.value) == (
        f"GNU Backgammon did not evaluate the position {START} as asked: {problem}"
    )


def test_an_answer_missing_is_an_error_saying_what_gnubg_said_last():
    asked = [Asked(START, CENTRED), Asked(ACE_AGAINST_SIX, CENTRED)]
    output = ANSWER.format(position=START, match="cAkAAAAAAAAE") + "Illegal position.\n"
    with pytest.raises(EngineFailed) as err:
        read_answers(output, asked)
    assert str(err.value).startswith("GNU Backgammon evaluated 1 of the 2 positions asked: ")
    assert str(err.value).endswith("Illegal position.")


def test_without_gnubg_the_refusal_says_how_to_install_it(tmp_path):
    assert find_gnubg({"CHOUETTE_GNUBG": str(tmp_path / "none")}) is None
    with pytest.raises(EngineMissing) as err:
        evaluate([Asked(START, CENTRED)], beavers=True, program=str(tmp_path / "none"))
    assert "sudo apt-get install gnubg" in str(err.value)
    assert "brew install gnubg" in str(err.value)


# ---------------------------------------------------------------- the real program

needs_gnubg = pytest.mark.skipif(find_gnubg() is None, reason="gnubg is not installed")


@pytest.mark.slow
@needs_gnubg
def test_gnubg_scores_the_issues_bear_offs_exactly():
    asked = [Asked(ACE_AGAINST_SIX, CENTRED), Asked(SIX_AGAINST_ACE, CENTRED)]
    answers, engine = evaluate(asked, beavers=False, plies=2)
    assert engine.startswith("GNU Backgammon 1.")
    certain, long_shot = answers[asked[0]], answers[asked[1]]
    assert certain == Equities(Decimal(1), Decimal(2), Decimal(1))
    assert round(long_shot.no_double, 3) == Decimal("-0.778")  # 2 x 1/9 - 1
    assert round(long_shot.double_take, 3) == Decimal("-1.556")
    assert long_shot.double_pass == 1


def xgid(board: Position, turn: int) -> str:
    """``board`` as an XGID with the side on roll at the bottom (``turn`` 1) or the top."""
    bottom, top = (board.on_roll, board.opponent) if turn == 1 else (board.opponent, board.on_roll)
    places = []
    for index in range(26):
        if index == 0:
            places.append(chr(ord("a") + top[BAR] - 1) if top[BAR] else "-")
        elif index == 25:
            places.append(chr(ord("A") + bottom[BAR] - 1) if bottom[BAR] else "-")
        elif bottom[index - 1]:
            places.append(chr(ord("A") + bottom[index - 1] - 1))
        elif top[24 - index]:
            places.append(chr(ord("a") + top[24 - index] - 1))
        else:
            places.append("-")
    return f"XGID={''.join(places)}:0:0:{turn}:D:0:0:0:0:10"


def fifteen(rnd: random.Random, forbidden: set[int]) -> tuple[int, ...]:
    found = [0] * 25
    for _ in range(15):
        found[rnd.choice([p for p in range(25) if p not in forbidden])] += 1
    return tuple(found)


@pytest.mark.slow
@needs_gnubg
def test_gnubg_reads_each_xgid_as_the_board_chouette_reads(tmp_path):
    """Random boards, typed as XGIDs with either side on roll: gnubg's own ``set xgid`` gives
    the Position ID chouette gives."""
    rnd = random.Random(38)
    boards = []
    while len(boards) < 30:
        on_roll = fifteen(rnd, set())
        opponent = fifteen(rnd, {23 - p for p in range(24) if on_roll[p]})
        board = Position(on_roll, opponent)
        try:
            parse_position(board.id)
        except Exception:
            continue
        boards.append((board, rnd.choice((1, -1))))
    script = tmp_path / "xgids.txt"
    script.write_text("".join(f"set xgid {xgid(b, t)}\n" for b, t in boards))
    run = subprocess.run(
        [str(find_gnubg()), "-t", "-q", "-r", "-s", str(tmp_path), "-c", str(script)],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        env={"HOME": str(tmp_path), "LC_ALL": "C", "PATH": "/usr/bin:/bin"},
        timeout=120,
        check=False,
    )
    shown = [
        line.split("Position ID:")[1].strip()
        for line in run.stdout.splitlines()
        if "GNU Backgammon  Position ID:" in line
    ]
    ours = [parse_position(xgid(b, t)).id for b, t in boards]
    assert ours == [b.id for b, _ in boards]
    drawn = [x for i, x in enumerate(shown) if i == 0 or x != shown[i - 1]]  # (drawn again
    assert drawn[1:] == ours and drawn[0] == START  # as set; the start, before the first)
