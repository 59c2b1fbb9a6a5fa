"""``chouette amend``: a past game corrected with a trail, the games after it played again.

The law: a session whose game N is amended reads exactly as a fresh session that played the
same commands with game N's corrected end (sheet, standings, settlement, line), or the
correction is refused, naming the first game that breaks, and nothing is written; and
``undo`` takes a correction back to the ledger as it was before.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from tests.dump import dump
from tests.examples import examples
from tests.ledger.test_undo import NEUTRAL, reports

NOTE = ("--note", "ann and bob agree it was a gammon")


def readings(chouette, session: str) -> dict[str, object]:
    """What the players read of a session, without its name, trail and fingerprint."""
    sheet = chouette.json("--session", session, "sheet")
    for game in sheet["games"]:  # type: ignore[index]
        game.pop("amended", None)
        game["why"] = [
            w for w in game["why"] if not w.startswith("amended ") and "(a correction)" not in w
        ]
    status = chouette.json("--session", session, "status")
    read = {
        "sheet": sheet["games"],  # type: ignore[index]
        "standings": chouette.json("--session", session, "standings")["players"],  # type: ignore[index]
        "settle": chouette.json("--session", session, "settle")["payments"],  # type: ignore[index]
        "line": status["line"],  # type: ignore[index]
    }
    return read


EVENING = [
    ("double", "bob", "cat"),
    ("take", "bob"),
    ("drop", "cat"),
    ("end", "box"),  # game 1: corrected below to a team gammon
    ("sit-out", "dan"),
    ("end", "team", "--gammon"),
    ("join", "eve"),
    ("sit-in", "dan"),
    ("end", "box"),
    ("double", "ann", "--by", "member"),
    ("take", "ann"),
    ("end", "team"),
]


@pytest.mark.backends("sqlite", "postgres")
def test_an_amended_game_reads_as_a_fresh_session_played_with_the_right_result(chouette):
    chouette("new", "friday", "ann", "bob", "cat", "dan", "--stake", "2")
    for command in EVENING:
        chouette(*command)
    said = chouette("amend", "1", "--result", "team", "gammon", *NOTE).stdout
    assert said.startswith(
        "Game 1 amended: the board's end was box single, is team gammon (ann and bob agree it "
        "was a gammon).\n"
    )
    assert "Played again on the new line: games 2, 3, 4.\n" in said
    chouette("new", "fresh", "ann", "bob", "cat", "dan", "--stake", "2")
    for i, command in enumerate(EVENING):
        chouette(*(("end", "team", "--gammon") if i == 3 else command))
    assert readings(chouette, "friday") == readings(chouette, "fresh")
    chouette("check")


@pytest.mark.backends("sqlite", "postgres")
def test_the_trail_is_on_the_sheet_the_game_the_log_and_the_export(chouette, tmp_path):
    chouette("new", "friday", "ann", "bob", "cat")
    chouette("end", "box")
    chouette("end", "box")
    chouette("amend", "2", "--result", "box", "backgammon", "--resigned", *NOTE)
    sheet = chouette("sheet").stdout
    assert "2 (amended)" in sheet
    assert (
        "amended 2026-11-20 20:00 UTC: the board's end was box single, is box backgammon, "
        "resigned (ann and bob agree it was a gammon)"
    ) in sheet
    game = chouette.json("game", "2")
    assert game["why"][-1].startswith("amended 2026-11-20 20:00 UTC")  # type: ignore[index]
    trail = chouette.json("sheet")["games"][1]["amended"]  # type: ignore[index]
    assert trail == [
        {
            "at": "2026-11-20T20:00:00+00:00",
            "was": {"act": "end", "winner": "box", "kind": "single", "resigned": False},
            "is": {"act": "end", "winner": "box", "kind": "backgammon", "resigned": True},
            "note": "ann and bob agree it was a gammon",
        }
    ]
    assert chouette.json("log")["done"][0]["text"] == (  # type: ignore[index]
        "the correction of game 2: the board's end was box single, is box backgammon, resigned"
    )
    page = tmp_path / "friday.html"
    chouette("report", "--html", str(page), "--lang", "da")
    html = page.read_text(encoding="utf-8")
    assert '<span class="amended">(rettet)</span>' in html
    assert "Rettede spil (chouette amend): " in html
    assert (  # the trail in the page's words, the note as typed
        "rettet 2026-11-20 20:00 UTC: brættets afslutning var almindelig sejr til boksen, er "
        "backgammon til boksen, opgivet (ann and bob agree it was a gammon)"
    ) in html
    export = tmp_path / "friday.jsonl"
    chouette("export", str(export))
    assert chouette("verify", str(export)).exit_code == 0
    copy = tmp_path / "copy.db"
    chouette("--db", str(copy), "import", str(export))
    assert chouette("--db", str(copy), "sheet").stdout == sheet
    chouette("--db", str(copy), "check")


@pytest.mark.backends("sqlite", "postgres")
def test_undo_takes_a_correction_back(chouette):
    chouette("new", "friday", "ann", "bob", "cat", "dan")
    for command in EVENING:
        chouette(*command)
    chouette("double", "cat", "--by", "member")  # a game in progress, on the line it moves
    before = reports(chouette)
    chouette("amend", "1", "--result", "team", "gammon", *NOTE, code=None)
    after = reports(chouette)
    assert after != before
    assert chouette("undo").stdout == (
        "Undone: took back the correction of game 1: the board's end was box single, is team "
        "gammon.\n"
    )
    assert reports(chouette) == before
    chouette("check")


@pytest.mark.backends("sqlite", "postgres")
def test_a_correction_a_later_game_cannot_follow_is_refused_naming_it(chouette, ledger_url):
    chouette("new", "friday", "ann", "bob", "cat")
    chouette("end", "box")  # ann keeps the box; cat captains game 2
    chouette("double", "bob", "--by", "member")  # bob doubles the box: bob must be a member
    chouette("take", "bob")
    chouette("end", "box")
    before = dump(ledger_url)
    refused = chouette("amend", "1", "--result", "team", *NOTE, code=1)
    assert refused.stderr.startswith("Error: game 2 no longer fits the line it begins with (now ")
    assert "bob" in refused.stderr
    assert dump(ledger_url) == before


@pytest.mark.parametrize(
    ("setup", "args", "message"),
    [
        ([], ("amend", "3", "--result", "box", *NOTE), "there is no game 3 in friday"),
        ([("double", "bob")], ("amend", "2", "--result", "box", *NOTE), "game 2 is in progress"),
        ([], ("amend", "1", "--result", "box", *NOTE), "game 1 already ended so (box single)"),
        ([], ("amend", "1", "--result", "team", "--note", "  "), "say why the game is amended"),
        (
            [("double", "bob", "cat"), ("drop", "--all")],
            ("amend", "2", "--result", "box", *NOTE),
            "game 2 did not end on the board",
        ),
    ],
)
def test_what_cannot_be_amended_is_refused(chouette, ledger_url, setup, args, message):
    chouette("new", "friday", "ann", "bob", "cat")
    chouette("end", "box")
    for command in setup:
        chouette(*command)
    before = dump(ledger_url)
    refused = chouette(*args, code=1)
    assert message in refused.stderr, refused.stderr
    assert dump(ledger_url) == before


def test_the_result_and_the_note_are_required(chouette):
    chouette("new", "friday", "ann", "bob", "cat")
    chouette("end", "box")
    assert "--result box|team" in chouette("amend", "1", *NOTE, code=2).stderr
    assert "--note TEXT" in chouette("amend", "1", "--result", "team", code=2).stderr


def test_an_imported_engine_game_is_the_files(chouette, tmp_path):
    chouette("new", "friday", "ann", "bob", "cat")
    record = {**NEUTRAL, "session": "friday", "game": 1}
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    chouette("import", str(path))
    refused = chouette("amend", "1", "--result", "team", *NOTE, code=1)
    assert "game 1 is an imported engine game" in refused.stderr


def test_json_says_what_was_what_is_and_what_moved(chouette):
    chouette("new", "friday", "ann", "bob", "cat", "--stake", "1")
    chouette("end", "box")
    done = chouette.json("amend", "1", "--result", "team", *NOTE)
    assert done == {
        "session": "friday",
        "game": 1,
        "was": {"act": "end", "winner": "box", "kind": "single", "resigned": False},
        "is": {"act": "end", "winner": "team", "kind": "single", "resigned": False},
        "note": "ann and bob agree it was a gammon",
        "cubes": [],
        "points": {"ann": -2, "bob": 1, "cat": 1},
        "cents": {"ann": -200, "bob": 100, "cat": 100},
        "games": [1],
        "moved_cents": {"ann": -400, "bob": 200, "cat": 200},
        "line": ["bob", "cat", "ann"],
        "why": done["why"],  # type: ignore[index]
    }
    assert sum(done["moved_cents"].values()) == 0  # type: ignore[index]


# ---------------------------------------------------------------- the law

PLAYERS = ("ann", "bob", "cat", "dan", "eve")
GAME = st.lists(
    st.one_of(
        st.tuples(st.just("double"), st.sampled_from(PLAYERS), st.just("--by"), st.just("member")),
        st.tuples(st.just("double"), st.sampled_from(PLAYERS)),
        st.tuples(st.sampled_from(["take", "drop"]), st.just("--all")),
    ),
    max_size=3,
)
END = st.tuples(
    st.just("end"),
    st.sampled_from(["box", "team"]),
    st.sampled_from([(), ("--gammon",), ("--backgammon",)]),
).map(lambda e: (e[0], e[1], *e[2]))
BETWEEN = st.lists(
    st.tuples(st.sampled_from(["sit-out", "sit-in", "leave", "join"]), st.sampled_from(PLAYERS)),
    max_size=2,
)
RULES = [(), ("--retention", "net-not-loss"), ("--partner-from", "4")]


@pytest.mark.slow  # a few hundred commands an example
@settings(max_examples=examples(15), deadline=None)
@given(
    st.lists(st.tuples(BETWEEN, GAME, END), min_size=2, max_size=5),
    st.sampled_from(RULES),
    st.data(),
)
def test_amending_is_playing_the_evening_again_with_the_right_result(games, rules, data):
    from db.engine import dispose_all
    from tests.conftest import Chouette

    chouette = Chouette()
    with tempfile.TemporaryDirectory() as folder:
        os.environ["CHOUETTE_DB"] = str(Path(folder) / "ledger.db")
        try:
            chouette("new", "played", "ann", "bob", "cat", "dan", *rules)
            done: list[tuple[str, ...]] = []  # the commands the evening accepted
            ends: dict[int, int] = {}  # each game ended on the board: its end command's index
            for between, events, end in games:
                for command in [*between, *events]:
                    if chouette(*command, code=None).exit_code == 0:
                        done.append(command)
                result = chouette(*end, "--json", code=None)
                if result.exit_code == 0:
                    ends[json.loads(result.stdout)["game"]] = len(done)
                    done.append(end)
            if not ends:
                return
            number = data.draw(st.sampled_from(sorted(ends)), label="game")
            winner = data.draw(st.sampled_from(["box", "team"]), label="winner")
            level = data.draw(st.sampled_from(["single", "gammon", "backgammon"]), label="level")
            corrected = ("end", winner, *(() if level == "single" else (f"--{level}",)))
            before = dump(f"sqlite:///{folder}/ledger.db")
            amended = chouette(
                "amend", str(number), "--result", winner, level, *NOTE, "--json", code=None
            )
            if amended.exit_code != 0:
                assert amended.stderr.startswith("Error: "), amended.stderr
                assert dump(f"sqlite:///{folder}/ledger.db") == before
                if "already ended so" in amended.stderr:
                    event("the same end: no correction")
                    return
            chouette("new", "fresh", "ann", "bob", "cat", "dan", *rules)
            fresh = [corrected if i == ends[number] else c for i, c in enumerate(done)]
            accepted = [chouette(*c, code=None).exit_code == 0 for c in fresh]
            if amended.exit_code != 0:  # the evening cannot be played with the right result
                assert not all(accepted), amended.stderr
                event("refused: a later game breaks")
                return
            event(f"amended: {len(json.loads(amended.stdout or '{}').get('games', []))} games")
            assert all(accepted), [c for c, ok in zip(fresh, accepted, strict=True) if not ok]
            assert readings(chouette, "played") == readings(chouette, "fresh")
            chouette("check")
        finally:
            dispose_all()


# ---------------------------------------------------------------- a cube misrecorded


def test_a_misrecorded_cube_is_corrected_as_if_it_had_been_recorded_right(chouette):
    chouette("new", "friday", "ann", "bob", "cat", "--stake", "1")
    chouette("double", "bob")  # the box doubles bob, who takes; bob's redouble is not entered
    chouette("take", "bob")
    chouette("end", "team")
    chouette("end", "box")
    done = chouette.json("amend", "1", "--cube", "bob=4", "--note", "bob redoubled to 4")
    assert done["cubes"] == [{"member": "bob", "was": 2, "is": 4}]  # type: ignore[index]
    assert done["was"] == done["is"]  # type: ignore[index]
    trail = chouette("sheet").stdout
    assert "amended 2026-11-20 20:00 UTC: bob's cube was 2, is 4 (bob redoubled to 4)" in trail
    chouette("new", "fresh", "ann", "bob", "cat", "--stake", "1")
    for command in (("double", "bob"), ("take", "bob"), ("double", "bob", "--by", "member"),
                    ("take", "bob"), ("end", "team"), ("end", "box")):  # fmt: skip
        chouette(*command)
    assert readings(chouette, "friday") == readings(chouette, "fresh")
    chouette("check")


def test_a_cube_correction_and_a_result_together_and_undo(chouette):
    chouette("new", "friday", "ann", "bob", "cat")
    chouette("double", "bob", "cat")
    chouette("take", "--all")
    chouette("end", "box")
    before = reports(chouette)
    said = chouette(
        "amend", "1", "--result", "team", "gammon", "--cube", "CAT=1", "--note", "cat dropped"
    ).stdout
    assert said.startswith(
        "Game 1 amended: the board's end was box single, is team gammon; cat's cube was 2, "
        "is 1 (cat dropped).\n"
    )
    assert "cat's cube is 1, as the table agreed it was (a correction)" in said
    assert chouette("undo").stdout == (
        "Undone: took back the correction of game 1: the board's end was box single, is team "
        "gammon; cat's cube was 2, is 1.\n"
    )
    assert reports(chouette) == before


@pytest.mark.parametrize(
    ("cube", "message"),
    [
        ("bob=2", "bob's cube in game 1 was 2 already"),
        ("cat=2", "game 1: cat is already out of this game (cat dropped)"),
        ("dan=2", "game 1: "),
    ],
)
def test_a_cube_correction_that_does_not_fit_is_refused(chouette, ledger_url, cube, message):
    chouette("new", "friday", "ann", "bob", "cat")
    chouette("double", "bob", "cat")
    chouette("take", "bob")
    chouette("drop", "cat")
    chouette("end", "box")
    before = dump(ledger_url)
    refused = chouette("amend", "1", "--cube", cube, "--note", "x", code=1)
    assert refused.stderr.startswith(f"Error: {message}"), refused.stderr
    assert dump(ledger_url) == before


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--cube", "bob"), "--cube: a cube is MEMBER=VALUE, such as bob=4, not 'bob'"),
        (("--cube", "bob=3"), "--cube: bob's cube is 1, 2, 4, 8 … up to"),
        (("gammon", "--cube", "bob=4"), "a level or --resigned goes with --result box|team"),
        (("--cube", "bob=4", "--cube", "bob=8"), "--cube: bob's cube is given twice (--cube "
         "bob=4 and --cube bob=8): give each member's cube once"),
        (("--cube", "bob=4", "--cube", "BOB=8"), "--cube: BOB's cube is given twice (--cube "
         "bob=4 and --cube BOB=8): give each member's cube once"),
    ],
)  # fmt: skip
def test_a_cube_correction_typed_wrong_is_a_usage_error(chouette, args, message):
    chouette("new", "friday", "ann", "bob", "cat")
    chouette("end", "box")
    assert message in chouette("amend", "1", *args, "--note", "x", code=2).stderr
