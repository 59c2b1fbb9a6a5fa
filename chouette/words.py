"""Words a person reads, as values: what chouette says is a :class:`Said` where it arises (an
event's sentence, a reason, a refusal, a note), English words with named placeholders and the
values that fill them; each door renders it in its reader's language (:class:`Words`) when it
shows it. The keeper's terminal may read English while the TV reads Danish and a phone Czech,
from the same values.

What programs read never depends on the language: ``str(said)`` is the English sentence, and
``--json``, CSV and the records use it (or no sentence at all).

Amounts are values too (:class:`Money`): English writes ``1250.00`` as chouette always has,
Danish ``1.250,00`` and Czech ``1 250,00`` (a no-break space between the thousands), each
with its sign where one is asked for (``+6,25``).

The English words are the catalogue's keys (docs/TRANSLATING.md): ``said("…")``,
``said_n("…", "…", n)`` and ``said_in(context, "…")`` are how Babel finds them. A value is
written into the sentence by the reader's words too: a :class:`Said` (a sentence inside a
sentence), :class:`Money`, :class:`Number` (a count grouped as the language groups
thousands), or text (a name, a note: as it is).
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Protocol, TypeAlias


class Translator(Protocol):
    """The words of a language (a :class:`gettext.GNUTranslations` read from a catalogue by
    the caller; the rules never read one themselves): every text a page shows goes through
    it, by the English words as the key."""

    def gettext(self, message: str, /) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int, /) -> str: ...

    def pgettext(self, context: str, message: str, /) -> str: ...


#: English, the words as written: the language of every text unless another is given.
ENGLISH: Translator = gettext.NullTranslations()


def marked(message: str) -> str:
    """``message`` as it is: marks English words a catalogue translates where they are used
    (by :meth:`Translator.gettext`), not where they are written."""
    return message


def marked_in(context: str, message: str) -> str:
    """``message`` as it is: :func:`marked`, for words a catalogue translates in ``context``
    (by :meth:`Translator.pgettext`)."""
    return message


#: The languages chouette speaks, by their code, in their own words.
LANGUAGES = {"en": "English", "da": "Dansk", "cs": "Čeština"}


def check_language(text: str) -> str:
    """A language chouette speaks, by its code (``da``, ``cs``, ``en``; ``da-DK`` is ``da``)."""
    from chouette.errors import ChouetteError

    code = text.strip().lower().replace("_", "-").split("-", 1)[0]
    if code not in LANGUAGES:
        known = ", ".join(f"{c} ({name})" for c, name in LANGUAGES.items())
        raise ChouetteError(
            said(
                "{language} is not a language chouette speaks: {known}",
                language=repr(text[:20]),
                known=known,
            )
        )
    return code


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


@dataclass(frozen=True, slots=True)
class Money:
    """An amount in cents, written as the reader's language writes money (``sign``: with its
    ``+`` when above zero)."""

    cents: int
    sign: bool = False


@dataclass(frozen=True, slots=True)
class Number:
    """A whole number written with the thousands grouped as the reader's language does
    (``12,500`` in English, ``12.500`` in Danish, ``12 500`` in Czech)."""

    value: int


@dataclass(frozen=True, slots=True)
class Fixed:
    """A number with ``places`` decimals (an engine's equity, ``+0.105``) written with the
    reader's decimal sign (``+0,105`` in Danish and Czech); ``sign``: with its ``+`` above
    zero."""

    value: Decimal
    places: int = 3
    sign: bool = False


@dataclass(frozen=True, slots=True)
class Said:
    """A sentence to say: ``text`` (English, with ``{name}`` placeholders; the catalogue's key,
    with ``plural`` for a sentence whose form follows ``count``, and ``context`` where the same
    English says different things) and the ``values`` that fill it."""

    text: str
    values: tuple[tuple[str, Any], ...] = ()
    plural: str | None = None
    count: int = 1
    context: str | None = None

    def __str__(self) -> str:
        return ENGLISH_WORDS(self)

    @property
    def named(self) -> dict[str, Any]:
        """The values by their names."""
        return dict(self.values)


def said(text: str, /, **values: Any) -> Said:
    """``text`` (English, the catalogue's key) with ``values`` for its ``{placeholders}``."""
    return Said(text, tuple(values.items()))


def said_n(singular: str, plural: str, count: int, /, **values: Any) -> Said:
    """A sentence whose form follows ``count`` (``{n}`` holds it, grouped as the reader's
    language groups thousands, unless ``values`` gives ``n`` itself)."""
    values.setdefault("n", Number(count))
    return Said(singular, tuple(values.items()), plural, count)


def said_in(context: str, text: str, /, **values: Any) -> Said:
    """``text`` in ``context``: the same English that another context translates otherwise
    (``"out"`` of a cube, ``"out"`` of the line)."""
    return Said(text, tuple(values.items()), context=context)


@dataclass(frozen=True, slots=True)
class Joined:
    """Several things said one after another, ``separator`` between them (names in a list;
    sentences one after another): each in the reader's words."""

    parts: tuple[Any, ...]
    separator: str = ", "

    def __str__(self) -> str:
        return ENGLISH_WORDS(self)


#: What may be said: a sentence, sentences joined, or text shown as it is (a name, a note, a
#: file's own words).
Sayable: TypeAlias = Said | Joined | str


def joined(parts: Iterable[Any], separator: str = ", ") -> Joined:
    """:class:`Joined` ``parts``."""
    return Joined(tuple(parts), separator)


@dataclass(frozen=True)
class Style:
    """How a language writes numbers: its decimal sign, what groups the thousands of a count,
    and whether money's thousands are grouped too."""

    decimal: str
    group: str
    money_grouped: bool


#: English writes money as chouette always has (``1250.00``: tables and scripts read it so).
STYLES: Mapping[str, Style] = {
    "en": Style(".", ",", False),
    "da": Style(",", ".", True),
    "cs": Style(",", "\u00a0", True),
}


class Words:
    """A reader's language: its catalogue (``tr``, a :class:`~chouette.text.Translator`) and
    its way with numbers. Calling it renders anything that can be said."""

    def __init__(self, code: str, tr: Translator = ENGLISH) -> None:
        self.code = code
        self.tr = tr
        self.style = STYLES.get(code, STYLES["en"])

    def __repr__(self) -> str:
        return f"Words({self.code!r})"

    # A Translator itself, so that what takes one (the page, the rules card) takes words.
    def gettext(self, message: str, /) -> str:
        return self.tr.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int, /) -> str:
        return self.tr.ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str, /) -> str:
        return self.tr.pgettext(context, message)

    def __call__(self, what: Any) -> str:
        """``what`` in these words: a :class:`Said`, :class:`Money`, :class:`Number`, or
        anything else as its text."""
        if isinstance(what, str):
            return what
        if isinstance(what, Said):
            return self._say(what)
        if isinstance(what, Joined):
            return what.separator.join(self(part) for part in what.parts)
        if isinstance(what, Money):
            return self.money(what.cents, sign=what.sign)
        if isinstance(what, Number):
            return self.number(what.value)
        if isinstance(what, Fixed):
            text = f"{what.value:{'+' if what.sign else ''}.{what.places}f}"
            return text.replace(".", self.style.decimal)
        return str(what)

    def _say(self, what: Said) -> str:
        if what.plural is not None:
            template = self.tr.ngettext(what.text, what.plural, what.count)
        elif what.context is not None:
            template = self.tr.pgettext(what.context, what.text)
        else:
            template = self.tr.gettext(what.text)
        if not what.values:
            return template.replace("{{", "{").replace("}}", "}") if "{" in template else template
        return template.format_map({name: self(value) for name, value in what.values})

    def number(self, value: int) -> str:
        """A count, its thousands grouped (``12,500``; ``12.500``; ``12 500``)."""
        text = f"{value:,}"
        return text if self.style.group == "," else text.replace(",", self.style.group)

    def money(self, cents: int, *, sign: bool = False) -> str:
        """``12345`` as ``123.45`` (Danish ``123,45``; ``1.250,00`` past a thousand); with
        ``sign``, a ``+`` above zero."""
        whole, part = divmod(abs(cents), 100)
        style = self.style
        digits = self.number(whole) if style.money_grouped else str(whole)
        text = f"{digits}{style.decimal}{part:02d}"
        if cents < 0:
            return "-" + text
        if sign and cents > 0:
            return "+" + text
        return text


