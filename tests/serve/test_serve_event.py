"""``chouette serve --event``: a chouette tournament on the room's screens. The TV shows every
table of the level side by side with each player's bank, the level, its starting cube and
a countdown to the level's end; each phone its player's bank and table; the keeper's page
runs the event (the draw, the close of a level, a re-entry, the end) by the CLI's words.
The pure parts with the templates, then a whole event in real Chromium."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from itertools import pairwise

import pytest

from chouette.review import Asked, CubeState, Equities
from db import Ledger, open_ledger
from db.events import find, level_in_play
from tests.chromium import chromium
from tests.cli.test_event_cli import EIGHT, FLORIDA, busted, deal
from tests.dom import parse
from tests.serve.test_serve_access import CERTAIN, codes_on, cookie_of, form
from tests.serving import PIN, Keeper, Stream, serving, typed
from web.access import Access
from web.app import create_app, message, templates
from web.hub import Lazily, changed, pieces
from web.table import Table

NOW = datetime.fromisoformat("2026-11-20T20:00:00+00:00")


def florida(chouette) -> None:
    """The Florida event, eight entered, level 1 drawn with seed 7: fcc-L1-T1 is hal | eve,
    cat, gus and fcc-L1-T2 bob | dan, fay, ann."""
    chouette(*FLORIDA)
    chouette("event", "enter", *EIGHT)
    chouette("event", "draw", "--seed", "7")


def rendered(ledger_url: str, name: str, **values: object) -> object:
    snapshot = Table(ledger_url, None, lambda: NOW, event="").snapshot()
    html = templates().get_template(name).render(event=snapshot.event, **values)
    return parse(html), snapshot


def test_the_tv_shows_every_table_of_the_level_with_the_banks_level_cube_and_clock(
    chouette, ledger_url
):
    florida(chouette)
    deal(chouette, "fcc-L1-T1", "eve", -20)
    page, snapshot = rendered(ledger_url, "_event.html")
    assert page.one("h1").text() == "fcc"
    level = page.one("p", "facts")
    assert (level.attrs["data-level"], level.attrs["data-cube"], level.attrs["data-pool"]) == (
        "1", "1", "16000",
    )  # fmt: skip
    assert level.text() == "Level 1 · starting cube 1 · pool 160.00"
    clock = page.one("span", "countdown")
    ends = NOW + timedelta(minutes=45)  # drawn at the command's time, CHOUETTE_NOW
    assert clock.attrs["data-ends"] == str(int(ends.timestamp() * 1000))
    tables = page.all("section", "table")
    assert [t.attrs["data-session"] for t in tables] == ["fcc-L1-T1", "fcc-L1-T2"]
    banks = {r.attrs["data-player"]: int(r.attrs["data-bank"]) for r in tables[0].all("tr", "bank")}
    assert banks == {"hal": 70, "cat": 50, "gus": 50, "eve": 30}
    assert page.all("tr", "player") == []  # nobody away from the tables: each shown once
    assert snapshot.event is not None and snapshot.event.left == 45 * 60


def test_after_a_level_the_tv_shows_the_next_and_who_is_out(chouette, ledger_url):
    florida(chouette)
    deal(chouette, "fcc-L1-T1", "eve", -50)
    chouette("event", "next", "--seed", "11")
    page, _ = rendered(ledger_url, "_event.html")
    assert page.one("p", "facts").text() == "Level 2 · starting cube 2 · pool 160.00"
    assert [t.attrs["data-session"] for t in page.all("section", "table")] == [
        "fcc-L2-T1",
        "fcc-L2-T2",
    ]
    eve = next(r for r in page.all("tr", "player") if r.attrs["data-player"] == "eve")
    assert eve.attrs["data-out"] == "yes" and "out at level 1" in eve.text()
    chouette("event", "end")
    page, _ = rendered(ledger_url, "_event.html")
    assert page.one("p", "clock").text() == "The event has ended."
    places = {r.attrs["data-player"]: int(r.attrs["data-cents"]) for r in page.all("tr", "place")}
    assert places["hal"] == 8000 and sum(places.values()) == 16000


def test_the_tv_says_every_draw_taken_back_as_event_standings_does(chouette, ledger_url):
    """The TV and the keeper's page say what `event standings` says of a draw taken back:
    the level, its seed and when, beside the tables drawn again."""
    florida(chouette)
    page, _ = rendered(ledger_url, "_event.html")
    assert page.all("p", "note") == []  # nothing to say of a draw that stands
    chouette("event", "undo")
    chouette("event", "draw", "--seed", "9")
    page, _ = rendered(ledger_url, "_event.html")
    [note] = [p.text() for p in page.all("p", "note")]
    assert note.startswith("Taken back: level 1 of fcc was drawn with seed 7 at 2026-")
    assert note in chouette("event", "standings").stdout


def test_the_tv_says_the_last_two_play_head_to_head_as_the_draw_does(chouette, ledger_url):
    busted(chouette)
    said = chouette("event", "next", "--seed", "2").stdout
    page, _ = rendered(ledger_url, "_event.html")
    [note] = [p.text() for p in page.all("p", "note")]
    assert note.startswith("ann and cat are the last two in: they play head to head")
    assert note in said


def test_a_players_phone_shows_their_bank_their_table_and_the_card(chouette, ledger_url):
    florida(chouette)
    chouette("event", "accept", "ann")
    page, _ = rendered(ledger_url, "_mine_event.html", player="cat")
    assert page.one("p", "bank").text() == "Your bank: 50 points."
    assert page.one("p", "where").attrs["data-table"] == "fcc-L1-T1"
    assert page.one("p", "where").text() == "Your table: fcc-L1-T1."
    assert page.one("section", "my-table").one("p", "line").text().startswith("hal | eve, cat")
    assert "open" in page.one("details", "card").attrs  # not accepted yet: the card open
    assert page.one("form", "accept").attrs["action"] == "/me/accept"
    ann, _ = rendered(ledger_url, "_mine_event.html", player="ann")
    assert "open" not in ann.one("details", "card").attrs
    assert ann.all("form", "accept") == []


def test_the_keepers_page_offers_what_the_event_allows_now(chouette, ledger_url):
    florida(chouette)
    deal(chouette, "fcc-L1-T1", "eve", -50)
    page, _ = rendered(ledger_url, "_event_controls.html")
    buttons = {
        b.attrs["value"]: "disabled" not in b.attrs
        for b in page.all("button")
        if "value" in b.attrs
    }
    assert buttons == {
        "event draw": False,  # drawn already
        "event next": True,
        "event end": True,
        "event undo": True,
    }
    reenter = page.one("form", "reenter")
    assert [o.text() for o in reenter.all("option")] == ["eve"]  # her bank is gone


def test_serve_event_refuses_before_it_listens_without_an_event_or_with_room(chouette):
    chouette("new", "friday", "ann", "bob")
    result = chouette("serve", "--event", "--pin", "2468", code=1)
    assert result.stderr == (
        "Error: the ledger has no event yet: chouette event new NAME --bank N --levels 1,2,4\n"
    )
    result = chouette("serve", "--event", "--room", code=2)
    assert result.stderr == (
        "Error: --room or --event, not both (--event shows the event's tables)\n"
    )


def test_a_change_at_one_table_reads_that_tables_board_alone_again(chouette, ledger_url):
    """The room at tournament scale: the server reads a table's board again only when that
    table changed (its chain grew), and what it watches changes with any table and step."""
    florida(chouette)
    table = Table(ledger_url, None, lambda: NOW, event="")
    before, watched = table.snapshot(), table.changes()
    assert table.changes() == watched  # nothing changed: the same marker
    deal(chouette, "fcc-L1-T1", "eve", -20)
    after = table.snapshot()
    assert after.changes != before.changes and table.changes() != watched
    assert after.room[0] is not before.room[0]  # fcc-L1-T1, read again
    assert after.room[1] is before.room[1]  # fcc-L1-T2, as it was
    chouette("event", "standings")  # (reads only)
    assert table.changes() == after.changes


def test_a_change_at_one_table_reads_that_tables_session_alone_for_the_banks(
    chouette, ledger_url, monkeypatch
):
    """The banks come from every table's session; a change at one table reads that table's
    session again, and the banks of the others as they were (issue 39: 26 tables at 128
    players)."""
    florida(chouette)
    table = Table(ledger_url, None, lambda: NOW, event="")
    table.snapshot()
    read: list[int] = []
    reading = Ledger.session_by_id

    def session_by_id(book: Ledger, session_id: int, **how: bool) -> object:
        read.append(session_id)
        return reading(book, session_id, **how)

    monkeypatch.setattr(Ledger, "session_by_id", session_by_id)
    deal(chouette, "fcc-L1-T1", "eve", -20)
    read.clear()
    after = table.snapshot()
    assert after.event is not None
    ids = {b.session: i for i, b in zip(events_of_ids(ledger_url), after.room, strict=True)}
    assert ids["fcc-L1-T1"] in read and ids["fcc-L1-T2"] not in read
    assert after.event.bank("eve") == 30 and after.event.bank("hal") == 70
    assert after.event.bank("bob") == 50  # fcc-L1-T2's, kept
    fresh = Table(ledger_url, None, lambda: NOW, event="").snapshot().event
    assert fresh is not None and fresh.players == after.event.players


def events_of_ids(ledger_url: str) -> list[int]:
    """The session ids of the level's tables, in order."""
    with open_ledger(ledger_url, write=False, now=NOW) as book:
        return level_in_play(book, find(book, None))


