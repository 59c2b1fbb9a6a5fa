"""eXtreme Gammon .xg and BGBlitz .bgf files, read through gammonview, booked as money.

``tests/corpus/xg-binary`` and ``tests/corpus/bgblitz-binary`` hold real binary files (their
sources and licences in ``tests/corpus/SOURCES.md``); most are the same matches as text files
of the corpus, whose truth (``truth.json``) was worked out from the score headers with no
reader of chouette's. Every binary game is read through the importer's own path and checked
against that truth; every .xg game also against ``binary-truth.json``, which
``binary_truth.py`` works out from the file's own score records with another reader
(xgparse), so the .xg files that have no text twin are checked too.

Where the booking rules and the truth differ on purpose, the test says so: the last game of
a match is booked at the file's own scored result (as for a ``.mat`` file). XG stores it as
the ``.mat`` does, capped at what the winner needed or not as the file has it; BGBlitz
stores it in full (``2`` where the ``.mat`` says ``Wins 1 point and the match``), and the
full result is booked, with a warning.

gammonview is an optional extra (``pip install '.[xg]'``); CI installs it.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import re
import struct
import subprocess
import sys
import tracemalloc
import zlib
from pathlib import Path
from typing import Any

import pytest

from chouette.engines import EngineGame
from chouette.engines.binary import (
    MAGIC_BYTES,
    MAX_BINARY,
    bgblitz_names,
    binary_magic,
    check_inflated,
    read_gammonview,
)
from chouette.errors import EngineFileError
from chouette.rules import HouseRules
from files.engine import check_file
from tests.engines.test_corpus import CORPUS, SOURCES, TRUTH, expected
from tests.paths import ROOT

try:
    import gvformat
except ImportError:  # pragma: no cover - the message says what to do
    pytest.fail(
        "these tests need the xg extra: pip install -e '.[xg]' (CI installs it)",
        pytrace=False,
    )

BINARY_TRUTH: dict[str, Any] = json.loads(
    (CORPUS / "binary-truth.json").read_text(encoding="utf-8")
)
BINARIES = sorted(name for name, source in SOURCES.items() if "binary" in source["features"])


def twin(name: str) -> str | None:
    """The text file of the same match, if the corpus has one."""
    path = Path(name)
    if path.parts[1] == "gammonview":
        return f"server-export-anonymised/gammonview/{path.stem}.mat"
    return {
        "xg-binary/gbf/test.xg": "xg/gbf/test.mat",
        "xg-binary/gbf/charlot1-charlot2_7p_2025-11-08-2305.xg": (
            "gnubg/gbf/charlot1-charlot2_7p_2025-11-08-2305.mat"
        ),
    }.get(name)


TWINNED = [name for name in BINARIES if twin(name) is not None]
MONEY_XG = "xg-binary/gammonview/Sz-2PgKnvb6aFls69-qFXg.xg"
MONEY_BGF = "bgblitz-binary/gammonview/Sz-2PgKnvb6aFls69-qFXg.bgf"


def read(name: str) -> tuple[list[EngineGame], tuple[str, ...]]:
    with check_file(CORPUS / name, HouseRules(), match_as_money=True) as checked:
        games = [game for batch in checked.batches() for game in batch]
        assert checked.format == Path(name).suffix[1:] and checked.encoding is None
    assert len(games) == checked.games
    return games, checked.notes


def spaced(name: str) -> str:
    """BGBlitz writes a space in a name as '_': names compared as a person reads them."""
    return name.replace("_", " ")


def test_every_binary_file_has_a_truth_to_be_checked_against() -> None:
    assert len([n for n in BINARIES if n.endswith(".xg")]) == 22
    assert len([n for n in BINARIES if n.endswith(".bgf")]) == 11
    for name in BINARIES:
        readable = "games" in BINARY_TRUTH.get(name, {})
        assert (twin(name) in TRUTH) or readable, name
    assert set(BINARY_TRUTH) == {n for n in BINARIES if n.endswith(".xg")}
    money = [n for n in TWINNED if TRUTH[twin(n)]["money"]]  # type: ignore[index]
    assert len(money) == 8  # the 4 money sessions, as .xg and as .bgf


@pytest.mark.parametrize("name", TWINNED, ids=TWINNED)
def test_every_binary_game_is_booked_as_its_text_twins_truth(name: str) -> None:
    text = TRUTH[twin(name)]  # type: ignore[index]
    games, notes = read(name)
    truth = [g for g in text["games"] if g["determined"]]
    assert len(games) == len(truth) and not notes
    last = len(truth)
    for game, want in zip(games, truth, strict=True):
        winner, points = expected(text, want)
        assert spaced(game.winner) == spaced(winner), (want["number"], game)
        assert game.number == want["number"]
        bgblitz_full = name.endswith(".bgf") and text["match_length"] and game.points != points
        if bgblitz_full:
            # on purpose: BGBlitz stores the match's last game in full, and it is booked as
            # the file scored it (a cube result), more than the .mat's capped line, with a warning
            assert want["number"] == last and "and_the_match" in want["flags"], game
            assert game.points > points and game.end != "settle"
            assert (
                game.points == game.cube * {"single": 1, "gammon": 2, "backgammon": 3}[game.result]
            )
            assert any(
                "more than the" in str(w) and "the match needed" in str(w) for w in game.warnings
            )
        else:
            assert game.points == points, (want["number"], game)


def test_bgblitz_books_four_match_endings_in_full_and_nothing_else_differs() -> None:
    """The differences the test above allows are exactly the four BGBlitz match endings."""
    full = []
    for name in (n for n in TWINNED if n.endswith(".bgf")):
        games, _ = read(name)
        text = TRUTH[twin(name)]  # type: ignore[index]
        truth = [g for g in text["games"] if g["determined"]]
        full += [
            (Path(name).stem, g.number, g.points, expected(text, t)[1])
            for g, t in zip(games, truth, strict=True)
            if g.points != expected(text, t)[1]
        ]
    assert full == [
        ("3WNK_g1Z-PLsh_HyvQ5j4a", 7, 2, 1),
        ("XCu3RJ0UvDg_Tldl", 2, 4, 3),
        ("baR-U643iUDpvzTC", 3, 4, 3),
        ("eXBNG5wZHS5Alu3P", 3, 2, 1),
    ]


XG_READ_BY_XGPARSE = sorted(n for n, t in BINARY_TRUTH.items() if "games" in t)

#: XG's own record of how a game ended (its footer's termination code, read by xgparse):
#: 0 a drop, 1-3 the game played out (single, gammon, backgammon), +100 a resignation.
ENDS = {0: "drop", 1: "bearoff", 2: "bearoff", 3: "bearoff"}


@pytest.mark.parametrize("name", XG_READ_BY_XGPARSE, ids=XG_READ_BY_XGPARSE)
def test_every_xg_game_is_booked_as_the_files_own_score_records_say(name: str) -> None:
    file = BINARY_TRUTH[name]
    games, notes = read(name)
    assert len(games) == len(file["games"]) and not notes
    for game, want in zip(games, file["games"], strict=True):
        assert game.winner == want["winner"], (want["number"], game)
        if "match_capped" in want["flags"]:
            assert game.points == want["points_won"]  # the file's own scored result
        else:
            assert game.points == want["points"], (want["number"], game)
        end = "resign" if want["termination"] >= 100 else ENDS[want["termination"]]
        assert game.end in (end, "settle"), (want["number"], game, want)


def test_the_two_truths_agree_where_a_match_has_both() -> None:
    """xgparse's reading of XG's score records and truth.py's of the .mat headers."""
    checked = 0
    for name in XG_READ_BY_XGPARSE:
        if twin(name) is None:
            continue
        text = [g for g in TRUTH[twin(name)]["games"] if g["determined"]]  # type: ignore[index]
        binary = BINARY_TRUTH[name]["games"]
        assert [(g["winner"], g["points"]) for g in text] == [
            (g["winner"], g["points"]) for g in binary
        ], name
        checked += 1
    assert checked == 13


