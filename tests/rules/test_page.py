"""The evening as one HTML page, and reports people can read back, trust and share.

Pure tests of :func:`chouette.page.render_report` first (read back with the standard
library's HTML parser), then the settlement laws over real games, then CSV read back by the
``csv`` module, the club ledger across two evenings, the ``report`` command, and last a real
browser (headless Chromium) showing the page and painting the chart.
"""

from __future__ import annotations

import csv
import io
import shutil
import struct
import subprocess
import tempfile
import time
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chouette.money import format_money, parse_money
from chouette.outcome import settle_game
from chouette.page import PLOT_BACKGROUND, render_report
from chouette.report import GameLine, Standing, standings
from chouette.rules import HouseRules
from chouette.settlement import Payment, clears, settle
from tests.examples import examples
from tests.strategies import NAMES, games

# ---------------------------------------------------------------- reading a page back

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}


@dataclass
class Node:
    tag: str
    attrs: dict[str, str]
    children: list[Node | str] = field(default_factory=list)

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def walk(self) -> Iterator[Node]:
        yield self
        for child in self.children:
            if isinstance(child, Node):
                yield from child.walk()

    def all(self, tag: str | None = None, cls: str | None = None, **attrs: str) -> list[Node]:
        """Elements by tag, class and attributes (``data_cents`` for ``data-cents``)."""
        wanted = {k.replace("_", "-"): v for k, v in attrs.items()}
        return [
            n
            for n in self.walk()
            if (tag is None or n.tag == tag)
            and (cls is None or cls in n.attrs.get("class", "").split())
            and all(n.attrs.get(k) == v for k, v in wanted.items())
        ]

    def one(self, tag: str | None = None, cls: str | None = None, **attrs: str) -> Node:
        found = self.all(tag, cls, **attrs)
        assert len(found) == 1, f"{len(found)} elements match {tag} {cls} {attrs}"
        return found[0]


class Tree(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {})
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v or "" for k, v in attrs})
        self.stack[-1].children.append(node)
        if tag not in VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.stack[-1].children.append(Node(tag, {k: v or "" for k, v in attrs}))

    def handle_endtag(self, tag: str) -> None:
        if any(n.tag == tag for n in self.stack[1:]):
            while self.stack.pop().tag != tag:
                pass

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def parse(page: str) -> Node:
    tree = Tree()
    tree.feed(page)
    tree.close()
    return tree.root


def points_of(polyline: Node) -> list[tuple[float, float]]:
    return [
        (float(x), float(y)) for x, y in (p.split(",") for p in polyline.attrs["points"].split())
    ]


# ---------------------------------------------------------------- a known evening

ANN = "ann"
BOBBY = "Robert'); DROP TABLE players;--"
CAT = '<b>cat</b> & "co"'
ZOE = "Zoë Ωmega"
DAN = "dan"  # joined, never played
PLAYERS = [ANN, BOBBY, CAT, ZOE, DAN]
NOW = datetime(2026, 11, 20, 23, 30, tzinfo=UTC)

# Stake 2.37 a point (odd cents); Zoë plays for 1.01. (box, captain, points, cents) per game.
GAMES = [
    (ANN, BOBBY, {ANN: 9, BOBBY: -4, ZOE: -4, CAT: -1},
     {ANN: 1589, BOBBY: -948, ZOE: -404, CAT: -237}),
    (ANN, ZOE, {ANN: -4, ZOE: 2, CAT: 1, BOBBY: 1},
     {ANN: -676, ZOE: 202, CAT: 237, BOBBY: 237}),
    (ZOE, CAT, {ZOE: 1, CAT: -1, BOBBY: 1, ANN: -1},
     {ZOE: 101, CAT: -101, BOBBY: 101, ANN: -101}),
]  # fmt: skip
RUNNING = {  # each player's balance before the first game and after each game, in cents
    ANN: [0, 1589, 913, 812],
    BOBBY: [0, -948, -711, -610],
    CAT: [0, -237, 0, -101],
    ZOE: [0, -404, -202, -101],
    DAN: [0, 0, 0, 0],
}


