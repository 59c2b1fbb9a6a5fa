"""Players propose from their phones, the keeper approves (issue 37), on a real ``chouette
serve``: a phone proposes its own player's answer or payment, it waits on the keeper's page,
and runs only once the keeper approves it; a refused one comes back to the phone with its
reason, in the phone's language. Attacked as in ``test_serve_access.py``: a phone proposing
for someone else, forged form fields, a replay of an approved proposal, a proposal after
sign-out, another table's or night's phone, a flood. Then the same in real Chromium."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import pytest

from chouette.proposals import MOST_WAITING
from tests.chromium import chromium
from tests.dump import dump
from tests.serve.test_serve_access import codes_on, cookie_of, form, phone_of
from tests.serving import PIN, Keeper, Server, Stream, serving, typed


def proposals(url: str, *args: str) -> list[dict[str, object]]:
    """The proposals as the keeper's terminal lists them."""
    return json.loads(typed(url, "proposals", *args, "--json"))["proposals"]


def shown(server: Server, cookie: str, text: str, lang: str = "en") -> str:
    """The phone's page once it shows ``text`` (the page is rendered as the board follows
    the ledger, within a moment of the change)."""
    page = ""
    for _ in range(100):
        page = server.get("/me", {"Cookie": cookie, "Accept-Language": lang})[1]
        if text in page:
            return page
        time.sleep(0.1)
    mine = page.split('id="mine"', 1)[-1].split('id="board"', 1)[0]
    raise AssertionError(f"{text!r} not on the phone's page:\n{mine}")


def answer_fields(page: str, act: str, member: str) -> dict[str, str]:
    """The fields of the phone's form that proposes ``act`` on ``member``'s cube, as its page
    shows them."""
    import re

    found = re.search(
        rf'<form class="propose" method="post" action="/me/propose" data-act="{act}" '
        rf'data-member="{member}">\s*(.*?)</form>',
        page,
        re.S,
    )
    assert found, page
    return dict(re.findall(r'name="([^"]+)" value="([^"]*)"', found.group(1)))


def test_a_phone_proposes_its_take_and_it_runs_once_the_keeper_approves(ledger_url):
    typed(ledger_url, "new", "friday", "ann", "bob", "cat", "--stake", "1")
    typed(ledger_url, "double", "--by", "box", "bob")
    with serving(ledger_url) as server:
        keeper = Keeper(server)
        bob, cat = phone_of(server, keeper, "bob"), phone_of(server, keeper, "cat")
        page = server.get("/me", {"Cookie": bob})[1]
        assert "A double waits on you" in page
        assert "A double waits on you" not in server.get("/me", {"Cookie": cat})[1]
        take = answer_fields(page, "take", "bob")
        assert take == {"act": "take", "member": "bob", "game": "1", "origin": "0",
                        "stage": "double"}  # fmt: skip
        status, _, headers = form(server, "/me/propose", take, bob)
        assert (status, headers["location"]) == (303, "/me#proposals")
        (waiting,) = proposals(ledger_url)
        assert (waiting["player"], waiting["line"]) == ("bob", "take -- bob")
        assert any("bob's phone proposes: bob takes the box's double" in x for x in server.lines)
        controls = Stream(server, "/keeper/events", headers={"Cookie": keeper.cookie})
        event = controls.wait_for(lambda e: e.kind == "controls" and "data-number" in e.data)
        assert "bob takes the box&#39;s double" in event.data and "proposed by bob" in event.data
        controls.close()
        assert typed(ledger_url, "status", "--json").count('"value": 2') == 0
        status, said = keeper.post({"line": f"approve -- {waiting['number']}"})
        assert status == 200 and said["said"][:2] == [
            f"Proposal {waiting['number']} approved: bob takes the box's double.",
            "Game 1: bob takes.",
        ]
        cube = json.loads(typed(ledger_url, "status", "--json"))["game"]["cubes"]["bob"]
        assert cube["value"] == 2
        shown(server, bob, 'data-state="approved"')
        # the same form again (a replay): the double it answered is no longer waiting
        before = dump(ledger_url)
        status, page, _ = form(server, "/me/propose", take, bob)
        assert status == 400
        assert "the double on bob&#39;s cube that bob answered is no longer waiting" in page
        assert dump(ledger_url) == before
        # and the keeper's approval again: answered once
        status, said = keeper.post({"line": f"approve -- {waiting['number']}"})
        assert status == 400 and "was approved already" in said["message"]


