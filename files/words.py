"""The catalogues of the languages chouette speaks (:data:`chouette.words.LANGUAGES`), read
from ``chouette/locale`` with the standard library's :mod:`gettext`: both doors, the terminal
and the pages, render what chouette says in a reader's words from them.

The catalogues are made and kept with Babel (docs/TRANSLATING.md); reading them needs nothing
but Python. English is the words as the code writes them: no catalogue is read for it.
"""

from __future__ import annotations

import gettext
from functools import cache
from pathlib import Path

import chouette
from chouette.words import ENGLISH, ENGLISH_WORDS, Translator, Words

DOMAIN = "chouette"
LOCALE = Path(chouette.__file__).with_name("locale")


@cache
def translation(lang: str) -> Translator:
    """The catalogue of ``lang`` (English for ``en``)."""
    if lang == "en":
        return ENGLISH
    found: Translator = gettext.translation(DOMAIN, localedir=LOCALE, languages=[lang])
    return found


@cache
def words(lang: str) -> Words:
    """The words of ``lang``: its catalogue and its way with numbers."""
    return ENGLISH_WORDS if lang == "en" else Words(lang, translation(lang))
