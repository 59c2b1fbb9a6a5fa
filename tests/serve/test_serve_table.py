"""The server's door to the ledger (``web.table``), on SQLite and PostgreSQL: the marker it
polls changes with everything the pages show, the board it reads says what the CLI's reports
say, and each button of the keeper's page posts the CLI's own words, which the CLI runs:
the page enables exactly what the CLI accepts."""

from __future__ import annotations

import json
import re
import sqlite3
from datetime import datetime
from typing import Any

import pytest

from chouette.errors import ChouetteError
from cli import run_words
from tests.forms import Form, forms
from web.moves import line_of
from web.table import Table

pytestmark = pytest.mark.backends("sqlite", "postgres")

NOW = datetime.fromisoformat("2026-11-20T20:00:00+00:00")


def table(url: str, session: str | None = None) -> Table:
    return Table(url, session, lambda: NOW, commands=run_words)


def refusal(chouette, *args: str) -> str:
    """What the CLI says when it refuses ``args`` (without ``Error: ``): a rule (exit code 1)
    or an amount that is not one (2, a usage error)."""
    from cli import app

    result = chouette.runner.invoke(app, list(args))
    assert result.exit_code in (1, 2), (result.stdout, result.stderr)
    assert result.stderr.startswith("Error: ")
    return result.stderr.removeprefix("Error: ").rstrip("\n")


# ---------------------------------------------------------------- the marker


def test_the_marker_changes_with_everything_the_board_shows(chouette, ledger_url):
    chouette("new", "friday", "ann", "bob", "cat", "--stake", "5.00")
    served = table(ledger_url)
    marks = [served.changes()]

    def after(*args: str) -> None:
        chouette(*args)
        marks.append(served.changes())
        assert marks[-1] != marks[-2], args
        assert served.changes() == marks[-1]  # reading changes nothing

    after("double", "bob")
    after("take", "bob")
    after("undo")
    after("drop", "bob")  # the same number of events as before the undo, another event
    after("undo")
    after("undo")  # the game is gone: not started again
    after("end", "box")
    after("undo")  # the end taken back: the bookings are gone, the game in progress again
    after("end", "team")  # booked again, with other amounts
    after("join", "dan")
    after("undo")  # the join taken back
    after("join", "dan")
    after("pay", "bob", "ann", "1.00", "--advance")
    after("undo")  # the payment taken back
    after("pay", "bob", "ann", "1.00", "--advance")
    after("sit-out", "cat")
    after("new", "saturday", "eve", "fay")  # another session is now the current one
    assert table(ledger_url, "friday").changes() != marks[-1]


@pytest.mark.backends("sqlite")
def test_sqlite_gives_a_deleted_rows_id_again_so_the_marker_reads_more_than_ids(
    chouette, ledger_url
):
    """Why the marker is not only the highest ids: after an undo, SQLite numbers the next
    event as the one taken back."""
    import sqlite3

    chouette("new", "friday", "ann", "bob", "cat")
    chouette("double", "bob")
    chouette("take", "bob")
    path = ledger_url.removeprefix("sqlite:///")

    def last_event() -> tuple[int, str]:
        with sqlite3.connect(path) as conn:
            return conn.execute("SELECT id, body FROM event ORDER BY id DESC").fetchone()

    taken, before = last_event(), table(ledger_url).changes()
    chouette("undo")
    chouette("drop", "bob")
    dropped = last_event()
    assert dropped[0] == taken[0] and dropped[1] != taken[1]
    assert table(ledger_url).changes() != before


# ---------------------------------------------------------------- the board


