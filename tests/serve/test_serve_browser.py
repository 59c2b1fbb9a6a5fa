"""A whole evening in real browsers: headless Chromium (Debian's, driven by Playwright)
plays the README's demo evening on the scorekeeper's page of a real ``chouette serve``,
with the PIN, button by button, while the scoreboard in a second browser (a TV) follows each
step by itself; a terminal changes the game in between, and both pages follow that too. The
evening booked equals the one the CLI books from the same commands, and the screenshots show
the standings and the chart painted in the players' colours.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterator

import pytest

from tests.chromium import chromium, decode_png
from tests.dump import unchained
from tests.serving import PIN, Server, serving, typed

try:
    from playwright.sync_api import Browser, Locator, Page, expect, sync_playwright
except ImportError:  # pragma: no cover - the message says what to do
    pytest.fail("these tests need Playwright: pip install -e '.[test]'", pytrace=False)

pytestmark = pytest.mark.slow

FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
TV = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}
POS, NEG = bytes.fromhex("1a7f37"), bytes.fromhex("b42318")  # money won, money lost


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as driver:
        found = driver.chromium.launch(executable_path=chromium(), headless=True, args=FLAGS)
        yield found
        found.close()


class Keeper:
    """The scorekeeper's phone: each step clicks, and waits until the page says what it did
    and the board of the TV shows it."""

    def __init__(self, page: Page, tv: Page) -> None:
        self.page, self.tv = page, tv

    def card(self, member: str) -> Locator:
        return self.page.locator(f'.member[data-member="{member}"]')

    def form(self, key: str) -> Locator:
        return self.page.locator(f'form[data-form="{key}"]')

    def button(self, name: str, within: Locator | None = None) -> Locator:
        return (within or self.page.locator("#controls")).get_by_role(
            "button", name=name, exact=True
        )

    def version(self) -> int:
        return int(self.page.locator("#controls").get_attribute("data-version") or 0)

    def click(self, target: Locator, last: str | None = None) -> list[str]:
        """Click an enabled button; what the page said; the TV's last line, when given."""
        before = self.version()
        lines = self.said_after(target)
        assert "ok" in (self.page.locator("#said").get_attribute("class") or ""), lines
        self.page.wait_for_function(
            "v => Number(document.getElementById('controls').dataset.version) > v", arg=before
        )
        if last is not None:
            expect(self.tv.locator("#last")).to_have_text(last)
        return lines

    def refused(self, target: Locator) -> list[str]:
        """Click an enabled button the CLI refuses: what the page said."""
        lines = self.said_after(target)
        expect(self.page.locator("#said")).to_have_class("said refused")
        return lines

    def said_after(self, target: Locator) -> list[str]:
        expect(target).to_be_enabled()
        self.page.evaluate("document.getElementById('said').textContent = ''")
        target.click()
        said = self.page.locator("#said")
        expect(said).not_to_be_empty()
        return [str(t) for t in said.locator("p").all_inner_texts()]


def open_pages(browser: Browser, server: Server, session: str | None = "friday") -> Keeper:
    """The TV on the scoreboard (showing ``session``; None: no session yet), and the keeper's
    phone past the PIN."""
    tv = browser.new_context(viewport=TV, device_scale_factor=1).new_page()
    tv.goto(server.url)
    if session is None:
        expect(tv.locator(".empty")).to_contain_text("No session yet")
    else:
        expect(tv.locator("#session")).to_have_text(session)
    phone = browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True,
                                has_touch=True).new_page()  # fmt: skip
    phone.goto(server.url + "keeper")
    expect(phone.locator("#controls")).to_have_count(0)  # the PIN first
    phone.fill("#pin", "0000")
    phone.get_by_role("button", name="Open").click()
    expect(phone.locator("#wrong")).to_have_text("that is not the PIN `chouette serve` printed")
    phone.fill("#pin", PIN)
    phone.get_by_role("button", name="Open").click()
    expect(phone.locator("#controls .controls" if session else "#controls form")).not_to_have_count(
        0
    )
    return Keeper(phone, tv)


