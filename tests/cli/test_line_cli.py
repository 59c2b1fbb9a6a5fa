"""The line's changes between games through the CLI: a proxy is someone at the table, and
a player who sits out and back in with no game between gets the line back as it was."""

from __future__ import annotations

import pytest

from tests.dump import dump, unchained_dump

pytestmark = pytest.mark.backends("sqlite", "postgres")


def test_sitting_out_and_back_in_with_no_game_between_changes_nothing(chouette):
    chouette("new", "friday", "ann", "bob", "cat", "dan")
    before = chouette.json("status")
    assert chouette("sit-out", "bob").stdout.startswith("bob sits out. Line: ann | cat, dan")
    chouette("pay", "cat", "dan", "1", "--advance")  # a payment plays no game
    assert chouette("sit-in", "bob").stdout.startswith("bob sits in. Line: ann | bob, cat, dan")
    assert chouette.json("status") == before


def test_after_a_game_a_player_sitting_back_in_rejoins_where_a_newcomer_sits(chouette):
    chouette("new", "friday", "ann", "bob", "cat", "dan")
    chouette("sit-out", "bob")
    chouette("end", "box")  # ann keeps the box; cat, the captain, goes down
    assert chouette("sit-in", "bob").stdout.startswith("bob sits in. Line: ann | dan, cat, bob")


def test_a_proxy_is_someone_at_the_table(chouette, ledger_url):
    chouette("new", "friday", "ann", "bob", "cat", "dan", "--proxies")
    before = dump(ledger_url)
    for by, why in (
        ("ctt", "ctt is not in the line (ann, bob, cat, dan): a proxy decides at the table"),
        ("dan", "dan cannot be their own proxy"),
    ):
        assert chouette("proxy", "dan", "--by", by, code=1).stderr == f"Error: {why}\n"
    before = unchained_dump(ledger_url)
    chouette("leave", "bob")
    assert chouette("proxy", "dan", "--by", "bob", code=1).stderr == (
        "Error: bob is not in the line (ann, cat, dan): a proxy decides at the table\n"
    )
    chouette("undo")
    assert unchained_dump(ledger_url) == before
    chouette("proxy", "dan", "--by", "cat")
    before = dump(ledger_url)
    for command, what in (("leave", "leave"), ("sit-out", "sit out")):
        assert chouette(command, "cat", code=1).stderr == (
            f"Error: cat decides for dan, who is away: cat cannot {what} while deciding for "
            "dan (name another proxy first: chouette proxy dan --by NAME, or --withdraw it)\n"
        )
    assert dump(ledger_url) == before
    status = chouette("status").stdout
    assert "(away: cat decides for dan)" in status
    assert chouette.json("status")["away"] == {"dan": "cat"}  # null: follows the captain's
    chouette("proxy", "dan", "--withdraw")
    assert chouette("leave", "cat").stdout.startswith("cat leaves.")


def test_a_deal_at_0_with_the_captain_gives_the_captain_the_box_unless_declared(chouette):
    chouette("new", "friday", "ann", "bob", "cat")
    chouette("deal", "bob", "0")
    said = chouette("end", "box").stdout
    assert "box goes: captain rule, bob dealt at 0 with the box (0)" in said
    assert chouette.json("status")["box"] == "bob"
    chouette("new", "saturday", "ann", "bob", "cat")
    assert chouette("deal", "bob", "0", "--won-by", "box").stdout.startswith(
        "Game 1: ann and bob deal: 0 to bob, won by the box."
    )
    said = chouette("end", "box").stdout
    assert "box stays: captain rule, the deal at 0 with bob declared won by the box" in said
    assert chouette.json("status")["box"] == "ann"
    game = chouette.json("game", "1")
    assert {"act": "deal", "member": "bob", "points": 0, "won_by": "box"} in game["events"]
    chouette("undo")  # the board's end taken back: game 1 goes on, bob's deal in it
    assert chouette.json("status")["game"]["cubes"]["bob"]["out"] is True
    refused = chouette("deal", "cat", "0", "--won-by", "box", code=1).stderr
    assert refused == (
        "Error: --won-by declares the winner of a deal at 0 with the captain (bob), whose "
        "pair decides who keeps the box: cat is not the captain\n"
    )


def test_a_box_who_sat_out_rejoins_at_the_bottom(chouette):
    chouette("new", "t", "X", "B", "C", "M1")
    chouette("sit-out", "X")
    chouette("end", "box")
    assert chouette("sit-in", "X").stdout == "X sits in. Line: B | M1, C, X\n"
