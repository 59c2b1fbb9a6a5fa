"""The pages' fragments as the server renders them (no browser): every name escaped and read
back exactly, the numbers the reports give, and on the scorekeeper's page a button enabled
exactly when the rules allow its action."""

from __future__ import annotations

import json
import shlex
from datetime import datetime

import pytest

from tests.dom import Node, parse
from web.app import message, templates
from web.board import Board
from web.table import Table

NOW = datetime.fromisoformat("2026-11-20T20:00:00+00:00")
ODD = "<b>Zoë & \"Al\" 'the' O'Neil</b>"  # a legal name, full of what HTML cares about


def board_of(ledger_url: str) -> Board:
    board = Table(ledger_url, None, lambda: NOW).snapshot().board
    assert board is not None
    return board


def render(name: str, board: Board | None) -> Node:
    return parse(templates().get_template(name).render(board=board))


def test_the_board_escapes_every_name_and_shows_the_reports_numbers(chouette, ledger_url):
    chouette("new", "friday", "ann", ODD, "cat", "--stake", "2.50")
    chouette("double", ODD)
    chouette("take", ODD)
    chouette("end", "team")
    chouette("double", "cat", "--by", "member")
    page = render("_board.html", board_of(ledger_url))
    assert not page.all("b")  # nothing a name holds became markup
    assert page.one(id="seats").one(data_role="box").one("dd").text() == ODD  # the box, now
    standings = {
        r.attrs["data-player"]: (int(r.attrs["data-points"]), int(r.attrs["data-cents"]))
        for r in page.all("tr", "standing")
    }
    assert standings == {
        p["name"]: (p["points"], p["cents"]) for p in chouette.json("standings")["players"]
    }
    assert page.one("tr", "standing", data_player=ODD).one("td", "name").text() == ODD
    cubes = {li.attrs["data-member"]: li for li in page.all("li", "cube")}
    assert list(cubes) == ["cat", "ann"] and "pending" in cubes["cat"].attrs["class"]
    assert cubes["cat"].one("span", "state").text() == f"double to 2: {ODD} to answer"
    assert page.one(id="last").text() == "Game 2: cat doubles the box."
    (finished,) = page.all("tr", "finished")
    assert finished.attrs["data-game"] == "1"
    assert {
        s.attrs["data-player"]: int(s.attrs["data-cents"]) for s in finished.all("span", "result")
    } == chouette.json("sheet")["games"][0]["cents"]
    assert len(page.all("polyline", "balance")) == 3


@pytest.mark.parametrize(
    ("code", "last", "pending", "facts"),
    [
        ("da", "Spil 2: cat dobler boksen.", "dobling til 2: ann skal svare", "1,25 pr. point"),
        ("cs", "Hra 2: cat zdvojuje bankéři.", "zdvojení na 2: odpovídá ann", "1,25 za bod"),
    ],
)
def test_the_board_reads_in_each_pages_language_from_one_board(
    chouette, ledger_url, code, last, pending, facts
):
    """The TV in Danish and a phone in Czech, from the same board: the last event, each
    cube's state and the amounts (a decimal comma: ``+6,25``) in the page's own words."""
    chouette("new", "friday", "ann", "bob", "cat", "dan", "eve", "fay", "--stake", "1.25")
    chouette("end", "box")  # ann +6.25
    chouette("double", "cat", "--by", "member")
    board = board_of(ledger_url)
    page = parse(templates(code).get_template("_board.html").render(board=board))
    assert page.one(id="last").text() == last
    cubes = {li.attrs["data-member"]: li for li in page.all("li", "cube")}
    assert cubes["cat"].one("span", "state").text() == pending
    assert facts in page.one("p", "facts").text()
    ann = page.one("tr", "standing", data_player="ann")
    assert ann.one("td", "balance").text() == "+6,25"
    english = render("_board.html", board)
    assert english.one(id="last").text() == "Game 2: cat doubles the box."
    assert english.one("tr", "standing", data_player="ann").one("td", "balance").text() == "+6.25"


def test_a_paid_button_types_the_amount_as_the_cli_reads_it_in_every_language(chouette, ledger_url):
    """The page shows ``1 250,00`` to a Czech reader; the command its button posts types
    ``1250.00``, which the CLI reads (a space between thousands it would not)."""
    from chouette.settlement import Payment

    chouette("new", "friday", "ann", "bob", "cat")
    board = board_of(ledger_url)
    page = parse(
        templates("cs")
        .get_template("_controls.html")
        .render(board=board, settlement=[Payment("bob", "ann", 125_000)])
    )
    (button,) = [b for b in page.all("button") if b.attrs.get("value", "").startswith("pay ")]
    assert button.attrs["value"] == "pay -- bob ann 1250.00"
    assert "bob platí hráči ann 1\u00a0250,00" in [s.text() for s in page.all("span", "who")]


