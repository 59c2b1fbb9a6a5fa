"""Engine files as players bring them: any encoding and line end, tabs, gzip, files still
being played, re-exports; and nothing that is not a file of games gets near the ledger.

The truth is gnubg's own (tests/engine-samples/manifest.json), never the reader's.
"""

from __future__ import annotations

import codecs
import gzip
import json
import re
from pathlib import Path
from typing import Any

import pytest

from chouette.engines import EngineGame, read_mat
from chouette.rules import HouseRules
from files.engine import Checked, check_file
from tests.paths import CORPUS, DATA, ENGINE_DATA
from tests.samples import SAMPLES

MANIFEST = json.loads((SAMPLES / "manifest.json").read_text(encoding="utf-8"))
S01 = next(f for f in MANIFEST["files"] if f["path"] == "gnubg/mat/s01_money_jacoby_beavers3.mat")
S01_SGF = next(
    f for f in MANIFEST["files"] if f["path"] == "gnubg/sgf/s01_money_jacoby_beavers3.sgf"
)


def truth(entry: dict[str, Any]) -> list[tuple[str, int]]:
    return [(g["winner"], g["points_won"]) for g in entry["games"]]


def results(games: list[EngineGame]) -> list[tuple[str, int]]:
    return [(g.winner, g.points) for g in games]


def unexpand(line: str, tab: int = 8) -> str:
    """A line as a writer that puts tabs between its columns writes it: every run of two or
    more spaces that reaches a tab stop becomes tabs (what Unix ``unexpand -a`` does)."""
    out, column, pending = [], 0, 0
    for char in line:
        if char == " ":
            pending += 1
            column += 1
            if column % tab == 0:
                out.append("\t" if pending > 1 else " ")
                pending = 0
            continue
        out.append(" " * pending + char)
        pending = 0
        column += 1
    return "".join(out) + " " * pending


# ---------------------------------------------------------------- tabs


def test_tabs_between_columns_count_to_the_next_tab_stop() -> None:
    text = (SAMPLES / S01["path"]).read_text(encoding="utf-8")
    tabbed = [unexpand(line) for line in text.splitlines()]
    assert sum("\t" in line for line in tabbed) > 500  # the columns really are tabs now
    read = read_mat(tabbed, jacoby=True)
    games = list(read.games)
    assert results(games) == truth(S01)
    assert [w for g in games for w in g.warnings] == []


# ---------------------------------------------------------------- encodings and line ends


def standings_points(chouette: Any) -> dict[str, int]:
    return {p["name"]: p["points"] for p in chouette.json("standings")["players"]}


def final_points(entry: dict[str, Any]) -> dict[str, int]:
    (a, b), (sa, sb) = entry["players"], entry["final_score"]
    return {a: sa - sb, b: sb - sa}


def s01_text() -> str:
    return (SAMPLES / S01["path"]).read_text(encoding="utf-8")


def utf16_without_mark(text: str) -> bytes:
    return text.encode("utf-16-le")


SAVED_AS = [
    ("utf-8 with a byte-order mark", lambda t: t.encode("utf-8-sig")),
    ("utf-16 little-endian with a mark", lambda t: t.encode("utf-16")),
    ("utf-16 big-endian with a mark", lambda t: codecs.BOM_UTF16_BE + t.encode("utf-16-be")),
    ("utf-16 without a mark", utf16_without_mark),
    ("CRLF line ends", lambda t: t.replace("\n", "\r\n").encode("utf-8")),
    ("CR line ends (old Macintosh)", lambda t: t.replace("\n", "\r").encode("utf-8")),
    ("gzip", lambda t: gzip.compress(t.encode("utf-8"))),
    ("gzip of UTF-16 with CRLF", lambda t: gzip.compress(t.replace("\n", "\r\n").encode("utf-16"))),
]