#: English: the words as written, money as chouette has always written it.
ENGLISH_WORDS = Words("en")

#: A cell of a table that is a number as English writes one (``-12.50``, ``+0.105``,
#: ``3 → +2``).
NUMBER = re.compile(r"^[+-]?\d+(\.\d+)?( → [+-]?\d+)?$")


def number_cell(words: Words) -> re.Pattern[str]:
    """A cell that is a number, as ``words`` writes one (Danish ``+1.250,00``)."""
    style = words.style
    if style.decimal == "." and not style.money_grouped:
        return NUMBER
    group = f"(?:{re.escape(style.group)}\\d{{3}})*" if style.money_grouped else ""
    return re.compile(rf"^[+-]?\d+{group}(?:{re.escape(style.decimal)}\d+)?( → [+-]?\d+)?$")


def heading(words: Words, what: Any) -> str:
    """A table's heading in ``words``: English words (``marked`` where the table is made),
    translated by the catalogue; or anything else that can be said (a player's name as it
    is, a :class:`Said`)."""
    if type(what) is str:
        return words.gettext(what) if what else what
    return words(what)


def alignment(rows: Sequence[Sequence[str]], words: Words) -> list[str]:
    """How each column of a table of these cells (as shown) is aligned: right where every
    filled cell is a number (:func:`number_cell`), else left; none for a table of no rows."""
    number = number_cell(words)
    return [
        "right" if any(cells) and all(number.match(c) for c in cells if c) else "left"
        for cells in zip(*rows, strict=True)
    ]


