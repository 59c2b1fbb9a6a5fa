"""Whose language the terminal speaks: ``--lang``, else ``CHOUETTE_LANG``, else the
environment's (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``, as gettext reads them),
else English; what programs read (``--json``) is the same in every language."""

from __future__ import annotations

import re
from pathlib import Path

import pytest


def usage_word(chouette, *args: str) -> str:
    return chouette(*args, "take", "--help").stdout.split(" ", 1)[0]


def test_the_environment_chooses_the_terminals_language(chouette, monkeypatch):
    assert usage_word(chouette) == "Usage:"
    monkeypatch.setenv("LANGUAGE", "cs:da")
    assert usage_word(chouette) == "Použití:"
    monkeypatch.delenv("LANGUAGE")
    monkeypatch.setenv("LANG", "da_DK.UTF-8")
    assert usage_word(chouette) == "Brug:"


def test_chouette_lang_and_then_lang_say_otherwise(chouette, monkeypatch):
    monkeypatch.setenv("LANGUAGE", "da")
    monkeypatch.setenv("CHOUETTE_LANG", "cs")
    assert usage_word(chouette) == "Použití:"
    assert usage_word(chouette, "--lang", "en") == "Usage:"
    assert usage_word(chouette, "--lang", "da-DK") == "Brug:"


def test_a_language_chouette_does_not_speak_is_a_usage_error(chouette):
    result = chouette("--lang", "de", "status", code=2)
    assert "'de' is not a language chouette speaks: en (English), da (Dansk)" in result.stderr


@pytest.mark.parametrize(
    ("environ", "refused"),
    [
        (
            {"LANG": "da_DK.UTF-8"},
            "Fejl: Ugyldig værdi for '--lang': 'de' er ikke et sprog, chouette taler: "
            "en (English), da (Dansk), cs (Čeština)\n",
        ),
        (
            {"LC_ALL": "cs_CZ.UTF-8", "LANG": "da_DK.UTF-8"},
            "Chyba: Neplatná hodnota pro '--lang': 'de' není jazyk, kterým chouette mluví: "
            "en (English), da (Dansk), cs (Čeština)\n",
        ),
        (  # CHOUETTE_LANG names one chouette speaks: that one
            {"CHOUETTE_LANG": "cs", "LANG": "da_DK.UTF-8"},
            "Chyba: Neplatná hodnota pro '--lang': 'de' není jazyk",
        ),
        (  # CHOUETTE_LANG names none: the environment's
            {"CHOUETTE_LANG": "xx", "LANG": "da_DK.UTF-8"},
            "Fejl: Ugyldig værdi for '--lang': 'de' er ikke et sprog",
        ),
        ({"LANG": "C.UTF-8"}, "Error: Invalid value for '--lang': 'de' is not a language"),
    ],
)
def test_an_unknown_lang_is_refused_in_the_language_the_environment_asks_for(
    chouette, monkeypatch, environ, refused
):
    """No language is chosen yet when ``--lang`` is refused: the refusal is said in the
    one the environment asks for (as gettext reads it; ``CHOUETTE_LANG`` if it names one
    chouette speaks), English when it asks for none."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", "CHOUETTE_LANG"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    said = chouette("--lang", "de", "status", code=2).stderr
    assert said.split("\n\n", 1)[1].startswith(refused), said
    assert said.startswith("Usage: " if "Error" in refused else ("Brug: ", "Použití: "))


@pytest.mark.parametrize("lang", ["da", "cs"])
def test_json_is_the_same_in_every_language(chouette, lang):
    chouette("new", "friday", "ann", "bob", "cat", "--stake", "2.50")
    chouette("double", "bob")
    english = chouette("status", "--json").stdout
    assert chouette("--lang", lang, "status", "--json").stdout == english


def test_lang_is_for_the_command_it_is_given_to(chouette):
    """A command run after ``--lang cs`` speaks the environment's language again (the
    test's: English): --lang is no setting that stays."""
    assert usage_word(chouette, "--lang", "cs") == "Použití:"
    assert usage_word(chouette) == "Usage:"


# ---------------------------------------------------------------- what cli.py says itself

SESSION = {
    "en": "Session friday: stake 5.00 a point; standard rules.",
    "da": "Session friday: indsats 5,00 pr. point; standardregler.",
    "cs": "Sezení friday: sázka 5,00 za bod; standardní pravidla.",
}


@pytest.mark.parametrize("lang", ["en", "da", "cs"])
def test_a_new_sessions_line_is_said_in_the_terminals_language(chouette, lang):
    said = chouette("--lang", lang, "new", "friday", "ann", "bob", "cat", "--stake", "5.00")
    line = {"en": "Line", "da": "Række", "cs": "Řada"}[lang]
    assert said.stdout == f"{SESSION[lang]}\n{line}: ann | bob, cat\n"