@pytest.mark.parametrize(("how", "encode"), SAVED_AS, ids=[s[0] for s in SAVED_AS])
def test_a_file_saved_any_common_way_books_the_same_games(chouette, tmp_path, how, encode):
    chouette("new", "money", *S01["players"])
    path = tmp_path / ("s01.mat.gz" if how.startswith("gzip") else "s01.mat")
    path.write_bytes(encode(s01_text()))
    out = chouette("import", str(path)).output
    assert out.startswith(f"{path.name}: 50 games booked into money.\n"), out
    assert "Warning" not in out
    games = chouette.json("sheet")["games"]
    assert [(next(p for p, v in g["points"].items() if v > 0), max(g["points"].values()))
            for g in games] == truth(S01)  # fmt: skip
    assert standings_points(chouette) == final_points(S01)


def test_a_windows_1252_file_is_read_as_such_and_the_summary_says_so(chouette, tmp_path):
    text = s01_text().replace("Alice", "Zoë").replace("Bob", "Jérôme")
    path = tmp_path / "zoe.mat"
    path.write_bytes(text.encode("cp1252"))
    chouette("new", "money", "Zoë", "Jérôme")
    out = chouette("import", str(path)).output
    assert out.startswith("zoe.mat: 50 games booked into money.\n")
    assert "Warning: zoe.mat is not UTF-8 text: read as Windows-1252\n" in out
    final = final_points(S01)
    assert standings_points(chouette) == {"Zoë": final["Alice"], "Jérôme": final["Bob"]}


def test_an_sgf_file_is_decoded_as_its_ca_property_says(chouette, tmp_path):
    text = (SAMPLES / S01_SGF["path"]).read_text(encoding="utf-8")
    assert "CA[UTF-8]" in text
    latin = text.replace("CA[UTF-8]", "CA[ISO-8859-1]").replace("Alice", "Zoë")
    path = tmp_path / "zoe.sgf.gz"
    path.write_bytes(gzip.compress(latin.encode("latin-1")))
    chouette("new", "money", "Zoë", "Bob")
    out = chouette("import", str(path)).output
    assert out.startswith("zoe.sgf.gz: 50 games booked into money.\n"), out
    assert "Warning" not in out
    final = final_points(S01_SGF)
    assert standings_points(chouette) == {"Zoë": final["Alice"], "Bob": final["Bob"]}


