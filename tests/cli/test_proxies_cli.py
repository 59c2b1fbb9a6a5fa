"""House rule ``proxies`` through the commands (``chouette proxy``): a cube that follows the
captain's, a named proxy who decides, refusals that write nothing, and undo."""

from __future__ import annotations

import pytest

from tests.dump import dump
from tests.ledger.test_undo import reports

pytestmark = pytest.mark.backends("sqlite", "postgres")


# ------------------------------------------------------------ proxies


def test_a_cube_that_follows_the_captains_through_the_commands(chouette):
    chouette("new", "fri", "ann", "bob", "cat", "dan", "--stake", "5", "--proxies")
    assert chouette("proxy", "cat", "--follows", "captain").stdout == (
        "cat is away: cat's cube follows the captain's. "
        "Line: ann | bob, cat, dan  (away: cat's cube follows the captain's)\n"
    )
    out = chouette("double", "bob", "dan").stdout
    assert out.splitlines()[0] == "Game 1: the box, ann, doubles bob, dan (cat's cube follows)."
    assert chouette("take", "cat", code=1).stderr == (
        "Error: cat is away and cat's cube follows the captain's: bob's answer is cat's too\n"
    )
    assert chouette("take", "--all").stdout.splitlines()[:2] == [
        "Game 1: bob takes (cat's cube follows).",
        "Game 1: dan takes.",
    ]
    chouette("end", "team")
    assert chouette.json("standings")["players"] == [
        {"name": "bob", "points": 2, "cents": 1000, "table_cents": 1000, "paid_cents": 0},
        {"name": "cat", "points": 2, "cents": 1000, "table_cents": 1000, "paid_cents": 0},
        {"name": "dan", "points": 2, "cents": 1000, "table_cents": 1000, "paid_cents": 0},
        {"name": "ann", "points": -6, "cents": -3000, "table_cents": -3000, "paid_cents": 0},
    ]
    assert chouette("game", "1").stdout.splitlines()[2:4] == [
        "  1. double bob, dan --by box (cat's cube follows)",
        "  2. take bob (cat's cube follows)",
    ]
    # bob, the winning captain, takes the box: cat is the captain now, and cannot follow
    shown = chouette("status")
    assert shown.stdout.splitlines()[1] == (
        "Line: bob | cat, dan, ann  (away: cat's cube follows the captain's)"
    )
    assert shown.stderr == (
        "Note: cat is away, their cube following the captain's, but is the captain of the next "
        "game: name a proxy (chouette proxy cat --by NAME), withdraw it, or sit cat out.\n"
    )
    assert "but cat is the captain of this game" in chouette("double", "dan", code=1).stderr
    assert chouette("proxy", "cat", "--withdraw").stdout == (
        "cat is back. Line: bob | cat, dan, ann\n"
    )
    chouette("double", "dan")


def test_a_named_proxy_decides_and_the_scorer_says_so(chouette):
    chouette("new", "fri", "ann", "bob", "cat", "dan", "--proxies")
    assert chouette("proxy", "dan", "--by", "Cat").stdout == (
        "dan is away: cat decides for dan. Line: ann | bob, cat, dan  (away: cat decides for dan)\n"
    )
    chouette("double", "dan")
    assert chouette("beaver", "dan").stdout.splitlines()[0] == (
        "Game 1: dan beavers (cat for dan)."
    )
    chouette("take", "dan")  # the box takes the beaver: the box's own answer
    chouette("end", "box")
    lines = chouette("game", "1").stdout.splitlines()
    assert lines[1:5] == [
        "Line: ann | bob, cat, dan  (away: cat decides for dan)",
        "  1. double dan --by box",
        "  2. beaver dan (cat for dan)",
        "  3. take dan",
    ]
    record = chouette.json("game", "1")
    assert record["away"] == {"dan": "cat"}


def test_proxies_are_refused_where_the_house_rule_is_off_or_mid_game(chouette, ledger_url):
    chouette("new", "fri", "ann", "bob", "cat")
    before = dump(ledger_url)
    assert chouette("proxy", "cat", "--by", "dan", code=1).stderr == (
        "Error: proxies are off in this session (house rule --proxies): a player away sits out\n"
    )
    assert chouette("proxy", "cat", code=2).stderr.endswith(
        "Error: give one of --by NAME, --follows captain or --withdraw\n"
    )
    assert dump(ledger_url) == before
    chouette("new", "sat", "ann", "bob", "cat", "--proxies")
    chouette("double", "bob")
    before = dump(ledger_url)
    assert chouette("proxy", "cat", "--by", "dan", code=1).stderr == (
        "Error: game 1 is in progress: change the line after it ends\n"
    )
    assert dump(ledger_url) == before


def test_undo_takes_a_proxy_back(chouette):
    chouette("new", "fri", "ann", "bob", "cat", "dan", "--proxies")
    before = reports(chouette)
    chouette("proxy", "dan", "--follows", "captain")
    assert chouette("undo").stdout == (
        "Undone: took back dan is away: dan's cube follows the captain's.\n"
    )
    assert reports(chouette) == before
