"""Positions and reviews on the pages, in real Chromium: the keeper types a board beside the
cube buttons and it is kept with the decision (a malformed one is refused, nothing written);
a member's review is on their own phone only, never on the scoreboard or another player's
phone, and the keeper's command line refuses ``review`` (the page is shared)."""

from __future__ import annotations

import json

import pytest

from files.gnubg import find_gnubg
from tests.dump import dump
from tests.serve.test_serve_browser import PHONE, Keeper, browser, open_pages
from tests.serving import serving, typed

try:
    from playwright.sync_api import expect
except ImportError:  # pragma: no cover - the message says what to do
    pytest.fail("these tests need Playwright: pip install -e '.[test]'", pytrace=False)

pytestmark = pytest.mark.slow
__all__ = ["browser"]  # the browser tests' Chromium, a fixture of this module too

ACE_AGAINST_SIX = "YAAAGAAAAAAAAA"  # the doubler bears off for sure: a take costs a point
START = "4HPwATDgc/ABMA"


def test_the_keeper_gives_a_board_beside_the_cube_buttons(browser, ledger_url):
    typed(ledger_url, "new", "friday", "ann", "bob", "cat")
    with serving(ledger_url) as server:
        keeper = open_pages(browser, server)
        card = keeper.card("bob")
        card.get_by_label("Position").fill("4HPw")  # malformed: refused, nothing written
        before = dump(ledger_url)
        said = keeper.refused(keeper.button("Double the box", card))
        assert said[0].startswith("Error: 4HPw is not a position: a GNU Backgammon Position ID")
        assert dump(ledger_url) == before
        card = keeper.card("bob")
        card.get_by_label("Position").fill(ACE_AGAINST_SIX)
        keeper.click(keeper.button("Double the box", card))
        keeper.click(keeper.button("Take", keeper.card("bob")))
        box = keeper.form("double-box")
        box.get_by_label("cat").check()
        box.get_by_label("Position").fill(START)
        keeper.click(keeper.button("Double the checked members", box))
    events = json.loads(typed(ledger_url, "game", "1", "--json"))["events"]
    assert [e.get("position") for e in events] == [ACE_AGAINST_SIX, None, START]


@pytest.mark.skipif(find_gnubg() is None, reason="gnubg is not installed")
def test_a_members_review_is_on_their_own_phone_and_nowhere_else(browser, ledger_url):
    typed(ledger_url, "new", "friday", "ann", "bob", "cat", "--stake", "5")
    typed(ledger_url, "double", "bob", "cat", "--position", ACE_AGAINST_SIX)
    typed(ledger_url, "take", "bob")
    typed(ledger_url, "drop", "cat")
    typed(ledger_url, "end", "box")
    typed(ledger_url, "review")  # the engine's answers kept in the ledger
    with serving(ledger_url) as server:
        keeper: Keeper = open_pages(browser, server)
        codes = {
            name: keeper.page.locator(f'#codes li[data-player="{name}"] code').inner_text()
            for name in ("bob", "cat")
        }
        phones = {}
        for name, code in codes.items():
            phone = browser.new_context(viewport=PHONE, is_mobile=True).new_page()
            phone.goto(f"{server.url}me?code={code.replace('-', '')}")
            phone.get_by_role("button", name="Open").click()
            expect(phone.locator("#me")).to_have_text(f"You are {name}.")
            phones[name] = phone
        bob = phones["bob"].locator("#mine table.review tbody tr")
        expect(bob).to_have_count(1)
        expect(bob.first).to_have_attribute("data-cents", "500")
        assert bob.first.inner_text().split("\t") == ["1 · 2", "bob", "take", "drop", "1.000",
                                                      "5.00"]  # fmt: skip
        expect(phones["bob"].locator("#mine .review-total")).to_have_text(
            "1 decision, 1 not the proper one: 5.00 in all"
        )
        cat = phones["cat"].locator("#mine table.review tbody tr")
        expect(cat).to_have_count(1)
        expect(cat.first).to_have_attribute("data-cents", "0")
        for page in (keeper.tv, keeper.page, phones["cat"]):
            expect(
                page.locator('[data-member="bob"] .review, tr[data-member="bob"]')
            ).to_have_count(0)
        expect(keeper.tv.locator(".review")).to_have_count(0)
        keeper.page.locator("form[data-form=line] input[name=line]").fill("review")
        said = keeper.refused(keeper.page.locator("form[data-form=line] button"))
        assert said == [
            "Error: review is each player's own: on their phone (their code, at /me), or at a "
            "terminal"
        ]
