"""A player's credit through the commands (``chouette credit``, ``join --credit``, house rule
``credit-rule``): a double or an answer past it is warned of or refused (nothing written),
``status`` shows what is at risk and what is left, ``undo`` takes a credit back."""

from __future__ import annotations

import pytest

from tests.ledger.test_undo import reports


def test_a_take_past_the_credit_is_refused_under_refuse_and_nothing_written(chouette):
    chouette("new", "fri", "ann", "bob", "cat", "--credit-rule", "refuse")
    chouette("credit", "cat", "5.00")
    chouette("double", "bob", "cat")
    before = reports(chouette)
    refused = chouette("take", "cat", code=1).stderr
    assert refused == (
        "Error: take cat: it would let this game take cat past their credit: cat's balance "
        "0.00, at most 6.00 to lose on this game, credit 5.00 (house rule credit-rule refuse): "
        "nothing written\n"
    )
    assert reports(chouette) == before
    chouette("drop", "cat")  # a drop risks nothing more
    chouette("take", "bob")  # bob has no credit: no limit


def test_a_take_past_the_credit_is_warned_of_under_warn(chouette):
    chouette("new", "fri", "ann", "bob", "cat")
    assert chouette("join", "dan", "--credit", "1").stdout == (
        "dan joins, with a credit of 1.00. Line: ann | bob, cat, dan\n"
    )
    chouette("double", "dan")
    said = chouette("take", "dan").stderr
    assert "Note: take dan: it would let this game take dan past their credit" in said
    assert chouette.json("status")["credits"] == [
        {"player": "dan", "credit_cents": 100, "balance_cents": 0, "left_cents": -500}
    ]


def test_status_shows_what_is_at_risk_and_the_credit_left(chouette):
    chouette("new", "fri", "ann", "bob", "cat")
    chouette("credit", "bob", "10")
    chouette("double", "bob")
    chouette("take", "bob")
    text = chouette("status").stdout
    assert "Credit: bob 10.00 (4.00 left)" in text
    assert "At risk (the most each can lose on this game, as the cubes stand): ann 7.00 (7), " in (
        text
    )
    assert chouette.json("status")["at_risk"]["bob"] == {"points": 6, "cents": 600}


def test_undo_takes_a_credit_back(chouette):
    chouette("new", "fri", "ann", "bob", "cat")
    before = reports(chouette)
    assert chouette("credit", "cat", "2.50").stdout == (
        "cat's credit is 2.50. Line: ann | bob, cat\n"
    )
    chouette("undo")
    assert reports(chouette) == before


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (("zed", "5"), 1, "zed is not in the line"),
        (("--", "cat", "-5"), 1, "cat's credit: a credit is 0 or more"),
        (("cat", "five"), 2, "cat's credit:"),
        (("cat", "0"), 1, "cat has no credit"),
    ],
)
def test_a_credit_that_cannot_be_set_is_refused_and_nothing_written(chouette, args, code, message):
    chouette("new", "fri", "ann", "bob", "cat")
    before = reports(chouette)
    assert message in chouette("credit", *args, code=code).stderr
    assert reports(chouette) == before


def test_a_players_phone_shows_what_they_have_at_risk_and_their_credit(chouette, ledger_url):
    from tests.dom import parse
    from tests.serve.test_serve_pages import board_of
    from web.app import templates

    chouette("new", "fri", "ann", "bob", "cat", "--stake", "2")
    chouette("credit", "bob", "20")
    chouette("double", "bob")
    chouette("take", "bob")
    board = board_of(ledger_url)
    page = parse(
        templates().get_template("_mine.html").render(board=board, player="bob", settlement=[])
    )
    assert page.one("tr", "risk").one("td").attrs["data-cents"] == "1200"  # 2 × 3 at 2.00
    assert page.one("tr", "credit").one("td").attrs["data-cents"] == "2000"
    cat = parse(
        templates().get_template("_mine.html").render(board=board, player="cat", settlement=[])
    )
    assert cat.one("tr", "risk").one("td").attrs["data-cents"] == "200"  # centred: a single
    assert not cat.all("tr", "credit")
