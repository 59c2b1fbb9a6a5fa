"""The evening as one HTML page (chouette/page.py), pure: :func:`chouette.page.render_report`
on the known evening (``tests/evening.py``), read back with the standard library's HTML
parser; its date in local time and its currency. The ``report`` command is tested in
``tests/cli/test_report_cli.py``, the page in a real browser in
``tests/system/test_page_browser.py``.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from chouette.page import render_report
from chouette.report import GameLine, Standing
from chouette.settlement import Payment
from tests.dom import Node, parse, points_of
from tests.evening import ANN, BOBBY, CAT, DAN, GAMES, PLAYERS, RUNNING, ZOE, evening


@pytest.fixture(scope="module")
def page() -> str:
    return render_report(**evening())


# ---------------------------------------------------------------- the page, pure


def test_the_known_evening_adds_up():
    for _, _, pts, cents in GAMES:
        assert sum(pts.values()) == 0 and sum(cents.values()) == 0
    for p, run in RUNNING.items():
        assert run == [0, *[sum(g[3].get(p, 0) for g in GAMES[:i]) for i in (1, 2, 3)]]


def test_every_name_is_escaped_and_reads_back_exactly(page):
    for name in (BOBBY, CAT, ZOE):
        assert name not in page or name == ZOE  # Zoë needs no escaping; the others do
    assert "<b>" not in page and "&lt;b&gt;cat&lt;/b&gt; &amp; &quot;co&quot;" in page
    dom = parse(page)
    assert not dom.all("b") and not dom.all("script")
    names = [n.text() for n in dom.one(id="standings").all("td", "name")]
    assert sorted(names) == sorted(PLAYERS)
    assert [r.attrs["data-player"] for r in dom.all("tr", "standing")] == names
    assert {p.attrs["data-player"] for p in dom.all("polyline")} == set(PLAYERS)
    heads = [th.text() for th in dom.one(id="sheet").all("th", "player")]
    assert heads == [ANN, BOBBY, CAT, ZOE, DAN]
    assert dom.one("meta", charset="utf-8") is not None


def test_money_is_exact_to_the_cent(page):
    dom = parse(page)
    rows = dom.all("tr", "standing")
    assert [(r.attrs["data-player"], int(r.attrs["data-cents"])) for r in rows] == [
        (ANN, 812),
        (DAN, 0),
        (CAT, -101),  # a tie: in the order they joined
        (ZOE, -101),
        (BOBBY, -610),
    ]
    assert [r.one("td", "balance").text() for r in rows] == [
        "+8.12",
        "0.00",
        "-1.01",
        "-1.01",
        "-6.10",
    ]
    assert [r.all("td", "num")[0].text() for r in rows] == ["+4", "0", "-1", "-1", "-2"]
    paid = [
        (
            r.attrs["data-from"],
            r.attrs["data-to"],
            int(r.attrs["data-cents"]),
            r.all("td")[-1].text(),
        )
        for r in dom.all("tr", "payment")
    ]
    assert sorted(paid) == sorted(
        [(BOBBY, ANN, 610, "6.10"), (ZOE, ANN, 101, "1.01"), (CAT, ANN, 101, "1.01")]
    )
    assert dom.one(id="sum").text() == "0.00"
    assert dom.one("span", "check").attrs["data-clears"] == "true"
    assert dom.one(id="stake").text() == "2.37"
    assert "Zoë Ωmega 1.01" in dom.one("header").text()


def test_the_sheet_has_each_result_and_running_total(page):
    sheet = parse(page).one(id="sheet")
    rows = sheet.all("tr", "game")
    assert [r.attrs["data-game"] for r in rows] == ["1", "2", "3"]
    assert [[td.text() for td in r.all("td")[:3]] for r in rows] == [
        ["1", ANN, BOBBY],
        ["2", ANN, ZOE],
        ["3", ZOE, CAT],
    ]
    for i, (row, (box, captain, pts, cents)) in enumerate(zip(rows, GAMES, strict=True), 1):
        for p in PLAYERS:
            cell = row.one("td", "result", data_player=p)
            if p not in cents:
                assert "idle" in cell.attrs["class"] and cell.text() == ""
                continue
            assert int(cell.attrs["data-cents"]) == cents[p]
            assert int(cell.attrs["data-points"]) == pts[p]
            assert int(cell.attrs["data-running-cents"]) == RUNNING[p][i]
            role = "box" if p == box else "captain" if p == captain else None
            assert (role in cell.attrs["class"].split()) if role else True
    first = rows[0].one("td", data_player=BOBBY)
    assert first.text() == "-9.48 (-4)→ -9.48"
    assert rows[1].one("td", data_player=CAT).one("span", "run").text() == "→ 0.00"
    money = sheet.one("tr", "money")
    assert [td.text() for td in money.all("td", "num")] == [
        "+8.12",
        "-6.10",
        "-1.01",
        "-1.01",
        "0.00",
    ]


def test_every_section_is_there_and_nothing_is_fetched(page):
    dom = parse(page)
    for section in ("standings", "settlement", "chart", "sheet", "rules"):
        assert dom.one("section", id=section).all("h2")
    assert dom.one("svg", id="balance-chart") and dom.one("ul", id="legend")
    rows = dom.one(id="rules").all("tr")
    assert rows[0].attrs["data-rule"] == "stake" and rows[0].one("td").text() == "2.37 a point"
    topics = {r.attrs["data-topic"]: r for r in rows[1:]}
    assert topics["Gammons"].attrs["data-options"] == "jacoby=on jacoby-scope=per-cube"
    assert topics["Cubes"].one("td").text().startswith("Each member has their own cube")
    assert dom.one("head").one("title").text() == "Chouette: friday"
    assert dom.one("header").one("time").attrs["datetime"] == "2026-11-20T23:30:00+00:00"
    # self-contained: no script, no link, no image, no font, no URL to fetch
    assert not any(n.tag in {"script", "link", "img", "iframe", "object"} for n in dom.walk())
    assert not any("src" in n.attrs or "href" in n.attrs for n in dom.walk())
    assert "url(" not in page and "@import" not in page and "@font-face" not in page
    csp = dom.one("meta", http_equiv="Content-Security-Policy").attrs["content"]
    assert "default-src 'none'" in csp and "script-src" not in csp


def test_the_chart_has_a_line_per_player_and_a_point_per_game(page):
    chart = parse(page).one("svg", id="balance-chart")
    lines = chart.all("polyline", "balance")
    assert [p.attrs["data-player"] for p in lines] == PLAYERS
    assert all(len(points_of(p)) == len(GAMES) + 1 for p in lines)
    assert len({p.attrs["stroke"] for p in lines}) == len(PLAYERS)
    legend = parse(page).one(id="legend").all("li")
    assert [(li.attrs["data-player"], int(li.attrs["data-cents"])) for li in legend] == [
        (p, RUNNING[p][-1]) for p in PLAYERS
    ]


def test_the_chart_draws_the_running_balances_to_scale(page):
    chart = parse(page).one("svg", id="balance-chart")
    plot = chart.one("rect", "plot")
    left, top = float(plot.attrs["x"]), float(plot.attrs["y"])
    width, height = float(plot.attrs["width"]), float(plot.attrs["height"])
    low, high = int(chart.attrs["data-low-cents"]), int(chart.attrs["data-high-cents"])
    assert low <= -948 and high >= 1589  # every balance is inside the plot
    for line in chart.all("polyline"):
        player = line.attrs["data-player"]
        assert [int(c) for c in line.attrs["data-cents"].split()] == RUNNING[player]
        for i, ((x, y), cents) in enumerate(zip(points_of(line), RUNNING[player], strict=True)):
            assert x == pytest.approx(left + i * width / len(GAMES), abs=0.01)
            assert y == pytest.approx(top + (high - cents) * height / (high - low), abs=0.01)
    ann = points_of(chart.one("polyline", data_player=ANN))
    zero = chart.one("line", "zero")
    assert ann[0][1] == pytest.approx(float(zero.attrs["y1"]))  # everyone starts at 0
    assert ann[1][1] < ann[2][1] < ann[0][1]  # up 15.89, back to 9.13: still above zero
    assert ann[1][0] < ann[2][0] < ann[3][0]


def test_an_evening_without_games_renders():
    page = render_report(
        **evening(
            lines=[],
            standings=[Standing(p, 0, 0) for p in PLAYERS],
            payments=[],
        )
    )
    dom = parse(page)
    assert [len(points_of(p)) for p in dom.all("polyline", "balance")] == [1] * len(PLAYERS)
    assert "No games finished yet" in dom.one(id="sheet").text()
    assert "No games finished yet" in dom.one(id="chart").text()
    assert "Everyone is square" in dom.one(id="settlement").text()
    assert dom.one(id="sum").text() == "0.00"
    nobody = render_report(**evening(players=[], lines=[], standings=[], payments=[]))
    assert "No players yet." in parse(nobody).one(id="standings").text()


def test_the_club_ledger_names_each_session_and_the_payments_booked():
    lines = [
        GameLine(1, "chouette", ANN, ZOE, {ANN: 2, ZOE: -2}, {ANN: 200, ZOE: -200}, session="fri"),
        GameLine(1, "chouette", ZOE, ANN, {ANN: 1, ZOE: -1}, {ANN: 100, ZOE: -100}, session="sat"),
        GameLine(2, "engine", ZOE, ANN, {ZOE: 1, ANN: -1}, {ZOE: 100, ANN: -100}, session="sat"),
    ]
    # Zoë has paid Ann 1.50 since: the standings show what is left.
    table = [Standing(ANN, 2, 50), Standing(ZOE, -2, -50)]
    page = render_report(
        **evening(
            session=None,
            stake=None,
            rules=None,
            players=[ANN, ZOE],
            lines=lines,
            standings=table,
            payments=[Payment(ZOE, ANN, 50)],
            player_stakes=None,
        )
    )
    dom = parse(page)
    assert dom.one("head").one("title").text() == "Chouette: the club ledger"
    assert [r.attrs["data-session"] for r in dom.all("tr", "game")] == ["fri", "sat", "sat"]
    assert [r.all("td")[1].text() for r in dom.all("tr", "game")] == ["1", "1", "2*"]
    assert [t.text() for t in dom.all("text", "session-label")] == ["fri", "sat"]
    assert "own house rules" in dom.one(id="rules").text()
    ann = dom.one("tr", "standing", data_player=ANN)
    assert [td.text() for td in ann.all("td", "num")] == ["+2", "+2.00", "-1.50", "+0.50"]
    ann = points_of(dom.one("polyline", data_player=ANN))
    assert ann[3][1] == ann[1][1]  # back to +2.00 after game 3: the chart shows play only
    assert dom.one("span", "check").attrs["data-clears"] == "true"


# ---------------------------------------------------------------- the evening's date, currency


PARIS = ZoneInfo("Europe/Paris")
STARTED = datetime(2026, 11, 20, 19, 55, tzinfo=UTC)  # 20:55 in Paris


def timed(*ended: datetime) -> list[GameLine]:
    return [
        GameLine(n, "chouette", box, captain, pts, cents, ended_at=at, session="friday")
        for n, ((box, captain, pts, cents), at) in enumerate(
            zip(GAMES, ended, strict=False), start=1
        )
    ]


def heading(**changes: Any) -> tuple[str, Node]:
    dom = parse(render_report(**evening(**changes)))
    return " ".join(dom.one("header").one("p", "facts").text().split()), dom.one("header")


def test_the_heading_says_when_the_evening_was_played_in_local_time():
    late = [datetime(2026, 11, 20, h, m, tzinfo=UTC) for h, m in ((20, 30), (21, 45), (23, 40))]
    facts, header = heading(
        lines=timed(*late), started_at=STARTED, local=lambda moment: moment.astimezone(PARIS)
    )
    assert facts.startswith("Friday 20 November 2026, 20:55 to 00:40 CET · stake 2.37 a point")
    assert header.one("time", "start").attrs["datetime"] == "2026-11-20T19:55:00+00:00"
    assert header.one("time", "end").attrs["datetime"] == "2026-11-20T23:40:00+00:00"
    assert "generated 2026-11-21 00:30 CET" in facts  # 23:30 UTC, in Paris
    facts, _ = heading(lines=timed(*late), started_at=STARTED)  # no zone given: as stored
    assert facts.startswith("Friday 20 November 2026, 19:55 to 23:40 UTC")


def test_a_session_over_several_days_names_both_days_and_the_club_ledger_its_span():
    ended = [datetime(2026, 11, d, 22, 0, tzinfo=UTC) for d in (20, 21, 22)]
    facts, _ = heading(lines=timed(*ended), started_at=STARTED)
    assert facts.startswith("Friday 20 November 2026, 19:55 to Sunday 22 November 2026, 22:00 UTC")
    facts, _ = heading(lines=[], started_at=STARTED)
    assert facts.startswith("Friday 20 November 2026, 19:55 UTC · stake")
    club = dict(session=None, stake=None, rules=None, player_stakes=None)
    facts, _ = heading(lines=timed(*ended), **club)
    assert facts.startswith("played from Friday 20 November 2026 to Sunday 22 November 2026 · ")
    facts, _ = heading(lines=timed(*ended[:1]), **club)
    assert facts.startswith("played on Friday 20 November 2026 · every session")


def test_a_currency_labels_the_amounts_and_none_leaves_them_bare():
    dom = parse(render_report(**evening(currency="EUR")))
    assert "stake 2.37 EUR a point" in dom.one("header").text()
    assert dom.one(id="currency").text() == "EUR"
    assert [th.text() for th in dom.one(id="standings").all("th")][-1] == "money (EUR)"
    assert [th.text() for th in dom.one(id="settlement").all("th")][-1] == "amount (EUR)"
    assert dom.one(id="rules").all("tr")[0].one("td").text() == "2.37 EUR a point"
    assert dom.one(id="stake").text() == "2.37"  # the numbers themselves stay numbers
    bare = parse(render_report(**evening()))
    assert not bare.all(id="currency") and "EUR" not in bare.text()
    assert [th.text() for th in bare.one(id="standings").all("th")][-1] == "money"
    odd = parse(render_report(**evening(currency='<b>£</b> & "co"')))
    assert odd.one(id="currency").text() == '<b>£</b> & "co"' and not odd.all("b")