@pytest.mark.parametrize(
    ("lang", "paid", "undone", "consistent"),
    [
        (
            "da",
            "bob betalte ann 1,00 (friday).",
            "Fortrudt: ",
            "Regnskabet stemmer: 1 session, 1 spil, 3 bogføringer.",
        ),
        (
            "cs",
            "bob zaplatil(a) hráči ann 1,00 (friday).",
            "Vráceno: ",
            "Kniha je v pořádku: 1 sezení, 1 hra, 3 zápisy.",
        ),
    ],
)
def test_a_payment_its_undo_and_check_are_said_in_danish_and_czech(
    chouette, lang, paid, undone, consistent
):
    chouette("new", "friday", "ann", "bob", "cat")
    for line in (["double", "bob"], ["drop", "bob"], ["end", "box"]):
        chouette(*line)
    assert chouette("--lang", lang, "pay", "bob", "ann", "1").stdout == paid + "\n"
    assert chouette("--lang", lang, "undo").stdout.startswith(undone)
    assert chouette("--lang", lang, "check").stdout == consistent + "\n"
    assert chouette("pay", "bob", "ann", "1").stdout == "bob paid ann 1.00 (friday).\n"


@pytest.mark.parametrize(
    ("lang", "refused"),
    [
        ("da", "Fejl: nævn medlemmet hvis terning du tager, eller brug --all\n"),
        ("cs", "Chyba: jmenujte člena skupiny, jehož kostku přijímáte, nebo použijte --all\n"),
    ],
)
def test_a_refusal_of_cli_py_is_said_in_danish_and_czech(chouette, lang, refused):
    chouette("new", "friday", "ann", "bob", "cat")
    chouette("double", "bob")
    assert chouette("--lang", lang, "take", code=2).stderr == refused


@pytest.mark.parametrize(
    ("lang", "usage", "missing", "unknown"),
    [
        (
            "da",
            "Brug: chouette new [OPTIONS] NAME [PLAYER]...\nPrøv 'chouette new -h' for hjælp.\n",
            "Fejl: Mangler argumentet 'NAME'.",
            "Fejl: Ingen kommando ved navn 'nwe'. Mente du 'new'?",
        ),
        (
            "cs",
            "Použití: chouette new [OPTIONS] NAME [PLAYER]...\nNápovědu ukáže 'chouette new -h'.\n",
            "Chyba: Chybí argument 'NAME'.",
            "Chyba: Příkaz 'nwe' neexistuje. Mysleli jste 'new'?",
        ),
    ],
)
def test_a_usage_error_is_said_in_the_readers_language(chouette, lang, usage, missing, unknown):
    """Click's own usage errors (exit 2): the usage line, where help is, and the error."""
    said = chouette("--lang", lang, "new", code=2).stderr
    assert said == f"{usage}\n{missing}\n"
    assert chouette("--lang", lang, "nwe", code=2).stderr.endswith(f"\n{unknown}\n")


def test_a_usage_error_in_english_is_clicks_word_for_word(chouette):
    said = chouette("new", code=2).stderr
    assert said == (
        "Usage: chouette new [OPTIONS] NAME [PLAYER]...\nTry 'chouette new -h' for help.\n\n"
        "Error: Missing argument 'NAME'.\n"
    )


@pytest.mark.parametrize(
    ("lang", "limits"),
    [
        (
            "da",
            "'--game': 0 er uden for chouettes grænser: giv et helt tal fra 1 til 1.000.000.000",
        ),
        ("cs", "'--game': 0 je mimo meze chouette: zadejte celé číslo od 1 do 1\u00a0000\u00a0000"),
    ],
)
def test_a_number_past_its_bounds_is_refused_in_the_readers_language(chouette, lang, limits):
    chouette("new", "friday", "ann", "bob", "cat")
    said = chouette("--lang", lang, "drop", "bob", "--game", "0", code=2)
    assert limits in said.stderr


@pytest.mark.parametrize(
    ("lang", "summary", "option", "listed"),
    [
        (
            "da",
            "Start en session: spillerne i rækkefølge er rækken.",
            "Penge pr. point.",
            "Tag den ventende dobling, beaver eller raccoon.",
        ),
        (
            "cs",
            "Zahájit sezení: hráči v daném pořadí tvoří řadu.",
            "Peníze za bod.",
            "Přijmout čekající zdvojení, bobra nebo mývala.",
        ),
    ],
)
def test_help_says_each_commands_summary_and_options_in_the_readers_language(
    chouette, lang, summary, option, listed
):
    """A command's summary, its examples' heading and every option's help are in the
    catalogue (files/helps.py), and so is every later paragraph (tests/cli/test_help.py)."""
    text = " ".join(chouette("--lang", lang, "new", "--help").stdout.split())
    assert summary in text and option in text
    assert "Start a session" not in text and "Money per point." not in text
    commands = " ".join(chouette("--lang", lang, "--help").stdout.split())
    assert listed.split(",")[0] in commands