def signed_in(browser: Browser, server: Server) -> Page:
    """A phone on the keeper's page, past the PIN."""
    phone = browser.new_context(viewport=PHONE, is_mobile=True).new_page()
    phone.goto(server.url + "keeper")
    phone.fill("#pin", PIN)
    phone.get_by_role("button", name="Open").click()
    return phone


def run_table(page: Page, name: str) -> None:
    """The keeper's page picks the table ``name`` (``serve --room``)."""
    page.locator("form.pick-table select").select_option(name)
    page.get_by_role("button", name="Run this table").click()
    expect(page.locator("#said")).to_have_text(f"The keeper's page runs {name}.")
    expect(page.locator("#session")).to_have_text(name)


def standings(page: Page) -> dict[str, tuple[int, int]]:
    rows = page.locator("#standings tr.standing")
    return {
        str(r.get_attribute("data-player")): (
            int(r.get_attribute("data-points") or 0),
            int(r.get_attribute("data-cents") or 0),
        )
        for r in rows.all()
    }


def colours_at(png: bytes, box: dict[str, float]) -> set[bytes]:
    """The colours painted inside ``box`` (a bounding box of the page) of a screenshot."""
    width, height, rows = decode_png(png)
    found = set()
    for y in range(int(box["y"]), min(height, int(box["y"] + box["height"]))):
        row = rows[y]
        for x in range(int(box["x"]), min(width, int(box["x"] + box["width"]))):
            found.add(row[3 * x : 3 * x + 3])
    return found


#: The evening the test below plays on the pages, as the CLI's commands: the README's demo
#: evening (with an undo), then a newcomer, a proxy, an extra, the proxy withdrawn, a split,
#: a payment (after one refused as more than is owed), typed with a decimal comma, and one
#: of the settlement's payments marked made.
EVENING = [
    "new friday ann bob cat dan --stake 5,00 --extras --proxies",
    "double bob cat", "drop cat", "beaver bob", "take bob", "end box --gammon",
    "join eve",
    "double dan --by member", "take dan", "end team",
    "double bob eve", "take --all", "double eve --by member", "take eve", "end box --gammon",
    "double ann dan", "take ann", "drop dan", "deal bob 1", "end team --backgammon",
    "undo", "end team --backgammon",
    "join fay", "proxy dan --follows captain",
    "double cat", "take cat", "extra ann box", "end box",
    "proxy dan --withdraw", "split friday-2",
    "pay eve ann 20,50 --note cash", "pay fay ann 5.00",
]  # fmt: skip


