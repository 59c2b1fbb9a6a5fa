"""The tables and JSON the reports print.

cli.py hands a table's cells to tabulate (its ``simple`` table, its ``github`` Markdown);
this oracle says, on its own, what tabulate must then be given: every cell shown safely,
a ``|`` escaped in Markdown, the money tinted on a terminal, and a column right-aligned
when every filled cell of it is a number. JSON is written a few items at a time and must
be the text ``json.dumps`` writes whole."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tabulate import tabulate

import cli
from chouette.text import json_safe, shown
from tests.examples import examples

#: A number as English writes one in a table (the oracle's own, not the CLI's).
NUMBER = re.compile(r"^[+-]?\d+(\.\d\d)?( → [+-]?\d+)?$")


def tabulated(headers, body, fmt, tint, coloured) -> str:
    """What emit printed when it handed the rows to tabulate."""
    style = "github" if fmt is cli.Format.markdown else "simple"
    align = (
        [
            "right" if any(cells) and all(NUMBER.match(c) for c in cells if c) else "left"
            for cells in zip(*body, strict=True)
        ]
        if body
        else None
    )
    headers = [shown(h) for h in headers]
    body = [[shown(cell) for cell in row] for row in body]
    if fmt is cli.Format.markdown:
        headers = [h.replace("|", "\\|") for h in headers]
        body = [[cell.replace("|", "\\|") for cell in row] for row in body]
    if coloured:
        body = [tint(headers, row, row) for row in body]
    return tabulate(body, headers, tablefmt=style, disable_numparse=True, colalign=align) + "\n"


cell_text = st.one_of(
    st.sampled_from(["", "+1.00", "-12.50", "3", "-4 → +2", "0", "1,234.00", "12*"]),
    st.text(
        st.characters(blacklist_categories=("Cs",)) | st.sampled_from(" |\t\x1b\u202e\u3000"),
        max_size=8,
    ),
)


@st.composite
def tables(draw):
    width = draw(st.integers(1, 5))
    headers = draw(
        st.lists(
            st.sampled_from(["player", "money", "points", "balance", "a|b", "at the table"]),
            min_size=width,
            max_size=width,
        )
    )
    body = draw(st.lists(st.lists(cell_text, min_size=width, max_size=width), max_size=12))
    if body and draw(st.booleans()):
        body[-1][0] = "money"  # the sheet's money row, tinted whole
    return headers, body


@settings(max_examples=examples(200), deadline=None)
@given(
    tables(),
    st.sampled_from([cli.Format.table, cli.Format.markdown]),
    st.booleans(),
    st.sampled_from([cli.money_tint, cli.payer_tint]),
)
def test_a_table_is_the_table_tabulate_writes_of_its_cells(table, fmt, coloured, tint):
    headers, body = table
    if tint is cli.payer_tint and len(headers) < 2:
        tint = cli.money_tint
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(cli, "colour", lambda: coloured)
        written = capture(lambda: cli.emit_rows(headers, iter(body), fmt, tint))
    assert written == tabulated(headers, body, fmt, tint, coloured and fmt is cli.Format.table)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=examples(120), deadline=None)
@given(
    st.dictionaries(st.sampled_from(["session", "players", "x\u202ey"]), json_values),
    st.lists(json_values, max_size=6),
)
def test_json_written_item_by_item_is_the_json_written_whole(head, items):
    head.pop("bookings", None)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(cli, "ECHO_LINES", 2)
        streamed = capture(lambda: cli.emit_json_stream(head, "bookings", iter(items)))
    whole = {**head, "bookings": items}
    assert streamed == json_safe(json.dumps(whole, indent=2, ensure_ascii=False)) + "\n"


def capture(write) -> str:
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        write()
    return out.getvalue()
