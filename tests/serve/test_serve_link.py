"""The scorekeeper's one-time sign-in link (issue 37): ``chouette serve`` prints, under the
PIN, a link (and its QR code) that signs one device in as the scorekeeper, once. First
:class:`web.access.Access` on its own with a clock the test turns (one admission, then the
same refusal for a used, expired, guessed or altered token; two phones racing: exactly one
wins; the PIN unchanged; nothing kept in the ledger), then a real server (the link printed,
opened, refused the second time in the page's language, never in the log, a restart's new
link under ``--room``), then Chromium: open the link, land on the scorekeeper's page signed
in; a second browser opening it is refused.
"""

from __future__ import annotations

import re
import string
import threading
from collections.abc import Callable
from typing import TypeVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests import procs
from tests.serve.test_serve_access import Clocks, admitted, restart_port, started
from tests.serving import PIN, Keeper, Server, serving, typed
from web.access import (
    ADMITTED_A_MINUTE,
    LINK_BYTES,
    LINK_MINUTES,
    USED_LINK_SAID,
    Access,
    Memory,
    Refusal,
)

USED = Refusal(str(USED_LINK_SAID))
T = TypeVar("T")
URLSAFE = string.ascii_letters + string.digits + "-_"


def linked() -> tuple[Access, Memory, Clocks, str]:
    store, clocks = Memory(), Clocks()
    access, _ = started(store, clocks)
    return access, store, clocks, access.new_link()


def test_the_link_admits_one_device_as_the_scorekeeper_once_and_the_pin_still_works():
    access, store, _, link = linked()
    phone = admitted(access.enter_link("10.0.0.5", link, "Chrome on Android", ""), store)
    assert access.who(phone, None).keeper
    assert access.enter_link("10.0.0.5", link, "", "") == USED  # the same phone again
    assert access.enter_link("10.0.0.6", link, "", "") == USED  # and any other
    assert len([d for d in access.listed() if d.keeper]) == 1
    assert access.who(admitted(access.enter_pin("10.0.0.7", PIN, "", ""), store), None).keeper


def test_the_token_is_256_random_bits_and_each_link_replaces_the_one_before():
    access, store, _, first = linked()
    second = access.new_link()
    assert len(first) == len(second) == 43 and LINK_BYTES * 8 >= 128
    assert set(first + second) <= set(URLSAFE) and first != second
    assert access.enter_link("10.0.0.5", first, "", "") == USED
    admitted(access.enter_link("10.0.0.5", second, "", ""), store)


def test_the_link_expires_after_its_minutes_and_is_kept_nowhere_but_in_memory():
    access, store, clocks, link = linked()
    assert link not in repr(store.values)  # the ledger never holds it (nor a restart)
    clocks.wait(LINK_MINUTES * 60 - 1)
    later, _ = started(Memory(), clocks)  # a restart: a server of its own, no link
    assert later.enter_link("10.0.0.5", link, "", "") == USED
    clocks.wait(1)
    assert access.enter_link("10.0.0.5", link, "", "") == USED
    fresh = access.new_link()
    token = admitted(access.enter_link("10.0.0.5", fresh, "", ""), store)
    assert link not in repr(store.values) and fresh not in repr(store.values)
    assert access.who(token, None).keeper


def altered(link: str) -> list[str]:
    """The link's token with a prefix or suffix changed, cut, grown, in another case."""
    other = {c: URLSAFE[(URLSAFE.index(c) + 1) % len(URLSAFE)] for c in URLSAFE}
    return [
        other[link[0]] + link[1:],
        link[:-1] + other[link[-1]],
        link[:-1],
        link[1:],
        link + "A",
        "A" + link,
        link.swapcase(),
        link + "/",
        link + "%00",
        "",
        link[:22],
    ]


@given(guess=st.text(max_size=60) | st.text(URLSAFE, min_size=43, max_size=43))
def test_a_guessed_or_altered_token_is_refused_as_a_used_one_and_leaves_the_link_valid(guess):
    access, store, _, link = linked()
    for wrong in [guess, *altered(link)]:
        if wrong != link:
            assert access.enter_link("10.0.0.9", wrong, "", "") == USED
    assert not access.devices  # nobody was admitted by a wrong token …
    admitted(access.enter_link("10.0.0.5", link, "", ""), store)  # … and the link still works