@pytest.mark.parametrize("name", ["s01.mat.gz", "s01.sgf.gz"])
def test_a_gzip_file_cut_short_says_so_and_books_nothing(chouette, tmp_path, name):
    text = s01_text() if name.startswith("s01.mat") else (SAMPLES / S01_SGF["path"]).read_text()
    whole = gzip.compress(text.encode("utf-8"))
    path = tmp_path / name
    path.write_bytes(whole[: len(whole) // 2])
    chouette("new", "money", "Alice", "Bob")
    result = chouette("import", str(path), code=1)
    assert result.stderr == (
        f"Error: {name}: cannot read it: the gzip file is cut short (it ends before its "
        "compressed data does): nothing booked\n"
    )
    assert chouette.json("sheet")["games"] == []


def test_the_check_before_the_lock_reports_the_encoding_and_the_games() -> None:
    with check_file(SAMPLES / S01["path"], HouseRules()) as checked:
        assert isinstance(checked, Checked)
        assert (checked.format, checked.games, checked.encoding.label) == ("mat", 50, "UTF-8")
        assert checked.notes == checked.warnings == ()
        games = [game for batch in checked.batches() for game in batch]
    assert results(games) == truth(S01)


# ---------------------------------------------------------------- a session still being played


def cut_inside_game(text: str, number: int, keep: int) -> str:
    """The file as saved while game ``number`` was being played: its first ``keep`` lines
    after the score header, nothing after."""
    lines = text.splitlines(keepends=True)
    start = lines.index(f" Game {number}\n")
    return "".join(lines[: start + 2 + keep])


@pytest.mark.parametrize("keep", [0, 1, 2], ids=["just begun", "in play", "double pending"])
def test_a_mat_file_whose_last_game_is_unfinished_books_the_games_before_it(
    chouette, tmp_path, keep
):
    text = cut_inside_game(s01_text(), 31, keep)
    if keep == 2:
        assert text.rstrip().endswith("Doubles => 2")  # game 31's 2nd turn: a double, unanswered
    path = tmp_path / "tonight.mat"
    path.write_text(text, encoding="utf-8")
    chouette("new", "money", *S01["players"])
    out = chouette("import", str(path)).output
    assert out.startswith("tonight.mat: 30 games booked into money.\n"), out
    assert "Note: game 31 (line " in out and ") has not ended: not booked;" in out
    games = chouette.json("sheet")["games"]
    assert [(max(g["points"], key=g["points"].get), max(g["points"].values())) for g in games] == (
        truth(S01)[:30]
    )
    chouette("check")


def test_an_sgf_file_whose_last_game_has_no_result_books_the_games_before_it(chouette, tmp_path):
    text = (SAMPLES / S01_SGF["path"]).read_text(encoding="utf-8")
    trees = text.split("\n(;")
    last = trees[30]
    unfinished = last.replace(last[last.index("RE[") : last.index("]", last.index("RE[")) + 1], "")
    path = tmp_path / "tonight.sgf"
    path.write_text("\n(;".join([*trees[:30], unfinished]) + "\n", encoding="utf-8")
    chouette("new", "money", *S01_SGF["players"])
    out = chouette("import", str(path)).output
    assert out.startswith("tonight.sgf: 30 games booked into money.\n"), out
    assert "Note: game 31 (line " in out and ") has no result yet: not booked;" in out


def test_a_game_that_never_ends_in_the_middle_of_a_file_still_refuses_the_file(chouette, tmp_path):
    lines = s01_text().splitlines(keepends=True)
    start, after = lines.index(" Game 12\n"), lines.index(" Game 13\n")
    cut = [*lines[: start + 5], "\n", *lines[after:]]  # game 12 stops after 3 turns
    path = tmp_path / "broken.mat"
    path.write_text("".join(cut), encoding="utf-8")
    chouette("new", "money", *S01["players"])
    refused = chouette("import", str(path), code=1)
    assert refused.stderr.startswith("Error: broken.mat: line ")
    assert "game 12 has no winner (no 'Wins' line)" in refused.stderr
    assert chouette.json("sheet")["games"] == []


# ---------------------------------------------------------------- what is not a file of games


def test_a_device_a_pipe_or_a_folder_is_refused_before_anything_is_read(chouette, tmp_path):
    import os

    chouette("new", "money", "Alice", "Bob")
    fifo = tmp_path / "pipe.mat"
    os.mkfifo(fifo)
    for path in (Path("/dev/zero"), Path("/dev/urandom"), fifo, tmp_path):
        refused = chouette("import", str(path), code=1)
        assert refused.stderr == (
            f"Error: {path}: not a regular file (a device, a pipe or a folder): nothing booked\n"
        )
    assert chouette.json("sheet")["games"] == []


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("long.mat", b" 0 point match\n\n Game 1\n" + b"x" * (1 << 21), "line 4: a line longer"),
        ("zeros.jsonl", bytes(1 << 21), "line 1: a line longer than 1,048,576 characters"),
        ("nul.csv", b"\x00session,game\n", "line 1: a NUL character: not a text file"),
        ("noise.mat", bytes(range(1, 256)) * 8192, "line 1: expected the ' N point match' line"),
        ("noise.sgf", b"(;GM[6]" + bytes(range(1, 256)) * 8192, "line 1: "),
    ],
)
def test_a_file_that_is_not_text_is_refused_at_its_first_bad_line(
    chouette, tmp_path, name, content, message
):
    chouette("new", "money", "Alice", "Bob")
    path = tmp_path / name
    path.write_bytes(content)
    refused = chouette("import", str(path), code=1)
    assert refused.stderr.startswith(f"Error: {name}: {message}"), refused.stderr
    assert len(refused.stderr) < 300


