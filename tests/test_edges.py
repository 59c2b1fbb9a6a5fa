"""The rules at their edges (issue 13), as score sheets: seats and events in, line and money out.

Each edition-2 decision is pinned here, and so is edition 1 where a session started before
it keeps the older scoring (its stored games must replay to what was booked).
"""

from __future__ import annotations

from chouette.rules import HouseRules


def test_a_session_stored_without_an_edition_keeps_the_older_scoring():
    rules = HouseRules(acting_captain="inherit")
    stored = {k: v for k, v in rules.to_dict().items() if k != "edition"}
    assert HouseRules.from_dict(stored).edition == 1
    assert HouseRules.from_dict(rules.to_dict()) == rules
    assert (
        HouseRules.from_dict(stored).summary()
        == "acting-captain inherit, edition 1 (older scoring)"
    )
    assert rules.summary() == "acting-captain inherit"