def raced(phones: int, attempt: Callable[[int], T]) -> list[T]:
    """``attempt(n)`` by ``phones`` threads let go at once (a barrier): what each got."""
    start = threading.Barrier(phones)
    results: dict[int, T] = {}

    def one(n: int) -> None:
        start.wait()
        results[n] = attempt(n)

    threads = [threading.Thread(target=one, args=(n,)) for n in range(phones)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return [results[n] for n in range(phones)]


@pytest.mark.parametrize("phones", [2, 8])
def test_two_phones_racing_the_same_link_exactly_one_wins(phones):
    access, _, _, link = linked()
    results = raced(phones, lambda n: access.enter_link(f"10.0.0.{n + 1}", link, "", ""))
    won = [r for r in results if not isinstance(r, Refusal)]
    assert len(won) == 1 and results.count(USED) == phones - 1
    assert len(access.devices) == 1


def test_a_device_the_pin_may_not_admit_now_leaves_the_link_for_the_next():
    """The link counts as the PIN among the devices a minute (a leaked PIN and a link
    together admit no more): refused for that reason, the link is not used up."""
    access, store, clocks, link = linked()
    for n in range(ADMITTED_A_MINUTE):
        admitted(access.enter_pin(f"10.0.1.{n}", PIN, "", ""), store)
    busy = access.enter_link("10.0.0.5", link, "", "")
    assert isinstance(busy, Refusal) and busy.wait > 0 and busy != USED
    clocks.wait(60)
    assert access.who(admitted(access.enter_link("10.0.0.5", link, "", ""), store), None).keeper


# ---------------------------------------------------------------- a real server


def printed_link(server: Server) -> str:
    """The path of the keeper's link the server printed last."""
    found = [m for line in server.lines for m in re.findall(r"https?://\S+/keeper/link/\S+", line)]
    assert found, server.lines
    return "/" + found[-1].split("/", 3)[3]


def open_link(
    server: Server, path: str, source: str | None = None, lang: str = "en"
) -> tuple[int, str, str, str]:
    """GET the link: status, where it sends the browser, its cookie and its page."""
    conn = server.connection(source=source)
    conn.request("GET", path, headers={"Accept-Language": lang})
    response = conn.getresponse()
    page = response.read().decode("utf-8")
    cookie = (response.getheader("set-cookie") or "").split(";", 1)[0]
    conn.close()
    return response.status, response.getheader("location") or "", cookie, page


@pytest.mark.slow
def test_the_printed_link_signs_in_once_then_is_refused_and_is_never_logged(ledger_url):
    typed(ledger_url, "new", "friday", "ann", "bob")
    with serving(ledger_url) as server:
        path = printed_link(server)
        token = path.rsplit("/", 1)[1]
        line = next(x for x in server.lines if token in x)
        assert line == (
            f"Scorekeeper's phone without the PIN: open (or scan) this link once, within "
            f"{LINK_MINUTES} minutes: {server.url.rstrip('/')}{path}"
        )
        conn = server.connection()  # a scanner app's look first (HEAD) takes nothing
        conn.request("HEAD", path)
        looked = conn.getresponse()
        assert looked.status == 200 and looked.getheader("set-cookie") is None
        conn.close()
        status, location, cookie, _ = open_link(server, path, "127.0.0.2")
        assert (status, location) == (303, "/keeper") and cookie
        status, page = server.get("/keeper", {"Cookie": cookie})
        assert status == 200 and 'id="controls"' in page and 'id="pin-form"' not in page
        keeper = Keeper(server, cookie=cookie)
        assert keeper.act("double bob --by member --game 1", "friday")
        # the second time: refused, from another device or the same one, in its language
        status, _, cookie2, page = open_link(server, path, "127.0.0.3")
        assert status == 403 and not cookie2 and 'id="pin-form"' in page
        assert "this link has been used or is not valid" in page
        status, _, _, page = open_link(server, path, "127.0.0.2", lang="da")
        assert status == 403 and "dette link er brugt eller ugyldigt" in page
        # a guessed token, or the right one changed, gets the very same answer
        base = path.rsplit("/", 1)[0]
        for wrong in [*altered(token), "x" * 43]:
            if wrong and "/" not in wrong and "%" not in wrong:
                answer = open_link(server, f"{base}/{wrong}", "127.0.0.4")
                assert answer[:3] == (403, "", "") and answer[3] == open_link(
                    server, path, "127.0.0.4"
                )[3]  # fmt: skip
        assert Keeper(server).status == 303  # the PIN opens the page as before
        procs.wait_for(lambda: any("sign-in link signed in" in x for x in server.lines), "told")
    told = [x for x in server.lines if "sign-in link" in x]
    assert told == [
        "page: the scorekeeper's sign-in link signed in a browser (127.0.0.2); it signs in no "
        "other device"
    ]
    # the token is printed once (and drawn), never in a log line nor on standard error
    assert [x for x in server.lines if token in x] == [line]
    assert token not in (server.stopped or "")


@pytest.mark.slow
def test_two_phones_opening_the_link_at_once_on_the_server_exactly_one_wins(ledger_url):
    typed(ledger_url, "new", "friday", "ann", "bob")
    with serving(ledger_url) as server:
        path = printed_link(server)
        phones = 6

        def scan(n: int) -> tuple[int, str]:
            conn = server.connection(source=f"127.0.9.{n + 1}")
            conn.request("GET", path)
            response = conn.getresponse()
            response.read()
            conn.close()
            return response.status, response.getheader("set-cookie") or ""

        answers = raced(phones, scan)
        assert sorted(a[0] for a in answers) == [303] + [403] * (phones - 1)
        assert [bool(a[1]) for a in answers].count(True) == 1


@pytest.mark.slow
def test_under_room_a_restart_prints_a_new_link_and_the_old_one_admits_nobody(ledger_url):
    typed(ledger_url, "new", "red", "ann", "bob", "--night", "friday")
    typed(ledger_url, "new", "blue", "cat", "dan", "--night", "friday")
    port = restart_port()
    with serving(ledger_url, port=port, serve=("--room",)) as first:
        old = printed_link(first)
    with serving(ledger_url, port=port, serve=("--room",)) as second:  # the same PIN
        new = printed_link(second)
        assert new != old and open_link(second, old)[0] == 403
        status, _, cookie, _ = open_link(second, new)
        assert status == 303
        status, page = second.get("/keeper", {"Cookie": cookie})
        assert status == 200 and 'id="controls"' in page
        assert Keeper(second, cookie=cookie).act("double dan --by member --game 1", "blue")
        assert open_link(second, new)[0] == 403


# ---------------------------------------------------------------- in Chromium


@pytest.mark.slow
def test_in_chromium_the_link_lands_on_the_keepers_page_and_a_second_browser_is_refused(
    ledger_url,
):
    from playwright.sync_api import expect, sync_playwright

    from tests.chromium import chromium

    typed(ledger_url, "new", "friday", "ann", "bob")
    with serving(ledger_url) as server, sync_playwright() as driver:
        link = server.url.rstrip("/") + printed_link(server)
        browser = driver.chromium.launch(
            executable_path=chromium(), headless=True, args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
            phone.goto(link)
            assert phone.url == f"{server.url}keeper"
            expect(phone.locator("#controls")).to_be_visible()
            expect(phone.locator("#pin-form")).to_have_count(0)
            phone.reload()  # a token of its own: signed in still
            expect(phone.locator("#controls")).to_be_visible()
            other = browser.new_context(locale="cs-CZ").new_page()
            other.goto(link)
            expect(other.locator("#wrong")).to_contain_text("tento odkaz už byl použit")
            expect(other.locator("#pin-form")).to_be_visible()
            other.goto(f"{server.url}keeper")
            expect(other.locator("#pin-form")).to_be_visible()  # not signed in
        finally:
            browser.close()
