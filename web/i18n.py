"""The languages of the pages and the HTML report: English, Danish and Czech.

The words are gettext catalogues, ``web/locale/LANG/LC_MESSAGES/chouette.po``, made and kept
with Babel (``pybabel``; docs/TRANSLATING.md says how) and compiled beside them to
``chouette.mo``, which the standard library's :mod:`gettext` reads here: nothing but Python
is needed to show a page in Danish. English is the words as the code writes them.

A page's language is the one its reader's browser asks for first (``Accept-Language``) among
these, or the one ``serve --lang`` fixes; a report's, ``report --lang`` or the language of
the user's environment (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``).
"""

from __future__ import annotations

import gettext
from collections.abc import Mapping
from functools import cache
from pathlib import Path

from chouette.errors import ChouetteError
from chouette.text import ENGLISH, Translator

#: The languages, by their code, in their own words.
LANGUAGES = {"en": "English", "da": "Dansk", "cs": "Čeština"}
DOMAIN = "chouette"
LOCALE = Path(__file__).with_name("locale")


@cache
def translation(lang: str) -> Translator:
    """The words of ``lang`` (English for ``en``)."""
    if lang == "en":
        return ENGLISH
    found: Translator = gettext.translation(DOMAIN, localedir=LOCALE, languages=[lang])
    return found


def check_language(text: str) -> str:
    """A language chouette speaks, by its code (``da``, ``cs``, ``en``; ``da-DK`` is ``da``)."""
    code = text.strip().lower().replace("_", "-").split("-", 1)[0]
    if code not in LANGUAGES:
        known = ", ".join(f"{c} ({name})" for c, name in LANGUAGES.items())
        raise ChouetteError(f"{text[:20]!r} is not a language chouette speaks: {known}")
    return code


def negotiate(header: str | None, default: str = "en") -> str:
    """The language a browser asks for first among chouette's (``Accept-Language``:
    ``da-DK,da;q=0.9,en;q=0.8`` is ``da``); ``default`` if it asks for none of them."""
    wanted: list[tuple[float, int, str]] = []
    for index, part in enumerate((header or "")[:500].split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        code = tag.strip().lower().split("-", 1)[0]
        if code in LANGUAGES and quality > 0:
            wanted.append((-quality, index, code))
    return min(wanted)[2] if wanted else default


def from_environment(environ: Mapping[str, str], default: str = "en") -> str:
    """The language of the user's environment, if chouette speaks it (as gettext looks:
    ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``); else ``default``."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name)
        if value:
            for part in value.split(":"):
                code = part.split(".", 1)[0].replace("_", "-").lower().split("-", 1)[0]
                if code in LANGUAGES:
                    return code
            return default
    return default