def test_a_versions_pages_are_made_in_the_languages_streamed_and_others_when_asked(
    chouette, ledger_url
):
    """A version makes, in the worker thread, the TV's page in the languages of the streams
    open (a club reading Danish makes no English page for every change); a page in another
    language is made when one asks for it, the same as made at once."""
    florida(chouette)
    table = Table(ledger_url, None, lambda: NOW, event="")
    access = Access(PIN, b"k" * 32, now=lambda: NOW)
    app = create_app(table, access, hosts=["127.0.0.1"])
    render, demand = app.state.hub.render, app.state.demand
    frames = render(table.snapshot())
    assert frames.room.made == () and frames.controls.made == ()  # no stream: nothing made
    demand.add([("room", "da"), ("room_parts", "da")])
    frames = render(table.snapshot())
    assert frames.room.made == ("da",) and frames.room_parts.made == ("da",)
    assert frames.board.made == frames.controls.made == ()
    assert "Niveau 1" in frames.room["da"]
    english = frames.room["en"]  # a page asks for it
    assert english == templates("en").get_template("_event.html").render(
        event=table.snapshot().event
    )
    assert frames.room.made == ("da", "en")


def test_phones_are_made_when_asked_for_once_a_version():
    made: list[str] = []

    def make(player: str) -> str:
        made.append(player)
        return f"<p>{player}</p>"

    mine = Lazily(["ann", "bob"], make)
    assert made == []  # nobody asked yet
    assert mine["ann"] == "<p>ann</p>" and mine.get("ann") == "<p>ann</p>"
    assert made == ["ann"] and list(mine) == ["ann", "bob"] and len(mine) == 2
    assert mine.get("zed") is None and made == ["ann"]
    assert mine != Lazily(["ann", "bob"], make) and made == ["ann"]  # never made to compare