def test_a_bad_file_is_refused_while_another_command_holds_the_write_lock(
    chouette, ledger_file, tmp_path, monkeypatch
):
    """The file is read and checked before the ledger is locked: another writer holding
    the lock does not keep a bad file's refusal waiting (nor a bad file the lock). With no
    busy timeout, asking for the lock at all would be refused as busy."""
    import sqlite3

    from db.engine import dispose_all

    chouette("new", "money", *S01["players"])
    dispose_all()
    monkeypatch.setattr("db.locks.BUSY_TIMEOUT_MS", 0)
    path = tmp_path / "broken.mat"
    path.write_text(s01_text().replace(" Game 40\n", " Game 41\n"), encoding="utf-8")
    good = tmp_path / "good.mat"
    good.write_text(s01_text(), encoding="utf-8")
    holder = sqlite3.connect(ledger_file, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        refused = chouette("import", str(path), code=1)
        busy = chouette("import", str(good), code=1)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert refused.stderr.startswith("Error: broken.mat: line "), refused.stderr
    assert "Game 41 follows Game 39" in refused.stderr
    assert "the ledger is busy" in busy.stderr  # what asking for the lock would have said


ADVERSARIAL = {
    "a score header of many names": " Game 1\n" + "a : 1 " * 150_000 + "x\n",
    "a score-like line inside a game": " Game 1\n a : 0   b : 0\n" + "a : 1   " * 110_000 + "\n",
    "a long tag": "; [" + ' "' * 400_000 + "\n",
    "a long move": " Game 1\n a : 0   b : 0\n  1) 31: " + "8/" * 400_000 + "5\n",
}


@pytest.mark.parametrize("line", ADVERSARIAL.values(), ids=list(ADVERSARIAL))
def test_a_crafted_line_near_the_limit_is_read_or_refused(line: str) -> None:
    """A crafted line near the 1 MiB limit is read or refused with a message. (That every
    reader is linear in the length of a line is a figure of the benchmark, bench/run.py:
    a quadratic pattern would take minutes there.)"""
    import contextlib
    import io

    from chouette.errors import EngineFileError

    text = (" 0 point match\n\n" + line) if not line.startswith(";") else line + " 0 point match\n"
    assert len(line) > 800_000
    with contextlib.suppress(EngineFileError):  # refused, or read as an unfinished game
        list(read_mat(io.StringIO(text), jacoby=True).games)


def test_a_big_json_array_is_read_in_one_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each record's line is counted from the one before, not from the top of the file
    (which made 100,000 records take minutes: the benchmark, bench/run.py, times it against
    the same records as JSON Lines); past the size limit, JSON Lines is asked for."""
    from chouette.engines import neutral
    from chouette.errors import EngineFileError

    record = (
        '  {"session": "s", "game": %d, "winner": "ann", "loser": "bob", "cube": 1,\n'
        '   "result": "single", "end": "bearoff", "points": 1}'
    )
    count = 20_000
    lines = ["[", *",\n".join(record % i for i in range(1, count + 1)).split("\n"), "]"]
    games = list(neutral.read_jsonl(lines).games)
    assert [g.line for g in games[:3]] == [2, 4, 6] and games[-1].line == 2 * count
    monkeypatch.setattr(neutral, "MAX_ARRAY", 1000)
    with pytest.raises(EngineFileError) as refused:
        list(neutral.read_jsonl(lines).games)
    assert str(refused.value) == (
        "line 17: a JSON array longer than 1,000 characters: write the records as JSON Lines "
        "(one record per line) instead"
    )


# ---------------------------------------------------------------- dialects


def test_score_headers_that_repeat_0_0_are_noted_and_the_wins_lines_trusted() -> None:
    import re

    text = re.sub(r"^ Alice : \d+( +)Bob : \d+$", r" Alice : 0\1Bob : 0", s01_text(), flags=re.M)
    assert text.count(" Alice : 0 ") == 50
    read = read_mat(text.splitlines(), jacoby=True)
    games = list(read.games)
    assert results(games) == truth(S01)
    assert list(map(str, read.notes)) == [
        "the score headers do not add up (every game starts at 0 : 0): each game is booked "
        "as its own 'Wins' line says"
    ]


def test_a_galaxy_money_game_is_booked_as_money_without_match_as_money(chouette):
    path = CORPUS / "galaxy/bglab/match7986278.txt"
    assert "\n16 point match\n" in path.read_text(encoding="utf-8")
    chouette("new", "money", "lasse", "Rival")
    out = chouette("import", str(path), "--as", "robot=Rival").output
    assert out.startswith("match7986278.txt: 1 game booked into money.\n"), out
    assert (
        "Note: Backgammon Galaxy writes its money games as 16-point matches: read as money "
        "play, each game booked as Galaxy settled it (at most 16 points)\n"
    ) in out
    assert standings_points(chouette) == {"lasse": 16, "Rival": -16}


def test_a_nameless_player_is_mapped_by_the_side_the_file_gives(chouette):
    path = CORPUS / "galaxy/bglab/match3755271.txt"
    chouette("new", "money", "lasse", "guest")
    refused = chouette("import", str(path), code=1)
    assert "a 3-point match, not money play: refused" in refused.stderr
    refused = chouette("import", str(path), "--match-as-money", code=1)
    assert "Player 2 is not seated in money (map it with --as 'Player 2=PLAYER')" in (
        refused.stderr
    )
    out = chouette("import", str(path), "--match-as-money", "--as", "Player 2=guest").output
    assert out.startswith("match3755271.txt: 1 game booked into money.\n"), out
    assert standings_points(chouette) == {"guest": 4, "lasse": -4}  # 'Wins 4 point', cube 4
    chouette("check")


def test_the_last_game_of_a_match_is_booked_at_the_files_capped_score_with_a_warning(chouette):
    path = CORPUS / "galaxy/bglab/match1245421.txt"
    chouette("new", "money", "lasse", "sevelius")
    out = chouette("import", str(path), "--match-as-money").output
    assert (
        "Warning: game 1: 'Wins 3 points' at the cube 2 is what the match scored (capped), not "
        "the cube × 1, 2 or 3: booked at 3 points as the file scored it\n"
    ) in out
    detail = chouette.json("game", "1")
    assert (detail["points"], detail["cube"], detail["end"]) == (3, 2, "settle")
    chouette("check")


def test_a_forfeit_is_booked_at_the_cube_in_force_never_at_its_4016_points(chouette):
    path = CORPUS / (
        "backgammon-studio/bglab/MrPurple - Lasse 3pt Backgammon Studio 2024_05_11 20_10_33.txt"
    )
    chouette("new", "money", "MrPurple", "Lasse")
    out = chouette("import", str(path), "--match-as-money").output
    assert out.startswith(f"{path.name}: 2 games booked into money.\n"), out
    assert (
        "Warning: game 2: a forfeit (MrPurple's last move is '????', then 'Wins 4016 points', "
        "which is no cube result): booked at the cube in force, 4 points\n"
    ) in out
    assert standings_points(chouette) == {"Lasse": 5, "MrPurple": -5}
    detail = chouette.json("game", "2")
    assert (detail["winner"], detail["points"], detail["end"]) == ("Lasse", 4, "forfeit")
    chouette("check")


# ---------------------------------------------------------------- no game booked twice

XG_MOBILE = CORPUS / "xg/nodots-backgammon/Ken - XG-Intermediate Dec 24 2022.txt"
FIRST_TEN = CORPUS / "derived/xg-mobile-money.first-10-games.mat"


def test_a_later_export_of_a_session_books_only_its_new_games(chouette, tmp_path):
    chouette("new", "money", "Ken", "XG-Intermediate")
    out = chouette("import", str(FIRST_TEN)).output
    assert out.startswith(f"{FIRST_TEN.name}: 10 games booked into money.\n"), out
    out = chouette("import", str(XG_MOBILE)).output
    assert out.startswith(
        f"{XG_MOBILE.name}: 13 games booked into money, 10 already in the ledger (skipped).\n"
    ), out
    games = chouette.json("sheet")["games"]
    assert len(games) == 23
    full = [g for g in TRUTH_GAMES("xg/nodots-backgammon/Ken - XG-Intermediate Dec 24 2022.txt")]
    assert [(max(g["points"], key=g["points"].get), max(g["points"].values())) for g in games] == [
        (t["winner"], t["points"]) for t in full
    ]
    chouette("check")


def test_the_same_file_saved_again_another_way_books_nothing(chouette, tmp_path):
    chouette("new", "money", *S01["players"])
    chouette("import", str(SAMPLES / S01["path"]))
    again = tmp_path / "s01-again.mat.gz"
    again.write_bytes(gzip.compress(s01_text().replace("\n", "\r\n").encode("utf-16")))
    out = chouette("import", str(again)).output
    assert out == (
        "s01-again.mat.gz: 0 games booked into money, 50 already in the ledger (skipped).\n"
        "Note: 50 games of this file were booked already from s01_money_jacoby_beavers3.mat "
        "(imported into money on 2026-11-20): the same games, skipped\n"
    )
    assert len(chouette.json("sheet")["games"]) == 50


def test_two_identical_short_games_of_one_session_are_both_booked(chouette, tmp_path):
    game = (
        " Game {n}\n Ann : {a}                        Bob : 0\n"
        "  1) 31: 8/5 6/5                  52: 13/8 13/11\n"
        "  2)  Doubles => 2                 Drops\n"
        "      Wins 1 point\n\n"
    )
    text = " 0 point match\n\n" + game.format(n=1, a=0) + game.format(n=2, a=1)
    first = tmp_path / "twice.mat"
    first.write_text(text, encoding="utf-8")
    chouette("new", "money", "Ann", "Bob")
    out = chouette("import", str(first)).output
    assert out.startswith("twice.mat: 2 games booked into money.\n"), out
    assert standings_points(chouette) == {"Ann": 2, "Bob": -2}
    # the same two games, their lines laid out by another writer, are the same games
    retyped = tmp_path / "retyped.mat"
    retyped.write_text(text.replace("                  ", "\t\t ").replace("\n", "\r"), "utf-8")
    out = chouette("import", str(retyped)).output
    assert out.startswith("retyped.mat: 0 games booked into money, 2 already in the ledger"), out


def TRUTH_GAMES(name: str) -> list[dict[str, Any]]:
    truth = json.loads((CORPUS / "truth.json").read_text("utf-8"))
    return [g for g in truth[name]["games"] if g["determined"]]


V3 = DATA / "ledger-v3.sqlite"  # s01 imported by schema 3 as games 1–50


@pytest.fixture
def old_ledger(tmp_path, monkeypatch, chouette):
    """A ledger an older chouette wrote (schema 3), whose games have no identities,
    migrated (a report would refuse it as it is)."""
    import shutil

    old = tmp_path / "old.sqlite"
    shutil.copy(V3, old)
    monkeypatch.setenv("CHOUETTE_DB", str(old))
    chouette("migrate")
    return old


@pytest.mark.backends("sqlite")
def test_an_older_ledgers_games_are_not_booked_again_from_another_export(
    chouette, tmp_path, old_ledger
):
    before = chouette.json("--session", "money", "standings")
    again = tmp_path / "s01 saved again.mat"
    again.write_bytes(s01_text().replace("\n", "\r\n").encode("utf-8"))
    out = chouette("--session", "money", "import", str(again)).output
    assert out == (
        "s01 saved again.mat: 0 games booked into money, 50 already in the ledger (skipped).\n"
        "Note: games 1–50 of this file were booked by an older chouette from "
        "s01_money_jacoby_beavers3.mat (before games had identities): skipped\n"
    )
    earlier = tmp_path / "s01 at game 30.mat"
    earlier.write_text(cut_inside_game(s01_text(), 31, 2), encoding="utf-8")
    out = chouette("import", str(earlier)).output
    assert out.startswith(
        "s01 at game 30.mat: 0 games booked into money, 30 already in the ledger (skipped).\n"
    ), out
    assert chouette.json("standings") == before
    chouette("check")


@pytest.mark.backends("sqlite")
def test_an_older_ledgers_file_whose_first_game_a_record_cited_is_not_booked_again(
    chouette, tmp_path, old_ledger
):
    """The old ledger booked s05's game 1 from cited.jsonl (a neutral record naming s05's
    hash and index 1), then s05 itself, its games 2-20. s05 saved again is those 20 games."""
    before = chouette.json("--session", "money", "standings")
    s05 = SAMPLES / "gnubg/mat/s05_money_nocube.mat"
    again = tmp_path / "s05 saved again.mat"
    again.write_bytes(s05.read_text("utf-8").replace("\n", "\r\n").encode("utf-8"))
    out = chouette(
        "--session", "money", "import", str(again), "--as", "gnubgA=Alice", "--as", "gnubgB=Bob"
    ).output
    assert out.startswith(
        "s05 saved again.mat: 0 games booked into money, 20 already in the ledger (skipped).\n"
    ), out
    assert (
        "Note: games 1–20 of this file were booked by an older chouette from "
        "s05_money_nocube.mat (before games had identities): skipped\n"
    ) in out
    assert chouette.json("standings") == before
    chouette("check")


@pytest.mark.backends("sqlite")
def test_an_older_ledgers_lone_game_like_a_new_files_is_booked_with_a_warning(
    chouette, tmp_path, old_ledger
):
    lines = s01_text().splitlines(keepends=True)
    start = lines.index(" Game 2\n")
    other = tmp_path / "another evening.mat"
    other.write_text("".join(lines[:start]), encoding="utf-8")  # game 1 alone, as in s01
    out = chouette("--session", "money", "import", str(other)).output
    assert out.startswith("another evening.mat: 1 game booked into money.\n"), out
    assert (
        "Warning: game 1 is like game 1 of s01_money_jacoby_beavers3.mat, which an older "
        "chouette booked (before games had identities): booked all the same; if it is the "
        "same game, undo this import\n"
    ) in out


@pytest.mark.backends("sqlite")
def test_an_older_ledgers_games_that_only_begin_like_a_new_file_leave_it_whole(
    chouette, tmp_path, old_ledger
):
    lines = s01_text().splitlines(keepends=True)
    start, end = lines.index(" Game 2\n"), lines.index(" Game 3\n")
    differs = tmp_path / "differs at game 2.mat"
    fourth = lines.index(" Game 4\n")
    game_3_played_as_game_2 = lines[end + 2 : fourth]  # s01's game 3, under game 2's header
    differs.write_text("".join([*lines[: start + 2], *game_3_played_as_game_2]), "utf-8")
    out = chouette("--session", "money", "import", str(differs)).output
    assert out.startswith("differs at game 2.mat: 2 games booked into money.\n"), out
    assert "Note" not in out and "Warning" not in out


# ---------------------------------------------------------------- a line that cannot be read


def test_a_game_with_an_unreadable_line_is_booked_as_the_score_headers_say(chouette, tmp_path):
    """The score headers decide each game but the last: one illegal play line (a hand's
    slip, a damaged copy) costs that game's moves, not the file."""
    text = s01_text().replace(" 63: 25/22 13/7", " 63: 25/22 13/7 zz/99", 1)
    damaged = tmp_path / "damaged.mat"
    damaged.write_text(text, encoding="utf-8")
    chouette("new", "money", *S01["players"])
    out = chouette("import", str(damaged))
    assert out.stdout.startswith("damaged.mat: 50 games booked into money.\n"), out.stdout
    line = next(n for n, t in enumerate(text.splitlines(), 1) if "zz/99" in t)
    assert out.stderr.startswith(
        f"Warning: line {line}: cannot read 'zz/99' in '10) 63: 25/22 13/7 zz/99  "
    ), out.stderr
    assert "game 1's lines from there are not read; booked as the next score header says, " in (
        out.stderr
    )
    games = chouette.json("sheet")["games"]
    assert [(max(g["points"], key=g["points"].get), max(g["points"].values())) for g in games] == (
        truth(S01)
    )


