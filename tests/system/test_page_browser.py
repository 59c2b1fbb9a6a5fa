"""The evening's HTML page in a real browser (headless Chromium): the DOM it builds, the chart
it paints, and the page printed to PDF with the sheet's heading on every page, names never
broken inside a word, and the house rules never alone on a page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from chouette.money import format_money
from chouette.page import PLOT_BACKGROUND, render_report
from chouette.report import GameLine, standings
from chouette.settlement import settle
from tests.chromium import decode_png, run_chromium
from tests.dom import parse
from tests.evening import ANN, BOBBY, CAT, DAN, GAMES, PLAYERS, RUNNING, ZOE, evening


@pytest.mark.slow
def test_a_browser_shows_the_page_and_paints_the_chart(tmp_path):
    """Open the page in headless Chromium: the DOM it builds, and a screenshot of it."""
    page = tmp_path / "evening.html"
    page.write_text(render_report(**evening()), encoding="utf-8")
    url = page.as_uri()

    # What the browser built from the page: the same names, numbers and chart.
    dom = parse(run_chromium("--dump-dom", url).stdout.decode("utf-8"))
    assert dom.one("head").one("title").text() == "Chouette: friday"
    assert not dom.all("b") and not dom.all("script")
    shown = {
        r.one("td", "name").text(): r.one("td", "balance").text() for r in dom.all("tr", "standing")
    }
    assert shown == {ANN: "+8.12", DAN: "0.00", ZOE: "-1.01", CAT: "-1.01", BOBBY: "-6.10"}
    strokes = {p.attrs["data-player"]: p.attrs["stroke"] for p in dom.all("polyline", "balance")}
    assert list(strokes) == PLAYERS and len(set(strokes.values())) == len(PLAYERS)
    chart = dom.one("svg", id="balance-chart")
    low, high = int(chart.attrs["data-low-cents"]), int(chart.attrs["data-high-cents"])

    # What it paints: inside the plot area, every player's line in their colour, to scale.
    shot = tmp_path / "evening.png"
    run_chromium("--window-size=1000,1600", f"--screenshot={shot}", url)
    width, _, rows = decode_png(shot.read_bytes())
    wanted = {bytes.fromhex(c.lstrip("#")): p for p, c in strokes.items()}
    background = bytes.fromhex(PLOT_BACKGROUND.lstrip("#"))
    where: dict[str, list[tuple[int, int]]] = {p: [] for p in PLAYERS}
    plot: list[tuple[int, int]] = []
    for y, row in enumerate(rows):
        for x in range(width):
            pixel = row[3 * x : 3 * x + 3]
            if pixel == background:
                plot.append((x, y))
            elif pixel in wanted:
                where[wanted[pixel]].append((x, y))
    assert plot, "the chart's plot area is not on the screenshot"
    left, right = min(x for x, _ in plot), max(x for x, _ in plot)
    top, bottom = min(y for _, y in plot), max(y for _, y in plot)
    assert right - left > 500 and bottom - top > 200, "the chart is drawn too small"
    inside = {
        p: [(x, y) for x, y in spots if left <= x <= right and top <= y <= bottom]
        for p, spots in where.items()
    }
    for player, spots in inside.items():
        assert len(spots) > 150, f"{player}'s line is not painted ({len(spots)} pixels)"
    for player in (ANN, BOBBY, DAN):  # final balances no other line ends on
        ends = [y for x, y in inside[player] if x >= right - 4]
        assert ends, f"{player}'s line does not reach the last game"
        expected = top + (high - RUNNING[player][-1]) * (bottom - top) / (high - low)
        assert abs(sum(ends) / len(ends) - expected) < 5, (player, ends, expected)


@pytest.mark.slow
def test_a_long_evening_prints_with_the_sheets_heading_on_every_page(tmp_path):
    """Print a 120-game evening to PDF in Chromium and read the text of each page back."""
    from pypdf import PdfReader

    rounds = 40
    lines = [
        GameLine(n, "chouette", box, captain, pts, cents, session="friday")
        for n, (box, captain, pts, cents) in enumerate(GAMES * rounds, start=1)
    ]
    totals = {
        p: (sum(g[2].get(p, 0) for g in GAMES) * rounds, RUNNING[p][-1] * rounds) for p in PLAYERS
    }
    page = tmp_path / "long.html"
    page.write_text(
        render_report(
            **evening(
                lines=lines,
                standings=standings(PLAYERS, totals),
                payments=settle({p: c for p, (_, c) in totals.items()}),
            )
        ),
        encoding="utf-8",
    )
    pdf = tmp_path / "long.pdf"
    run_chromium("--no-pdf-header-footer", f"--print-to-pdf={pdf}", page.as_uri())
    pages = [p.extract_text() for p in PdfReader(pdf).pages]

    headings = ["Standings", "Who pays whom", "Running balance", "Score sheet", "House rules"]
    for number, text in enumerate(pages, start=1):
        assert text.strip().splitlines()[-1] not in headings, f"page {number} ends in a heading"
    rules = next(i for i, text in enumerate(pages) if "House rules" in text)
    first = next(i for i, text in enumerate(pages) if "Score sheet" in text)
    last = len(pages) - 1  # the sheet is the last section: its totals close the report
    assert rules == first, "the house rules share their page with the sheet's beginning"
    assert last - first >= 3, "the score sheet should fill several pages"
    header = "GAME BOX CAPTAIN"
    assert header in pages[first].split("Score sheet", 1)[1]
    for number in range(first + 1, last):
        assert pages[number].startswith(header), f"page {number + 1} does not repeat the header"
    # the totals close the sheet once, not at the foot of every page
    money = " ".join(format_money(RUNNING[p][-1] * rounds, sign=True) for p in PLAYERS)
    assert sum(text.count(f"money {money}") for text in pages) == 1
    assert f"money {money}" in pages[last] or f"money {money}" in pages[last - 1]
    standings_page = next(text for text in pages if "Standings" in text)
    assert "sum 0 0.00" in standings_page, "the standings are split across pages"


def print_pages(tmp_path: Path, page: str) -> list[str]:
    """``page`` printed to PDF by Chromium: the text of each printed page."""
    from pypdf import PdfReader

    source, pdf = tmp_path / "page.html", tmp_path / "page.pdf"
    source.write_text(page, encoding="utf-8")
    run_chromium("--no-pdf-header-footer", f"--print-to-pdf={pdf}", source.as_uri())
    return [p.extract_text() for p in PdfReader(pdf).pages]


def played(rounds: int, names: dict[str, str] | None = None) -> dict[str, Any]:
    """render_report's arguments for ``rounds`` games of the known evening (players renamed)."""
    rename = names or {}
    games = [GAMES[i % len(GAMES)] for i in range(rounds)]
    lines = [
        GameLine(
            n,
            "chouette",
            rename.get(box, box),
            rename.get(captain, captain),
            {rename.get(p, p): v for p, v in pts.items()},
            {rename.get(p, p): v for p, v in cents.items()},
            session="friday",
        )
        for n, (box, captain, pts, cents) in enumerate(games, start=1)
    ]
    players = [rename.get(p, p) for p in PLAYERS]
    totals = {
        rename.get(p, p): (sum(g[2].get(p, 0) for g in games), sum(g[3].get(p, 0) for g in games))
        for p in PLAYERS
    }
    return evening(
        players=players,
        lines=lines,
        standings=standings(players, totals),
        payments=settle({p: c for p, (_, c) in totals.items()}),
        player_stakes={rename.get(ZOE, ZOE): 101},
    )