@pytest.mark.parametrize(("lang", "amount"), [("da", "f.eks. 12,50."), ("cs", "např. 12,50.")])
def test_an_amount_in_help_is_written_as_the_reader_writes_money(chouette, lang, amount):
    """An amount a help's words give is written with the language's decimal comma (an
    example's command line keeps what is typed: either is read)."""
    text = " ".join(chouette("--lang", lang, "pay", "--help").stdout.split())
    assert amount in text and "12.50." not in text.replace("pay bob ann 30.00", "")


# ---------------------------------------------------------------- the README's evening

EVENING = [
    "new friday ann bob cat dan --stake 5.00",
    "double bob cat", "drop cat", "beaver bob", "take bob", "status",
    "end box --gammon", "double dan --by member", "take dan", "end team",
    "credit bob 10", "amend 1 --result box --note ann",
    "standings", "sheet", "settle", "settle --message", "rules", "log", "game 1", "night",
    "owed", "ledger", "stats", "check", "pay bob ann 10", "undo", "double ann --by member",
    "undo", "drop zed", "take", "sessions",
]  # fmt: skip
#: The README's tournament, small: its rules card, entries, a draw, a game at one table,
#: the next level, the standings and the end with its places.
TOURNAMENT = [
    "event new fcc --bank 50 --levels 1,2,4 --minutes 45 --entry 20 --payout 50,30,20 "
    "--rules florida-challenge --organiser org",
    "event enter ann bob cat dan eve fay gus hal", "event enter ann", "event draw --seed 7",
    "--session fcc-L1-T1 double eve", "--session fcc-L1-T1 take eve",
    "--session fcc-L1-T1 end box", "event next --seed 11", "event reenter eve",
    "event standings", "event end", "event standings",
]  # fmt: skip
#: Names (the players', the session's and the event's, its tables' ``fcc-L1-T1``, the Jacoby
#: rule's), and the words of command lines the output echoes (the log, a game's events).
NAMES = {"ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal", "org", "zed", "friday", "fcc",
         "l", "t", "utc", "chouette", "jacoby"}  # fmt: skip
COMMAND_WORDS = {"new", "double", "drop", "beaver", "take", "end", "box", "team", "by",
                 "member", "gammon", "single", "accept", "player", "all"}  # fmt: skip
FINGERPRINT = re.compile(r"\b[0-9a-f]*[0-9][0-9a-f]*\b")
#: A command line a sentence names, as it is typed in every language: a command (``chouette
#: rules``, ``chouette --session fcc settle``, ``event reenter eve``), an option, an
#: argument's name (``LEVEL``).
TYPED = re.compile(
    r"\bchouette (--session \S+ )?(event )?[a-z-]+|\bevent [a-z-]+|--[\w-]+|\b[A-Z]{3,}\b"
)
ROOT = Path(__file__).resolve().parents[2]


def words(text: str) -> set[str]:
    """The words of ``text``: runs of Latin letters (``×`` and ``÷`` are no letters)."""
    letters = r"[A-Za-zÀ-ÖØ-öø-ž]+"
    return {w.lower() for w in re.findall(letters, FINGERPRINT.sub(" ", text))}


def the_languages_own(lang: str) -> set[str]:
    """The words ``lang`` writes as English does, found where the language's words are kept,
    never listed here: docs/GLOSSARY.md's column for it (``point``, ``gammon``, Danish
    ``session``), and the words its catalogue's translations write where the English has
    none (a word the translator chose: Danish ``for``, Czech ``a``)."""
    from babel.messages.pofile import read_po

    column = {"cs": 2, "da": 3}[lang]
    table = (ROOT / "docs" / "GLOSSARY.md").read_text(encoding="utf-8").splitlines()
    cells = [row.split("|") for row in table if row.startswith("| ")]
    own = set().union(*(words(cell[column]) for cell in cells if len(cell) > column))
    with (ROOT / "chouette" / "locale" / lang / "LC_MESSAGES" / "chouette.po").open("rb") as po:
        for message in read_po(po, locale=lang):
            english = message.id if isinstance(message.id, tuple | list) else (message.id,)
            told = message.string if isinstance(message.string, tuple | list) else (message.string,)
            placeholders = re.compile(r"\{[^}]*\}|%\([^)]*\)s")
            shared = set().union(*(words(placeholders.sub(" ", e)) for e in english if e))
            for text in told:
                own |= words(placeholders.sub(" ", text or "")) - shared
    return own


JSON_REPORTS = ["status", "standings", "sheet", "settle", "log", "night", "owed", "stats"]