def test_the_same_session_as_xg_and_as_bgf_has_the_same_game_keys_and_endings() -> None:
    """BGBlitz does not mark a resignation: it is read from the final position, and agrees
    with XG's own record of the same games (checked against xgparse above)."""
    for name in (n for n in TWINNED if n.endswith(".bgf")):
        other = name.replace("bgblitz-binary", "xg-binary").replace(".bgf", ".xg")
        bgf, xg = read(name)[0], read(other)[0]
        assert [g.key for g in bgf] == [g.key for g in xg], name
        ends = [(a.end, b.end) for a, b in zip(bgf, xg, strict=True) if b.end != "settle"]
        assert all(a == b for a, b in ends), (name, ends)


def test_a_shorter_export_of_a_session_has_the_same_keys_for_its_games() -> None:
    """A session exported at game 3 and again at game 6: the first three are the same games."""
    doc = gvformat.convert_xg((CORPUS / MONEY_XG).read_bytes())
    full = [g.key for g in read_gammonview(doc, "xg").games]
    early = [g.key for g in read_gammonview({**doc, "games": doc["games"][:3]}, "xg").games]
    assert early == full[:3] and len(set(full)) == 6


def test_two_identical_short_games_of_a_session_differ_by_their_place() -> None:
    doc = gvformat.convert_xg((CORPUS / MONEY_XG).read_bytes())
    game = doc["games"][2]
    twice = read_gammonview({**doc, "games": [game, game]}, "xg")
    keys = [g.key for g in twice.games]
    assert len(set(keys)) == 2