def test_a_whole_evening_on_the_pages_books_what_the_cli_books_and_shows_on_the_tv(
    browser, ledger_url, chouette, tmp_path
):
    """Issue 21: the whole evening, new session to settlement, driven only through the
    keeper's page in headless Chromium (its buttons and forms; one answer typed at its
    command line), while the TV follows each step by itself; the CLI books the same."""
    typed(ledger_url, "migrate")  # the club's ledger, with no session yet
    with serving(ledger_url) as server:
        keeper = open_pages(browser, server, None)
        page, tv = keeper.page, keeper.tv

        # a new session, from the page: a stake with a decimal comma, house rules in the
        # CLI's own words
        new = keeper.form("new")
        new.get_by_label("Name").fill("friday")
        new.get_by_label("Players, box first").fill("ann bob cat dan")
        new.get_by_label("Stake a point").fill("5,00")
        new.get_by_label("House rules, as the CLI's options").fill("--extras --proxies")
        assert keeper.click(keeper.button("New session", new)) == [
            "Session friday: stake 5.00 a point; extras on, proxies on.",
            "Line: ann | bob, cat, dan",
        ]
        expect(tv.locator("#session")).to_have_text("friday")

        # game 1: nothing is pending, so no answer and no "take all"; the end is allowed
        expect(keeper.button("Take", keeper.card("bob"))).to_be_disabled()
        expect(keeper.button("Take all")).to_be_disabled()
        expect(keeper.button("End: Box wins a single")).to_be_enabled()
        double = keeper.button("Double the checked members")
        expect(double).to_be_disabled()
        keeper.form("double-box").get_by_label("bob").check()
        keeper.form("double-box").get_by_label("cat").check()
        expect(double).to_be_enabled()
        assert keeper.click(double, "Game 1: the box, ann, doubles bob, cat.") == [
            "Game 1: the box, ann, doubles bob, cat.",
            "  bob: cube 1, double to 2 pending: bob to answer",
            "  cat: cube 1, double to 2 pending: cat to answer",
        ]
        expect(keeper.button("End: Box wins a single")).to_be_disabled()  # answers first
        expect(keeper.button("Raccoon", keeper.card("bob"))).to_be_disabled()
        keeper.click(keeper.button("Drop", keeper.card("cat")), "Game 1: cat drops.")
        keeper.click(keeper.button("Beaver", keeper.card("bob")), "Game 1: bob beavers.")
        expect(keeper.button("Raccoon", keeper.card("bob"))).to_be_enabled()  # the box's
        keeper.click(keeper.button("Take", keeper.card("bob")),
                     "Game 1: the box, ann, takes on bob's cube.")  # fmt: skip
        expect(tv.locator('#cubes li[data-member="bob"]')).to_have_attribute("data-value", "4")
        said = keeper.click(keeper.button("End: Box wins a gammon"))
        assert said[-6:] == [
            "Next line: ann | cat, dan, bob",
            "Why:",
            "  the gammon counts single for dan: Jacoby, dan's cube centred",
            "  the gammon counts in full for bob: bob's cube was turned (Jacoby)",
            "  box stays: captain rule, bob lost to the box (-8)",
            "  ann keeps the box; bob, the captain, goes to the bottom of the line",
        ]
        expect(tv.locator("#last")).to_have_text(
            "Game 1 is over; game 2 starts with the next event."
        )
        expect(tv.locator('#standings tr.standing[data-player="ann"]')).to_have_attribute(
            "data-cents", "5000"
        )

        # a refused action shows the CLI's own message, and changes nothing
        join = keeper.form("join")
        join.get_by_label("New player").fill("box")
        assert keeper.refused(keeper.button("Join", join)) == [
            chouette("join", "box", code=1).stderr.rstrip("\n")
        ]

        # between games: a newcomer
        join.get_by_label("New player").fill("eve")
        keeper.click(keeper.button("Join", join))
        expect(tv.locator(".order")).to_have_text("Line: ann | cat, dan, bob, eve")

        # game 2: a member's double; the box's take typed at the page's command line
        keeper.click(keeper.button("Double the box", keeper.card("dan")),
                     "Game 2: dan doubles the box.")  # fmt: skip
        expect(keeper.button("Take", keeper.card("dan"))).to_be_enabled()
        keeper.form("line").get_by_label("Command").fill("take dan")
        keeper.click(keeper.button("Run the command"),
                     "Game 2: the box, ann, takes on dan's cube.")  # fmt: skip
        expect(keeper.button("Take", keeper.card("dan"))).to_be_disabled()  # the page follows
        keeper.click(keeper.button("End: Team wins a single"))

        # game 3: the box doubles two members, who both take at once
        box = keeper.form("double-box")
        box.get_by_label("bob").check()
        box.get_by_label("eve").check()
        keeper.click(keeper.button("Double the checked members"),
                     "Game 3: the box, cat, doubles bob, eve.")  # fmt: skip
        keeper.click(keeper.button("Take all"), "Game 3: eve takes.")
        keeper.click(keeper.button("Double the box", keeper.card("eve")))
        keeper.click(keeper.button("Take", keeper.card("eve")))
        keeper.click(keeper.button("End: Box wins a gammon"))

        # game 4: a take, a drop, a deal, and a backgammon by the team
        box = keeper.form("double-box")
        box.get_by_label("ann").check()
        box.get_by_label("dan").check()
        keeper.click(keeper.button("Double the checked members"))
        keeper.click(keeper.button("Take", keeper.card("ann")))
        keeper.click(keeper.button("Drop", keeper.card("dan")))
        keeper.card("bob").get_by_label("Deal: points to bob (negative: to the box)").fill("1")
        assert keeper.click(keeper.button("Deal", keeper.card("bob")))[0].endswith(
            " and bob deal: +1 to bob."
        )
        keeper.click(keeper.button("End: Team wins a backgammon"))
        expect(tv.locator("#game")).to_have_attribute("data-number", "5")

        # an undo from the page takes the last event back, on both pages
        keeper.click(keeper.button("Undo the last thing done"))
        expect(tv.locator("#game")).to_have_attribute("data-number", "4")
        keeper.click(keeper.button("End: Team wins a backgammon"))

        # a sixth player; dan away, his cube following the captain's
        join.get_by_label("New player").fill("fay")
        keeper.click(keeper.button("Join", join))
        proxy = keeper.form("proxy")
        proxy.get_by_label("Away").select_option("dan")
        assert keeper.click(keeper.button("Proxy", proxy))[0].startswith(
            "dan is away: dan's cube follows the captain's."
        )

        # game 5: a double taken, an extra between ann and the box, the box's single
        keeper.form("double-box").get_by_label("cat").check()
        keeper.click(keeper.button("Double the checked members"))
        keeper.click(keeper.button("Take", keeper.card("cat")))
        extra = keeper.form("extra")
        extra.get_by_label("Member").select_option("ann")
        extra.get_by_label("Against").select_option("box")
        assert keeper.click(keeper.button("Extra", extra)) == [
            "Game 5: bob gives ann an extra on 2 (bob pays ann 1 for it)."
        ]
        keeper.click(keeper.button("End: Box wins a single"))

        # dan back; the table split in two
        back = keeper.form("proxy-back")
        back.get_by_label("Back").select_option("dan")
        keeper.click(keeper.button("Proxy withdrawn: they are back", back))
        split = keeper.form("split")
        split.get_by_label("The new table's session").fill("friday-2")
        assert keeper.click(keeper.button("Split the table", split))[1:3] == [
            "friday: bob | ann, dan",
            "friday-2: cat | fay, eve",
        ]

        # a payment: more than eve owes ann is refused, saying how much she owes; then paid
        pay = keeper.form("pay")
        pay.get_by_label("From").select_option("eve")
        pay.get_by_label("To").select_option("ann")
        pay.get_by_label("Amount").fill("40,00")
        warned = keeper.refused(keeper.button("Pay", pay))
        assert warned[0].startswith("Error: eve owes ann 35.00 at most (eve -35.00, ann +40.00)")
        pay.get_by_label("Amount").fill("20,50")
        pay.get_by_label("Note").fill("cash")
        assert keeper.click(keeper.button("Pay", pay)) == ["eve paid ann 20.50 (friday)."]
        # the TV: tonight's result at the table ranks, the payment and the balance apart
        heads = tv.locator("#standings thead th").all_text_contents()
        assert heads[-3:] == ["at the table", "paid (+) / received (−)", "balance"]
        ranked = tv.locator("#standings tr.standing td.table").all_inner_texts()
        assert ranked == sorted(ranked, key=lambda t: -float(t.replace(",", "")))

        # who pays whom: a report, which changes nothing; then one payment marked made
        keeper.page.evaluate("document.getElementById('said').textContent = ''")
        keeper.button("Settle: who pays whom").click()
        expect(page.locator("#said p").filter(has_text="eve     ann      14.50")).to_have_count(1)
        assert keeper.click(keeper.button("Pay: fay paid ann 5.00")) == [
            "fay paid ann 5.00 (friday)."
        ]
        expect(keeper.button("Pay: fay paid ann 5.00")).to_have_count(0)

        shown = standings(tv)
        assert shown == standings(page)
        tv_png = tv.screenshot(full_page=False)
        phone_png = page.screenshot(full_page=True)
        dots = {
            str(r.get_attribute("data-player")): r.locator("svg.dot").bounding_box()
            for r in tv.locator("#standings tr.standing").all()
        }
        fills = {
            str(r.get_attribute("data-player")): r.locator("circle").get_attribute("fill")
            for r in tv.locator("#standings tr.standing").all()
        }
        strokes = {
            str(p.get_attribute("data-player")): p.get_attribute("stroke")
            for p in tv.locator("#balance-chart polyline.balance").all()
        }
        rows = {
            str(r.get_attribute("data-player")): r.locator("td.balance").bounding_box()
            for r in tv.locator("#standings tr.standing").all()
        }
        chart = tv.locator("#balance-chart").bounding_box()
        overflow = page.evaluate("document.scrollingElement.scrollWidth")

    # the evening booked is the one the CLI books from the same commands, on a ledger of its
    # own: the same sheets and settlements at both tables (the fingerprints apart: the two
    # chains were made at other moments, and undo adds a link)
    cli = tmp_path / "cli.db"
    for line in EVENING:
        chouette("--db", str(cli), *shlex.split(line))
    for session in ("friday", "friday-2"):
        for report in ("sheet", "settle"):
            page_said = json.loads(typed(ledger_url, "--session", session, report, "--json"))
            cli_said = chouette.json("--db", str(cli), "--session", session, report)
            assert unchained(page_said) == unchained(cli_said), (session, report)
    players = json.loads(typed(ledger_url, "standings", "--json"))["players"]
    assert shown == {p["name"]: (p["points"], p["cents"]) for p in players}

    # the TV's screenshot: the whole board on one 1080p screen, every player's dot in the
    # colour of their line in the chart, the winners' money green and the losers' red
    width, height, _ = decode_png(tv_png)
    assert (width, height) == (1920, 1080)
    assert chart is not None and chart["y"] + chart["height"] <= 1080 and chart["width"] > 600
    assert fills == strokes
    for player, box in dots.items():
        assert box is not None
        centre = {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2,
                  "width": 1, "height": 1}  # fmt: skip
        assert colours_at(tv_png, centre) == {bytes.fromhex(str(fills[player]).lstrip("#"))}
    for player, (_, cents) in shown.items():
        box = rows[player]
        assert box is not None and box["y"] + box["height"] <= 1080
        painted = colours_at(tv_png, box)
        assert (POS in painted) == (cents > 0) and (NEG in painted) == (cents < 0), player
    chart_colours = colours_at(tv_png, chart)
    for colour in strokes.values():
        assert bytes.fromhex(str(colour).lstrip("#")) in chart_colours
    # the phone's: as wide as the phone (nothing to scroll sideways), the whole page long
    width, height, _ = decode_png(phone_png)
    assert overflow == width == 390 and height > 844