def test_one_versions_message_is_made_once_for_every_stream():
    html = "<h1>fcc</h1>\n<p>level 1</p>"
    assert message("room", html, 3) is message("room", html, 3)
    assert message("room", html, 4) != message("room", html, 3)


def test_the_tvs_page_is_cut_into_the_parts_that_change_alone(chouette, ledger_url):
    """The level's facts, each table and those away are parts; a change at one table
    changes that table's part alone, and a level with other tables is the whole page."""
    florida(chouette)
    before = templates().get_template("_event.html").render(event=rendered_event(ledger_url))
    cut = pieces(before)
    assert [name for name, _ in cut[1]] == ["head", "table fcc-L1-T1", "table fcc-L1-T2"]
    assert all(html not in cut[0] for _, html in cut[1])  # the parts are not left around
    deal(chouette, "fcc-L1-T1", "eve", -20)
    after = templates().get_template("_event.html").render(event=rendered_event(ledger_url))
    update = json.loads(changed(cut, 4, pieces(after)) or "null")
    assert update["since"] == 4
    assert [name for name, _ in update["parts"]] == ["table fcc-L1-T1"]
    table = parse(update["parts"][0][1]).one("section", "table")
    assert table.attrs["data-part"] == "table fcc-L1-T1"
    banks = {r.attrs["data-player"]: r.attrs["data-bank"] for r in table.all("tr", "bank")}
    assert banks["eve"] == "30"
    deal(chouette, "fcc-L1-T1", "eve", -30)
    chouette("event", "next", "--seed", "11")  # eve out: another level, other tables
    later = templates().get_template("_event.html").render(event=rendered_event(ledger_url))
    assert changed(pieces(after), 5, pieces(later)) is None


