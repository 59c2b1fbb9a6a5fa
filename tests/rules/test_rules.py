"""House rules as one value (chouette/rules.py): their defaults, stored and described, refused
out of their values; and a session stored before an option read as it was played."""

from __future__ import annotations

import pytest

from chouette.errors import ChouetteError
from chouette.rules import HouseRules
from files.words import words
from tests.table import outcome, play

# ------------------------------------------------------------ the house rules


def test_the_club_rules_default_to_what_chouette_did_before():
    rules = HouseRules()
    assert (rules.extras, rules.consultation, rules.proxies, rules.split_at) == (
        False,
        "free",
        False,
        None,
    )
    assert rules.summary() == "standard rules"
    new = ("extras", "consultation", "proxies", "split-at")
    stored = {k: v for k, v in rules.to_dict().items() if k not in new}
    assert HouseRules.from_dict(stored) == rules  # a session stored before them


def test_the_club_rules_are_stored_and_described():
    rules = HouseRules(extras=True, consultation="no-cube-no-talk", proxies=True, split_at=8)
    assert HouseRules.from_dict(rules.to_dict()) == rules
    assert rules.to_dict()["split-at"] == 8 and rules.to_dict()["consultation"] == "no-cube-no-talk"
    described = dict(rules.describe())
    assert [described[k] for k in ("extras", "consultation", "proxies", "split-at")] == [
        "on",
        "no-cube-no-talk",
        "on",
        "8",
    ]
    assert dict(HouseRules().describe())["split-at"] == "off"
    assert rules.summary() == "extras on, consultation no-cube-no-talk, proxies on, split-at 8"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"consultation": "whisper"}, "consultation must be one of free, no-cube-no-talk, none"),
        ({"split_at": 4}, "split-at must be 5 or more"),
    ],
)
def test_a_club_rule_out_of_its_values_is_refused(options, message):
    with pytest.raises(ChouetteError, match=message):
        HouseRules(**options)


@pytest.mark.parametrize("consultation", ["free", "no-cube-no-talk", "none"])
def test_the_consultation_rule_changes_nothing_the_scorer_books(consultation):
    rules = HouseRules(consultation=consultation)
    game = play("B | C, M1, M2", "double C M1", "take C", "drop M1", "end box gammon", rules=rules)
    assert outcome(game).points == {"B": 6, "C": -4, "M1": -1, "M2": -1}


# ------------------------------------------------------------ editions


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


@pytest.mark.parametrize(
    ("rules", "danish", "czech"),
    [
        (
            {"beavers": False, "raccoons": True},
            "raccoons kræver beavers: slå beavers til eller raccoons fra",
            "mývalové potřebují bobry: zapněte bobry, nebo vypněte mývaly",
        ),
        (
            {"max_cube": 3},
            "max-cube skal være en potens af to (1, 2, 4, …), ikke 3",
            "max-cube musí být mocnina dvou (1, 2, 4, …), ne 3",
        ),
    ],
)
def test_a_house_rules_refusal_is_said_in_the_readers_words(rules, danish, czech):
    with pytest.raises(ChouetteError) as refused:
        HouseRules(**rules)
    assert words("da")(refused.value.said) == danish
    assert words("cs")(refused.value.said) == czech