def test_an_answer_that_is_not_json_is_shown_and_the_buttons_work_again(browser, ledger_url):
    """A server error (or a refusal in plain text) used to leave the page busy for good:
    every later button did nothing, silently, until the page was reloaded."""
    import re

    typed(ledger_url, "new", "friday", "ann", "bob", "cat")
    with serving(ledger_url) as server:
        keeper = open_pages(browser, server)
        page = keeper.page
        page.route(
            "**/keeper/act",
            lambda route: route.fulfill(
                status=500, body="Internal Server Error", content_type="text/plain"
            ),
        )
        keeper.button("Double the box", keeper.card("bob")).click()
        expect(page.locator("#said")).to_have_text(re.compile(r"^Error: the server failed \(500\)"))
        expect(page.locator("body")).not_to_have_attribute("data-busy", "1")
        page.unroute("**/keeper/act")
        assert keeper.click(
            keeper.button("Double the box", keeper.card("bob")), "Game 1: bob doubles the box."
        ) == ["Game 1: bob doubles the box.", "  bob: cube 1, double to 2 pending: ann to answer"]


def test_a_past_game_is_corrected_from_the_scorekeepers_page(browser, ledger_url):
    """The keeper corrects game 1 (a gammon recorded as a single): the page says what
    `chouette amend` says, the TV's standings follow, and the sheet keeps the trail. (The
    command line, the payment form and settle are in the whole evening's test.)"""
    typed(ledger_url, "new", "friday", "ann", "bob", "cat", "--stake", "1.00")
    typed(ledger_url, "end", "box")
    typed(ledger_url, "end", "box")
    with serving(ledger_url) as server:
        keeper = open_pages(browser, server)
        tv = keeper.tv
        form = keeper.page.locator("form[data-form=amend]")
        form.get_by_label("Game").fill("1")
        form.get_by_label("Why (it stays on the record)").fill("it was a gammon for the team")
        said = keeper.click(keeper.button("Amend: Team wins a gammon", form))
        assert said[0] == (
            "Game 1 amended: the board's end was box single, is team gammon (it was a gammon "
            "for the team)."
        )
        assert "Played again on the new line: game 2." in said
        expect(tv.locator('#standings tr.standing[data-player="ann"]')).to_have_attribute(
            "data-cents", "-300"
        )
    sheet = typed(ledger_url, "sheet")
    assert "1 (amended)" in sheet and "(it was a gammon for the team)" in sheet