def test_without_a_session_both_pages_say_how_to_start_one():
    assert "chouette new NAME PLAYER..." in render("_board.html", None).text()
    assert "chouette new NAME PLAYER..." in render("_controls.html", None).text()


def buttons(form: Node) -> dict[str, bool]:
    """A form's buttons by their value (their words, the CLI's): enabled or not."""
    return {b.attrs["value"]: "disabled" not in b.attrs for b in form.all("button")}


def test_the_scorekeepers_buttons_are_enabled_exactly_as_the_rules_allow(chouette, ledger_url):
    """Each button posts the CLI's own words for its action (the game it is for as
    ``--game``, a name quoted as one word after ``--``), enabled exactly when the rules
    allow it."""
    chouette("new", "friday", "ann", "bob", ODD, "dan")
    chouette("double", "bob", ODD)
    chouette("beaver", "bob")
    board = board_of(ledger_url)
    legal = board.legal
    page = render("_controls.html", board)
    for member in ("bob", ODD, "dan"):
        card = page.one("div", "member", data_member=member)
        named = shlex.quote(member)
        shown = buttons(card.one("form", "buttons"))
        for act in ("take", "drop", "beaver", "raccoon"):
            assert shown[f"{act} --game 1 -- {named}"] == legal.answer(member, act), (member, act)
        assert shown[f"double --by member --game 1 -- {named}"] == (member in legal.member_doubles)
        deal = card.one("form", "deal")
        assert [(i.attrs["name"], i.attrs.get("value")) for i in deal.all("input")] == [
            ("session", "friday"),
            ("line", f"deal -- {named}"),
            ("word", "0"),  # the points, typed
            ("line", "--game 1"),
        ]
        assert ("disabled" not in deal.one("button").attrs) == (member in legal.deals)
    assert buttons(page.one("div", "member", data_member="bob").one("form", "buttons")) == {
        "take --game 1 -- bob": True,  # the box takes the beaver …
        "drop --game 1 -- bob": True,
        "beaver --game 1 -- bob": False,
        "raccoon --game 1 -- bob": True,  # … or raccoons it
        "double --by member --game 1 -- bob": False,
    }
    box = page.one("form", "box-double")
    assert json.loads(box.attrs["data-legal"]) == legal.box_double_lists() == [["dan"]]
    boxes = {i.attrs["value"]: "disabled" not in i.attrs for i in box.all("input", type="checkbox")}
    assert boxes == {"bob": False, ODD: False, "dan": True}
    together = buttons(page.one("form", data_form="together"))
    assert together == {
        "double --game 1 -- dan": True,  # the box doubles dan, the one it may
        "take --all --game 1": False,  # both sides have something to answer
        "drop --all --game 1": False,
    }
    assert buttons(page.one("form", data_form="table")) == {"auto-double --game 1": False}
    # a board for the decisions the cube buttons post, beside them
    for form in (card, box, page.one("form", data_form="together")):
        assert [i.attrs.get("name") for i in form.all("input", type="text")] == ["--position"]
    ends = page.one("form", data_form="end").all("button")
    assert len(ends) == 6 and all("disabled" in b.attrs for b in ends)  # answers first
    assert buttons(page.one("form", data_form="undo")) == {"undo": True}
    assert not page.all("section", "line")  # the line waits for the end of the game


def test_between_games_the_line_can_change_and_the_game_can_start(chouette, ledger_url):
    chouette("new", "friday", "ann", "bob", "cat")
    fresh = render("_controls.html", board_of(ledger_url))
    assert buttons(fresh.one("form", data_form="undo")) == {"undo": False}  # nothing done
    chouette("sit-out", "cat")
    page = render("_controls.html", board_of(ledger_url))
    players = {
        f.attrs["data-form"]: buttons(f)
        for f in page.one("section", "line").all("form")
        if f.attrs.get("data-form", "").startswith("line:")
    }
    assert players == {
        "line:ann": {"sit-out -- ann": True, "leave -- ann": True},
        "line:bob": {"sit-out -- bob": True, "leave -- bob": True},
        "line:cat": {"sit-in -- cat": True, "leave -- cat": True},
    }
    assert "disabled" not in page.one("form", "join").one("button").attrs
    ends = page.one("form", data_form="end").all("button")
    assert [b.attrs["value"] for b in ends] == [
        "box --game 1", "box --gammon --game 1", "box --backgammon --game 1",
        "team --game 1", "team --gammon --game 1", "team --backgammon --game 1",
    ]  # fmt: skip
    assert all("disabled" not in b.attrs for b in ends)
    assert buttons(page.one("form", data_form="undo")) == {"undo": True}  # the sit-out