def test_the_board_says_what_the_reports_say(chouette, ledger_url):
    chouette("new", "friday", "ann", "bob", "cat", "dan", "--stake", "5.00")
    for command in ("double bob cat", "drop cat", "beaver bob", "take bob", "end box --gammon",
                    "double dan --by member", "take dan"):  # fmt: skip
        chouette(*command.split())
    board = table(ledger_url).snapshot().board
    assert board is not None
    status = chouette.json("status")
    assert board.session == "friday" and board.number == status["game"]["number"] == 2
    assert board.in_progress
    assert (board.line.box, board.line.captain, list(board.crew)) == (
        status["box"],
        status["captain"],
        status["crew"],
    )
    assert {c.member: (c.value, c.out is not None) for c in board.cubes} == {
        m: (c["value"], c["out"]) for m, c in status["game"]["cubes"].items()
    }
    assert str(board.last) == "Game 2: the box, ann, takes on dan's cube."
    standings = chouette.json("standings")["players"]
    assert [(s.name, s.points, s.cents) for s in board.standings] == [
        (p["name"], p["points"], p["cents"]) for p in standings
    ]
    assert [g.number for g in board.last_games] == [1]
    assert {r.name: r.cents for r in board.last_games[0].results} == {
        p: c for p, c in chouette.json("sheet")["games"][0]["cents"].items()
    }
    assert "<polyline" in board.chart() and board.colours["ann"] != board.colours["bob"]


def test_without_a_session_the_board_says_so_and_a_named_session_must_exist(chouette, ledger_url):
    chouette("migrate")  # a ledger with no session yet
    assert table(ledger_url).open() is None
    empty = table(ledger_url).snapshot()
    assert empty.board is None and empty.changes == ((0, None, 0), None)  # no proposal, no session
    chouette("new", "friday", "ann", "bob")
    assert table(ledger_url).open() == "friday"
    assert table(ledger_url).snapshot().changes != empty.changes
    with pytest.raises(ChouetteError, match="there is no session called monday"):
        table(ledger_url, "monday").open()


def test_the_session_served_is_followed_through_a_rename_and_gives_way_when_deleted(
    chouette, ledger_url
):
    chouette("new", "friday", "ann", "bob")
    chouette("new", "typo", "cat", "dan")
    served = table(ledger_url, "friday")
    assert served.open() == "friday"
    chouette("sessions", "--rename", "friday", "friday 21")  # by another door
    assert served.snapshot().board.session == "friday 21"
    assert served.session == "friday 21" and "friday 21" in served.choices()
    chouette("--session", "friday 21", "undo")  # the rename taken back
    assert served.snapshot().board.session == "friday"
    served.session = "typo"  # the keeper's page picks it
    chouette("sessions", "--delete", "typo")
    assert served.snapshot().board.session == "friday"  # the current one now
    assert served.session is None


# ---------------------------------------------------------------- the actions: the CLI's words


def controls(url: str, session: str | None = None) -> list[Form]:
    """The keeper page's forms, as the page shows them now."""
    from web.app import templates

    board = table(url, session).snapshot().board
    return forms(templates().get_template("_controls.html").render(board=board, private=False))


def pressed(found: list[Form], key: str, label: str, **typed: str | list[str]) -> str:
    """The command line pressing the button ``label`` of the form ``key`` posts."""
    form = next(f for f in found if f.key == key)
    button = next(b for b in form.buttons() if b.label == label)
    assert not button.disabled, (key, label)
    return line_of(form.pressed(button, typed))


#: Evenings, and the states of each whose buttons the test below presses: between games; a
#: double to answer and an extra's cube to turn, then a beaver and the extra's redouble to
#: answer; a resignation offered member by member and a captain who may resign for a
#: successor; a partner to buy out; a partner the box names (a single cube's automatic
#: double carried over has a test of its own).
STATES = [
    ("new friday ann bob cat dan eve fay --proxies --extras --extra-redoubles",
     [[], ["double bob cat", "extra dan box"], ["beaver bob", "double-extra dan ann"]]),
    ("new sat ann bob cat dan --resignations per-member --auto-doubles 1 --cubes single "
     "--captain-resigns takeover", [[], ["resign bob cat --gammon"]]),
    ("new sun ann bob cat dan eve fay --partner-from 6 --buy-outs", [[]]),
    ("new mon ann bob cat dan eve fay --partner-from 6 --partner-pick box", [[]]),
]  # fmt: skip