def evening(**changes: Any) -> dict[str, Any]:
    """render_report's arguments for the known evening (``changes`` override)."""
    lines = [
        GameLine(n, "chouette", box, captain, pts, cents, session="friday")
        for n, (box, captain, pts, cents) in enumerate(GAMES, start=1)
    ]
    totals = {p: (sum(g[2].get(p, 0) for g in GAMES), RUNNING[p][-1]) for p in PLAYERS}
    values: dict[str, Any] = {
        "session": "friday",
        "stake": 237,
        "rules": HouseRules(),
        "players": PLAYERS,
        "lines": lines,
        "standings": standings(PLAYERS, totals),
        "payments": settle({p: c for p, (_, c) in totals.items()}),
        "generated_at": NOW,
        "player_stakes": {ZOE: 101},
    }
    return {**values, **changes}


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


# ---------------------------------------------------------------- settlement laws


@settings(max_examples=examples(100), deadline=None)
@given(
    st.lists(games(max_events=20), min_size=1, max_size=4),
    st.fixed_dictionaries({p: st.integers(1, 999) for p in NAMES}),
)
def test_settlement_of_real_evenings_clears_every_cent(played, stakes):
    """Balances from real games at per-player stakes (odd cents; partner splits where the
    house rules give the box a partner), summed over several games."""
    balances: dict[str, int] = {}
    for _, _, game, _ in played:
        outcome = settle_game(game, stakes)
        for player, cents in outcome.cents.items():
            balances[player] = balances.get(player, 0) + cents
    assert sum(balances.values()) == 0
    payments = settle(balances)
    assert clears(balances, payments)
    assert all(p.cents > 0 and p.payer != p.payee for p in payments)
    assert all(balances[p.payer] < 0 < balances[p.payee] for p in payments)
    owed = sum(c for c in balances.values() if c > 0)
    assert sum(p.cents for p in payments) == owed  # money only flows from losers to winners
    n = sum(1 for c in balances.values() if c)
    assert len(payments) <= max(n - 1, 0)


# ---------------------------------------------------------------- reports read back

BOB, CATTY = 'bob "B"', "cat, <the 3rd> & co"
CLI_EVENING = [
    ("new", "friday", "ann", BOB, "Zoë", CATTY, "--stake", "2.37", "--player-stake", "Zoë=1.01"),
    ("double", BOB, "Zoë"),
    ("take", "--all"),
    ("end", "box", "--gammon"),
    ("double", "Zoë", "--by", "member"),
    ("take", "Zoë"),
    ("end", "team"),
    ("deal", BOB, "1"),
    ("end", "box", "--backgammon"),
]


def play_cli_evening(chouette):
    for args in CLI_EVENING:
        chouette(*args)


