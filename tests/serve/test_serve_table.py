"""The server's door to the ledger (``web.table``), on SQLite and PostgreSQL: the marker it
polls changes with everything the pages show, the board it reads says what the CLI's reports
say, and each action is the CLI's command — the same events, the same words, the same
refusals, one transaction."""

from __future__ import annotations

from datetime import datetime

import pytest

from chouette.errors import ChouetteError
from web.moves import Action
from web.table import Table

pytestmark = pytest.mark.backends("sqlite", "postgres")

NOW = datetime.fromisoformat("2026-11-20T20:00:00+00:00")


def table(url: str, session: str | None = None) -> Table:
    return Table(url, session, lambda: NOW)


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


# ---------------------------------------------------------------- the actions


def test_an_action_books_what_the_cli_command_books_and_says_the_same(chouette, ledger_url):
    chouette("new", "friday", "ann", "bob", "cat", "--stake", "5.00")
    served = table(ledger_url)
    said = served.act(Action("double-box", ("bob", "cat")), "friday", 1)
    assert said == [
        "Game 1: the box, ann, doubles bob, cat.",
        "  bob: cube 1, double to 2 pending: bob to answer",
        "  cat: cube 1, double to 2 pending: cat to answer",
    ]
    assert served.act(Action("take-all"), "friday", 1) == [
        "Game 1: bob takes.",
        "Game 1: cat takes.",
        "  bob: cube 2, bob owns it",
        "  cat: cube 2, cat owns it",
    ]
    said = served.act(Action("end", winner="team", kind="gammon"), "friday", 1)
    assert said[:4] == [
        "Game 1: the team wins a gammon.",
        "  bob: out, +4 (board)",
        "  cat: out, +4 (board)",
        "Game 1 is over.",
    ]
    assert said[-5:] == [
        "Next line: bob | cat, ann",
        "Why:",
        "  the gammon counts in full for bob and cat: their cubes were turned (Jacoby)",
        "  box goes: captain rule, bob beat the box (+4)",
        "  bob takes the box; ann goes to the bottom of the line",
    ]
    assert chouette.json("standings")["players"] == [
        {"name": "bob", "points": 4, "cents": 2000, "table_cents": 2000, "paid_cents": 0},
        {"name": "cat", "points": 4, "cents": 2000, "table_cents": 2000, "paid_cents": 0},
        {"name": "ann", "points": -8, "cents": -4000, "table_cents": -4000, "paid_cents": 0},
    ]
    assert served.act(Action("undo"), "friday", None) == [
        "Undone: took back end team gammon (game 1)."
    ]
    assert chouette("check").stdout.startswith("The ledger is consistent")


def test_the_page_shows_the_partner_and_says_a_partnership_change_as_the_cli_does(
    chouette, ledger_url
):
    from tests.test_report_html import parse
    from web.app import templates

    chouette("new", "friday", "ann", "bob", "cat", "dan", "eve", "--partner-from", "5")
    served = table(ledger_url)
    board = parse(templates().get_template("_board.html").render(board=served.snapshot().board))
    assert board.one(id="seats").one(data_role="partner").one("dd").text() == "cat"
    said = served.act(Action("sit-out", ("eve",)), "friday", None)
    assert said == [
        "eve sits out. Line: ann | bob, cat, dan  (sitting out: eve)",
        "cat is no longer the box's partner: 4 seated, a partner from 5; cat plays on the team "
        "again.",
    ]
    assert served.act(Action("undo"), "friday", None) == [
        "Undone: took back eve sits out.",
        "cat becomes the box's partner: undo put the line back as it was.",
    ]
    assert chouette("sit-out", "eve").stdout.splitlines() == said