@pytest.mark.backends("sqlite")
def test_every_enabled_button_is_a_line_the_cli_runs_and_every_disabled_one_it_refuses(
    chouette, ledger_url
):
    """One grammar: each button of the keeper's page posts the CLI's own words, and the page
    enables what the CLI accepts: pressed in states of evenings, an enabled button's line
    succeeds (and undo takes it back), a disabled one's is refused. Each button once, in the
    first state it is enabled (or disabled) in: :func:`web.moves.legal` has laws of its own.
    Undo's button has a test of its own, above."""
    served = table(ledger_url)
    pressed_once: set[tuple[str, bool]] = set()

    def press(words: str, session: str, enabled: bool) -> None:
        ok, said = served.run_line(words, session)
        assert ok == (enabled or words in NOT_OFFERED), (words, said)
        if ok and enabled:
            assert served.run_line("undo", session)[0], words

    for start, states in STATES:
        chouette(*start.split())
        for steps in states:
            for step in steps:
                chouette(*step.split())
            for form in controls(ledger_url):
                if form.attrs.get("action") != "/keeper/act#desk" or form.key in ("undo", "settle"):
                    continue
                session = next(v for k, v in form.pressed(form.buttons()[0]) if k == "session")
                if form.key == "double-box":  # the script enables it for each legal set
                    legal = json.loads(form.attrs["data-legal"])
                    for members in legal[:1] + legal[-1:]:  # (the fewest and the most)
                        words = line_of(
                            form.pressed(form.buttons()[0], {"check": " ".join(members)})
                        )
                        assert words.startswith("double --game ")
                        assert words.endswith(f" -- {' '.join(members)}")
                        press(words, session, True)
                    continue
                for button in form.buttons():
                    words = line_of(form.pressed(button))
                    kind = button.label.split()[0].rstrip(":")
                    if kind not in ONE_LINE or (button.label, button.disabled) in pressed_once:
                        continue  # a form to fill in (a test below), or pressed already
                    pressed_once.add((button.label, button.disabled))
                    press(words, session, not button.disabled)
    enabled = {label for label, disabled in pressed_once if not disabled}
    assert enabled >= {
        "Take", "Drop", "Beaver", "Raccoon", "Double the box", "Take all", "Drop all",
        "Auto-double: a tied opening roll", "Deal", "Resign: accept", "Resign: refuse",
        "Buy-out: the box buys its partner out of the live cubes", "End: Box wins a single",
        "End: Team wins a backgammon", "Accept the rules", "Sit out", "Leave",
        "Double: the box turns the cube", "Double for the team: the captain turns the cube",
        "Double-extra dan, ann", "Take-extra dan, ann", "Drop-extra dan, ann", "Resign to dan",
        "Captain-resigns: cat takes over", "Partner: cat",
    }, enabled  # fmt: skip
    assert len(pressed_once) - len(enabled) > 10


#: What the CLI accepts and the page does not offer: a tied opening roll with automatic
#: doubles off (the CLI notes that it doubles nothing, and writes nothing).
NOT_OFFERED = {"auto-double --game 1"}

#: The buttons whose line is whole as the page shows it (their first word).
ONE_LINE = {
    "Take",
    "Drop",
    "Beaver",
    "Raccoon",
    "Resign",
    "Double",
    "Deal",
    "Auto-double",
    "Buy-out",
    "Carry",
    "End",
    "Accept",
    "Sit",
    "Leave",
    "Double-extra",
    "Take-extra",
    "Drop-extra",
    "Captain-resigns",
    "Partner",
}


