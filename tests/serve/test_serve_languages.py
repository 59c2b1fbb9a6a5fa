"""Issue 36 in real browsers: ``chouette serve --lang da`` and ``--lang cs`` show no English
word on the scoreboard (the TV), the scorekeeper's page and a player's phone mid-game, a
double pending; and a refusal typed on the scorekeeper's page comes back in the page's
language.

Each page's words are what a person reads in headless Chromium: the body's text (every
``<details>`` opened), the title, and the titles, labels, placeholders and values of its
elements. A word of the Danish or Czech page that the same page in English also shows is an
English word left, unless it is a name, a number, or one of the few words both languages
write alike (:data:`ALIKE`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from tests.dump import dump
from tests.serve.test_serve_browser import PHONE, TV, browser
from tests.serving import PIN, Server, serving

try:
    from playwright.sync_api import Browser, Page, expect
except ImportError:  # pragma: no cover - the message says what to do
    pytest.fail("these tests need Playwright: pip install -e '.[test]'", pytrace=False)

pytestmark = pytest.mark.slow

__all__ = ["browser"]  # the browser tests' Chromium, a fixture of this module too

PLAYERS = ["ann", "bob", "cat", "dan"]
SESSION = "friday"

#: With extras and proxies on, game 1 played to its end; game 2 mid-game, ann deciding for
#: dan (the line says so): the box doubled cat and dan, cat's answer pending, dan's beaver
#: pending (the box to answer), and bob has an extra against the box (bob's phone is the
#: one opened).
EVENING = [
    ["new", SESSION, *PLAYERS, "--stake", "5", "--extras", "--proxies"],
    ["double", "bob", "cat"], ["take", "bob"], ["drop", "cat"], ["end", "box"],
    ["proxy", "dan", "--by", "ann"],
    ["double", "cat", "dan"], ["beaver", "dan"], ["extra", "bob", "box"],
]  # fmt: skip
#: ``serve --event``: the README's tournament, small, level 1 drawn, and at its first table
#: eve's double of the box pending (eve's phone is the one opened).
EVENT_PLAYERS = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal", "org"]
TOURNAMENT = [
    ["event", "new", "fcc", "--bank", "50", "--levels", "1,2,4", "--minutes", "45", "--entry",
     "20", "--payout", "50,30,20", "--rules", "florida-challenge", "--organiser", "org"],
    ["event", "enter", *EVENT_PLAYERS[:-1]], ["event", "draw", "--seed", "7"],
    ["--session", "fcc-L1-T1", "double", "eve"], ["--session", "fcc-L1-T1", "take", "eve"],
    ["--session", "fcc-L1-T1", "double", "eve", "--by", "member"],
]  # fmt: skip

#: Words a Danish or Czech page may share with the English one, each for its reason (a
#: command as typed, ``chouette rules``, an option, ``--stake``, a web address and a word
#: with a digit in it, a code or a digest, are not read as words at all: :func:`words_of`):
SHARED = {
    "chouette",  # the program's name
    "chrome", "linux",  # a device's browser and system (the scorekeeper's list), by name
    "help",  # the command that lists the commands, named in a sentence
    "backgammon", "gammon", "gammons",  # the game's words in both (docs/GLOSSARY.md)
    "jacoby", "pin",  # a name; an abbreviation
    "position", "id", "xgid",  # GNU Backgammon's "Position ID", and XG's: formats' names
    "partner",  # Danish and Czech for a partner
    "utc", "cet", "cest",  # the server's time zone, as its clock names it
    "eur",  # a currency's code, as ISO 4217 writes it (a phone's payment line)
}  # fmt: skip
ALIKE = {
    "da": SHARED | {
        "point", "beaver", "beavers", "raccoon", "raccoons", "drop",  # GLOSSARY: Danish usage
        # Danish words spelled as English ones: "i midten", "står over", "for den spiller",
        # "mere end", "en ny session", "standardregler", "Position", "prompt", "Note",
        # "Rotation", "en terminal"
        "i", "over", "for", "end", "session", "standard", "prompt", "note", "rotation",
        "terminal",
    },
    "cs": SHARED | {"a", "s", "server", "extra", "to"},  # Czech "and", "with"; a server;
    # "extra sázka"; "it"
}  # fmt: skip


WORD = re.compile(r"\w+")
NOT_WORDS = re.compile(r"https?://\S+|--[\w-]+|chouette \w+")

#: What a person reads of the page: its title, the body's text with every ``<details>``
#: opened, and the words its elements carry for a reader (a tooltip, a label read aloud, a
#: placeholder, a button's value, an image's text).
READ = """() => {
  document.querySelectorAll('details').forEach(d => { d.open = true; });
  // a player's code is letters at random, no word of any language
  document.querySelectorAll('code.code').forEach(c => { c.textContent = ''; });
  const out = [document.title, document.body.innerText];
  // (a command line's field shows an example in the CLI's words: the same in every language)
  const read = '[title],[aria-label],[placeholder]:not([name=line]),[alt]';
  for (const el of document.querySelectorAll(read)) {
    for (const name of ['title', 'aria-label', 'placeholder', 'alt']) {
      const value = el.getAttribute(name);
      if (value) out.push(value);
    }
  }
  for (const el of document.querySelectorAll('input[type=submit],input[type=button]')) {
    out.push(el.value);
  }
  for (const el of document.querySelectorAll('svg title, option')) out.push(el.textContent);
  return out.join('\\n');
}"""


def words_of(text: str) -> set[str]:
    """The words a person reads in ``text``, lower case: not a command as typed, an option,
    a web address, nor a word with a digit (a code, the ledger's digest)."""
    found = WORD.findall(NOT_WORDS.sub(" ", text))
    return {w.lower() for w in found if not any(c.isdigit() or c == "_" for c in w)}


def read(page: Page) -> str:
    return str(page.evaluate(READ))


def code_of(keeper: Page, player: str) -> str:
    """``player``'s code, as the scorekeeper's page shows it."""
    return keeper.locator(f'#codes li[data-player="{player}"] code.code').inner_text()


def keeper_page(browser: Browser, server: Server) -> Page:
    """The scorekeeper's page on a phone, past the PIN."""
    keeper = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    keeper.goto(server.url + "keeper")
    keeper.fill("#pin", PIN)
    keeper.locator("form button").first.click()
    expect(keeper.locator("#controls .controls")).not_to_have_count(0)
    return keeper


def pages(browser: Browser, server: Server, player: str = "bob") -> Iterator[tuple[str, Page]]:
    """The scoreboard on a TV, the scorekeeper's page past the PIN, and ``player``'s phone
    (by the code the scorekeeper's page shows): each open and showing a pending double."""
    tv = browser.new_context(viewport=TV).new_page()
    tv.goto(server.url)
    expect(tv.locator("#session, #event").first).not_to_be_empty()
    yield "scoreboard", tv
    keeper = keeper_page(browser, server)
    code = code_of(keeper, player)
    yield "keeper", keeper
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    phone.goto(server.url + "me")
    phone.fill("input[name=code]", code)
    phone.locator("form button").first.click()
    expect(phone.locator("#mine")).not_to_be_empty()
    yield "phone", phone


def texts(browser: Browser, ledger_url: str, lang: str, *serve: str) -> dict[str, str]:
    """What a person reads on each page under ``serve --lang lang`` (and ``serve``'s other
    options: ``--event``, eve's phone)."""
    with serving(ledger_url, serve=("--lang", lang, *serve)) as server:
        found = {}
        for name, page in pages(browser, server, "eve" if serve else "bob"):
            expect(page.locator("html")).to_have_attribute("lang", lang)
            found[name] = read(page)
            page.context.close()
        return found


def test_a_danish_and_a_czech_evening_show_no_english_word_mid_game(browser, chouette, ledger_url):
    for args in EVENING:
        chouette(*args)
    english = texts(browser, ledger_url, "en")
    assert "pending" in words_of(english["keeper"])  # the state the pages are checked in
    left = {}
    for lang in ("da", "cs"):
        allowed = ALIKE[lang] | set(PLAYERS) | {SESSION}
        for name, text in texts(browser, ledger_url, lang).items():
            found = (words_of(text) & words_of(english[name])) - allowed
            if found:
                left[f"{lang} {name}"] = sorted(found)
    assert left == {}, repr(left)


def test_a_danish_and_a_czech_tournament_show_no_english_word_mid_game(
    browser, chouette, ledger_url
):
    """``serve --event``: the TV's tables with their lines and banks, the scorekeeper's page
    and a player's phone, a double pending at one table."""
    for args in TOURNAMENT:
        chouette(*args)
    english = texts(browser, ledger_url, "en", "--event")
    assert "pending" in words_of(english["keeper"])
    left = {}
    for lang in ("da", "cs"):
        allowed = ALIKE[lang] | set(EVENT_PLAYERS) | {"fcc", "bank"}  # (Danish bank)
        for name, text in texts(browser, ledger_url, lang, "--event").items():
            found = (words_of(text) & words_of(english[name])) - allowed
            if found:
                left[f"{lang} {name}"] = sorted(found)
    assert left == {}, repr(left)


def booked(ledger_url: str) -> object:
    """The ledger's rows but the server's settings (its devices, its secret)."""
    return {table: rows for table, rows in dump(ledger_url).items() if table != "setting"}


def refusal(browser: Browser, ledger_url: str, lang: str, line: str) -> str:
    """What the scorekeeper's page under ``serve --lang lang`` says to ``line`` typed at its
    command line, refused."""
    with serving(ledger_url, serve=("--lang", lang)) as server:
        page = keeper_page(browser, server)
        form = page.locator('form[data-form="line"]')
        form.locator("input[name=line]").fill(line)
        form.locator("button").click()
        expect(page.locator("#said")).to_have_class("said refused")
        text = page.locator("#said").inner_text()
        page.context.close()
        return text


@pytest.mark.parametrize("line", ["take zed", "take bob"])
def test_a_refusal_typed_on_the_keepers_page_comes_back_in_the_pages_language(
    browser, chouette, ledger_url, line
):
    """A command the CLI refuses (a player the session does not have; an answer to a double
    nobody offered), typed at the scorekeeper's page: its reason in the page's language, in
    Danish and in Czech, and nothing written."""
    for args in EVENING:
        chouette(*args)
    before = booked(ledger_url)
    english = refusal(browser, ledger_url, "en", line)
    assert words_of(english) - set(PLAYERS) - {"zed"}  # an English sentence, said
    for lang in ("da", "cs"):
        text = refusal(browser, ledger_url, lang, line)
        assert text != english
        allowed = ALIKE[lang] | set(PLAYERS) | {SESSION, "zed"}
        assert (words_of(text) & words_of(english)) - allowed == set(), (lang, text, english)
    assert booked(ledger_url) == before
