"""What is said, as values (:mod:`chouette.words`): a sentence keeps its English words and its
values apart, and each reader's words render it: the catalogue's sentence, the values written
in, money and counts as the language writes them. ``str()`` is always the English."""

from __future__ import annotations

import gettext

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chouette.errors import ChouetteError, RuleError
from chouette.money import format_money
from chouette.words import (
    ENGLISH_WORDS,
    LANGUAGES,
    Money,
    Number,
    Said,
    Words,
    as_data,
    check_language,
    from_data,
    from_environment,
    joined,
    said,
    said_in,
    said_n,
)


class Catalogue(gettext.NullTranslations):
    """A language of a few sentences, as a catalogue would give them."""

    def __init__(self, found: dict[object, str]) -> None:
        super().__init__()
        self.found = found

    def gettext(self, message: str) -> str:
        return self.found.get(message, message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.found.get((singular, n == 1), singular if n == 1 else plural)

    def pgettext(self, context: str, message: str) -> str:
        return self.found.get((context, message), message)


DANISH = Words(
    "da",
    Catalogue(
        {
            "{player} drops.": "{player} dropper.",
            "Error: {message}": "Fejl: {message}",
            ("{n} game", True): "{n} spil",
            ("{n} game", False): "{n} spil i alt",
            ("cube", "out"): "ude",
        }
    ),
)


def test_a_sentence_is_rendered_in_the_readers_words_and_str_is_english():
    drop = said("{player} drops.", player="cat")
    assert DANISH(drop) == "cat dropper."
    assert str(drop) == ENGLISH_WORDS(drop) == "cat drops."


def test_a_sentence_inside_a_sentence_is_in_the_same_words():
    error = said("Error: {message}", message=said("{player} drops.", player="cat"))
    assert DANISH(error) == "Fejl: cat dropper."
    assert str(error) == "Error: cat drops."


def test_a_count_chooses_the_plural_form_and_is_grouped_as_the_language_groups():
    assert DANISH(said_n("{n} game", "{n} games", 1)) == "1 spil"
    assert DANISH(said_n("{n} game", "{n} games", 12_500)) == "12.500 spil i alt"
    assert str(said_n("{n} game", "{n} games", 12_500)) == "12,500 games"
    assert Words("cs")(Number(12_500)) == "12\u00a0500"


def test_the_same_english_says_different_things_in_its_context():
    assert DANISH(said_in("cube", "out")) == "ude"
    assert DANISH(said("out")) == "out"


def test_text_is_shown_as_it_is_whatever_the_language():
    assert DANISH("{player}") == "{player}"
    assert DANISH(said("{player} drops.", player="{n}")) == "{n} dropper."


@pytest.mark.parametrize(
    ("code", "cents", "sign", "text"),
    [
        ("en", 125050, False, "1250.50"),
        ("en", 625, True, "+6.25"),
        ("da", 625, True, "+6,25"),
        ("da", -125050, False, "-1.250,50"),
        ("cs", 125050, True, "+1\u00a0250,50"),
        ("cs", 0, True, "0,00"),
        ("da", -5, False, "-0,05"),
    ],
)
def test_money_is_written_as_the_language_writes_it(code, cents, sign, text):
    assert Words(code)(Money(cents, sign)) == text


@given(st.integers(-(10**15), 10**15), st.booleans())
def test_english_money_is_written_as_chouette_always_wrote_it(cents, sign):
    assert ENGLISH_WORDS(Money(cents, sign)) == format_money(cents, sign=sign)


@given(st.integers(-(10**15), 10**15), st.sampled_from(["da", "cs"]))
def test_money_in_danish_and_czech_keeps_every_cent(cents, code):
    """Written with a decimal comma and grouped thousands, the amount read back is the same."""
    text = Words(code)(Money(cents))
    whole, _, part = text.lstrip("-").partition(",")
    digits = whole.replace(".", "").replace("\u00a0", "")
    assert int(digits) * 100 + int(part) == abs(cents) and len(part) == 2
    assert text.startswith("-") == (cents < 0)


def test_things_joined_are_each_in_the_readers_words():
    both = joined([said("{player} drops.", player="bob"), "eve"], "; ")
    assert DANISH(both) == "bob dropper.; eve"
    assert str(both) == "bob drops.; eve"


def test_an_error_keeps_what_it_says_as_a_value():
    error = RuleError(said("{player} drops.", player="cat"))
    assert isinstance(error.said, Said) and DANISH(error.said) == "cat dropper."
    assert str(error) == "cat drops."
    assert ChouetteError("plain text").said == "plain text"


@pytest.mark.parametrize(
    ("environ", "code"),
    [
        ({"LANG": "da_DK.UTF-8"}, "da"),
        ({"LANGUAGE": "de:cs", "LANG": "da_DK.UTF-8"}, "cs"),
        ({"LC_ALL": "C"}, "en"),
        ({}, "en"),
    ],
)
def test_the_environment_names_the_terminals_language(environ, code):
    assert from_environment(environ) == code


def test_a_language_is_one_chouette_speaks():
    assert {check_language(c) for c in ("da-DK", "CS", "en_GB")} == {"da", "cs", "en"}
    assert set(LANGUAGES) == {"en", "da", "cs"}
    with pytest.raises(ChouetteError, match="not a language chouette speaks"):
        check_language("de")


def test_words_kept_as_data_are_said_again_in_any_language():
    """A journal keeps what was done as words and values (``as_data``), never a language's
    sentence: read back (``from_data``), it is said as it was, in each reader's words."""
    told = said(
        "{payer} paid {payee} {amount}",
        payer="bob",
        payee="ann",
        amount=Money(150, sign=True),
    )
    kept = said_n("{n} game", "{n} games", 2, also=joined([said_in("kind", "gammon"), Number(3)]))
    for what in (told, kept, "as typed", 7):
        assert from_data(as_data(what)) == what


@pytest.mark.parametrize(
    "data",
    [
        {"said": "{payer} paid", "values": {}},
        {"said": "{payer.__class__} paid", "values": {"payer": "bob"}},
        {"said": "{payer!r} paid", "values": {"payer": "bob"}},
        {"said": "{payer:>99999} paid", "values": {"payer": "bob"}},
        {"said": "{0} paid", "values": {"0": "bob"}},
        {"said": "paid {", "values": {}},
        {"said": 3, "values": {}},
        {"money": "1.50", "sign": False},
        {"number": True},
        ["bob"],
        None,
        {"said": "x", "values": {"a": {"said": "x", "values": {"a": 1}}}, "extra": 1},
    ],
)
def test_words_kept_as_data_that_are_damaged_are_refused_never_said(data):
    with pytest.raises(ValueError):
        from_data(data)


def test_words_nested_too_deep_are_refused():
    data: object = "bob"
    for _ in range(20):
        data = {"said": "{a}", "values": {"a": data}}
    with pytest.raises(ValueError):
        from_data(data)