def test_each_form_posts_the_clis_words(chouette, ledger_url):
    """What the forms of the page post, as the command lines the CLI reads: a name or an
    amount one word (quoted) after ``--``, an option's value given with it, what is not
    typed left out."""
    chouette("new", "friday", "ann", "bob", "cat", "dan", "eve", "fay", "--extras", "--proxies")
    chouette("end", "box")
    found = controls(ledger_url)
    assert pressed(found, "pay", "Pay", word=["bob", "ann", "2,50"], **{"--note": "the cash"}) == (
        "pay --note='the cash' -- bob ann 2,50"
    )
    assert pressed(found, "join", "Join", word="ann marie", **{"--stake": "1,50"}) == (
        "join --stake=1,50 -- 'ann marie'"
    )
    assert pressed(found, "proxy", "Proxy", word="dan") == "proxy --follows captain -- dan"
    assert pressed(found, "proxy", "Proxy", word="dan", line="--by=eve") == "proxy --by=eve -- dan"
    assert pressed(found, "proxy-back", "Proxy withdrawn: they are back", word="dan") == (
        "proxy --withdraw -- dan"
    )
    assert pressed(found, "split", "Split the table", word="friday-2") == "split -- friday-2"
    assert pressed(found, "new", "New session", word="sat", words="ann 'bob b' cat",
                   line="--jacoby", check="--roll", **{"--stake": "2"}) == (
        "new --roll --stake=2 --jacoby -- sat ann 'bob b' cat"
    )  # fmt: skip
    assert pressed(found, "amend", "Amend: Team wins a gammon", word="1", **{"--note": "x"}) == (
        "amend --note=x --result team -- 1 gammon"
    )
    ok, said = table(ledger_url).run_line("amend --note=x --result team -- 1 gammon", "friday")
    assert ok and said[0].startswith("Game 1 amended: the board's end was box single, is team "
                                     "gammon"), said  # fmt: skip
    assert table(ledger_url).run_line("undo", "friday")[0]
    cubes = pressed(found, "amend", "Amend the cubes only", word="1", line="--cube bob=4",
                    **{"--note": "they agree"})  # fmt: skip
    assert cubes == "amend --note='they agree' --cube bob=4 -- 1"
    assert pressed(found, "deal:bob", "Deal", word="-2") == "deal --game 2 -- bob -2"
    box = next(f for f in found if f.key == "double-box")  # (the script enables its button)
    assert line_of(box.pressed(box.buttons()[0], {"check": "bob dan"})) == (
        "double --game 2 -- dan bob"
    )
    chouette("double", "bob")
    assert pressed(controls(ledger_url), "extra", "Extra", word=["bob", "box"],
                   **{"--points": "4"}) == "extra --points=4 --game 2 -- bob box"  # fmt: skip


def test_a_form_piece_that_looks_like_an_option_is_a_name_after_two_dashes():
    assert line_of([("line", "pay"), ("word", "--db=/tmp/x"), ("word", "ann"), ("word", "1")]) == (
        "pay -- --db=/tmp/x ann 1"
    )
    assert line_of([("line", "deal -- bob"), ("word", "-2"), ("session", "friday")]) == (
        "deal -- bob -2"
    )
    assert line_of([("line", "new"), ("word", "sat"), ("words", "ann -h")]) == "new -- sat ann -h"
    with pytest.raises(ChouetteError, match='an unclosed quotation mark in "ann \'bob"'):
        line_of([("line", "new"), ("word", "sat"), ("words", "ann 'bob")])
    # a typed line is as typed: its own `--` too, the names after it kept last
    assert line_of([("line", "drop --all --game 2")]) == "drop --all --game 2"
    assert line_of([("line", "take -- --all"), ("line", "--game 2")]) == "take --game 2 -- --all"
    assert line_of([("line", "pay ann 'bob")]) == "pay ann 'bob"  # (the CLI says what is wrong)
    # names alone after the command, as an older page's form gave them, stay names in order
    assert line_of([("line", "new"), ("word", "sat"), ("line", "ann bob"), ("line", "--roll")]) == (
        "new --roll -- sat ann bob"
    )
    assert line_of([("line", "pay bob ann 1"), ("--note", "--db x"), ("--db", "")]) == (
        "pay bob ann 1 --note='--db x'"
    )
    assert line_of([("line", "status"), ("--Db", "x"), ("-n", "y"), ("--stake", " ")]) == "status"


