"""Text from users, shown safely: a note, a file name or a name from someone else's file may
hold terminal escape sequences or bidirectional overrides that would rewrite or reorder what
the terminal shows. :func:`shown` writes every such character as an escape (``\\x1b``,
``\\u202e``); :func:`json_safe` does the same inside JSON text, where the escape keeps the
value (``\\u001b``)."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from chouette.errors import ChouetteError
from chouette.words import Said, said

#: Characters that are not plain visible text: controls (C0, DEL, C1), format characters
#: (bidirectional overrides, invisible marks), lone surrogates, line and paragraph
#: separators. The two joiners, which emoji and some scripts need, are left alone.
_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
_JOINERS = frozenset({"\u200c", "\u200d"})


def _hidden(char: str) -> bool:
    return char not in _JOINERS and unicodedata.category(char) in _HIDDEN_CATEGORIES


def _escape(char: str) -> str:
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def shown(text: str) -> str:
    """``text`` as it may be printed on a terminal: one line, every hidden character escaped."""
    if text.isprintable():  # the usual case, in one C call
        return text
    return "".join(_escape(c) if _hidden(c) else c for c in text)


#: The most of a typed value (a name, an amount, a path, a command line) that a message
#: echoes back: a name (at most 80 characters) is echoed whole.
ECHO_LIMIT = 100


def clipped(text: str, limit: int = ECHO_LIMIT) -> str:
    """``text`` as a message echoes it back: whole up to ``limit`` characters; longer, its
    start and its end, with how long it was between them (``xxxx…(10,000 characters)…xx``),
    so that a 1 MB line typed by mistake is never printed back whole."""
    if len(text) <= limit:
        return text
    tail = max(limit // 4, 1)
    return f"{text[: limit - tail]}…({len(text):,} characters)…{text[-tail:]}"


_LONG_WORD = re.compile(rf"\S{{{ECHO_LIMIT + 1},}}")


def clipped_words(message: str) -> str:
    """A message with every run of more than :data:`ECHO_LIMIT` characters without a space
    :func:`clipped`: what the CLI does to every error it prints, for the echoes no source
    clipped (a path, a word of a usage error)."""
    if len(message) <= ECHO_LIMIT:
        return message
    return _LONG_WORD.sub(lambda found: clipped(found.group()), message)


def shown_lines(text: str) -> str:
    """Like :func:`shown`, keeping the line breaks of a message of several lines."""
    return "\n".join(shown(line) for line in text.split("\n"))


def json_safe(encoded: str) -> str:
    """JSON text (``json.dumps(..., ensure_ascii=False)``) with every hidden character written
    as a ``\\uXXXX`` escape: the same JSON value, safe on a terminal. (``json.dumps`` escapes
    the controls below U+0020 itself; the line breaks and indentation it writes stay.)"""
    if encoded.isascii() and "\x7f" not in encoded:
        return encoded
    return "".join(_json_escape(c) if c > "\x7e" and _hidden(c) else c for c in encoded)


def _json_escape(char: str) -> str:
    code = ord(char)
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def check_note(note: str) -> str:
    """A note (of a payment) is free text, shown escaped; but it must be text a database
    keeps: no NUL character, no lone surrogate (bytes that were not UTF-8)."""
    if "\x00" in note or any("\ud800" <= c <= "\udfff" for c in note):
        raise ChouetteError(
            said(
                "the note {note} holds a NUL character or bytes that are not UTF-8 text: write "
                "it again",
                note=repr(clipped(note, 40)),
            )
        )
    return note


class RepeatedKey(ValueError):
    """A key given twice in one JSON object: which of its values would count? (``said``:
    the reason, in the reader's words; ``str()`` of it is the English.)"""

    def __init__(self, key: str) -> None:
        self.said: Said = said("{key} is given twice in one object", key=repr(key))
        super().__init__(str(self.said))
        self.key = key


class NoConstant(ValueError):
    """NaN or Infinity in JSON: no number a ledger keeps (``said``: the reason, in the
    reader's words)."""

    def __init__(self, name: str) -> None:
        self.said: Said = said("{name} is not a number a record can hold", name=name)
        super().__init__(str(self.said))


def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON decoder's ``object_pairs_hook`` that refuses a key given twice."""
    found = dict(pairs)
    if len(found) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise RepeatedKey(key)
            seen.add(key)
    return found


def no_constant(name: str) -> Any:
    """A JSON decoder's ``parse_constant``: NaN and Infinity are no numbers a ledger keeps."""
    raise NoConstant(name)