# ---------------------------------------------------------------- the adapter on its own


def ply(action: int, cube: str = "N0N", white: str = "", black: str = "abc", score: str = "0:0"):
    """A ply as gammonview writes it; ``white`` and ``black`` are where their checkers stand
    (an empty side has borne off every checker)."""
    ogid = f"{white}:{black}:{cube}::W:C:{score}:0:1"
    return {"color": 0, "action_id": action, "ogid_before": ogid, "ogid_after": ogid}


def doc(*games: dict[str, Any], length: int = 0) -> dict[str, Any]:
    return {
        "match_length": length,
        "player_white": "Ann",
        "player_black": "Bob",
        "jacoby": True,
        "beaver": True,
        "cube_limit": 64,
        "timestamp": 1767437501,
        "games": list(games),
    }


def game(winner: int, points: int, *plies: dict[str, Any]) -> dict[str, Any]:
    return {"winner": winner, "points_won": points, "plies": list(plies)}


def booked(*games: dict[str, Any], length: int = 0) -> list[tuple[object, ...]]:
    read = read_gammonview(doc(*games, length=length), "xg")
    return [
        (g.winner, g.points, g.cube, g.result, g.end, tuple(map(str, g.warnings)))
        for g in read.games
    ]


def test_how_each_game_ended_is_read_from_its_last_position() -> None:
    assert booked(
        game(0, 4, ply(5), ply(21), ply(22), ply(24, cube="B1N")),  # all borne off
        game(1, 1, ply(5), ply(21), ply(23), ply(24, cube="N0P")),  # a drop
        game(0, 2, ply(5), ply(21), ply(22), ply(27, cube="B1N", white="ab")),  # resigned
        game(0, 2, ply(5), ply(24, white="ab")),  # over, the winner still on the board
        game(1, 2, ply(5), ply(21), ply(22), ply(21), ply(23), ply(24, cube="W1P")),
    ) == [
        ("Ann", 4, 2, "gammon", "bearoff", ()),
        ("Bob", 1, 1, "single", "drop", ()),
        ("Ann", 2, 2, "single", "resign", ()),
        ("Ann", 2, 1, "gammon", "resign", ()),
        ("Bob", 2, 2, "single", "drop", ()),  # the cube before the refused redouble
    ]


def test_points_that_do_not_fit_the_cube_are_booked_with_a_warning() -> None:
    assert booked(game(0, 4, ply(5), ply(21), ply(23), ply(24, cube="N0P"))) == [
        (
            "Ann",
            4,
            4,
            "single",
            "drop",
            (
                "game 1: the file says 4 points, which does not fit the cube 1 it ends at; "
                "booked as cube 4, single",
            ),
        )
    ]
    with pytest.raises(EngineFileError, match="game 1: the file says 5 points, which no cube"):
        booked(game(0, 5, ply(5), ply(24)))


