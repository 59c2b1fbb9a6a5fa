"""The pages and the report in English, Danish and Czech: the catalogues are whole and in
step with the code, each translation keeps its placeholders, a language is chosen by the
browser (``Accept-Language``), by ``serve --lang`` or by ``report --lang``, and a Danish or
Czech page says its own words (``<html lang>`` too), in a real browser as in the file."""

from __future__ import annotations

import gettext
import re
import subprocess
import sys

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from chouette.errors import ChouetteError
from tests.paths import ROOT
from tests.serving import serving
from web.i18n import LANGUAGES, check_language, from_environment, negotiate, translation
from web.i18n import words as spoken

LOCALE = ROOT / "chouette" / "locale"
TRANSLATED = [code for code in LANGUAGES if code != "en"]
PLACEHOLDER = re.compile(r"\{[a-z_]*\}|%\([a-z_]+\)s|</?[a-z]+[^>]*>")


def catalogue(code: str) -> Catalog:
    with (LOCALE / code / "LC_MESSAGES" / "chouette.po").open("rb") as file:
        return read_po(file, locale=code)


def template() -> Catalog:
    with (LOCALE / "chouette.pot").open("rb") as file:
        return read_po(file)


def words(catalog: Catalog) -> set[object]:
    return {(m.context, m.id if isinstance(m.id, str) else tuple(m.id)) for m in catalog if m.id}


# ---------------------------------------------------------------- the catalogues


def test_the_template_holds_every_word_the_code_and_the_pages_say(tmp_path):
    """``pybabel extract`` as docs/TRANSLATING.md says, on the code as it is now: the
    committed template is the same (a new word in a page is in the catalogues' template)."""
    fresh = tmp_path / "chouette.pot"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "babel.messages.frontend",
            "extract",
            "-F",
            "babel.cfg",
            "-k",
            "marked",
            "-k",
            "marked_in:1c,2",
            "-k",
            "pgettext:1c,2",
            "-k",
            "said",
            "-k",
            "said_n:1,2",
            "-k",
            "said_in:1c,2",
            "--no-location",
            "--sort-output",
            "-o",
            str(fresh),
            ".",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    with fresh.open("rb") as file:
        extracted = read_po(file)
    assert words(extracted) == words(template())
    assert len(words(extracted)) > 200


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_word_is_translated(code):
    found = catalogue(code)
    assert words(found) == words(template())
    missing = [m.id for m in found if m.id and (not m.string or not all(m.string))]
    assert missing == []
    assert [m.id for m in found if m.id and m.fuzzy] == []


@pytest.mark.parametrize("code", TRANSLATED)
def test_a_translation_keeps_every_placeholder_and_tag(code):
    for message in catalogue(code):
        if not message.id:
            continue
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        for form, text in enumerate(strings):  # the first form is the singular's, the rest plural
            wanted = sorted(PLACEHOLDER.findall(ids[min(form, len(ids) - 1)]))
            assert sorted(PLACEHOLDER.findall(text)) == wanted, (message.id, text)


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_compiled_catalogue_says_what_the_po_file_says(code):
    """The ``.mo`` file the program reads (through the standard library's gettext) was
    compiled from the ``.po`` file as it is now (``pybabel compile``, docs/TRANSLATING.md):
    every message, every plural form."""
    with (LOCALE / code / "LC_MESSAGES" / "chouette.mo").open("rb") as file:
        compiled = gettext.GNUTranslations(file)
    found = catalogue(code)
    form = gettext.c2py(found.plural_expr)
    for message in found:
        if not message.id:
            continue
        if isinstance(message.id, str):
            said = (
                compiled.pgettext(message.context, message.id)
                if message.context
                else compiled.gettext(message.id)
            )
            assert said == message.string, message.id
            continue
        singular, plural = message.id[0], message.id[1]
        for n in (1, 2, 5, 21):
            said = compiled.ngettext(singular, plural, n)
            assert said == message.string[form(n)], (message.id, n)


# ---------------------------------------------------------------- choosing a language