def test_a_refused_proposal_comes_back_to_the_phone_with_its_reason_in_its_language(ledger_url):
    typed(ledger_url, "new", "friday", "ann", "bob", "cat", "--stake", "1")
    typed(ledger_url, "double", "--by", "box", "bob")
    with serving(ledger_url) as server:
        keeper = Keeper(server)
        bob = phone_of(server, keeper, "bob")
        page = server.get("/me", {"Cookie": bob})[1]
        drop, take = (answer_fields(page, act, "bob") for act in ("drop", "take"))
        assert form(server, "/me/propose", drop, bob)[0] == 303
        assert form(server, "/me/propose", take, bob)[0] == 303
        first, second = (p["number"] for p in proposals(ledger_url))
        status, said = keeper.post(
            [("line", "refuse"), ("--why", "you said take at the table"), ("line", f"-- {first}")]
        )
        assert status == 200, said
        shown(server, bob, "refused: refused by the keeper: you said take at the table")
        typed(ledger_url, "take", "bob")  # typed at the table: the take no longer waits
        status, said = keeper.post({"line": f"approve -- {second}"})
        assert status == 400 and "no longer applies" in said["message"]
        shown(server, bob, "afvist: doblingen på bobs terning, som bob svarede på, venter", "da")


def test_a_phone_cannot_propose_for_anyone_else_nor_forge_its_way_past_the_rules(ledger_url):
    typed(ledger_url, "new", "friday", "ann", "bob", "cat", "dan", "--stake", "1")
    typed(ledger_url, "double", "--by", "box", "cat")
    with serving(ledger_url) as server:
        keeper = Keeper(server)
        bob, cat = phone_of(server, keeper, "bob"), phone_of(server, keeper, "cat")
        take = answer_fields(server.get("/me", {"Cookie": cat})[1], "take", "cat")
        before = dump(ledger_url)
        refused = [
            ({**take, "player": "cat"}, bob, "bob does not answer the double on cat"),  # cat's
            ({**take, "member": "dan"}, cat, "dan"),  # a cube that waits on nobody's double
            ({**take, "game": "2"}, cat, "game 2 is over"),  # another game
            ({**take, "origin": "7"}, cat, "is no longer waiting"),  # another double
            ({**take, "stage": "beaver"}, cat, "is no longer waiting"),
            ({**take, "act": "raccoon"}, cat, "a phone proposes a take, a drop, a beaver"),
            ({**take, "act": "end"}, cat, "not &#39;end&#39;"),
            ({**take, "game": "-1"}, cat, "the form&#39;s game is no number"),
            ({**take, "game": "9" * 40}, cat, "the form&#39;s game is no number"),
            ({**take, "origin": "١"}, cat, "the form&#39;s origin is no number"),  # not ASCII
            ({"act": "pay", "payee": "ann", "cents": "100"}, bob, "does not pay ann 1.00"),
            ({"act": "pay", "payee": "ann", "cents": "1e3"}, bob, "the form&#39;s cents is no"),
        ]
        for fields, phone, why in refused:
            status, page, _ = form(server, "/me/propose", fields, phone)
            assert status == 400 and why in page, (fields, page[-2000:])
        assert form(server, "/me/propose", take, "")[0] == 401  # no phone at all
        assert form(server, "/me/propose", take, keeper.cookie)[0] == 401  # the keeper's PIN
        assert dump(ledger_url) == before  # nothing kept of any of them
        # a payment is the payer's: the payee cannot claim it was paid
        typed(ledger_url, "drop", "cat")
        typed(ledger_url, "end", "box")  # cat 1.00, bob 1.00, dan 1.00 to ann
        ann = phone_of(server, keeper, "ann")
        paid = {"act": "pay", "payee": "ann", "cents": "100"}
        assert form(server, "/me/propose", {**paid, "payee": "cat"}, ann)[0] == 400
        assert form(server, "/me/propose", paid, ann)[0] == 400  # ann pays nobody
        assert form(server, "/me/propose", paid, bob)[0] == 303
        (made,) = proposals(ledger_url)
        assert (made["player"], made["payee"], made["cents"]) == ("bob", "ann", 100)


