"""``chouette report`` and the reports read back: CSV read by the ``csv`` module to the cent,
the club ledger across two evenings, the HTML page agreeing with the JSON reports, the page's
date and currency, and an earlier file written over only when it is a report."""

from __future__ import annotations

import csv
import io
import time
from typing import Any

import pytest

from chouette.money import parse_money
from files.gnubg import find_gnubg
from tests.dom import parse

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


# ---------------------------------------------------------------- the report's date and currency


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


# ---------------------------------------------------------------- an earlier report


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


@pytest.mark.slow
@pytest.mark.skipif(find_gnubg() is None, reason="gnubg is not installed")
def test_the_shared_report_has_the_review_only_when_asked_for(chouette, tmp_path):
    """A member's review is theirs (issue 38): the page a club shares has it with --review."""
    chouette("new", "friday", "ann", "bob", "cat", "--stake", "5", "--no-beavers", "--no-raccoons")
    chouette("double", "bob", "cat", "--position", "YAAAGAAAAAAAAA")
    chouette("take", "bob")
    chouette("drop", "cat")
    chouette("end", "box")
    plain, reviewed = tmp_path / "plain.html", tmp_path / "reviewed.html"
    chouette("report", "--html", str(plain))
    assert parse(plain.read_text(encoding="utf-8")).all(id="review") == []
    chouette("report", "--html", str(reviewed), "--review")
    dom = parse(reviewed.read_text(encoding="utf-8"))
    decisions = dom.one(id="review").all("tr", "decision")
    assert [
        (r.attrs["data-player"], r.attrs["data-member"], int(r.attrs["data-cents"]))
        for r in decisions
    ] == [("ann", "bob", 0), ("ann", "cat", 0), ("bob", "bob", 500), ("cat", "cat", 0)]
    totals = {r.attrs["data-player"]: int(r.attrs["data-cents"]) for r in dom.all("tr", "reviewed")}
    assert totals == {"bob": 500, "ann": 0, "cat": 0}
    result = chouette("report", "--html", str(tmp_path / "club.html"), "--all", "--review", code=2)
    assert result.stderr == "Error: --review covers one session: leave --all out\n"
