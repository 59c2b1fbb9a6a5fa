"""The languages of the pages: English, Danish and Czech (:data:`chouette.words.LANGUAGES`),
their words read from the catalogues both doors use (:mod:`files.words`).

A page's language is the one its reader's browser asks for first (``Accept-Language``) among
these, or the one ``serve --lang`` fixes.
"""

from __future__ import annotations

from chouette.words import LANGUAGES, check_language, from_environment
from files.words import translation, words

__all__ = ["LANGUAGES", "check_language", "from_environment", "negotiate", "translation", "words"]


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