@pytest.mark.parametrize(
    ("setup", "action", "cli"),
    [
        ([], Action("take", ("bob",)), "take bob"),
        (["double bob"], Action("end"), "end box"),
        (["double bob"], Action("double-box", ("bob",)), "double bob"),
        (["double bob", "take bob"], Action("raccoon", ("bob",)), "raccoon bob"),
        ([], Action("take-all"), "take --all"),
        ([], Action("deal", ("ann",), points=1), "deal ann 1"),
        (["end box"], Action("undo"), "undo"),  # nothing left after the first undo
        ([], Action("leave", ("zed",)), "leave zed"),
        (["double bob"], Action("sit-out", ("cat",)), "sit-out cat"),
        ([], Action("join", name="box"), "join box"),
        ([], Action("join", name="eve", stake="0"), "join eve --stake 0"),
        ([], Action("join", name="eve", stake="5,000"), "join eve --stake 5,000"),
        (["end box"], Action("amend", number=1, note="x"), "amend 1 --result box --note x"),
        ([], Action("amend", number=2, note="x"), "amend 2 --result box --note x"),
    ],
)
def test_a_refused_action_says_what_the_cli_says_and_writes_nothing(
    chouette, ledger_url, setup, action, cli
):
    chouette("new", "friday", "ann", "bob", "cat")
    for command in setup:
        chouette(*command.split())
    if action.act == "undo":
        chouette("undo")
    before = chouette("export").stdout
    with pytest.raises(ChouetteError) as refused:
        table(ledger_url).act(action, "friday", None)
    message = str(refused.value)
    expected = refusal(chouette, *cli.split())
    assert message == expected.replace("--stake: ", "stake: ")
    assert chouette("export").stdout == before


def test_an_action_for_a_game_another_terminal_ended_is_refused(chouette, ledger_url):
    chouette("new", "friday", "ann", "bob", "cat")
    chouette("double", "bob")
    served = table(ledger_url)  # the page shows game 1 …
    chouette("take", "bob")
    chouette("end", "team")  # … which another terminal ends
    with pytest.raises(ChouetteError, match="game 1 is over"):
        served.act(Action("end", winner="box"), "friday", 1)
    assert len(chouette.json("sheet")["games"]) == 1


def test_line_changes_and_a_newcomer_with_a_stake(chouette, ledger_url):
    chouette("new", "friday", "ann", "bob", "cat", "--stake", "2.00")
    served = table(ledger_url)
    assert served.act(Action("join", name="eve", stake="1.50"), "friday", 1) == [
        "eve joins at 1.50 a point. Line: ann | bob, cat, eve"
    ]
    assert served.act(Action("sit-out", ("bob",)), "friday", 1) == [
        "bob sits out. Line: ann | cat, eve  (sitting out: bob)"
    ]
    assert served.act(Action("sit-in", ("bob",)), "friday", 1) == [
        "bob sits in. Line: ann | bob, cat, eve"  # no game since: his captaincy back
    ]
    assert served.act(Action("leave", ("cat",)), "friday", 1) == [
        "cat leaves. Line: ann | bob, eve"
    ]
    assert chouette.json("status")["line"] == ["ann", "bob", "eve"]


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


def test_a_correction_from_the_page_is_the_clis_and_says_the_same(chouette, ledger_url):
    chouette("new", "friday", "ann", "bob", "cat", "--stake", "5.00")
    chouette("end", "box")
    chouette("end", "box")
    served = table(ledger_url)
    page = Action("amend", winner="team", kind="gammon", number=1, note="the table agrees")
    said = served.act(page, "friday", 3)
    page_sheet = chouette.json("sheet")
    chouette("undo")
    cli = chouette("amend", "1", "--result", "team", "gammon", "--note", "the table agrees")
    assert (
        said[0]
        == cli.stdout.splitlines()[0]
        == ("Game 1 amended: the board's end was box single, is team gammon (the table agrees).")
    )
    assert said[-6:] == cli.stdout.splitlines()[-6:]
    assert chouette.json("sheet")["games"] == page_sheet["games"]  # (a chain a link longer)


def test_a_cube_correction_from_the_page(chouette, ledger_url):
    from web.moves import read_action

    chouette("new", "friday", "ann", "bob", "cat")
    chouette("double", "bob")
    chouette("take", "bob")
    chouette("end", "team")
    action = read_action({"act": ["amend"], "number": ["1"], "cube": ["BOB=4"], "note": ["x"]})
    assert (action.winner, action.cubes) == ("keep", (("BOB", 4),))
    said = table(ledger_url).act(action, "friday", 2)
    assert said[0] == "Game 1 amended: bob's cube was 2, is 4 (x)."
    with pytest.raises(ChouetteError, match="amend: a cube is MEMBER=VALUE, such as bob=4"):
        read_action({"act": ["amend"], "number": ["1"], "cube": ["bob"], "note": ["x"]})
