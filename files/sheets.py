"""A report as a spreadsheet (``--format xlsx --output FILE``), written with openpyxl (the
``xlsx`` extra): one sheet a table, amounts as numbers in the money format, points as
whole numbers, and every other cell (players' names above all) as text, never a formula: a
name that starts with ``=`` is written as the text it is.

:class:`Workbook` hears a command as a terminal would (:class:`chouette.words.Hearer`): the
command lays out its tables as for a terminal, and each becomes a sheet, named by the line
said just before it (``t1: 2 games; …`` names its sheet ``t1``), else by the command. What
else the command says goes on a last sheet, ``notes``. Errors go on to the terminal.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Sequence
from decimal import Decimal
from pathlib import Path
from typing import Any

from chouette.errors import ChouetteError
from chouette.words import Hearer, Money, Number, Sayable, Words, heading, said
from files.whole import reason, write_whole

#: The money formats: an amount, and an amount with its sign (a balance).
MONEY, SIGNED = "#,##0.00", "+#,##0.00;-#,##0.00;0.00"
#: Headings whose whole numbers are numbers (the others, names above all, stay text).
NUMERIC = frozenset({"points", "game", "games"})
WHOLE = re.compile(r"[+-]?\d{1,15}")
#: What a sheet's name may not hold (Excel's rule), and its length.
NOT_IN_A_NAME = re.compile(r"[\[\]:*?/\\]")
LONGEST_NAME = 31


def _openpyxl() -> Any:
    try:
        import openpyxl
    except ImportError:
        raise ChouetteError(
            said(
                "--format xlsx needs the openpyxl library, which is not installed: in "
                "chouette's clone, with the pip that installed chouette, pip install '.[xlsx]'"
            )
        ) from None
    return openpyxl


class Workbook:
    """A :class:`~chouette.words.Hearer` that keeps a command's tables as sheets (errors are
    said to ``passed``: the terminal)."""

    def __init__(self, passed: Hearer, name: str) -> None:
        self.passed = passed
        self.name = name
        self.tables: list[tuple[str, list[Any], list[list[Any]]]] = []
        self.notes: list[str] = []
        self._title: str | None = None

    @property
    def words(self) -> Words:
        return self.passed.words

    def say(self, what: Sayable, *, err: bool = False) -> None:
        if err:
            self.passed.say(what, err=err)
            return
        text = self.words(what)
        if text.strip():
            if self._title is not None:
                self.notes.append(self._title)
            self._title = text

    def table(
        self, headers: Sequence[Sayable], rows: Iterable[Sequence[Any]], *, tint: Any = None
    ) -> None:
        del tint
        title = self.name if self._title is None else self._title
        self._title = None
        self.tables.append((title, list(headers), [list(r) for r in rows]))

    def write(self, text: str) -> None:
        self.passed.write(text)

    def saved(self, target: Path) -> int:
        """The workbook written whole to ``target``; how many sheets it has."""
        if self._title is not None:
            self.notes.append(self._title)
            self._title = None
        book = _openpyxl().Workbook()
        book.remove(book.active)
        for title, headers, rows in self.tables:
            _sheet(book.create_sheet(sheet_name(title, self.name)), headers, rows, self.words)
        if self.notes:
            notes = book.create_sheet("notes")
            for line in self.notes:
                notes.append([_text(line)])
        if not self.tables:
            book.create_sheet(self.name)
        out = io.BytesIO()
        book.save(out)
        try:
            write_whole(target, out.getvalue(), private=False)
        except OSError as err:
            raise ChouetteError(
                said("cannot write {file}: {reason}", file=str(target), reason=reason(err))
            ) from None
        return len(book.sheetnames)


def sheet_name(title: str, default: str) -> str:
    """A sheet's name from the line said before its table: up to its first ``:`` or ``,``,
    without what Excel refuses, at most 31 characters."""
    name = NOT_IN_A_NAME.sub("", re.split(r"[:,(]", title, maxsplit=1)[0]).strip()
    return (name or default)[:LONGEST_NAME].strip() or default


def _sheet(sheet: Any, headers: Sequence[Any], rows: Sequence[Sequence[Any]], words: Words) -> None:
    from openpyxl.styles import Font

    sheet.append([_text(heading(words, h)) for h in headers])
    for cell in sheet[1]:
        cell.font = Font(bold=True)
        cell.data_type = "s"
    numeric = [type(h) is not str or h in NUMERIC for h in headers]
    for row in rows:
        sheet.append([_cell(c, words, i < len(numeric) and numeric[i]) for i, c in enumerate(row)])
        for cell, value in zip(sheet[sheet.max_row], row, strict=False):
            if isinstance(value, Money):
                cell.number_format = SIGNED if value.sign else MONEY
            elif isinstance(cell.value, str):
                cell.data_type = "s"  # text, even "=1+1": never a formula
    sheet.freeze_panes = "A2"


def _cell(value: Any, words: Words, numeric: bool) -> Any:
    """A cell's value: money in units (a :class:`~decimal.Decimal`, exact), a count or
    points as a whole number, anything else as the text the reader reads."""
    if isinstance(value, Money):
        return Decimal(value.cents).scaleb(-2)
    if isinstance(value, Number):
        return value.value
    text = value if type(value) is str else words(value)
    if numeric and WHOLE.fullmatch(text):
        return int(text)
    return _text(text)


def _text(text: str) -> str:
    """Text a cell holds: without the control characters XML cannot carry."""
    return "".join(c for c in text if c in "\t\n" or ord(c) >= 32)