def read_csv(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_csv_reads_back_to_the_json_numbers_to_the_cent(chouette):
    play_cli_evening(chouette)

    sheet = chouette.json("sheet")
    rows = read_csv(chouette("sheet", "--format", "csv").stdout)
    players = sheet["players"]
    assert players == ["ann", BOB, "Zoë", CATTY]
    *games_rows, points_row, money_row = rows
    assert [int(r["game"]) for r in games_rows] == [g["game"] for g in sheet["games"]]
    for row, game in zip(games_rows, sheet["games"], strict=True):
        assert {p: int(row[p]) for p in players if row[p]} == game["points"]
    assert {p: int(points_row[p]) for p in players} == {
        p: sum(g["points"].get(p, 0) for g in sheet["games"]) for p in players
    }
    money = {p: parse_money(money_row[p]) for p in players}
    assert money == {p: sum(g["cents"].get(p, 0) for g in sheet["games"]) for p in players}
    assert money == {"ann": 812, BOB: -610, "Zoë": -101, CATTY: -101}

    table = chouette.json("standings")["players"]
    rows = read_csv(chouette("standings", "--format", "csv").stdout)
    assert [(r["player"], int(r["points"]), parse_money(r["money"])) for r in rows] == [
        (s["name"], s["points"], s["cents"]) for s in table
    ]

    payments = chouette.json("settle")["payments"]
    rows = read_csv(chouette("settle", "--format", "csv").stdout)
    assert [(r["from"], r["to"], parse_money(r["amount"])) for r in rows] == [
        (p["from"], p["to"], p["cents"]) for p in payments
    ]
    assert sorted(p["cents"] for p in payments) == [101, 101, 610]

    bookings = chouette.json("ledger")["bookings"]
    rows = read_csv(chouette("ledger", "--format", "csv").stdout)
    assert [
        (r["session"], int(r["game"]), r["player"], int(r["points"]), parse_money(r["money"]))
        for r in rows
    ] == [(b["session"], b["game"], b["player"], b["points"], b["cents"]) for b in bookings]
    assert len(rows) == 12 and sum(parse_money(r["money"]) for r in rows) == 0


def by_name(standings_json: Any) -> dict[str, int]:
    return {s["name"]: s["cents"] for s in standings_json["players"]}


def test_the_club_ledger_carries_balances_over_and_forgets_paid_debts(chouette):
    chouette("new", "friday", "ann", "bob", "cat", "--stake", "1.50")
    chouette("end", "box")  # ann +3.00, bob -1.50, cat -1.50
    chouette("new", "saturday", "cat", "bob", "dan", "--stake", "1.50")
    chouette("end", "box")  # cat +3.00, bob -1.50, dan -1.50
    friday = by_name(chouette.json("--session", "friday", "standings"))
    saturday = by_name(chouette.json("--session", "saturday", "standings"))
    club = by_name(chouette.json("standings", "--all"))
    assert (
        club
        == {p: friday.get(p, 0) + saturday.get(p, 0) for p in {*friday, *saturday}}
        == {"ann": 300, "bob": -300, "cat": 150, "dan": -150}
    )
    assert chouette.json("settle", "--all")["payments"] == [
        {"from": "bob", "to": "ann", "cents": 300},
        {"from": "dan", "to": "cat", "cents": 150},
    ]
    assert chouette.json("settle")["payments"] == [  # saturday alone
        {"from": "bob", "to": "cat", "cents": 150},
        {"from": "dan", "to": "cat", "cents": 150},
    ]
    # each game by its session and its number there, as `chouette game N` and the text sheet
    assert [(g["session"], g["game"]) for g in chouette.json("sheet", "--all")["games"]] == [
        ("friday", 1),
        ("saturday", 1),
    ]

    chouette("--session", "friday", "pay", "bob", "ann", "3.00", "--advance")
    assert chouette.json("settle", "--all")["payments"] == [
        {"from": "dan", "to": "cat", "cents": 150}
    ]
    assert by_name(chouette.json("standings", "--all")) == {
        "ann": 0,
        "bob": 0,
        "cat": 150,
        "dan": -150,
    }


def test_report_writes_one_page_that_agrees_with_the_json_reports(chouette, tmp_path):
    """Needs the ``report`` command from report_command.txt pasted into cli.py."""
    play_cli_evening(chouette)
    target = tmp_path / "friday.html"
    out = chouette("report", "--html", str(target)).stdout
    assert out == f"Report for friday written to {target}\n"
    dom = parse(target.read_text(encoding="utf-8"))
    rows = dom.all("tr", "standing")
    assert [(r.attrs["data-player"], int(r.attrs["data-cents"])) for r in rows] == [
        (s["name"], s["cents"]) for s in chouette.json("standings")["players"]
    ]
    paid = [
        {
            "from": r.attrs["data-from"],
            "to": r.attrs["data-to"],
            "cents": int(r.attrs["data-cents"]),
        }
        for r in dom.all("tr", "payment")
    ]
    assert paid == chouette.json("settle")["payments"]
    sheet = chouette.json("sheet")
    assert len(dom.all("tr", "game")) == len(sheet["games"])
    assert [p.attrs["data-player"] for p in dom.all("polyline")] == sheet["players"]
    assert dom.one("header").one("time", "generated").attrs["datetime"] == (
        "2026-11-20T20:00:00+00:00"
    )
    assert dom.one(id="stake").attrs["data-cents"] == "237"

    chouette("new", "saturday", "ann", "dan", "--stake", "1.00")
    chouette("end", "team")
    club = tmp_path / "club.html"
    assert chouette("report", "--html", str(club), "--all").stdout == (
        f"Report for every session written to {club}\n"
    )
    dom = parse(club.read_text(encoding="utf-8"))
    shown = {r.attrs["data-player"]: int(r.attrs["data-cents"]) for r in dom.all("tr", "standing")}
    assert shown == by_name(chouette.json("standings", "--all"))
    assert [r.attrs["data-session"] for r in dom.all("tr", "game")] == ["friday"] * 3 + ["saturday"]


def test_the_reports_stats_agree_with_stats_json_in_the_pages_language(chouette, tmp_path):
    play_cli_evening(chouette)
    target = tmp_path / "fredag.html"
    chouette("report", "--html", str(target), "--lang", "da")
    stats = parse(target.read_text(encoding="utf-8")).one(id="stats")
    assert stats.one("h2").text() == "Statistik"
    assert [th.text() for th in stats.all("th")][:5] == [
        "spiller",
        "spil",
        "boks",
        "kaptajn",
        "mandskab",
    ]
    shown = {
        (row.attrs["data-player"], cell.attrs["data-role"]): (
            int(cell.attrs["data-games"]),
            int(cell.attrs["data-cents"]),
        )
        for row in stats.all("tr", "stat")
        for cell in row.all("td")
        if "data-role" in cell.attrs
    }
    players = chouette.json("stats")["players"]
    assert shown == {
        (p["name"], role): (t["games"], t["net_cents"])
        for p in players
        for role, t in p["roles"].items()
    }
    beats = {(r.attrs["data-player"], r.attrs["data-against"]): int(r.attrs["data-cents"])
             for r in stats.all("tr", "beats")}  # fmt: skip
    assert beats == {
        (p["name"], o["opponent"]): o["cents"]
        for p in players
        for o in p["head_to_head"]
        if o["cents"] > 0 or (o["cents"] == 0 and p["name"] < o["opponent"])
    }
    assert beats["ann", BOB] > 0


def test_the_page_is_the_same_whatever_the_running_balances_kept_in_memory(
    chouette, tmp_path, monkeypatch
):
    """``report`` writes its page in pieces from two looks at the games, keeping the running
    balances between them in memory up to a block per player and the rest in a file: the
    page is the same, byte for byte, when every balance goes to the file."""
    import cli

    play_cli_evening(chouette)
    chouette("new", "saturday", "ann", "dan", "--stake", "1.00")
    chouette("end", "team")
    chouette("pay", "dan", "ann", "1.00", "--advance")
    default = cli.FileRuns.BLOCK
    for scope in (["--session", "friday"], []):
        every = [] if scope else ["--all"]
        pages = []
        for block in (default, 1):
            monkeypatch.setattr(cli.FileRuns, "BLOCK", block)
            target = tmp_path / f"page-{block}.html"
            chouette(*scope, "report", "--html", str(target), *every)
            pages.append(target.read_text(encoding="utf-8"))
        assert pages[0] == pages[1]
        assert len(parse(pages[0]).all("polyline")) == len(
            chouette.json(*scope, "sheet", *every)["players"]
        )


# ---------------------------------------------------------------- a real browser

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--force-device-scale-factor=1",
]


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None and Path("/usr/bin/chromium").exists():
        found = "/usr/bin/chromium"
    if found is None:
        pytest.fail(
            "Chromium is not installed: this test opens the HTML report in a real browser. "
            "Install it (Debian/Ubuntu: apt-get install -y chromium) or deselect with "
            "-m 'not slow'.",
            pytrace=False,
        )
    return found