def evening(
    chouette, monkeypatch, tmp_path, lang: str, lines: list[str] = EVENING
) -> tuple[str, list[str]]:
    """The README's evening (or ``lines``) at a terminal speaking ``lang``: all it printed,
    and each report's --json after it."""
    monkeypatch.setenv("CHOUETTE_DB", str(tmp_path / f"{lang}.db"))
    monkeypatch.setenv("CHOUETTE_NOW", "2026-11-27T20:00:00+00:00")
    monkeypatch.setenv("CHOUETTE_LANG", lang)
    said = []
    for line in lines:
        result = chouette(*line.split(), code=None)
        said.append(result.stdout + result.stderr)
    reports = [chouette(*report.split(), "--json").stdout for report in JSON_REPORTS]
    return "\n".join(said), reports


@pytest.mark.slow
@pytest.mark.parametrize("lines", [EVENING, TOURNAMENT], ids=["evening", "tournament"])
@pytest.mark.parametrize("lang", ["da", "cs"])
def test_the_readme_evening_prints_no_english_and_the_same_json(
    chouette, monkeypatch, tmp_path, lang, lines
):
    """Issue 36: the evening (and a tournament) played with the terminal in Danish and in
    Czech writes the same --json as in English, and no English word but names, the command
    lines it echoes and the words the language itself writes as English does
    (:func:`the_languages_own`)."""
    english, english_json = evening(chouette, monkeypatch, tmp_path, "en", lines)
    told, json_told = evening(chouette, monkeypatch, tmp_path, lang, lines)
    assert json_told == english_json
    english, told = TYPED.sub(" ", english), TYPED.sub(" ", told)
    left = words(told) & words(english) - NAMES - COMMAND_WORDS - the_languages_own(lang)
    assert not left, " ".join(sorted(left))


def listed(text: str) -> dict[str, str]:
    """``chouette table``'s list of commands (``help``): each command's summary by name."""
    rows: dict[str, str] = {}
    for line in text.splitlines()[1:]:
        if line.startswith("  ") and not line.startswith("   "):
            name, _, summary = line.strip().partition(" ")
            rows[name] = summary.strip()
        elif rows:
            rows[name] += " " + line.strip()
    return rows


@pytest.mark.parametrize("lang", ["da", "cs"])
def test_the_tables_list_of_commands_is_in_the_readers_words(chouette, lang):
    """``help`` at ``chouette table`` lists every command with its summary in the reader's
    language, whole (Danish ``pr.`` ends no sentence), ``quit`` and ``event`` too."""
    chouette("new", "friday", "ann", "bob", "cat")
    english = listed(chouette("table", input="help\n").stdout)
    told = listed(chouette("--lang", lang, "table", input="help\n").stdout)
    assert told.keys() == english.keys() and {"event", "quit", "standings"} <= told.keys()
    assert [name for name in told if told[name] == english[name]] == []
    assert english["event"].startswith("A chouette tournament: banks, levels")
    summary = {"da": "Point og penge pr. spiller.", "cs": "Body a peníze po hráčích."}[lang]
    assert told["standings"] == summary


def test_a_word_the_language_does_not_own_is_found(chouette, monkeypatch, tmp_path):
    """The check above can fail: English the catalogue has not translated is found."""
    left = words("Regnskabet stemmer: 1 night, 2 spil") - the_languages_own("da")
    assert left == {"night"}


@pytest.mark.parametrize(
    ("lang", "unknown"),
    [
        ("da", "Fejl: der er ingen session ved navn nope (sessioner: friday)\n"),
        ("cs", "Chyba: sezení s názvem nope neexistuje (sezení: friday)\n"),
    ],
)
def test_the_ledgers_refusal_of_a_session_is_said_in_the_readers_language(chouette, lang, unknown):
    chouette("new", "friday", "ann", "bob", "cat")
    assert chouette("--lang", lang, "--session", "nope", "status", code=1).stderr == unknown


@pytest.mark.parametrize(
    ("lang", "stats", "paid"),
    [
        (
            "da",
            "Fejl: zed har ikke spillet noget spil i regnskabet siden 2026-01-01\n",
            "Fejl: zed har ikke spillet i friday (bogfør en betaling i den session",
        ),
        (
            "cs",
            "Chyba: zed v knize od 2026-01-01 nehrál(a) žádnou hru\n",
            "Chyba: zed nehrál v friday (platbu zapište",
        ),
    ],
)
def test_a_player_nobody_knows_is_refused_in_the_readers_language(chouette, lang, stats, paid):
    """A name that is nobody's is refused in whole sentences of the reader's language (the
    reason is no English tail glued after the name)."""
    chouette("new", "friday", "ann", "bob", "cat")
    assert chouette("--lang", lang, "stats", "zed", "--since", "2026-01-01", code=1).stderr == (
        stats
    )
    assert chouette("--lang", lang, "pay", "zed", "ann", "5", code=1).stderr.startswith(paid)
