"""Whose language the terminal speaks: ``--lang``, else ``CHOUETTE_LANG``, else the
environment's (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``, as gettext reads them),
else English; what programs read (``--json``) is the same in every language."""

from __future__ import annotations

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