class Hearer(Protocol):
    """Who hears what a command says, and renders it in their own words: the terminal that
    typed it, or the page that posted it (``chouette serve``). A command says sentences and
    tables as values; it never writes to a stream itself."""

    @property
    def words(self) -> Words:
        """The reader's language."""
        ...

    def say(self, what: Sayable, *, err: bool = False) -> None:
        """A line (or lines) for a person: on standard error (``err``) a note, a warning or
        an error."""
        ...

    def table(
        self, headers: Sequence[Sayable], rows: Iterable[Sequence[Any]], *, tint: Any = None
    ) -> None:
        """A table for a person: its headings, and rows of cells (text, :class:`Money`,
        :class:`Said`); ``tint``: how a terminal colours its rows."""
        ...

    def write(self, text: str) -> None:
        """Text for a program (JSON, CSV), as it is, in every language."""
        ...


def reason_of(err: BaseException, text: Callable[[BaseException], str] = str) -> Sayable:
    """Why ``err`` was raised, to be said in the reader's words: a
    :class:`~chouette.errors.ChouetteError`'s words, or the words a :class:`TypeError` or
    :class:`ValueError` was raised with where chouette reads a stored value
    (``TypeError(said("a line is a JSON object"))``); else ``text`` of the error (Python's
    own words, as they are)."""
    from chouette.errors import ChouetteError

    if isinstance(err, ChouetteError):
        found: Sayable = err.said
        return found
    if len(err.args) == 1 and isinstance(err.args[0], Said | Joined):
        return err.args[0]
    return text(err)


# ---------------------------------------------------------------- kept as data

#: How deep a sentence kept as data may nest sentences inside it.
MOST_NESTED = 8
_PLACEHOLDER = re.compile(r"[a-z_]+")


def as_data(what: Any) -> Any:
    """What is said, as JSON data a ledger keeps (the words' keys and their values, never a
    language's sentence): :func:`from_data` reads it back, to be said in a reader's words.
    Text is kept as it is; a whole number as a number."""
    if isinstance(what, Said):
        data: dict[str, Any] = {
            "said": what.text,
            "values": {name: as_data(value) for name, value in what.values},
        }
        if what.plural is not None:
            data["plural"], data["count"] = what.plural, what.count
        if what.context is not None:
            data["context"] = what.context
        return data
    if isinstance(what, Joined):
        return {"joined": [as_data(part) for part in what.parts], "separator": what.separator}
    if isinstance(what, Money):
        return {"money": what.cents, "sign": what.sign}
    if isinstance(what, Number):
        return {"number": what.value}
    if isinstance(what, int) and not isinstance(what, bool):
        return what
    return str(what)


def from_data(data: Any, depth: int = 0) -> Any:
    """What :func:`as_data` kept, to be said again; a :class:`ValueError` for anything else
    (a damaged or foreign entry: its placeholders must be named, lower case, and filled, so
    that saying it in any language cannot fail)."""
    if isinstance(data, str) or (isinstance(data, int) and not isinstance(data, bool)):
        return data
    if not isinstance(data, dict) or depth > MOST_NESTED:
        raise ValueError("not words kept as data")
    if set(data) <= {"said", "values", "plural", "count", "context"} and "said" in data:
        values = data.get("values", {})
        plural, count, context = data.get("plural"), data.get("count", 1), data.get("context")
        if not isinstance(values, dict) or not isinstance(data["said"], str):
            raise ValueError("a sentence kept as data has no text or values")
        if plural is not None and not isinstance(plural, str):
            raise ValueError("a sentence's plural is not text")
        if not isinstance(count, int) or isinstance(count, bool):
            raise ValueError("a sentence's count is not a number")
        if context is not None and not isinstance(context, str):
            raise ValueError("a sentence's context is not text")
        kept = {name: from_data(value, depth + 1) for name, value in values.items()}
        for text in (data["said"], plural or ""):
            _check_placeholders(text, kept)
        return Said(data["said"], tuple(kept.items()), plural, count, context)
    if set(data) == {"joined", "separator"} and isinstance(data["joined"], list):
        if not isinstance(data["separator"], str):
            raise ValueError("a list kept as data has no separator")
        return Joined(
            tuple(from_data(part, depth + 1) for part in data["joined"]), data["separator"]
        )
    if set(data) == {"money", "sign"}:
        cents, sign = data["money"], data["sign"]
        if isinstance(cents, int) and not isinstance(cents, bool) and isinstance(sign, bool):
            return Money(cents, sign)
    if set(data) == {"number"}:
        value = data["number"]
        if isinstance(value, int) and not isinstance(value, bool):
            return Number(value)
    raise ValueError("not words kept as data")


def _check_placeholders(text: str, values: Mapping[str, Any]) -> None:
    import string

    try:
        fields = list(string.Formatter().parse(text))
    except ValueError as err:
        raise ValueError(f"a sentence kept as data is malformed: {err}") from None
    for _, name, spec, conversion in fields:
        if name is None:
            continue
        if not _PLACEHOLDER.fullmatch(name) or spec or conversion or name not in values:
            raise ValueError("a sentence kept as data has a placeholder it does not fill")