def test_an_evening_from_the_pages_buttons_says_what_the_cli_says(chouette, ledger_url):
    """The page's buttons, run by the CLI on the server's ledger: what they say is the CLI's
    own (a table of the game's bookings, the next line and why), and a refusal too."""
    chouette("new", "friday", "ann", "bob", "cat", "--stake", "5.00")
    served = table(ledger_url)
    ok, said = served.run_line(pressed(controls(ledger_url), "together", "Double bob, cat"), None)
    assert ok and said == [
        "Game 1: the box, ann, doubles bob, cat.",
        "  bob: cube 1, double to 2 pending: bob to answer",
        "  cat: cube 1, double to 2 pending: cat to answer",
    ]
    assert served.run_line(pressed(controls(ledger_url), "together", "Take all"), "friday") == (
        True,
        ["Game 1: bob takes.", "Game 1: cat takes.", "  bob: cube 2, bob owns it",
         "  cat: cube 2, cat owns it"],
    )  # fmt: skip
    line = pressed(controls(ledger_url), "end", "End: Team wins a gammon")
    assert line == "end team --gammon --game 1"
    ok, said = served.run_line(line, "friday")
    assert ok and said[-5:] == [
        "Next line: bob | cat, ann",
        "Why:",
        "  the gammon counts in full for bob and cat: their cubes were turned (Jacoby)",
        "  box goes: captain rule, bob beat the box (+4)",
        "  bob takes the box; ann goes to the bottom of the line",
    ]
    assert "cat             +4   +20.00" in said
    ok, said = served.run_line(line, "friday")  # pressed again, from a page not yet fresh
    assert not ok and said == [f"Error: {refusal(chouette, *line.split())}"]
    assert said[0].startswith("Error: game 1 is over")
    ok, said = served.run_line(pressed(controls(ledger_url), "undo", "Undo the last thing done"),
                               "friday")  # fmt: skip
    assert ok and said == ["Undone: took back end team gammon (game 1)."]
    assert chouette("check").stdout.startswith("The ledger is consistent")


def test_the_page_shows_the_partner_and_says_a_partnership_change_as_the_cli_does(
    chouette, ledger_url
):
    from tests.dom import parse
    from web.app import templates

    chouette("new", "friday", "ann", "bob", "cat", "dan", "eve", "--partner-from", "5")
    served = table(ledger_url)
    board = parse(templates().get_template("_board.html").render(board=served.snapshot().board))
    assert board.one(id="seats").one(data_role="partner").one("dd").text() == "cat"
    ok, said = served.run_line("sit-out eve", "friday")
    assert ok and said == [
        "eve sits out. Line: ann | bob, cat, dan  (sitting out: eve)",
        "cat is no longer the box's partner: 4 seated, a partner from 5; cat plays on the team "
        "again.",
    ]
    assert served.run_line("undo", "friday") == (
        True,
        [
            "Undone: took back eve sits out.",
            "cat becomes the box's partner: undo put the line back as it was.",
        ],
    )
    assert chouette("sit-out", "eve").stdout.splitlines() == said


def test_undo_is_offered_exactly_when_undo_takes_something_back(chouette, ledger_url):
    """The board's undo button follows db.commands.undo, step by step: whatever was done last
    (an event, a game's end, a join, a leave) undo takes back; before anything, nothing."""
    steps = [
        "double bob",
        "take bob",
        "end team",
        "join dan",
        "leave dan",
        "pay bob ann 1.00 --advance",
    ]
    offered = []
    for done in range(len(steps) + 1):
        chouette("new", f"evening{done}", "ann", "bob", "cat")
        for step in steps[:done]:
            chouette(*step.split())
        board = table(ledger_url).snapshot().board
        assert board is not None and board.session == f"evening{done}"
        result = chouette("undo", code=0 if board.legal.undo else 1)
        assert result.stdout.startswith("Undone:") == board.legal.undo
        offered.append(board.legal.undo)
    assert offered == [False] + [True] * len(steps)


def forget_journal(url: str) -> None:
    """The session as an older chouette, which kept no journal, leaves it (its links hold
    no digest of one)."""
    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            conn.execute(text("DELETE FROM action"))
            conn.execute(text("UPDATE chain SET journal = NULL"))
    finally:
        engine.dispose()


def test_in_a_session_played_before_the_journal_undo_follows_the_old_rules(chouette, ledger_url):
    """Without a journal, undo takes back an event, or the last game unless the line has
    changed since it ended."""
    chouette("new", "friday", "ann", "bob", "cat")
    chouette("end", "team")
    chouette("join", "dan")
    forget_journal(ledger_url)
    served = table(ledger_url)
    board = served.snapshot().board
    assert board is not None and not board.legal.undo  # the line changed since game 1
    chouette("undo", code=1)
    chouette("leave", "dan")  # the line as game 1 left it again
    forget_journal(ledger_url)
    board = served.snapshot().board
    assert board is not None and board.legal.undo
    assert chouette("undo").stdout.startswith("Undone: took back end team")