def test_a_capped_last_game_of_a_match_is_booked_as_the_file_scored_it() -> None:
    last = ply(26, cube="B2N", score="4:0")
    assert booked(game(0, 3, ply(5, score="4:0"), last), length=7) == [
        (
            "Ann",
            3,
            4,
            "single",
            "settle",
            (
                "game 1: 3 points at the cube 4 is what the match scored (capped), not the "
                "cube × 1, 2 or 3: booked at 3 points as the file scored it",
            ),
        )
    ]


def test_a_forfeit_is_worth_the_cube_in_force() -> None:
    assert booked(game(1, 4016, ply(5), ply(29, cube="W1N"))) == [
        (
            "Bob",
            2,
            2,
            "single",
            "forfeit",
            ("game 1: a forfeit, which the file scores 4016 points: booked at the cube in force, "
             "2 points",),
        )
    ]  # fmt: skip


def test_an_unfinished_last_game_is_left_out_with_a_note_and_one_in_the_middle_refused() -> None:
    done = game(0, 1, ply(5), ply(24))
    read = read_gammonview(doc(done, game(0, 1, ply(5), ply(7))), "xg")
    assert len(list(read.games)) == 1
    assert list(map(str, read.notes)) == [
        "game 2 has not ended: not booked; import the file again once it has (the games "
        "booked now are not booked twice)"
    ]
    read = read_gammonview(doc(game(0, 1, ply(5), ply(7)), done), "xg")
    with pytest.raises(EngineFileError, match="game 1 has no result, and game 2 follows"):
        list(read.games)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"player_black": "Ann"}, "both players are called 'Ann'"),
        ({"player_white": ""}, "the file names no player white"),
        ({"games": []}, "the file has no games"),
        ({"match_length": "7"}, "the file gives no the match length"),
    ],
)
def test_a_file_the_library_reads_oddly_is_refused_with_the_reason(change, message) -> None:
    with pytest.raises(EngineFileError, match=message):
        read_gammonview({**doc(game(0, 1, ply(5), ply(24))), **change}, "xg")


def test_a_bgblitz_name_is_known_by_its_spaced_spelling() -> None:
    seated = ["Marion Castlebury", "Lanternwood_123", "rowan"]
    players = ["Marion_Castlebury", "Rowan_Pryce", "Lanternwood_123", "Nobody_Here"]
    assert bgblitz_names(players, {"Rowan Pryce": "rowan"}, seated) == {
        "Rowan Pryce": "rowan",
        "Rowan_Pryce": "rowan",
        "Marion_Castlebury": "Marion Castlebury",
    }


def compressed_bomb(kind: str, size: int, members: int = 1) -> bytes:
    zeros = bytes(size)
    if kind == "xg":
        header = bytearray(8232)
        struct.pack_into("<I", header, 20, 0)
        return bytes(header) + zlib.compress(zeros, 9)
    return b'{"format":"BGF"}\n' + b"".join(gzip.compress(zeros, 9) for _ in range(members))


@pytest.mark.parametrize(("kind", "members"), [("xg", 1), ("bgf", 1), ("bgf", 3)])
def test_a_decompression_bomb_is_refused_before_the_library_expands_it(kind, members) -> None:
    data = compressed_bomb(kind, 400_000, members)
    check_inflated(data, kind, limit=2_000_000)  # type: ignore[arg-type]
    limit = 1_000_000 if members > 1 else 300_000
    with pytest.raises(EngineFileError, match="its compressed part expands to more than"):
        check_inflated(data, kind, limit=limit)  # type: ignore[arg-type]


def test_every_real_file_is_far_below_the_bounds() -> None:
    for name in BINARIES:
        data = (CORPUS / name).read_bytes()
        assert len(data) < MAX_BINARY // 50
        check_inflated(data, "xg" if name.endswith(".xg") else "bgf", limit=4 << 20)


# ---------------------------------------------------------------- through the command line