def test_a_restart_keeps_the_keeper_in_and_a_new_pin_is_asked_for_at_once(browser, ledger_url):
    """Issue 21: after a restart the keeper's phone stayed on "Reconnecting…" until someone
    walked to the laptop. With the same PIN the page carries on by itself; with a new one
    it shows the PIN form by itself, and a player's phone stays the player's."""
    import socket

    typed(ledger_url, "new", "friday", "ann", "bob", "cat")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    with serving(ledger_url, port=port) as first:
        phone.goto(first.url + "keeper")
        phone.fill("#pin", PIN)
        phone.get_by_role("button", name="Open").click()
        expect(phone.locator("#controls .controls")).to_have_count(1)
        expect(phone.locator("#devices li.device")).to_have_count(1)
        code = phone.locator('#codes li[data-player="bob"] code').inner_text()
    expect(phone.locator("#live")).to_be_visible()  # the server is gone: "Reconnecting…"
    with serving(ledger_url, port=port) as second:  # the same PIN
        expect(phone.locator("#live")).to_be_hidden(timeout=15_000)
        keeper = Keeper(phone, phone)
        keeper.click(keeper.button("Double the box", keeper.card("bob")))
        bob = browser.new_context(viewport=PHONE, is_mobile=True).new_page()
        bob.goto(f"{second.url}me?code={code.replace('-', '')}")
        bob.get_by_role("button", name="Open").click()
        expect(bob.locator("#me")).to_have_text("You are bob.")
        # bob's own part: his seat, his cube as it moves, and the rules to accept
        expect(bob.locator("#mine .seat")).to_have_text("You are the captain.")
        expect(bob.locator("#mine .cube")).to_contain_text("double to 2 pending")
        keeper.click(keeper.button("Take", keeper.card("bob")))
        expect(bob.locator("#mine .cube")).to_have_text("Your cube: cube 2, ann owns it")
        bob.get_by_role("button", name="I accept the rules").click()
        expect(bob.get_by_role("button", name="I accept the rules")).to_have_count(0)
        expect(bob.locator("#me")).to_have_text("You are bob.")
    with serving(ledger_url, port=port, pin="86420"):  # a new PIN: the PIN form, at once
        expect(phone.locator("#pin-form")).to_be_visible(timeout=15_000)
        expect(bob.locator("#code-form")).to_be_visible(timeout=15_000)
        phone.fill("#pin", "86420")
        phone.get_by_role("button", name="Open").click()
        expect(phone.locator("#controls .controls")).to_have_count(1)