# ---------------------------------------------------------------- names that start with a dash

#: Names that read as options of the commands the page runs (``drop --all``, ``take -h``,
#: ``--session``, ``--db``), and each one's twin: a ledger of an earlier chouette may hold
#: them (``new`` and ``join`` refuse them now). They sort as their twins do (the settlement
#: breaks ties by name).
DASHED = {"ann": "--all", "bob": "--db=/tmp/other.db", "cat": "--game", "dan": "--help",
          "eve": "--session", "fay": "-h", "friday": "--json", "sat": "-x", "sun": "--",
          "mon": "-"}  # fmt: skip

#: Evenings (house rules, players, session) and the states whose every form and button the
#: law presses: each step a command, its options, the names after ``--``.
EVENINGS = [
    (["--proxies", "--extras", "--extra-redoubles"], "friday", "ann bob cat dan eve fay",
     [[], [("double", "bob cat"), ("extra", "dan box")],
      [("beaver", "bob"), ("double-extra", "dan ann")]]),
    (["--resignations", "per-member", "--auto-doubles", "1", "--cubes", "single",
      "--captain-resigns", "takeover"], "sat", "ann bob cat dan",
     [[], [("resign --gammon", "bob cat")]]),
    (["--partner-from", "6", "--buy-outs"], "sun", "ann bob cat dan eve fay", [[]]),
    (["--partner-from", "6", "--partner-pick", "box"], "mon", "ann bob cat dan eve fay",
     [[("end box", "")], [("sit-out", "eve"), ("pay --advance", "bob ann 1")]]),
]  # fmt: skip


def as_plain(value: object, names: dict[str, str]) -> object:
    """What a report says, each name of the dashed ledger as its twin's (a fingerprint, made
    from the names, left out)."""
    if isinstance(value, dict):
        return {
            as_plain(k, names): as_plain(v, names) for k, v in value.items() if k != "fingerprint"
        }
    if isinstance(value, list):
        return [as_plain(v, names) for v in value]
    if isinstance(value, str) and names:
        words = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
        found = re.compile(rf"(?<![^\s(])({words})(?=$|[\s,.:;)']|'s)")
        return found.sub(lambda m: names[m.group(1)], value)
    return value


def reports(chouette, url: str, session: str, names: dict[str, str]) -> dict[str, object]:
    """Everything a button can change in ``session``, as the reports say it (names made
    plain), and which session is current."""
    found = {
        report: chouette.json("--db", url, f"--session={session}", report)
        for report in ("status", "standings", "rules", "sheet", "log", "settle")
    }
    found["current"] = chouette.json("--db", url, "where")["session"]
    plain: dict[str, Any] = as_plain(found, names)  # type: ignore[assignment]
    for report, rows in (("standings", "players"), ("settle", "payments")):  # (ties: by name)
        plain[report][rows].sort(key=lambda row: json.dumps(row, sort_keys=True))
    return plain


class Reports:
    """:func:`reports` of one SQLite ledger, read again only after another connection wrote
    to it (SQLite's ``PRAGMA data_version`` on a connection of this class's own changes with
    each commit of any other): the reports say what the ledger holds (the clock is pinned),
    and a refused press, as most are, writes nothing."""

    def __init__(self, chouette, url: str, names: dict[str, str]) -> None:
        self.chouette, self.url, self.names = chouette, url, names
        self.watch: sqlite3.Connection | None = None  # (opened once the ledger exists)
        self.seen: tuple[int, str] | None = None
        self.read: dict[str, object] = {}

    def __call__(self, session: str) -> dict[str, object]:
        if self.watch is None:
            self.watch = sqlite3.connect(self.url.removeprefix("sqlite:///"))
        version = (self.watch.execute("PRAGMA data_version").fetchone()[0], session)
        if version != self.seen:
            self.read, self.seen = reports(self.chouette, self.url, session, self.names), version
        return self.read

    def close(self) -> None:
        if self.watch is not None:
            self.watch.close()