@pytest.mark.backends("sqlite", "postgres")
def test_a_money_session_is_booked_through_the_command_line(chouette) -> None:
    chouette("new", "money", "Fox", "Lanternwood_123", "--stake", "2.00")
    out = chouette("import", str(CORPUS / MONEY_XG)).stdout
    assert out == (
        "Sz-2PgKnvb6aFls69-qFXg.xg: 6 games booked into money.\n"
        "player             points    money\n"
        "---------------  --------  -------\n"
        "Fox                    +3    +6.00\n"
        "Lanternwood_123        -3    -6.00\n"
    )
    truth = [g for g in TRUTH[twin(MONEY_XG)]["games"] if g["determined"]]  # type: ignore[index]
    sheet = chouette.json("sheet")["games"]
    assert [game["points"] for game in sheet] == [
        {t["winner"]: t["points"], ({"Fox", "Lanternwood_123"} - {t["winner"]}).pop(): -t["points"]}
        for t in truth
    ]
    assert chouette("game", "1").stdout.splitlines()[1] == (
        "Imported: Fox beat Lanternwood_123, 4 points (cube 2, gammon, bearoff)"
    )
    chouette("check")


@pytest.mark.backends("sqlite", "postgres")
def test_the_same_session_as_bgf_after_the_xg_books_nothing(chouette) -> None:
    chouette("new", "money", "Fox", "Lanternwood_123")
    chouette("import", str(CORPUS / MONEY_XG))
    out = chouette("import", str(CORPUS / MONEY_BGF)).stdout
    assert out == (
        "Sz-2PgKnvb6aFls69-qFXg.bgf: 0 games booked into money, 6 already in the ledger "
        "(skipped).\n"
    )
    again = chouette("import", str(CORPUS / MONEY_XG)).stdout
    assert again == (
        "Sz-2PgKnvb6aFls69-qFXg.xg was imported already (6 games into money on 2026-11-20): "
        "nothing booked\n"
    )
    assert len(chouette.json("sheet")["games"]) == 6
    chouette("check")


def resaved(data: bytes) -> bytes:
    """The same .xg saved again: its records compressed anew (other bytes, the same games)."""
    (thumbnail,) = struct.unpack_from("<I", data, 20)
    start = 8232 + thumbnail
    stream = zlib.decompressobj()
    records = stream.decompress(data[start:])
    return data[:start] + zlib.compress(records, 1) + stream.unused_data


def test_the_xg_saved_again_books_nothing(chouette, tmp_path) -> None:
    data = (CORPUS / MONEY_XG).read_bytes()
    copy = tmp_path / "saved-again.xg"
    copy.write_bytes(resaved(data))
    assert copy.read_bytes() != data
    assert gvformat.convert_xg(copy.read_bytes())["games"] == gvformat.convert_xg(data)["games"]
    chouette("new", "money", "Fox", "Lanternwood_123")
    chouette("import", str(CORPUS / MONEY_XG))
    out = chouette("import", str(copy)).stdout
    assert out == "saved-again.xg: 0 games booked into money, 6 already in the ledger (skipped).\n"


def with_beaver(data: bytes, double: int) -> bytes:
    """The .xg with its ``double``-th taken double beavered instead (XG's cube record: type 2
    at byte 8 of a 2,560-byte record, doubled and taken at bytes 16 and 20; 2 is a beaver)."""
    (thumbnail,) = struct.unpack_from("<I", data, 20)
    start = 8232 + thumbnail
    stream = zlib.decompressobj()
    records = bytearray(stream.decompress(data[start:]))
    taken = [
        at
        for at in range(0, len(records), 2560)
        if records[at + 8] == 2 and struct.unpack_from("<ii", records, at + 16) == (1, 1)
    ]
    struct.pack_into("<i", records, taken[double] + 20, 2)
    return data[:start] + zlib.compress(bytes(records)) + stream.unused_data