def test_the_tv_fits_eight_players_and_fifteen_games_on_one_1080p_screen(browser, ledger_url):
    """Issue 21: a club's TV shows the whole board of a full table without scrolling (with
    the box's partner's seat too)."""
    players = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal"]
    typed(ledger_url, "new", "friday", *players, "--stake", "5.00", "--partner-from", "8")
    ends = [
        f"end {'box' if number % 3 else 'team'}{' --gammon' if number % 2 else ''}"
        for number in range(15)
    ]
    typed(ledger_url, "table", input="\n".join(ends) + "\n")  # one table prompt, 15 games
    with serving(ledger_url) as server:
        tv = browser.new_context(viewport=TV, device_scale_factor=1).new_page()
        tv.goto(server.url)
        expect(tv.locator("#standings tr.standing")).to_have_count(8)
        expect(tv.locator("#game")).to_have_attribute("data-number", "16")
        width, height = tv.evaluate(
            "[document.scrollingElement.scrollWidth, document.scrollingElement.scrollHeight]"
        )
        assert (width, height) == (1920, 1080), (width, height)
        for row in [
            *tv.locator("#standings tr.standing").all(),
            tv.locator("#seats [data-role=partner]"),
        ]:
            box = row.bounding_box()
            assert box is not None and box["y"] + box["height"] <= 1080


