"""A fair stop through the commands (``new --rounds``/``--until``): the last round is
announced, the session refuses another game (live or recorded) and writes nothing, status
and the rules card say what was agreed, the report says when it ended; ``settle PLAYER``
settles a player leaving early."""

from __future__ import annotations

import pytest

from tests.ledger.test_undo import reports


def test_the_last_round_is_announced_and_the_session_ends_after_it(chouette, tmp_path):
    chouette("new", "fri", "ann", "bob", "cat", "--rounds", "2")
    assert "Game 2 is the last round; the session ends after it." in chouette("rules").stdout
    chouette("end", "box")
    assert chouette("status").stdout.splitlines()[2] == (
        "Game 2 is the last round, as agreed (2 games)."
    )
    ended = chouette("end", "team")
    assert "Note: game 2 is the last round, as agreed (2 games)." in ended.stderr
    assert "Note: the session has ended after game 2, as agreed (2 games)." in ended.stderr
    before = reports(chouette)
    refused = chouette("double", "bob", code=1).stderr
    assert refused == (
        "Error: the session has ended after game 2, as agreed (2 games): no game 3 "
        "(chouette new starts another session)\n"
    )
    chouette("record", "-", input='{"result": {"winner": "team"}}\n', code=1)
    assert reports(chouette) == before
    assert chouette.json("status")["stop"] == {
        "agreed": "2 games", "last_game": 2, "last_round": False, "ended": True,
    }  # fmt: skip
    chouette("report", "--html", str(tmp_path / "fri.html"))
    page = (tmp_path / "fri.html").read_text()
    assert '<tr data-rule="ended"><th>Ended</th><td>After game 2, as agreed, at 20:00 UTC.' in page


def test_until_makes_the_first_game_from_that_time_the_last(chouette, monkeypatch):
    monkeypatch.setenv("CHOUETTE_NOW", "2026-11-20T22:40:00+00:00")
    chouette("new", "fri", "ann", "bob", "cat", "--until", "23:00")
    chouette("end", "box")
    monkeypatch.setenv("CHOUETTE_NOW", "2026-11-20T23:01:00+00:00")
    assert chouette.json("status")["stop"]["last_round"] is True
    chouette("end", "box")
    chouette("end", "box", code=1)
    assert chouette.json("sheet")["games"][-1]["game"] == 2


def test_a_club_preset_keeps_the_rules_but_not_the_evenings_stop(chouette):
    chouette("new", "fri", "ann", "bob", "cat", "--rounds", "12", "--no-beavers")
    chouette("rules", "--save", "tuesday")
    chouette("new", "tue", "ann", "bob", "cat", "--rules", "tuesday")
    rules = chouette.json("rules")["rules"]
    assert "rounds" not in rules and rules["beavers"] is False


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (("--until", "25:00"), 2, "--until is a time of day, HH:MM"),
        (("--rounds", "0"), 2, "--rounds"),
        (("--rounds", "3", "--until", "23:00"), 1, "--rounds N or --until HH:MM, not both"),
    ],
)
def test_a_stop_that_cannot_be_agreed_is_refused_and_no_ledger_made(
    chouette, ledger_file, args, code, message
):
    assert message in chouette("new", "fri", "ann", "bob", *args, code=code).stderr
    assert not ledger_file.exists()


def test_settle_a_player_leaving_early(chouette):
    chouette("new", "fri", "ann", "bob", "cat", "dan")
    chouette("double", "bob", "cat", "dan")
    chouette("take", "--all")
    chouette("end", "team")  # ann -6; bob, cat, dan +2 each
    assert [row.split() for row in chouette("settle", "ANN").stdout.splitlines()[2:5]] == [
        ["ann", "bob", "2.00"],
        ["ann", "cat", "2.00"],
        ["ann", "dan", "2.00"],
    ]
    assert chouette.json("settle", "bob")["payments"] == [
        {"from": "ann", "to": "bob", "cents": 200}
    ]
    assert "zed has played in no session here" in chouette("settle", "zed", code=1).stderr
