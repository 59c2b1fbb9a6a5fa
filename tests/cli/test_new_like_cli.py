"""`chouette new NAME --like SESSION` ("same as last week"): that session's players in its
line's order now, its house rules (and their preset) and its stakes; players and options
given beside it change them; a refusal writes nothing."""

from __future__ import annotations

from tests.dump import dump


def last_week(chouette) -> None:
    chouette(
        "new", "friday", "ann", "bob", "cat", "dan", "--stake", "5.00", "--rules", "la",
        "--no-jacoby", "--player-stake", "dan=2.00",
    )  # fmt: skip
    for line in ("double bob", "take bob", "end team"):  # bob beats the box: the line turns
        chouette(*line.split())


def card(chouette) -> tuple[object, ...]:
    got = chouette.json("rules")
    assert isinstance(got, dict)
    return got["stake_cents"], got["player_stakes"], got["preset"]["name"], got["overridden"]


def test_a_session_like_last_weeks_has_its_players_order_rules_and_stakes(chouette):
    last_week(chouette)
    said = chouette("new", "saturday", "--like", "friday").stdout.splitlines()
    assert said[0] == "Like friday: its players, house rules and stakes."
    assert "dan plays at 2.00 a point." in said
    assert said[-1] == "Line: bob | cat, dan, ann"  # friday's line now, not as it began
    assert card(chouette) == (
        500,
        {"dan": 200},
        "la",
        [{"option": "jacoby", "preset": True, "value": False}],
    )


def test_players_and_options_given_beside_like_change_it(chouette):
    last_week(chouette)
    done = chouette(
        "new", "saturday", "--like", "friday", "eve", "DAN", "cat", "--stake", "1.00",
        "--retention", "captain", "--jacoby",
    )  # fmt: skip
    assert "DAN is written dan, as the ledger writes that player" in done.stderr
    said = done.stdout
    assert said.startswith("Like friday: its house rules and stakes.\n")
    assert said.endswith("Line: eve | dan, cat\n")
    assert card(chouette) == (
        100,
        {"dan": 200},  # the ledger's spelling, and dan's own stake with it
        "la",
        [{"option": "retention", "preset": "won-not-loss", "value": "captain"}],
    )
    chouette("new", "sunday", "--like", "friday", "--rules", "boston")  # the preset's rules
    assert card(chouette)[2:] == ("boston", [])


def test_like_a_session_that_is_not_there_or_no_players_is_refused(chouette, ledger_url):
    last_week(chouette)
    before = dump(ledger_url)
    result = chouette("new", "saturday", "--like", "thursday", code=1)
    assert result.stderr == (
        "Error: --like: there is no session called thursday (sessions: friday)\n"
    )
    result = chouette("new", "saturday", code=2)
    assert "name the players: the line (box, captain, crew), or --like SESSION" in result.stderr
    chouette("new", "saturday", "--like", "friday", "--beaver-limit", "0", code=2)
    assert dump(ledger_url) == before