@pytest.mark.slow
def test_printed_names_never_break_inside_a_word(tmp_path):
    """Long names in the box and captain columns, beside wide player columns, wrap only
    between words: every word of a name reads back whole from the printed page."""
    names = {ANN: "Marion Castlebury", BOBBY: "Bartholomew Featherstonehaugh", ZOE: "Zoë Ωmega"}
    pages = print_pages(tmp_path, render_report(**played(12, names)))
    sheet = "\n".join(pages).split("Score sheet", 1)[1]
    words = sheet.split()
    for word, boxes in (("Castlebury", 8), ("Featherstonehaugh", 4), ("Marion", 8)):
        assert words.count(word) >= boxes + 1, (word, words.count(word))  # + its column heading
    for piece in ("Castle", "Feather", "stonehaugh", "Mar", "ion"):
        assert piece not in words, f"a name broke inside a word: {piece!r}"


@pytest.mark.slow
@pytest.mark.parametrize("rounds", [3, 10, 25])
def test_no_printed_page_holds_only_the_house_rules(tmp_path, rounds):
    """At any length of evening (10 games once left the house rules alone on the last page)
    the house rules share their page with the score sheet, which follows them."""
    pages = print_pages(tmp_path, render_report(**played(rounds)))
    on = [i for i, text in enumerate(pages) if "House rules" in text]
    assert len(on) == 1, on
    assert "Score sheet" in pages[on[0]], f"page {on[0] + 1}: no score sheet after the rules"
    assert "standard rules." in pages[on[0]] and "No box partner." in pages[on[0]]