def test_a_signed_out_phone_and_another_night_s_phone_propose_nothing(ledger_url):
    typed(ledger_url, "new", "last", "ann", "bob", "--night", "old")
    typed(ledger_url, "double", "--by", "box", "bob")
    with serving(ledger_url) as server:  # last week's phone, while that session was served
        keeper = Keeper(server)
        old = phone_of(server, keeper, "bob")
        take = answer_fields(server.get("/me", {"Cookie": old})[1], "take", "bob")
    typed(ledger_url, "new", "red", "ann", "bob", "cat")
    typed(ledger_url, "new", "blue", "dan", "eve", "fay")
    typed(ledger_url, "--session", "blue", "double", "--by", "box", "eve")
    with serving(ledger_url, serve=("--room",)) as server:
        keeper = Keeper(server)
        assert form(server, "/me/propose", take, old)[0] == 401  # last week's: nobody's now
        codes = codes_on(server.get("/keeper", {"Cookie": keeper.cookie})[1])
        dan = cookie_of(form(server, "/me", {"code": codes["dan"]})[2])
        eve = cookie_of(form(server, "/me", {"code": codes["eve"]})[2])
        assert form(server, "/keeper/table", {"table": "red"}, keeper.cookie)[0] == 200
        red = codes_on(server.get("/keeper", {"Cookie": keeper.cookie})[1])
        bob = cookie_of(form(server, "/me", {"code": red["bob"]})[2])
        eves = answer_fields(server.get("/me", {"Cookie": eve})[1], "take", "eve")
        # bob at red proposes eve's take at blue: it is not his table, nor his cube
        status, page, _ = form(server, "/me/propose", eves, bob)
        assert status == 400 and "there is no game 1 in progress" not in page
        assert proposals(ledger_url) == []
        # eve's phone proposes at her own table, whichever table the keeper's page runs
        assert form(server, "/me/propose", eves, eve)[0] == 303
        (made,) = proposals(ledger_url)
        assert made["session"] == "blue"
        # dan signs out eve's phone? no: only the keeper, or eve's own other devices
        assert form(server, "/me/devices", {}, dan)[0] == 303
        assert form(server, "/me/propose", {**eves, "act": "drop"}, eve)[0] == 303
        eve_id = eve.split("=", 1)[1].split(".")[0]
        assert form(server, "/keeper/devices", {"revoke": eve_id}, keeper.cookie)[0] == 303
        assert form(server, "/me/propose", {**eves, "act": "beaver"}, eve)[0] == 401
        assert len(proposals(ledger_url)) == 2


def test_a_flood_of_proposals_from_one_phone_is_capped(ledger_url):
    typed(ledger_url, "new", "friday", "ann", "bob", "cat", "--stake", "1")
    typed(ledger_url, "double", "--by", "box", "bob")
    typed(ledger_url, "pay", "cat", "bob", "1", "--advance")  # a line bob pays, too
    with serving(ledger_url) as server:
        keeper = Keeper(server)
        bob = phone_of(server, keeper, "bob")
        page = server.get("/me", {"Cookie": bob})[1]
        made = [answer_fields(page, act, "bob") for act in ("take", "drop", "beaver")]
        made.append({"act": "pay", "payee": "cat", "cents": "100"})
        for fields in made[:MOST_WAITING]:
            assert form(server, "/me/propose", fields, bob)[0] == 303
        again = form(server, "/me/propose", made[0], bob)
        assert again[0] == 400 and "bob proposed this already" in again[1]
        for _ in range(20):
            status, page, _ = form(server, "/me/propose", made[MOST_WAITING], bob)
            assert status == 400 and f"bob has {MOST_WAITING} proposals waiting" in page
        assert len(proposals(ledger_url)) == MOST_WAITING
        # the keeper answers one: the phone may propose one more
        typed(ledger_url, "refuse", str(proposals(ledger_url)[0]["number"]))
        assert form(server, "/me/propose", made[MOST_WAITING], bob)[0] == 303


def test_each_phone_shows_the_code_for_what_it_pays_and_the_paid_button_books_it(ledger_url):
    typed(ledger_url, "new", "friday", "ann", "bob", "cat", "--stake", "1")
    typed(ledger_url, "account", "ann", "--iban", "DE89 3704 0044 0532 0130 00",
             "--name", "Ann Smith")  # fmt: skip
    typed(ledger_url, "double", "--by", "box", "bob")
    typed(ledger_url, "drop", "bob")
    typed(ledger_url, "end", "box")  # bob and cat pay ann 1.00 each
    with serving(ledger_url, serve=("--currency", "EUR")) as server:
        keeper = Keeper(server)
        bob, ann = phone_of(server, keeper, "bob"), phone_of(server, keeper, "ann")
        page = server.get("/me", {"Cookie": bob})[1]
        assert "bob pays ann 1.00 EUR: scan the code to pay Ann Smith" in page
        assert "<svg" in page and "DE89" not in page and "370400440532013000" not in page
        assert "I paid ann 1.00" in page
        assert "<svg" not in server.get("/me", {"Cookie": ann})[1].split('id="board"')[0]
        assert "DE89" not in server.get("/")[1] and "DE89" not in keeper_page(server, keeper)
        status, _, _ = form(server, "/me/propose", {"act": "pay", "payee": "ann",
                                                   "cents": "100"}, bob)  # fmt: skip
        assert status == 303
        shown(server, bob, "Your payment waits for the keeper.")
        (paid,) = proposals(ledger_url)
        status, said = keeper.post({"line": f"approve -- {paid['number']}"})
        assert status == 200 and said["said"][-1] == "bob paid ann 1.00 (friday)."
        payments = json.loads(typed(ledger_url, "settle", "--json"))["payments"]
        assert [(p["from"], p["to"]) for p in payments] == [("cat", "ann")]
        shown(server, bob, "You are square.")