def test_the_room_shows_every_table_and_the_keeper_picks_one(browser, ledger_url):
    """``serve --room`` (issue 22): the TV shows both tables of the night side by side and
    follows a terminal at either; the keeper's page runs the table the keeper picks."""
    typed(ledger_url, "new", "red", "ann", "bob", "cat")
    typed(ledger_url, "new", "blue", "dan", "eve", "fay")
    with serving(ledger_url, serve=("--room",)) as server:
        tv = browser.new_context(viewport=TV, device_scale_factor=1).new_page()
        tv.goto(server.url)
        tables = tv.locator("section.table")
        expect(tables).to_have_count(2)
        expect(tables.nth(0).locator("h2")).to_contain_text("red")
        typed(ledger_url, "--session", "red", "end", "box")
        expect(tv.locator('tr.night-total[data-player="ann"]')).to_have_attribute(
            "data-cents", "200"
        )
        phone = signed_in(browser, server)
        expect(phone.locator("#session")).to_have_text("red")  # the current session
        run_table(phone, "blue")
        keeper = Keeper(phone, tv)
        keeper.click(keeper.button("Double the box", keeper.card("fay")))
        # the keeper's buttons follow a terminal at the table it runs
        typed(ledger_url, "--session", "blue", "take", "fay")
        expect(keeper.button("Take", keeper.card("fay"))).to_be_disabled()
        expect(keeper.form("double-box").get_by_label("fay")).to_be_enabled()  # a redouble
        expect(tables.nth(1).locator('li.cube[data-member="fay"]')).to_have_count(1)