@pytest.mark.parametrize(
    ("double", "message"),
    [
        (1, "game 2: a double the library read as dropped, after which it lost the game "
            "(gammonview reads XG's beaver as a drop and then cannot follow the game): refused "
            "rather than booked wrong; export the session from XG as a .mat file and import "
            "that"),
        (0, "not a readable eXtreme Gammon .xg file (gammonview: cannot access local variable"),
    ],
)  # fmt: skip
def test_an_xg_beaver_the_library_cannot_follow_refuses_the_file(
    chouette, ledger_url, tmp_path, double, message
) -> None:
    """gammonview 3.1 reads XG's beaver as a drop, loses the rest of that game and hands it
    the previous game's winner and points: never booked."""
    from tests.dump import dump

    path = tmp_path / "beaver.xg"
    path.write_bytes(with_beaver((CORPUS / MONEY_XG).read_bytes(), double))
    if double == 1:  # what the library makes of it: game 2 with game 1's result
        games = gvformat.convert_xg(path.read_bytes())["games"]
        assert (games[1]["winner"], games[1]["points_won"]) == (0, 4)
        assert games[1]["plies"][-1]["action_id"] == 23
    chouette("new", "money", "Fox", "Lanternwood_123")
    before = dump(ledger_url)
    result = chouette("import", str(path), code=1)
    assert result.stderr.startswith(f"Error: beaver.xg: {message}"), result.stderr
    assert dump(ledger_url) == before


def test_a_match_is_refused_unless_booked_as_money(chouette) -> None:
    chouette("new", "money", "Kévin Unger", "Maxence Job")
    path = str(CORPUS / "xg-binary/gbf/test.xg")
    refused = chouette("import", path, code=1)
    assert refused.stderr == (
        "Error: test.xg: a 7-point match, not money play: refused (give --match-as-money to "
        "book its games as money games anyway)\n"
    )
    out = chouette("import", path, "--match-as-money").stdout
    assert out.startswith("test.xg: 7 games booked into money.\n")
    chouette("check")


def test_bgblitz_names_map_to_the_seated_players(chouette) -> None:
    chouette("new", "money", "Marion Castlebury", "rowan")
    path = str(CORPUS / "bgblitz-binary/gammonview/5nqfGw9bWG3deTaU.bgf")
    refused = chouette("import", path, "--match-as-money", code=1)
    assert refused.stderr == (
        "Error: 5nqfGw9bWG3deTaU.bgf: game 1: Rowan_Pryce is not seated in money (map it "
        "with --as 'Rowan_Pryce=PLAYER')\n"
    )
    out = chouette("import", path, "--match-as-money", "--as", "Rowan Pryce=rowan").stdout
    assert out.startswith("5nqfGw9bWG3deTaU.bgf: 6 games booked into money.\n")
    players = {p["name"]: p["points"] for p in chouette.json("standings")["players"]}
    assert players == {"rowan": 5, "Marion Castlebury": -5}  # the match ended 7-2


def test_a_damaged_xg_is_refused_whole_and_nothing_is_written(chouette, ledger_url, tmp_path):
    from tests.dump import dump

    chouette("new", "money", "Fox", "Lanternwood_123")
    damaged = tmp_path / "damaged.xg"
    damaged.write_bytes((CORPUS / MONEY_XG).read_bytes()[:50_000])
    before = dump(ledger_url)
    result = chouette("import", str(CORPUS / MONEY_XG), str(damaged), code=1)
    assert result.stderr == (
        "Error: damaged.xg: not a readable eXtreme Gammon .xg file (gammonview: No "
        "header_match record found): nothing booked\n"
    )
    assert dump(ledger_url) == before


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("empty.xg", b"", "empty.xg: not a readable eXtreme Gammon .xg file (gammonview:"),
        ("text.bgf", b"hello", "text.bgf: not a readable BGBlitz .bgf file (gammonview: Not a"),
        ("cut.bgf", (CORPUS / MONEY_BGF).read_bytes()[:9_000], "cut.bgf: not a readable BGBlitz"),
    ],
)
def test_files_that_are_no_binary_engine_files_are_refused(chouette, tmp_path, name, content,
                                                            message) -> None:  # fmt: skip
    chouette("new", "money", "Fox", "Lanternwood_123")
    path = tmp_path / name
    path.write_bytes(content)
    result = chouette("import", str(path), code=1)
    assert result.stderr.startswith(f"Error: {message}") and "Traceback" not in result.stderr


