"""The pages' fragments as the server renders them (no browser): every name escaped and read
back exactly, the numbers the reports give, and on the scorekeeper's page a button enabled
exactly when the rules allow its action."""

from __future__ import annotations

import json
from datetime import datetime

import pytest

from chouette.errors import ChouetteError
from tests.dom import Node, parse
from web.app import game_number, message, templates
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


def test_without_a_session_both_pages_say_how_to_start_one():
    assert "chouette new NAME PLAYER..." in render("_board.html", None).text()
    assert "chouette new NAME PLAYER..." in render("_controls.html", None).text()


def buttons(form: Node) -> dict[str, bool]:
    """A form's buttons by their value: enabled or not."""
    return {b.attrs["value"]: "disabled" not in b.attrs for b in form.all("button")}


def test_the_scorekeepers_buttons_are_enabled_exactly_as_the_rules_allow(chouette, ledger_url):
    chouette("new", "friday", "ann", "bob", ODD, "dan")
    chouette("double", "bob", ODD)
    chouette("beaver", "bob")
    board = board_of(ledger_url)
    legal = board.legal
    page = render("_controls.html", board)
    for member in ("bob", ODD, "dan"):
        card = page.one("form", "member", data_member=member)
        hidden = {i.attrs["name"]: i.attrs["value"] for i in card.all("input", type="hidden")}
        assert hidden == {"session": "friday", "game": "1", "member": member}
        shown = buttons(card)
        for act in ("take", "drop", "beaver", "raccoon"):
            assert shown[act] == legal.answer(member, act), (member, act)
        assert shown["double-member"] == (member in legal.member_doubles)
        assert shown["deal"] == (member in legal.deals)
    assert buttons(page.one("form", "member", data_member="bob")) == {
        "take": True,  # the box takes the beaver …
        "drop": True,
        "beaver": False,
        "raccoon": True,  # … or raccoons it
        "double-member": False,
        "deal": True,
    }
    box = page.one("form", "box-double")
    assert json.loads(box.attrs["data-legal"]) == legal.box_double_lists() == [["dan"]]
    boxes = {i.attrs["value"]: "disabled" not in i.attrs for i in box.all("input", type="checkbox")}
    assert boxes == {"bob": False, ODD: False, "dan": True}
    together = buttons(page.one("form", data_form="together"))
    assert together == {
        "double-box": True,  # the box doubles dan, the one it may
        "take-all": False,  # both sides have something to answer
        "drop-all": False,
        "auto-double": False,
    }
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
        f.one("input", type="hidden", name="member").attrs["value"]: buttons(f)
        for f in page.one("section", "line").all("form")
        if f.attrs.get("data-form", "").startswith("line:")
    }
    assert players == {
        "ann": {"sit-out": True, "leave": True},
        "bob": {"sit-out": True, "leave": True},
        "cat": {"sit-in": True, "leave": True},
    }
    assert buttons(page.one("form", "join")) == {"join": True}
    ends = page.one("form", data_form="end").all("button")
    assert all("disabled" not in b.attrs for b in ends)
    assert buttons(page.one("form", data_form="undo")) == {"undo": True}  # the sit-out


def test_an_event_carries_every_line_of_its_fragment():
    assert message("board", "<p>a</p>\n<p>b</p>", 7) == (
        "event: board\nid: 7\ndata: <p>a</p>\ndata: <p>b</p>\n\n"
    )


@pytest.mark.parametrize("text", ["one", "²", "١٢", "0", "00", "-1", "+1", "1.0"])
def test_a_game_number_that_is_not_one_is_refused_with_a_message(text):
    """A form's game is a game's number as a page writes it (1, 2, ...): anything else is
    refused with a message, never a server error (``int`` refuses a superscript two that
    ``str.isdigit`` accepts)."""
    with pytest.raises(ChouetteError, match="the game is a number"):
        game_number(text)


def test_a_forms_game_number():
    assert (game_number(""), game_number("1"), game_number("54")) == (None, 1, 54)