def rendered_event(ledger_url: str) -> object:
    return Table(ledger_url, None, lambda: NOW, event="").snapshot().event


def test_a_change_at_one_table_sends_the_streams_that_table_alone(chouette, ledger_url):
    """Issue 39: a stream's first message is the whole room; after it, a change at one
    table sends that table alone, from the version the stream sent last."""
    florida(chouette)
    with serving(ledger_url, serve=("--event",)) as server:
        tv = Stream(server)
        first = tv.wait_for(lambda e: e.kind == "room")
        assert 'data-part="table fcc-L1-T2"' in first.data
        deal(chouette, "fcc-L1-T1", "eve", -20)
        eve = '<tr class="bank" data-player="eve" data-bank="30">'
        last = tv.wait_for(lambda e: e.kind == "parts" and eve in e.data.replace("\\", ""))
        tv.close()
    sent = [e for e in tv.events if e.kind in ("room", "parts")]
    assert [e.kind for e in sent[1:]] == ["parts"] * (len(sent) - 1)
    for before, event in pairwise(sent):
        update = json.loads(event.data)
        assert update["since"] == int(before.id)
        assert {name for name, _ in update["parts"]} <= {"table fcc-L1-T1"}
        assert "fcc-L1-T2" not in event.data
    assert len(last.data) < len(first.data) / 2


# ---------------------------------------------------------------- phones on a real server


def test_under_event_a_phone_is_its_players_at_the_event_with_their_review(ledger_url):
    """Under ``serve --event`` a code is the event's (a player changes tables by level): the
    keeper's page lists every entrant's, a phone that gives one answers for its player at
    whatever table they sit, with the review of their cube decisions there as main's
    phones have it, and a table's own code (``serve --room``'s) admits nobody."""
    typed(ledger_url, *FLORIDA)
    typed(ledger_url, "event", "enter", *EIGHT)
    typed(ledger_url, "event", "draw", "--seed", "7")  # fcc-L1-T1: hal | eve, cat, gus
    typed(ledger_url, "--session", "fcc-L1-T1", "double", "eve", "--position", CERTAIN)
    typed(ledger_url, "--session", "fcc-L1-T1", "take", "eve")
    typed(ledger_url, "--session", "fcc-L1-T1", "end", "box")
    with open_ledger(ledger_url, write=True, now=datetime.now(UTC)) as book:
        kept = {Asked(CERTAIN, CubeState(True, True)): Equities(*map(Decimal, ("1", "2", "1")))}
        book.keep_evaluations(kept, beavers=True, plies=2, engine="GNU Backgammon 1.07")
    typed(ledger_url, "--session", "fcc-L1-T2", "end", "box")  # (a change: read again)
    with serving(ledger_url) as server:  # eve's code at her table, as plain serve gives it
        keeper = Keeper(server)
        assert form(server, "/keeper/table", {"table": "fcc-L1-T1"}, keeper.cookie)[0] == 200
        table_code = codes_on(server.get("/keeper", {"Cookie": keeper.cookie})[1])["eve"]
    with serving(ledger_url, serve=("--event",)) as server:
        keeper = Keeper(server)
        codes = codes_on(server.get("/keeper", {"Cookie": keeper.cookie})[1])
        assert sorted(codes) == sorted(EIGHT)  # every entrant's, whichever table is run
        eve = cookie_of(form(server, "/me", {"code": codes["eve"]})[2])
        page = server.get("/me", {"Cookie": eve})[1]
        assert "You are <strong>eve</strong>" in page
        assert 'data-table="fcc-L1-T1"' in page
        assert 'class="review-total" data-cents="0"' in page  # her take (points only: 0)
        bob = cookie_of(form(server, "/me", {"code": codes["bob"]})[2])
        page = server.get("/me", {"Cookie": bob})[1]
        assert 'data-table="fcc-L1-T2"' in page and "review-total" not in page
        assert json.loads(server.get("/whoami", {"Cookie": eve})[1])["session"] == "fcc"
        assert table_code != codes["eve"]
        status, _, headers = form(server, "/me", {"code": table_code})
        assert status == 403 and not cookie_of(headers)