def keeper_page(server: Server, keeper: Keeper) -> str:
    return server.get("/keeper", {"Cookie": keeper.cookie})[1]


# ---------------------------------------------------------------- in real Chromium

try:
    from playwright.sync_api import Browser, Page, expect, sync_playwright
except ImportError:  # pragma: no cover - the message says what to do
    pytest.fail("these tests need Playwright: pip install -e '.[test]'", pytrace=False)

FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as driver:
        found = driver.chromium.launch(executable_path=chromium(), headless=True, args=FLAGS)
        yield found
        found.close()


def phone(browser: Browser, lang: str = "en-GB") -> Page:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale=lang)
    return context.new_page()


def keeper_in(browser: Browser, server: Server) -> Page:
    page = phone(browser)
    page.goto(server.url + "keeper")
    page.fill("#pin", PIN)
    page.get_by_role("button", name="Open").click()
    expect(page.locator("#controls .controls")).to_have_count(1)
    return page


def player_in(browser: Browser, server: Server, keeper: Page, name: str, lang: str = "en-GB"):
    page = phone(browser, lang)
    page.goto(server.url + "me")
    page.fill("#code", keeper.locator(f'#codes li[data-player="{name}"] code.code').inner_text())
    page.locator("#code-form button").click()
    expect(page.locator("#me")).to_have_attribute("data-player", name)
    return page


@pytest.mark.slow
def test_in_chromium_a_phone_proposes_the_keeper_approves_or_refuses(browser, ledger_url):
    typed(ledger_url, "new", "friday", "ann", "bob", "cat", "--stake", "1")
    typed(ledger_url, "account", "ann", "--iban", "DE89 3704 0044 0532 0130 00")
    typed(ledger_url, "double", "--by", "box", "bob")
    with serving(ledger_url) as server:
        keeper = keeper_in(browser, server)
        bob = player_in(browser, server, keeper, "bob")
        cat = player_in(browser, server, keeper, "cat", "cs-CZ")
        # bob proposes his take: it waits on the keeper's page, with who and when
        bob.get_by_role("button", name="bob takes the box's double").click()
        expect(bob.locator('#proposals li[data-state="waiting"]')).to_have_count(1)
        waiting = keeper.locator('#controls li.proposal[data-player="bob"]')
        expect(waiting).to_contain_text("bob takes the box's double")
        expect(waiting).to_contain_text("proposed by bob at")
        expect(keeper.locator('.member[data-member="bob"] .state')).to_contain_text("cube 1")
        waiting.get_by_role("button", name="Approve").click()
        expect(keeper.locator("#said")).to_contain_text("Game 1: bob takes.")
        expect(keeper.locator('.member[data-member="bob"] .state')).to_contain_text("cube 2")
        expect(bob.locator('#proposals li[data-state="approved"]')).to_have_count(1)
        expect(bob.locator("#propose")).to_have_count(0)  # nothing waits on him now
        # the box doubles cat (a Czech phone), who proposes a drop; the keeper refuses it
        typed(ledger_url, "double", "--by", "box", "cat")
        cat.get_by_role("button", name="cat nepřijímá zdvojení bankéře").click()
        refusing = keeper.locator('#controls li.proposal[data-player="cat"]')
        refusing.get_by_label("Why").fill("cat took it at the table")
        refusing.get_by_role("button", name="Refuse").click()
        expect(keeper.locator("#said")).to_contain_text("refused")
        expect(cat.locator('#proposals li[data-state="refused"] .reason')).to_contain_text(
            "zamítnuto zapisovatelem: cat took it at the table"
        )
        # the board's end: bob pays ann 2.00, cat 1.00; bob's phone shows the code, "I paid"
        typed(ledger_url, "drop", "cat")
        typed(ledger_url, "end", "box")
        owes = bob.locator("li.owes")
        expect(owes.locator("svg")).to_have_count(1)
        expect(owes).to_contain_text("scan the code to pay ann")
        owes.get_by_role("button", name="I paid ann 2.00").click()
        expect(bob.locator(".paying")).to_have_text("Your payment waits for the keeper.")
        paying = keeper.locator('#controls li.proposal[data-player="bob"]')
        expect(paying).to_contain_text("bob paid ann 2.00")
        paying.get_by_role("button", name="Approve").click()
        expect(keeper.locator("#said")).to_contain_text("bob paid ann 2.00 (friday).")
        expect(bob.locator("ul.settle")).to_contain_text("You are square.")
