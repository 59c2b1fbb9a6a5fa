"""What a command run for a page says, kept as values: the page's command line and buttons run
the CLI's own words (:func:`cli.run_words`, handed to the server, never imported), and the
command says its sentences, tables and data to a :class:`Heard` instead of a terminal. The
page then renders them in its reader's words, and the server's terminal in its own: neither
reads what the other printed, and nothing here touches the standard streams.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from chouette.text import shown, shown_lines
from chouette.words import Hearer, Sayable, Words, alignment, heading

#: What runs a command line in the CLI's words for a hearer, and gives its exit code.
Commands = Callable[[Sequence[str], Hearer], int]


class Heard:
    """A :class:`~chouette.words.Hearer` that keeps what it hears, in order: sentences (and
    whether each was on standard error), tables, and text for programs. ``words`` is the
    language of the page that asked: what the command renders itself (rarely) is in it."""

    def __init__(self, words: Words) -> None:
        self._words = words
        self.items: list[tuple[str, Any]] = []

    @property
    def words(self) -> Words:
        return self._words

    def say(self, what: Sayable, *, err: bool = False) -> None:
        self.items.append(("err" if err else "out", what))

    def table(
        self, headers: Sequence[Sayable], rows: Iterable[Sequence[Any]], *, tint: Any = None
    ) -> None:
        self.items.append(("table", (tuple(headers), [tuple(row) for row in rows])))

    def write(self, text: str) -> None:
        self.items.append(("text", text))

    def add(self, what: Sayable) -> None:
        """Something the server says itself (an error before the command ran)."""
        self.items.append(("err", what))

    def lines(self, words: Words) -> list[str]:
        """What was heard, in ``words``, as the lines a page or a terminal shows (blank lines
        left out)."""
        out: list[str] = []
        for kind, what in self.items:
            if kind == "table":
                out += table_lines(words, *what)
            else:
                text = what if kind == "text" else shown_lines(words(what))
                out += text.splitlines()
        return [line for line in out if line.strip()]


def table_lines(
    words: Words, headers: Sequence[Sayable], rows: Sequence[Sequence[Any]]
) -> list[str]:
    """A table as lines of text in ``words`` (tabulate's ``simple`` format, as the terminal
    writes it)."""
    from tabulate import tabulate  # noqa: TID251 (the page renders its own tables)

    cells = [[shown(words(cell)) for cell in row] for row in rows]
    text = tabulate(
        cells,
        headers=[heading(words, h) for h in headers],
        tablefmt="simple",
        disable_numparse=True,
        colalign=alignment(cells, words) or None,
    )
    return text.splitlines()