# ---------------------------------------------------------------- in real browsers

try:
    from playwright.sync_api import Browser, Page, expect, sync_playwright
except ImportError:  # pragma: no cover - the message says what to do
    pytest.fail("these tests need Playwright: pip install -e '.[test]'", pytrace=False)

TV = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as driver:
        flags = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
        found = driver.chromium.launch(executable_path=chromium(), headless=True, args=flags)
        yield found
        found.close()


def press(keeper: Page, name: str) -> list[str]:
    """Press a button of the keeper's page: what the page said (it must be ok)."""
    keeper.evaluate("document.getElementById('said').textContent = ''")
    keeper.get_by_role("button", name=name, exact=True).click()
    said = keeper.locator("#said")
    expect(said).not_to_be_empty()
    lines = [str(t) for t in said.locator("p").all_inner_texts()]
    assert "ok" in (said.get_attribute("class") or ""), lines
    return lines


@pytest.mark.slow
def test_a_florida_event_runs_on_the_pages_from_the_draw_to_the_end(browser, ledger_url):
    """The done-when of issue 39 on the pages: the keeper draws level 1, a table busts a
    player, the keeper closes the level (the busted player out of the next draw), re-enters
    her (the pool grows) and ends the event; the TV follows each step, the countdown ticks,
    and a player's phone shows their bank and table."""
    typed(ledger_url, *FLORIDA)
    typed(ledger_url, "event", "enter", *EIGHT)
    with serving(ledger_url, serve=("--event",)) as server:
        tv = browser.new_context(viewport=TV, device_scale_factor=1).new_page()
        tv.goto(server.url)
        expect(tv.locator("#event")).to_have_text("fcc")
        expect(tv.locator("#clock")).to_have_text("Level 1 is not drawn yet.")
        keeper = browser.new_context(viewport=PHONE, is_mobile=True).new_page()
        keeper.goto(server.url + "keeper")
        keeper.fill("#pin", PIN)
        keeper.get_by_role("button", name="Open").click()
        expect(keeper.locator(".event-controls")).to_have_count(1)
        said = press(keeper, "Draw level 1")
        assert said[0].startswith("Level 1 of fcc (starting cube 1), drawn with seed ")
        tables = tv.locator("section.table")
        expect(tables).to_have_count(2)
        expect(tv.locator('tr.bank[data-player="ann"]')).to_have_attribute("data-bank", "50")
        countdown = tv.locator("#clock .countdown")
        first = countdown.inner_text()
        expect(countdown).not_to_have_text(first, timeout=5_000)  # it ticks by itself
        assert first.startswith(("44:", "45:"))
        # a phone: its player's bank and table
        seated = keeper.locator("#controls .controls").get_attribute("data-session")
        assert seated == tv.locator("section.table").nth(0).get_attribute("data-session")
        box = tv.locator("section.table").nth(0).locator("tr.bank").nth(0)
        player = str(box.get_attribute("data-player"))
        code = keeper.locator(f'#codes li[data-player="{player}"] code').inner_text()
        phone = browser.new_context(viewport=PHONE, is_mobile=True).new_page()
        phone.goto(f"{server.url}me?code={code.replace('-', '')}")
        phone.get_by_role("button", name="Open").click()
        expect(phone.locator("#mine .bank")).to_have_text("Your bank: 50 points.")
        expect(phone.locator("#mine .where")).to_have_text(f"Your table: {seated}.")
        # the box of the first table deals its captain out of the whole bank
        captain = str(tv.locator("section.table").nth(0).locator("tr.bank").nth(1).get_attribute(
            "data-player"
        ))  # fmt: skip
        line = typed(ledger_url, "--session", seated, "status", "--json")
        members = [json.loads(line)["captain"], *json.loads(line)["crew"]]
        for member in members:
            typed(
                ledger_url, "--session", seated, "deal", member, "-50" if member == captain else "0"
            )
        expect(phone.locator("#mine .bank")).to_have_text("Your bank: 100 points.")
        said = press(keeper, "Close level 1 and draw the next")
        assert said[0] == "Level 1 of fcc is closed: 400 points carried."
        assert said[1] == f"Out: {captain}."
        expect(tv.locator("#level")).to_have_attribute("data-cube", "2")
        expect(tv.locator(f'tr.player[data-player="{captain}"]')).to_have_attribute(
            "data-out", "yes"
        )
        expect(tv.locator(f'section.table tr.bank[data-player="{captain}"]')).to_have_count(0)
        # the keeper re-enters her: a fresh bank, the pool grows
        keeper.locator("form.reenter select").select_option(captain)
        said = press(keeper, "Re-enter: a fresh bank, another entry")
        assert said[0].startswith(f"{captain} re-enters fcc with a fresh bank of 50")
        expect(tv.locator("#level")).to_have_attribute("data-pool", "18000")
        expect(tv.locator(f'section.table tr.bank[data-player="{captain}"]')).to_have_count(1)
        press(keeper, "End the event")
        expect(tv.locator("#clock")).to_have_text("The event has ended.")
        places = tv.locator("tr.place")
        expect(places).to_have_count(8)
        cents = [int(places.nth(i).get_attribute("data-cents") or 0) for i in range(8)]
        assert sum(cents) == 18000
        expect(phone.locator("#mine .place")).to_have_count(1)


