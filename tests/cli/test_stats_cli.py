"""`chouette stats` at the doors: every player's table and who beats whom, one player's
roles and head to head, --since, --json, refusals; and on the keeper's command line."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from cli import DEMO, run_words
from tests.dump import dump

#: The README's evening (the demo's first two games, without eve): ann +50.00, bob -40.00,
#: cat -5.00, dan -5.00 in game 1 (ann the box, bob the captain); ann -20.00, cat +5.00,
#: dan +10.00, bob +5.00 in game 2 (cat the captain).
EVENING = [line for line in DEMO[: DEMO.index("end team") + 1] if line != "join eve"]


def evening(chouette) -> None:
    for line in EVENING:
        chouette(*line.split())


def money_session(chouette, tmp_path) -> None:
    """A money session the same night: eve beats ann by a gammon at 2 (4 points at 2.00)."""
    chouette("new", "money", "eve", "ann", "--stake", "2.00")
    record = {"session": "money", "game": 1, "winner": "eve", "loser": "ann", "cube": 2,
              "result": "gammon", "end": "bearoff", "points": 4}  # fmt: skip
    path = tmp_path / "money.jsonl"
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    chouette("import", str(path))


def test_every_players_stats_and_who_beats_whom(chouette):
    evening(chouette)
    assert chouette("stats").stdout == (
        "player      sessions    games    won    lost    money    per game  biggest night\n"
        "--------  ----------  -------  -----  ------  -------  ----------  -----------------\n"
        "ann                1        2  50.00   20.00   +30.00      +15.00  2026-11-20 +30.00\n"
        "dan                1        2  10.00    5.00    +5.00       +2.50  2026-11-20 +5.00\n"
        "cat                1        2   5.00    5.00     0.00        0.00  2026-11-20 0.00\n"
        "bob                1        2   5.00   40.00   -35.00      -17.50  2026-11-20 -35.00\n"
        "\n"
        "Who beats whom:\n"
        "player    against      games    money\n"
        "--------  ---------  -------  -------\n"
        "ann       bob              2   +35.00\n"
        "dan       ann              2    +5.00\n"
        "ann       cat              2     0.00\n"
    )


def test_one_players_roles_and_head_to_head(chouette, tmp_path):
    evening(chouette)
    money_session(chouette, tmp_path)
    assert chouette("stats", "ANN").stdout == (
        "ann: 2 sessions, 3 games; won 50.00, lost 28.00, money +22.00 (+7.33 a game).\n"
        "Biggest night: 2026-11-20, +22.00 (friday, money).\n"
        "role          games    won    lost    money    per game\n"
        "----------  -------  -----  ------  -------  ----------\n"
        "box               2  50.00   20.00   +30.00      +15.00\n"
        "one-on-one        1   0.00    8.00    -8.00       -8.00\n"
        "all               3  50.00   28.00   +22.00       +7.33\n"
        "\n"
        "Head to head:\n"
        "against      games    money\n"
        "---------  -------  -------\n"
        "bob              2   +35.00\n"
        "cat              2     0.00\n"
        "dan              2    -5.00\n"
        "eve              1    -8.00\n"
    )


def test_stats_json_and_since(chouette, tmp_path):
    evening(chouette)
    money_session(chouette, tmp_path)
    got = chouette.json("stats", "eve")
    assert got == {
        "player": "eve",
        "since": None,
        "players": [
            {
                "name": "eve",
                "sessions": 1,
                "games": 1,
                "won_cents": 800,
                "lost_cents": 0,
                "net_cents": 800,
                "per_game_cents": 800,
                "roles": {
                    "one-on-one": {
                        "games": 1,
                        "won_cents": 800,
                        "lost_cents": 0,
                        "net_cents": 800,
                        "per_game_cents": 800,
                    }
                },
                "biggest_night": {"night": "2026-11-20", "cents": 800, "sessions": ["money"]},
                "head_to_head": [{"opponent": "ann", "games": 1, "cents": 800}],
            }
        ],
    }
    every = chouette.json("stats")["players"]
    assert [p["name"] for p in every] == ["ann", "eve", "dan", "cat", "bob"]
    assert sum(p["net_cents"] for p in every) == 0
    later = chouette.json("stats", "--since", "2026-11-21")
    assert later == {"player": None, "since": "2026-11-21", "players": []}
    assert (
        chouette("stats", "--since", "2026-11-21").stdout == "No games played since 2026-11-21.\n"
    )


def test_a_bad_player_or_date_is_refused_and_nothing_is_written(chouette, ledger_url):
    evening(chouette)
    before = dump(ledger_url)
    result = chouette("stats", "bobb", code=1)
    assert result.stderr == "Error: bobb has played no game in the ledger; did you mean bob?\n"
    result = chouette("stats", "bob", "--since", "2026-11-21", code=1)
    assert result.stderr.startswith("Error: bob has played no game in the ledger since 2026-11-21")
    result = chouette("stats", "--since", "20/11/2026", code=2)
    assert "--since: '20/11/2026' is not a date: write it YYYY-MM-DD" in result.stderr
    assert dump(ledger_url) == before


def test_the_keepers_command_line_runs_stats(chouette, ledger_url):
    from web.table import Table

    evening(chouette)
    table = Table(ledger_url, None, lambda: datetime(2026, 11, 20, tzinfo=UTC), commands=run_words)
    ok, said = table.run_line("stats bob", "friday")
    assert ok and said[0] == "bob: 1 session, 2 games; won 5.00, lost 40.00, money -35.00 " \
        "(-17.50 a game)."  # fmt: skip