def test_an_event_carries_every_line_of_its_fragment():
    assert message("board", "<p>a</p>\n<p>b</p>", 7) == (
        b"event: board\nid: 7\ndata: <p>a</p>\ndata: <p>b</p>\n\n"
    )


def test_each_controls_name_starts_with_the_clis_word_for_it(chouette, ledger_url):
    """Issue 21: a control's accessible name (its aria-label, else its text) starts with
    the CLI's own command for it (``Sit out``: sit-out; ``End: Box wins a gammon``: end),
    and the command its button posts is that command."""
    from chouette.settlement import settle
    from cli import command_names
    from tests.forms import forms

    commands = set(command_names())
    players = ("ann", "bob", "cat", "dan", "eve", "fay", "gus")
    chouette("new", "friday", *players, "--extras", "--proxies", "--extra-redoubles",
             "--resignations", "per-member", "--captain-resigns", "takeover",
             "--partner-from", "6", "--partner-pick", "box")  # fmt: skip
    chouette("end", "box")
    chouette("sit-out", "gus")
    between = templates().get_template("_controls.html").render(board=board_of(ledger_url))
    chouette("double", "bob")
    chouette("extra", "cat", "box")
    board = board_of(ledger_url)
    owed = settle({s.name: s.cents for s in board.standings})  # each payment marked made
    playing = templates().get_template("_controls.html").render(board=board, settlement=owed)
    named = set()
    for form in forms(between) + forms(playing):
        for button in form.buttons():
            words = button.label.lower().replace(":", "").split()
            command = "-".join(words[:2]) if "-".join(words[:2]) in commands else words[0]
            if button.label == "Run the command":  # the command line: what is typed
                continue
            assert command in commands, button.label
            posted = " ".join(v for k, v in form.pressed(button) if k == "line").split()
            assert posted[0] == command, (button.label, posted)
            if form.key.startswith("paid:"):  # a payment marked made: the settlement's amount
                assert posted[1] == "--"
                assert button.label == f"Pay: {' paid '.join(posted[2:4])} {posted[4]}"
            named.add(command)
    assert named >= {
        "new", "join", "leave", "sit-out", "sit-in", "double", "take", "drop", "beaver", "raccoon",
        "deal", "end", "extra", "proxy", "split", "pay", "undo", "settle", "sheet",
        "double-extra", "take-extra", "drop-extra", "resign", "captain-resigns", "partner",
    }, named  # fmt: skip


def test_a_phone_shows_its_players_review_from_the_kept_evaluations_in_its_words(
    chouette, ledger_url
):
    """``/me``'s own part: the decisions its player made, scored by the evaluations the
    ledger keeps (the page never runs the engine), in the reader's words (Danish: a decimal
    comma); a board not evaluated yet is counted as waiting, and another player's phone
    shows none of it."""
    from decimal import Decimal

    from chouette.review import Asked, CubeState, Equities
    from db import open_ledger

    certain, other = "YAAAGAAAAAAAAA", "4HPwATDgc/ABMA"
    chouette("new", "friday", "ann", "bob", "cat", "--stake", "5", "--no-beavers")
    chouette("double", "bob", "--position", certain)
    chouette("take", "bob")  # a point given away: the doubler bears off for sure
    chouette("end", "box")
    chouette("double", "bob", "--by", "member", "--position", other)
    chouette("drop", "bob")  # the box's drop, at a board not evaluated
    chouette("end", "team")
    with open_ledger(ledger_url, write=True, now=NOW) as book:
        kept = {Asked(certain, CubeState(True, True)): Equities(*map(Decimal, ("1", "2", "1")))}
        book.keep_evaluations(kept, beavers=False, plies=2, engine="GNU Backgammon 1.07")
    reviews = Table(ledger_url, None, lambda: NOW).snapshot().reviews
    assert sorted(reviews) == ["ann", "bob"]  # cat decided nothing
    bob = parse(
        templates("da")
        .get_template("_mine.html")
        .render(board=board_of(ledger_url), player="bob", review=reviews["bob"])
    )
    row = bob.one("table", "review").one("tbody").one("tr")
    assert (row.attrs["data-game"], row.attrs["data-member"], row.attrs["data-cents"]) == (
        "1",
        "bob",
        "500",
    )
    assert [td.text() for td in row.all("td")] == [
        "1 · 2",
        "bob",
        "tage",
        "droppe",
        "1,000",
        "5,00",
    ]
    assert bob.one("p", "review-total").attrs["data-cents"] == "500"
    ann = reviews["ann"]  # the box: her double, proper; her drop, at a board not evaluated
    assert [(i.decision.action, i.cents) for _, i in ann.items] == [("double", 0)]
    assert ann.waiting == 1
    cat = templates("da").get_template("_mine.html")
    page = cat.render(board=board_of(ledger_url), player="cat", review=reviews.get("cat"))
    assert parse(page).all("table", "review") == [] and "review-total" not in page