def test_an_unreadable_line_in_the_last_game_refuses_the_file(chouette, tmp_path):
    """No score header follows the last game: its lines are all there is."""
    text = s01_text()
    last = text.rindex(" Game ")
    damaged = tmp_path / "damaged.mat"
    moves = text.index(")", text.index("\n  1)", last))  # the last game's first turn
    damaged.write_text(text[:moves] + ") zz/99" + text[moves + 1 :], encoding="utf-8")
    chouette("new", "money", *S01["players"])
    refused = chouette("import", str(damaged), code=1)
    assert refused.stderr.startswith("Error: damaged.mat: line "), refused.stderr
    assert "cannot read 'zz/99'" in refused.stderr
    assert chouette.json("sheet")["games"] == []


# ---------------------------------------------------------------- in the reader's language

#: Real files whose import says a note or a warning: the session's players, the options to
#: import them with, and the names beside the players that the words say (programs, encodings).
SAID: dict[str, tuple[Path, tuple[str, str], list[str]]] = {
    "galaxy-money": (
        CORPUS / "galaxy/bglab/match7986278.txt",
        ("lasse", "Rival"),
        ["--as", "robot=Rival"],
    ),
    "capped-last-game": (
        CORPUS / "galaxy/bglab/match1245421.txt",
        ("lasse", "sevelius"),
        ["--match-as-money"],
    ),
    "forfeit": (
        CORPUS / "backgammon-studio/bglab/Minchy - Llabba 13pt Backgammon Studio 2023_02_24 "
        "19_44_27.txt",
        ("Minchy", "Llabba"),
        ["--match-as-money"],
    ),
    "not-ended": (
        CORPUS / "derived/xg-mobile-money.unfinished-last-game.mat",
        ("Ken", "XG-Intermediate"),
        [],
    ),
    "encoding": (
        CORPUS / "derived/xg-test.cp1252.mat",
        ("Kévin Unger", "Maxence Job"),
        ["--match-as-money"],
    ),
    "worth-more": (
        CORPUS / "bgblitz-binary/gammonview/XCu3RJ0UvDg_Tldl.bgf",
        ("Emberoak05", "Jade1"),
        ["--match-as-money"],
    ),
    "header-jacoby": (SAMPLES / "gnubg/mat/s05_money_nocube.mat", ("gnubgA", "gnubgB"), []),
    "header-moves": (ENGINE_DATA / "s04_money_autodoubles_raccoons.mat", ("Big Al", "Zoë"), []),
}
#: The names the notes say beside the players': programs, a site, encodings.
PROGRAMS = {"galaxy", "gnubg", "utf", "windows"}