def test_a_player_named_like_an_option_is_a_name_on_every_page(
    browser, chouette, ledger_url, monkeypatch
):
    """Issue 34: for a member called ``--all``, Drop on their cube posted ``drop --all`` and
    dropped every pending cube; their phone's "I accept the rules" accepted for everyone; a
    member called ``-h`` got the help and an "ok" with nothing booked. In Chromium, on a
    ledger of an earlier chouette that holds such names, each button acts for its own player
    alone."""
    from chouette import line

    with monkeypatch.context() as earlier:  # (new refuses such names now)
        earlier.setattr(line, "check_new_name", line.check_name)
        chouette("new", "friday", "ann", "--", "--all", "-h", "cat")
    chouette("double", "--", "--all", "-h", "cat")  # the box doubles all three
    with serving(ledger_url) as server:
        keeper = open_pages(browser, server)
        assert keeper.click(keeper.button("Drop", keeper.card("--all")))[0] == (
            "Game 1: --all drops."
        )
        assert keeper.click(keeper.button("Take", keeper.card("-h")))[0] == "Game 1: -h takes."
        cubes = json.loads(typed(ledger_url, "status", "--json"))["game"]["cubes"]
        assert {m: (c["out"], c["pending"]) for m, c in cubes.items()} == {
            "--all": (True, None), "-h": (False, None), "cat": (False, "cat")}  # fmt: skip
        code = keeper.page.locator('#codes li[data-player="--all"] code').inner_text()
        phone = browser.new_context(viewport=PHONE, is_mobile=True).new_page()
        phone.goto(f"{server.url}me?code={code.replace('-', '')}")
        phone.get_by_role("button", name="Open").click()
        expect(phone.locator("#me")).to_have_text("You are --all.")
        phone.get_by_role("button", name="I accept the rules").click()
        expect(phone.get_by_role("button", name="I accept the rules")).to_have_count(0)
        card = json.loads(typed(ledger_url, "rules", "--json"))
        assert [a["player"] for a in card["accepted"]] == ["--all"]
        assert card["not_accepted"] == ["ann", "-h", "cat"]


def test_under_room_a_players_phone_works_at_any_table_the_keeper_runs_or_not(browser, ledger_url):
    """Issue 34: under ``serve --room`` a phone worked only for the table the keeper's page
    ran (``/me`` answered 401 once the keeper switched). Now bob's phone at red stays bob's
    at red, with red's board and his own part following red, when the keeper runs blue; it
    accepts red's rules; and cat's code for red admits cat while the keeper runs blue."""
    typed(ledger_url, "new", "red", "ann", "bob", "cat")
    typed(ledger_url, "new", "blue", "dan", "eve", "fay")
    with serving(ledger_url, serve=("--room",)) as server:
        keeper = signed_in(browser, server)
        expect(keeper.locator("#session")).to_have_text("blue")  # the current session
        run_table(keeper, "red")
        keeper.reload()  # (the players' codes are the page's as it loaded: red's now)
        codes = {
            p: keeper.locator(f'#codes li[data-player="{p}"] code').inner_text()
            for p in ("bob", "cat")
        }
        bob = browser.new_context(viewport=PHONE, is_mobile=True).new_page()
        bob.goto(f"{server.url}me?code={codes['bob'].replace('-', '')}")
        bob.get_by_role("button", name="Open").click()
        expect(bob.locator("#me")).to_have_text("You are bob.")
        run_table(keeper, "blue")
        typed(ledger_url, "--session", "red", "double", "bob")  # a terminal at red
        expect(bob.locator("#mine .cube")).to_contain_text("double to 2 pending")
        expect(bob.locator("#session")).to_have_text("red")  # his table's board
        bob.reload()
        expect(bob.locator("#me")).to_have_text("You are bob.")
        expect(bob.locator("#session")).to_have_text("red")
        bob.get_by_role("button", name="I accept the rules").click()
        expect(bob.get_by_role("button", name="I accept the rules")).to_have_count(0)
        red = json.loads(typed(ledger_url, "--session", "red", "rules", "--json"))
        assert [a["player"] for a in red["accepted"]] == ["bob"]
        cat = browser.new_context(viewport=PHONE, is_mobile=True).new_page()
        cat.goto(f"{server.url}me?code={codes['cat'].replace('-', '')}")
        cat.get_by_role("button", name="Open").click()
        expect(cat.locator("#me")).to_have_text("You are cat.")
        expect(cat.locator("#session")).to_have_text("red")
