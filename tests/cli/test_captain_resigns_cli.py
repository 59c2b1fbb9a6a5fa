"""House rule ``captain-resigns takeover`` through the commands: ``chouette captain-resigns``,
its record, the line after it, and the rules card."""

from __future__ import annotations


def test_the_command_and_its_record_through_the_cli(chouette):
    chouette("new", "cz", "ann", "bob", "cat", "dan", "--captain-resigns", "takeover")
    said = chouette("captain-resigns", "DAN").stdout
    assert said.startswith(
        "Game 1: the captain, bob, resigns a single; dan takes over the captain's place.\n"
    )
    chouette("end", "team")
    record = chouette.json("game", "1")
    assert {"act": "captain-resigns", "kind": "single", "successor": "dan"} in record["events"]  # type: ignore[index]
    assert chouette.json("status")["line"][:2] == ["dan", "cat"]  # type: ignore[index]
    chouette("check")
    card = chouette("rules").stdout
    assert "a member of their choice takes over the captain's place" in card