def test_a_huge_or_endless_binary_file_is_refused_before_it_is_read(chouette, tmp_path) -> None:
    chouette("new", "money", "Fox", "Lanternwood_123")
    huge = tmp_path / "huge.xg"
    with huge.open("wb") as handle:
        handle.truncate(MAX_BINARY + 1)  # sparse: nothing is written
    result = chouette("import", str(huge), code=1)
    assert result.stderr == (
        "Error: huge.xg: 16,777,217 bytes, more than any eXtreme Gammon .xg file of games "
        "(at most 16 MiB): refused\n"
    )
    zero = tmp_path / "zero.bgf"
    zero.symlink_to("/dev/zero")
    result = chouette("import", str(zero), code=1)
    assert "zero.bgf: not a regular file (a device, a pipe or a folder)" in result.stderr


# ---------------------------------------------------------------- gzip-compressed copies

#: A gzip copy of a binary file under each name a player may give it: ``.xg.gz``, a ``.xg``
#: that is really gzip, and a ``.gz`` that names no kind (known by what it holds).
GZIP_NAMES = ["{stem}{ext}.gz", "{stem}{ext}", "{stem}.gz"]
GZIPPED = [
    MONEY_XG,
    MONEY_BGF,
    "xg-binary/gbf/test.xg",
    "bgblitz-binary/gammonview/5nqfGw9bWG3deTaU.bgf",
]


def gzipped(name: str, folder: Path, pattern: str = GZIP_NAMES[0]) -> Path:
    """A gzip copy of the corpus file ``name`` in ``folder``, named by ``pattern``."""
    plain = CORPUS / name
    path = folder / pattern.format(stem=plain.stem, ext=plain.suffix)
    path.write_bytes(gzip.compress(plain.read_bytes()))
    return path


@pytest.mark.parametrize("pattern", GZIP_NAMES)
@pytest.mark.parametrize("name", GZIPPED)
def test_a_gzip_copy_is_read_as_the_plain_file_is(tmp_path, name, pattern) -> None:
    """The same games, warnings and identities, whatever the copy is called; its SHA-256 is
    its own (the file as it is), as a .mat.gz's is."""
    path = gzipped(name, tmp_path, pattern)
    rules = HouseRules()
    with (
        check_file(CORPUS / name, rules, match_as_money=True) as plain,
        check_file(path, rules, match_as_money=True) as copy,
    ):
        assert [g for b in copy.batches() for g in b] == [g for b in plain.batches() for g in b]
        assert (copy.format, copy.encoding, copy.games) == (plain.format, None, plain.games)
        assert (copy.notes, copy.warnings, copy.players) == (plain.notes, (), plain.players)
        assert copy.sha256 == hashlib.sha256(path.read_bytes()).hexdigest() != plain.sha256


def test_a_binary_file_is_known_by_its_first_bytes() -> None:
    for name in (MONEY_XG, MONEY_BGF):
        head = (CORPUS / name).read_bytes()[:MAGIC_BYTES]
        assert binary_magic(head) == Path(name).suffix[1:]
    text = (CORPUS / "xg/gbf/test.mat").read_bytes()[:MAGIC_BYTES]
    assert [binary_magic(h) for h in (text, b"", b"RGM", b'{"format":"JSON"}\n')] == [None] * 4


@pytest.mark.backends("sqlite", "postgres")
@pytest.mark.parametrize("gzip_first", [False, True], ids=["plain first", "gzip first"])
@pytest.mark.parametrize("name", [MONEY_XG, MONEY_BGF])
def test_a_session_imported_plain_and_gzipped_is_booked_once(chouette, tmp_path, name,
                                                             gzip_first) -> None:  # fmt: skip
    plain = CORPUS / name
    copy = gzipped(name, tmp_path)
    first, second = (copy, plain) if gzip_first else (plain, copy)
    chouette("new", "money", "Fox", "Lanternwood_123", "--stake", "2.00")
    out = chouette("import", str(first)).stdout
    assert out == (
        f"{first.name}: 6 games booked into money.\n"
        "player             points    money\n"
        "---------------  --------  -------\n"
        "Fox                    +3    +6.00\n"
        "Lanternwood_123        -3    -6.00\n"
    )
    out = chouette("import", str(second)).stdout
    assert out == f"{second.name}: 0 games booked into money, 6 already in the ledger (skipped).\n"
    assert len(chouette.json("sheet")["games"]) == 6
    chouette("check")