def run_chromium(*args: str) -> subprocess.CompletedProcess[bytes]:
    with tempfile.TemporaryDirectory(prefix="chouette-chromium-") as profile:
        done = subprocess.run(
            [chromium(), *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args],
            capture_output=True,
            timeout=120,
            check=False,
        )
    if done.returncode != 0:
        pytest.fail(f"chromium failed ({done.returncode}): {done.stderr.decode()[-2000:]}")
    return done


def decode_png(data: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and rows of RGB bytes of an 8-bit RGB or RGBA PNG (standard library)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, chunks, header = 8, [], (0, 0, 0, 0, 0, 0, 0)
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            chunks.append(body)
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and colour in (2, 6) and not interlace, f"unexpected PNG {header}"
    bpp = 3 if colour == 2 else 4
    raw, stride = zlib.decompress(b"".join(chunks)), width * bpp
    rows, prev = [], bytearray(stride)
    for r in range(height):
        kind, line = (
            raw[r * (stride + 1)],
            bytearray(raw[r * (stride + 1) + 1 : (r + 1) * (stride + 1)]),
        )
        for i in range(stride) if kind else ():
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + b) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + ((a + b) >> 1)) & 0xFF
            else:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        rows.append(bytes(line) if bpp == 3 else bytes(b for i, b in enumerate(line) if i % 4 != 3))
        prev = line
    return width, height, rows  # fmt: skip


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