@pytest.mark.parametrize(
    ("header", "code"),
    [
        ("da-DK,da;q=0.9,en;q=0.8", "da"),
        ("cs-CZ,cs;q=0.9", "cs"),
        ("de-DE,de;q=0.9,cs;q=0.5,da;q=0.4", "cs"),
        ("en-GB,en;q=0.9,da;q=0.8", "en"),
        ("fr-FR", "en"),
        ("da;q=0, cs;q=0.1", "cs"),
        ("", "en"),
        (None, "en"),
        ("da;q=abc", "en"),
        ("x" * 10_000, "en"),
    ],
)
def test_a_browser_gets_the_first_language_it_asks_for_that_chouette_speaks(header, code):
    assert negotiate(header) == code


@pytest.mark.parametrize(
    ("environ", "code"),
    [
        ({"LANG": "da_DK.UTF-8"}, "da"),
        ({"LANG": "en_US.UTF-8", "LC_ALL": "cs_CZ.UTF-8"}, "cs"),
        ({"LANGUAGE": "de:cs", "LANG": "da_DK.UTF-8"}, "cs"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({}, "en"),
    ],
)
def test_a_report_is_in_the_language_of_the_users_environment(environ, code):
    assert from_environment(environ) == code


def test_a_language_chouette_does_not_speak_is_refused_naming_those_it_does():
    assert check_language("da-DK") == "da" and check_language("CS") == "cs"
    with pytest.raises(ChouetteError) as err:
        check_language("de")
    assert str(err.value) == (
        "'de' is not a language chouette speaks: en (English), da (Dansk), cs (Čeština)"
    )
    known = "en (English), da (Dansk), cs (Čeština)"
    assert spoken("da")(err.value.said) == f"'de' er ikke et sprog, chouette taler: {known}"
    assert spoken("cs")(err.value.said) == f"'de' není jazyk, kterým chouette mluví: {known}"


# ---------------------------------------------------------------- the report


def evening(chouette) -> None:
    chouette("new", "friday", "ann", "bob", "cat", "--stake", "2.50")
    chouette("double", "bob")
    chouette("take", "bob")
    chouette("end", "team")


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_report_speaks_the_language_asked_for(chouette, tmp_path, code):
    evening(chouette)
    page = tmp_path / "friday.html"
    chouette("report", "--html", str(page), "--lang", code)
    html = page.read_text()
    _ = translation(code).gettext
    assert f'<html lang="{code}">' in html
    for english in ("Standings", "Who pays whom", "Score sheet", "House rules"):
        assert _(english) != english and f"<h2>{_(english)}</h2>" in html
        assert f"<h2>{english}</h2>" not in html


def test_the_report_follows_the_environment_unless_told(chouette, tmp_path, monkeypatch):
    evening(chouette)
    page = tmp_path / "friday.html"
    monkeypatch.setenv("LANGUAGE", "cs")
    chouette("report", "--html", str(page))
    assert '<html lang="cs">' in page.read_text()
    chouette("report", "--html", str(page), "--lang", "en")
    assert '<html lang="en">' in page.read_text() and "<h2>Standings</h2>" in page.read_text()


def test_an_unknown_language_is_a_usage_error_and_writes_nothing(chouette, tmp_path):
    evening(chouette)
    page = tmp_path / "friday.html"
    result = chouette("report", "--html", str(page), "--lang", "de", code=2)
    assert result.stderr == (
        "Error: --lang: 'de' is not a language chouette speaks: en (English), da (Dansk), "
        "cs (Čeština)\n"
    )
    assert not page.exists()


# ---------------------------------------------------------------- the pages


@pytest.mark.slow
def test_each_browser_gets_its_own_language_and_serve_lang_fixes_one(chouette, ledger_url):
    evening(chouette)
    da = translation("da").gettext
    cs = translation("cs").gettext
    with serving(ledger_url) as server:
        status, page = server.get("/", headers={"Accept-Language": "da-DK,da;q=0.9"})
        assert status == 200 and '<html lang="da">' in page
        assert f"<h2>{da('Standings')}</h2>" in page and "<h2>Standings</h2>" not in page
        status, page = server.get("/", headers={"Accept-Language": "cs"})
        assert '<html lang="cs">' in page and f"<h2>{cs('Standings')}</h2>" in page
        status, page = server.get("/")
        assert '<html lang="en">' in page and "<h2>Standings</h2>" in page
        status, page = server.get("/keeper", headers={"Accept-Language": "da"})
        assert f"<h1>{da('The scorekeeper' + chr(39) + 's page')}</h1>" in page
    with serving(ledger_url, serve=("--lang", "cs")) as server:
        status, page = server.get("/", headers={"Accept-Language": "da"})
        assert '<html lang="cs">' in page and f"<h2>{cs('Standings')}</h2>" in page


@pytest.mark.slow
def test_a_danish_phone_shows_the_scoreboard_and_the_keepers_buttons_in_danish(
    chouette, ledger_url
):
    """Chromium with a Danish locale: the scoreboard's headings, the chart's title and the
    scorekeeper's buttons are Danish, and a button still works (its answer is the CLI's, in
    the page's words)."""
    from playwright.sync_api import expect, sync_playwright

    from tests.chromium import chromium
    from tests.serving import PIN

    chouette("new", "friday", "ann", "bob", "cat")
    da = translation("da").gettext
    with serving(ledger_url) as server, sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=chromium(), headless=True)
        try:
            page = browser.new_context(locale="da-DK").new_page()
            page.goto(f"http://{server.host}:{server.port}/keeper")
            expect(page.locator("html")).to_have_attribute("lang", "da")
            page.fill("#pin", PIN)
            page.get_by_role("button", name=da("Open")).click()
            take_all = page.get_by_role("button", name=da("Take all"), exact=True)
            expect(take_all).to_be_visible()
            expect(page.locator("#standings h2")).to_have_text(da("Standings"))
            expect(page.locator("#chart h2")).to_have_text(da("Running balance"))
            card = page.locator('.member[data-member="bob"]')
            card.get_by_role("button", name=da("Double the box"), exact=True).click()
            expect(page.locator("#said")).to_contain_text("bob dobler boksen")  # in Danish
        finally:
            browser.close()