@pytest.mark.slow
@pytest.mark.backends("sqlite")
def test_a_name_that_starts_with_a_dash_is_a_name_through_every_button(
    chouette, ledger_url, tmp_path, monkeypatch
):
    """The law of issue 34: every word the page builds from a name reaches the command as a
    name. Two ledgers play the same evenings, one with plain names, the other with names
    that are options of the commands (``--all``, ``-h``, ``--session``, ``--db=…``); every
    form of the keeper's page and every button on it, enabled or not, is pressed on both,
    and each press does the same on both: refused on both, or the same change, names apart
    (then taken back with undo on both)."""
    from chouette import line

    twin = f"sqlite:///{tmp_path / 'dashed.db'}"
    back = {dashed: plain for plain, dashed in DASHED.items()}
    plain_table, dashed_table = table(ledger_url), table(twin)
    plain_reports, dashed_reports = Reports(chouette, ledger_url, {}), Reports(chouette, twin, back)
    pressed_count = 0

    def both(command: str, names: str, session: str) -> None:
        for url, named in ((ledger_url, {}), (twin, DASHED)):
            given = [named.get(n, n) for n in names.split()]
            chouette("--db", url, f"--session={named.get(session, session)}",
                     *command.split(), "--", *given)  # fmt: skip

    def same(*why: object) -> None:
        """Both ledgers say the same, names apart."""
        assert dashed_reports(DASHED.get(session, session)) == plain_reports(session), why

    def typed(form: Form, named: dict[str, str]) -> dict[str, str | list[str]]:
        """What a person types in a form to fill in: a new player's or table's name, an
        amount, a note; the boxes of the box's double that the rules allow."""
        values: dict[str, str | list[str]] = {"--note": "x", "--points": "2", "--premium": "1"}
        if form.key == "pay":
            values["word"] = [named.get("bob", "bob"), named.get("ann", "ann"), "1"]
        elif form.key in ("join", "split"):
            values["word"] = "gus"
        elif form.key == "double-box":
            values["check"] = " ".join(json.loads(form.attrs["data-legal"])[-1])
        elif form.key == "new":
            values["word"], values["words"] = f"new{pressed_count}", "gus hal"
        return values

    for rules, session, players, states in EVENINGS:
        with monkeypatch.context() as earlier:  # the checks of an earlier chouette
            earlier.setattr(line, "check_new_name", line.check_name)
            earlier.setattr(line, "check_new_session_name", line.check_session_name)
            both(f"new {' '.join(rules)}", f"{session} {players}", session)
        for steps in states:
            for command, names in steps:
                both(command, names, session)
            same(steps)
            plain_forms, dashed_forms = controls(ledger_url), controls(twin)
            assert len(plain_forms) == len(dashed_forms)
            for plain_form, dashed_form in zip(plain_forms, dashed_forms, strict=True):
                if plain_form.key in ("undo", "line"):
                    continue  # (undo takes back the state's steps; a typed line is as typed)
                assert as_plain(dashed_form.key.replace(":", " : "), back) == (
                    plain_form.key.replace(":", " : ")
                )
                for plain_button, dashed_button in zip(
                    plain_form.buttons(), dashed_form.buttons(), strict=True
                ):
                    said = []
                    for served, form, button, named in (
                        (plain_table, plain_form, plain_button, {}),
                        (dashed_table, dashed_form, dashed_button, DASHED),
                    ):
                        pairs = form.pressed(button, typed(form, named))
                        where = next(v for k, v in pairs if k == "session")
                        said.append(served.run_line(line_of(pairs), where))
                    pressed_count += 1
                    (plain_ok, plain_said), (dashed_ok, dashed_said) = said
                    assert dashed_ok == plain_ok, (plain_button.label, plain_said, dashed_said)
                    same(plain_button.label, plain_said, dashed_said)
                    if plain_ok and plain_form.key not in ("settle", "new"):
                        plain_table.run_line("undo", session)
                        dashed_table.run_line("undo", DASHED.get(session, session))
                        same("undo", plain_button.label)
    assert pressed_count > 150
    plain_reports.close()
    dashed_reports.close()
