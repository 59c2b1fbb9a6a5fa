"""The server's door to the ledger (``web.table``), on SQLite and PostgreSQL: the marker it
polls changes with everything the pages show, the board it reads says what the CLI's reports
say, and each button of the keeper's page posts the CLI's own words, which the CLI runs:
the page enables exactly what the CLI accepts."""

from __future__ import annotations

import json
from datetime import datetime

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
    assert board.last == "Game 2: the box, ann, takes on dan's cube."
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
    assert empty.board is None and empty.changes == (None,)
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
                        assert words.startswith(f"double {' '.join(members)} --game")
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
    amount one word (quoted), an option's value given with it, what is not typed left out."""
    chouette("new", "friday", "ann", "bob", "cat", "dan", "eve", "fay", "--extras", "--proxies")
    chouette("end", "box")
    found = controls(ledger_url)
    assert pressed(found, "pay", "Pay", word=["bob", "ann", "2,50"], **{"--note": "the cash"}) == (
        "pay bob ann 2,50 --note='the cash'"
    )
    assert pressed(found, "join", "Join", word="ann marie", **{"--stake": "1,50"}) == (
        "join 'ann marie' --stake=1,50"
    )
    assert pressed(found, "proxy", "Proxy", word="dan") == "proxy dan --follows captain"
    assert pressed(found, "proxy", "Proxy", word="dan", line="--by eve") == "proxy dan --by eve"
    assert pressed(found, "proxy-back", "Proxy withdrawn: they are back", word="dan") == (
        "proxy dan --withdraw"
    )
    assert pressed(found, "split", "Split the table", word="friday-2") == "split friday-2"
    assert pressed(found, "new", "New session", word="sat", line=["ann bob cat", "--jacoby"],
                   check="--roll", **{"--stake": "2"}) == (
        "new sat ann bob cat --roll --stake=2 --jacoby"
    )  # fmt: skip
    assert pressed(found, "amend", "Amend: Team wins a gammon", word="1", **{"--note": "x"}) == (
        "amend 1 --note=x --result team gammon"
    )
    cubes = pressed(found, "amend", "Amend the cubes only", word="1", line="--cube bob=4",
                    **{"--note": "they agree"})  # fmt: skip
    assert cubes == "amend 1 --note='they agree' --cube bob=4"
    assert pressed(found, "deal:bob", "Deal", word="-2") == "deal bob -2 --game 2"
    box = next(f for f in found if f.key == "double-box")  # (the script enables its button)
    assert line_of(box.pressed(box.buttons()[0], {"check": "bob dan"})) == "double dan bob --game 2"
    chouette("double", "bob")
    assert pressed(controls(ledger_url), "extra", "Extra", word=["bob", "box"],
                   **{"--points": "4"}) == "extra bob box --points=4 --game 2"  # fmt: skip


def test_a_form_piece_that_would_be_an_option_is_refused():
    with pytest.raises(ChouetteError, match="a name or amount cannot start with '-'"):
        line_of([("line", "pay"), ("word", "--db=/tmp/x"), ("word", "ann"), ("word", "1")])
    assert line_of([("line", "deal bob"), ("word", "-2"), ("session", "friday")]) == "deal bob -2"
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
    """The session as an older chouette, which kept no journal, leaves it."""
    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            conn.execute(text("DELETE FROM action"))
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