@pytest.mark.backends("sqlite", "postgres")
def test_a_cut_short_gzip_is_refused_and_nothing_is_written(chouette, ledger_url,
                                                            tmp_path) -> None:  # fmt: skip
    from tests.dump import dump

    whole = gzipped(MONEY_XG, tmp_path).read_bytes()
    cut = tmp_path / "cut.xg.gz"
    cut.write_bytes(whole[: len(whole) // 2])
    chouette("new", "money", "Fox", "Lanternwood_123")
    before = dump(ledger_url)
    result = chouette("import", str(CORPUS / MONEY_BGF), str(cut), code=1)
    assert result.stderr == (
        "Error: cut.xg.gz: cannot read it: the gzip file is cut short (it ends before its "
        "compressed data does): nothing booked\n"
    )
    assert dump(ledger_url) == before


def gzip_bomb(head: bytes, mebibytes: int) -> bytes:
    """A gzip file of ``head`` then ``mebibytes`` MiB of zeros, built fast and small: one
    compressed MiB of zeros repeated, as gzip members (a reader reads them in turn), about
    1 kB a MiB."""
    mib = gzip.compress(bytes(1 << 20), 9)
    return gzip.compress(head) + mib * mebibytes


@pytest.mark.parametrize(
    ("name", "head"),
    [
        ("bomb.xg.gz", b""),
        ("bomb.gz", (CORPUS / MONEY_XG).read_bytes()[:MAGIC_BYTES]),  # an XG header, then zeros
        ("bomb.bgf", b'{"format":"BGF"}\n'),  # a .bgf that is really gzip
    ],
)
def test_a_gzip_bomb_is_refused_without_filling_the_memory(chouette, ledger_url, tmp_path,
                                                           name, head) -> None:  # fmt: skip
    """2 GiB of zeros in 2 MB: refused once it passes what a plain file may be (16 MiB),
    naming the file, before the ledger is locked; memory stays near that bound."""
    from tests.dump import dump

    bomb = tmp_path / name
    bomb.write_bytes(gzip_bomb(head, 2048))
    assert bomb.stat().st_size < 3 << 20
    kind = "BGBlitz .bgf" if "bgf" in name else "eXtreme Gammon .xg"
    message = (
        f"{name}: it is gzip, and expands to more than 16 MiB, more than any {kind} file of "
        "games: refused"
    )
    tracemalloc.start()
    try:
        with pytest.raises(EngineFileError, match=re.escape(message)):
            check_file(bomb, HouseRules())
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 3 * MAX_BINARY, peak
    chouette("new", "money", "Fox", "Lanternwood_123")
    before = dump(ledger_url)
    result = chouette("import", str(bomb), code=1)
    assert result.stderr == f"Error: {message}\n"
    assert dump(ledger_url) == before


def test_without_gammonview_a_binary_file_says_what_to_install(chouette, monkeypatch) -> None:
    chouette("new", "money", "Fox", "Lanternwood_123")
    monkeypatch.setitem(sys.modules, "gvformat", None)  # import gvformat now fails
    result = chouette("import", str(CORPUS / MONEY_BGF), code=1)
    assert result.stderr == (
        "Error: Sz-2PgKnvb6aFls69-qFXg.bgf: reading BGBlitz .bgf files needs the gammonview "
        "library, which is not installed: in chouette's clone, with the pip that installed "
        "chouette, pip install '.[xg]'\n"
    )
    assert chouette.json("sheet")["games"] == []


def test_no_other_command_loads_gammonview(tmp_path) -> None:
    """Only an import of an .xg or .bgf file imports the library (a fresh process: the other
    tests here have loaded it)."""
    script = f"""
import sys
from typer.testing import CliRunner
from cli import app
runner = CliRunner()
for args in (["--help"], ["import", "--help"], ["new", "s", "ann", "bob"], ["status"],
             ["import", {str(CORPUS / "xg/gbf/test.mat")!r}, "--match-as-money",
              "--as", "Kévin Unger=ann", "--as", "Maxence Job=bob"],
             ["standings"], ["sheet"], ["check"]):
    result = runner.invoke(app, args)
    assert result.exit_code == 0, (args, result.output)
assert "gvformat" not in sys.modules, "gvformat was imported"
"""
    env = {"CHOUETTE_DB": str(tmp_path / "fresh.db"), "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