def test_report_dates_the_page_in_local_time_and_takes_a_currency(chouette, tmp_path, monkeypatch):
    monkeypatch.setenv("TZ", "America/St_Johns")  # UTC-03:30 in November
    time.tzset()
    try:
        play_cli_evening(chouette)
        target = tmp_path / "friday.html"
        chouette("report", "--html", str(target), "--currency", "CAD")
        dom = parse(target.read_text(encoding="utf-8"))
        facts = " ".join(dom.one("header").one("p", "facts").text().split())
        assert facts.startswith("Friday 20 November 2026, 16:30 NST · stake 2.37 CAD a point")
        assert "generated 2026-11-20 16:30 NST" in facts
        monkeypatch.setenv("CHOUETTE_CURRENCY", "€")
        chouette("report", "--html", str(target))
        assert parse(target.read_text(encoding="utf-8")).one(id="currency").text() == "€"
    finally:
        monkeypatch.undo()
        time.tzset()


@pytest.mark.parametrize("currency", ["", " ", "EUROS-AND-CENTS", "E\x1bUR"])
def test_a_currency_that_is_no_label_is_refused(chouette, tmp_path, currency):
    chouette("new", "friday", "ann", "bob")
    target = tmp_path / "friday.html"
    refused = chouette("report", "--html", str(target), "--currency", currency, code=2)
    assert refused.stderr.startswith("Error: --currency: ") and "is no currency" in refused.stderr
    assert not target.exists()


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


def test_a_report_writes_over_an_earlier_report_and_nothing_else_without_force(chouette, tmp_path):
    chouette("new", "fri", "ann", "bob")
    page = tmp_path / "index.html"
    page.write_text("<html>the club's home page</html>")
    result = chouette("report", "--html", str(page), code=1)
    assert "is not a file chouette report wrote: nothing was written" in result.stderr
    assert page.read_text() == "<html>the club's home page</html>"
    chouette("report", "--html", str(page), "--force")
    chouette("report", "--html", str(page))  # its own earlier page: replaced
    assert '<meta name="generator" content="chouette">' in page.read_text()