#: What a translation writes as the user types it (an option and its value, a value in
#: backquotes or quotes, a house rule's name, a placeholder): not a word of the language.
TYPED = re.compile(
    r"`[^`]*`|\"[^\"]*\"|'[^']*'|--[\w-]+(?:[ =][\w|.-]+)?|\{[a-z_]*\}|%\([a-z_]+\)s"
    r"|\b\w+(?:-\w+)+(?: box\b)?|\b\w+\|[\w|]+|\bend box\b|\b[A-Z]+_[A-Z_]+\b"
)
#: English words for the game's terms that the Czech seed texts name otherwise (GLOSSARY),
#: and the session (*sezení*) said in English or as *relace* (the metavar SESSION is typed).
NOT_CZECH = re.compile(r"\b(box\w*|beaver\w*|raccoon\w*|(?-i:session\w*)|relac\w*)", re.IGNORECASE)


def test_the_czech_catalogue_says_the_seed_texts_words_for_the_box_and_the_beavers():
    """docs/GLOSSARY.md: the Czech texts call the box *bankéř*, a beaver *bobr*, a raccoon
    *mýval*, and a session is *sezení*: no Czech translation says box, beaver, raccoon or
    session (nor *relace*) for them (what the user types, ``--by box``, ``box-takes``,
    ``--session``, ``SESSION``, aside)."""
    found = {}
    for message in catalogue("cs"):
        if not message.id:
            continue
        texts = message.string if isinstance(message.string, tuple) else (message.string,)
        said = [word for text in texts for word in NOT_CZECH.findall(TYPED.sub(" ", text))]
        if said:
            found[message.id if isinstance(message.id, str) else message.id[0]] = said
    assert not found
    cs = translation("cs").gettext
    assert cs("Box") == "Bankéř" and cs("Beavers") == "Bobři" and cs("Raccoon") == "Mýval"
    assert cs("Session") == "Sezení"
