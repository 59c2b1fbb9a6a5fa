"""Every page of ``chouette serve`` passes axe-core (Deque's accessibility engine, shipped in
the test extra by ``axe-playwright-python``) in headless Chromium: the scoreboard, the PIN
form, the scorekeeper's page mid-evening, the code form, a player's phone, and the room of
``serve --room``. On the way: the screenshots of docs/screenshots/ are made (into a
temporary folder) without a page wider than its screen, the keeper types an amount with a
decimal comma, and switches the session the page runs.

One server (and one browser) for all of it; ``serve --room`` needs a second, started last.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.screenshots import SIZES, evening_served, headless_chromium, shoot
from tests.serving import PIN, Server

try:
    from axe_playwright_python.sync_playwright import Axe
    from playwright.sync_api import Browser, Page, expect
except ImportError:  # pragma: no cover - the message says what to do
    pytest.fail("these tests need Playwright and axe: pip install -e '.[test]'", pytrace=False)

pytestmark = pytest.mark.slow

PHONE = {"width": 390, "height": 844}

#: The page scrolled from top to bottom: at each step, every element shown that stays in
#: place (position fixed or sticky) and covers part of the board (#board), if any.
COVERING = """() => {
  const found = [];
  const end = document.scrollingElement.scrollHeight;
  for (let y = 0; y <= end; y += 150) {
    window.scrollTo(0, y);
    const board = document.getElementById("board").getBoundingClientRect();
    for (const el of document.querySelectorAll("body *")) {
      const position = getComputedStyle(el).position;
      if (position !== "fixed" && position !== "sticky") { continue; }
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) { continue; }
      const apart = box.bottom <= board.top || box.top >= board.bottom ||
        box.right <= board.left || box.left >= board.right;
      if (!apart) { found.push(`${el.id || el.className} at ${y}`); }
    }
  }
  window.scrollTo(0, 0);
  return found;
}"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with headless_chromium() as found:
        yield found


@pytest.fixture(scope="module")
def evening(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("evening")


@pytest.fixture(scope="module")
def server(evening: Path) -> Iterator[Server]:
    with evening_served(evening) as found:
        yield found


class Audit:
    """axe-core's rules (WCAG 2.x A and AA, and its best practices) on each page as it is;
    what every page broke, said at once at the end."""

    def __init__(self) -> None:
        self.axe = Axe()
        self.found: list[str] = []

    def __call__(self, page: Page, what: str) -> None:
        results = self.axe.run(page)
        if results.violations_count:
            self.found.append(f"{what} ({page.url}): {results.generate_report()}")

    def check(self) -> None:
        assert not self.found, "\n\n".join(self.found)


def phone(browser: Browser) -> Page:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    return context.new_page()


def test_every_page_passes_axe_and_the_screenshots_fit_their_screens(
    browser: Browser, server: Server, tmp_path: Path
) -> None:
    audit = Audit()
    tv = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    tv.goto(server.url)
    expect(tv.locator("#session")).to_have_text("friday")
    audit(tv, "the scoreboard on a TV")

    keeper = phone(browser)
    keeper.goto(server.url + "keeper")
    audit(keeper, "the PIN form")
    keeper.fill("#pin", PIN)
    keeper.get_by_role("button", name="Open").click()
    expect(keeper.locator("#controls .controls")).to_have_count(1)
    audit(keeper, "the scorekeeper's page, a double to answer")

    bob = phone(browser)
    bob.goto(server.url + "me")
    audit(bob, "the code form")
    code = keeper.locator('#codes li[data-player="bob"] code.code').inner_text()
    bob.fill("#code", code)
    bob.get_by_role("button", name="Open").click()
    expect(bob.locator("#me")).to_have_text("You are bob.")
    audit(bob, "bob's phone")

    made = shoot(browser, server, tmp_path)
    assert sorted(made) == sorted(f"{p}-{s}" for p in ("keeper", "scoreboard") for s in SIZES)
    assert all(path.stat().st_size > 0 for path in made.values())

    # a Dane's amount on the pay form: a decimal comma, read as the CLI reads it
    pay = keeper.locator("form.pay")
    pay.get_by_label("From").select_option("dan")
    pay.get_by_label("To").select_option("eve")
    pay.get_by_label("Amount").fill("2,50")
    pay.get_by_role("button", name="Pay", exact=True).click()
    expect(keeper.locator("#said")).to_have_text("dan paid eve 2.50 (friday).")
    expect(keeper.locator('#standings tr[data-player="eve"]')).to_have_attribute(
        "data-cents", "1750"
    )
    # the keeper's phone (390×844) shows the board first, and no panel that stays in place
    # as the page scrolls (what an action said, above all) ever covers it
    board, controls = (
        keeper.locator("#board").bounding_box(),
        keeper.locator("#controls").bounding_box(),
    )
    assert board is not None and controls is not None and board["y"] < controls["y"]
    assert keeper.evaluate(COVERING) == []
    # nor do the warnings of a lost connection or an unreadable ledger, shown at once
    shown = (
        "(hide) => { for (const id of ['live', 'problem']) "
        "{ document.getElementById(id).hidden = hide; } }"
    )
    keeper.evaluate(shown, False)
    assert keeper.evaluate(COVERING) == []
    keeper.evaluate(shown, True)

    # the keeper's page switches to another session (without --room: every session)
    picker = keeper.locator("form.pick-table")
    expect(picker.locator("option")).to_have_text(["friday", "thursday"])
    picker.get_by_label("Session").select_option("thursday")
    picker.get_by_role("button", name="Run this session").click()
    expect(keeper.locator("#said")).to_have_text("The keeper's page runs thursday.")
    expect(keeper.locator("#session")).to_have_text("thursday")
    expect(tv.locator("#session")).to_have_text("thursday")  # the TV shows what is run
    audit(keeper, "the scorekeeper's page after a switch, with what it said")
    audit.check()


def test_the_room_passes_axe(browser: Browser, evening: Path) -> None:
    """``serve --room`` (its own server, on the same ledger): both tables of the night."""
    audit = Audit()
    with evening_served(evening, "--room") as room:
        tv = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
        tv.goto(room.url)
        expect(tv.locator("section.table")).to_have_count(2)
        audit(tv, "the room on a TV")
        tv.context.close()
    audit.check()