def eve_loses(ledger_url: str, points: int) -> None:
    """At fcc-L1-T1 (hal | eve, cat, gus), the box wins ``points`` from eve (as a real
    process: the server sees the ledger change)."""
    for member in ("cat", "gus", "eve"):
        deal = f"-{points}" if member == "eve" else "0"
        typed(ledger_url, "--session", "fcc-L1-T1", "deal", member, deal)


@pytest.mark.slow
def test_the_tv_replaces_the_table_that_changed_and_keeps_the_others(browser, ledger_url):
    """Issue 39: the TV swaps in the one table that changed (the others, and the page, are
    kept as they were); a TV that missed a change loads the whole page again."""
    typed(ledger_url, *FLORIDA)
    typed(ledger_url, "event", "enter", *EIGHT)
    typed(ledger_url, "event", "draw", "--seed", "7")
    with serving(ledger_url, serve=("--event",)) as server:
        tv = browser.new_context(viewport=TV, device_scale_factor=1).new_page()
        tv.goto(server.url)
        expect(tv.locator("section.table")).to_have_count(2)
        tv.evaluate(
            """() => {
            window.kept = "yes";
            document.querySelectorAll("section.table").forEach(function (table) {
                table.setAttribute("data-mark", "before");
            });
        }"""
        )
        eve_loses(ledger_url, 20)
        t1 = tv.locator('section.table[data-session="fcc-L1-T1"]')
        t2 = tv.locator('section.table[data-session="fcc-L1-T2"]')
        expect(t1.locator('tr.bank[data-player="eve"]')).to_have_attribute("data-bank", "30")
        expect(t1).not_to_have_attribute("data-mark", "before")  # swapped in
        expect(t2).to_have_attribute("data-mark", "before")  # kept as it was
        expect(t2.locator('tr.bank[data-player="bob"]')).to_have_attribute("data-bank", "50")
        assert tv.evaluate("window.kept") == "yes"  # not loaded again
        # a TV that missed a version (as if a message were lost) loads the page afresh
        tv.evaluate('document.getElementById("room").setAttribute("data-version", "0")')
        eve_loses(ledger_url, 10)
        expect(t1.locator('tr.bank[data-player="eve"]')).to_have_attribute("data-bank", "20")
        expect(t2).not_to_have_attribute("data-mark", "before")
        assert tv.evaluate("window.kept") is None
        expect(t2.locator('tr.bank[data-player="bob"]')).to_have_attribute("data-bank", "50")