def imported_in(chouette, monkeypatch, tmp_path, case: str, lang: str) -> tuple[str, str]:
    """What importing ``case``'s file says on standard error with ``LANG`` for ``lang``, and
    its ``--json`` (each into a ledger of its own)."""
    path, players, options = SAID[case]
    locale = {"en": "en_US.UTF-8", "da": "da_DK.UTF-8", "cs": "cs_CZ.UTF-8"}[lang]
    monkeypatch.delenv("LANGUAGE", raising=False)
    monkeypatch.setenv("LANG", locale)
    said = []
    for json_too in (False, True):
        monkeypatch.setenv("CHOUETTE_DB", str(tmp_path / f"{case}-{lang}-{json_too}.db"))
        chouette("new", "money", *players, *(["--jacoby"] if case == "header-jacoby" else []))
        out = chouette("import", str(path), *options, *(["--json"] if json_too else []))
        said.append(out.stdout if json_too else out.stderr)
    return said[0], said[1]


@pytest.mark.parametrize("case", sorted(SAID))
@pytest.mark.parametrize("lang", ["da", "cs"])
def test_an_engine_files_notes_and_warnings_are_said_in_the_readers_language(
    chouette, monkeypatch, tmp_path, case, lang
):
    """Issue 36: under ``LANG=da_DK.UTF-8`` or ``cs_CZ.UTF-8`` the import's notes and warnings
    have no English word but names and the file's own words (quoted as the file writes them:
    ``'Wins 4 points'``, ``'????'``), and its ``--json`` is the same as in English."""
    from tests.cli.test_languages_cli import NAMES, the_languages_own, words

    english, english_json = imported_in(chouette, monkeypatch, tmp_path, case, "en")
    told, told_json = imported_in(chouette, monkeypatch, tmp_path, case, lang)
    assert told_json == english_json
    json.loads(english_json)
    assert english.startswith(("Note: ", "Warning: ")), english
    assert len(told.splitlines()) == len(english.splitlines())
    path, players, _ = SAID[case]
    quoted = re.compile(r"'[^'\n]*'")  # the file's own words
    unquoted = quoted.sub(" ", told.replace(path.name, " "))
    names = NAMES | PROGRAMS | words(" ".join(players))
    left = words(unquoted) & words(english) - names - the_languages_own(lang)
    assert not left, (sorted(left), told)
