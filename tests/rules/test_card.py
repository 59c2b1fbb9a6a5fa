"""The rules card (chouette/card.py): each house rule in plain words, a preset's card on one
screen, where the rules came from, and who accepted them."""

from __future__ import annotations

from dataclasses import fields, replace
from datetime import UTC, datetime, timedelta

import pytest

from chouette.card import (
    TOPICS,
    UNKNOWN,
    Acceptance,
    Card,
    Origin,
    card_text,
    check_accept,
    origin_of,
    rule_lines,
    summary,
)
from chouette.errors import ChouetteError
from chouette.presets import Override, published
from chouette.rules import HouseRules
from files.words import words

NOW = datetime(2026, 11, 20, 20, 0, tzinfo=UTC)


# ------------------------------------------------------------ the rules in words

DEFAULT_WORDS = [
    ("Cubes", "Each member has their own cube against the box."),
    ("Box doubles", "The box may double any members it chooses."),
    ("Box answers", "The box takes or drops each member's double as it likes."),
    ("Beavers", "Beavers allowed by either side; raccoons allowed."),
    ("Automatic doubles", "None."),
    ("Gammons", "Jacoby: a gammon or backgammon counts single against a member whose cube "
     "was never turned (automatic doubles do not turn it)."),
    ("Rotation", "The box stays if it beat the captain; otherwise the captain takes the box. "
     "The loser goes to the bottom of the line."),
    ("Captain out", "A captain who is out hands the board to an acting captain, but the "
     "captain's own result decides the rotation."),
    ("Newcomers", "A newcomer sits at the bottom, behind the player just sent down."),
    ("Partner", "No box partner."),
    ("Extras", "No extras."),
    ("Settling", "Deals allowed; the box resigns the whole board or nothing."),
    ("Talk", "Anyone may talk over the team's plays. (The table keeps this rule: chouette "
     "does not check it.)"),
    ("Away", "A player away sits out (no proxies)."),
    ("Size", "No limit on the table's size."),
]  # fmt: skip


def test_the_default_rules_in_plain_words():
    assert rule_lines(HouseRules()) == DEFAULT_WORDS


@pytest.mark.parametrize(
    ("rules", "topic", "words"),
    [
        (HouseRules(cubes="single", max_cube=64), "Cubes", "One cube for the team: the "
         "captain doubles for all, and each member takes or drops the box's doubles alone; "
         "no cube goes above 64."),
        (HouseRules(box_doubles="same-level"), "Box doubles",
         "The box doubles every cube at the same level together."),
        (HouseRules(box_takes="half", mandatory_beaver=True), "Box answers", "When several "
         "members double together, the box takes at least half of them or drops them all (of "
         "two: both or neither). A member who alone takes a box double given to several must "
         "beaver or drop."),
        (HouseRules(box_takes="break-even", box_takes_scope="all", mandatory_beaver=True,
                    lone_taker_scope="all"), "Box answers", "When every member still in "
         "doubles the box at once, the box takes enough of them to break even on a single "
         "game, always the captain's, or drops them all (of two: both or neither); doubles "
         "from fewer it answers as it likes. A member who alone takes a box double given to "
         "the whole team (every member still in) must beaver or drop."),
        (HouseRules(extras=True, mandatory_extras=True, lone_taker_scope="all"), "Extras",
         "Extras (side bets on the board) allowed; a lone taker of a box double given to the "
         "whole team takes every extra offered or drops the box's double."),
        (HouseRules(beavers_by="team", raccoons=False, beaver_limit=1), "Beavers",
         "Beavers allowed by the team only; raccoons not allowed; a pair plays at most 1 "
         "beaver or raccoon on one double."),
        (HouseRules(auto_doubles=2, auto_past_limit="carry-over"), "Automatic doubles",
         "A tied opening roll doubles every cube, which stays centred, 2 times a game at most; "
         "a tie past that carries over to the next game, for the box to accept or decline."),
        (HouseRules(jacoby=False), "Gammons",
         "Gammons and backgammons always count (no Jacoby rule)."),
        (HouseRules(jacoby_scope="any-cube-turned"), "Gammons", "Jacoby: gammons and "
         "backgammons count single until any cube of the game is turned and accepted."),
        (HouseRules(retention="net-profit"), "Rotation", "The box stays if it won points on "
         "the game overall (more than 0). The loser goes to the bottom of the line."),
        (HouseRules(retention="beat-all"), "Rotation", "The box stays only if it beat every "
         "member. The loser goes to the bottom of the line."),
        (HouseRules(acting_captain="inherit"), "Captain out", "A captain who drops loses the "
         "seat at once; the acting captain's result counts as the captain's."),
        (HouseRules(partner_from=6, partner_pick="last", partner_share=40), "Partner",
         "From 6 seated, the box plays with a partner (the last in line), who takes 40 per cent of "
         "the box's result, the odd point to the box."),
        (HouseRules(extras=True, mandatory_extras=True, extra_redoubles=True), "Extras",
         "Extras (side bets on the board) allowed; a lone taker takes every extra offered or "
         "drops the box's double; an extra's cube may be redoubled."),
        (HouseRules(deals=False, resignations="per-member"), "Settling", "No deals "
         "(settlements); the box may resign to some members, each accepting or refusing."),
        (HouseRules(consultation="none"), "Talk",
         "No consultation at all. (The table keeps this rule: chouette does not check it.)"),
        (HouseRules(proxies=True, split_at=7), "Size",
         "More than 7 in the line: chouette says it is time to split the table."),
        (HouseRules(edition=1), "Scoring",
         "Edition 1: scored as chouette scored when the session was started."),
    ],
)  # fmt: skip
def test_each_house_rule_in_plain_words(rules, topic, words):
    assert dict(rule_lines(rules))[topic] == words


def test_every_option_is_said_on_the_card():
    said = {option for _, options in TOPICS for option in options}
    assert said == {f.name for f in fields(HouseRules)}


# ------------------------------------------------------------ the card and acceptances


def cambridge_card(*acceptances: Acceptance) -> Card:
    cambridge = published("cambridge")
    rules, origin = origin_of(HouseRules(), {"consultation": "free"}, preset=cambridge)
    return Card("fri", 250, rules, origin, {"dan": 100}, ("ann", "bob", "cat", "dan"), acceptances)


def test_a_presets_card_on_one_screen():
    rules = cambridge_card().rules
    card = cambridge_card(
        Acceptance("bob", NOW, rules.to_dict(), 250),
        Acceptance("ann", NOW + timedelta(minutes=2), rules.to_dict(), 250),
    )
    text = card_text(card)
    assert len(text) <= 24
    assert text == [
        "Rules card: fri",
        "Stake: 2.50 a point; own stakes: dan 1.00 (a pair plays at the lower).",
        "Preset: cambridge, Cambridge Backgammon chouette rules, [S8] "
        "https://cambridgebackgammon.org/chouette-rules/",
        "Changed from the preset (marked *): consultation free (the preset: no-cube-no-talk).",
        "",
        "  Cubes:             Each member has their own cube against the box.",
        "  Box doubles:       The box may double any members it chooses.",
        "  Box answers:       The box takes or drops each member's double as it likes.",
        "  Beavers:           No beavers, no raccoons.",
        "  Automatic doubles: Only if the box chooses, on a tied opening roll.",
        "  Gammons:           Jacoby: a gammon or backgammon counts single against a member "
        "whose cube was never turned (automatic doubles do not turn it).",
        "  Rotation:          The box stays if it beat the captain; otherwise the captain "
        "takes the box. The loser goes to the bottom of the line.",
        "  Captain out:       A captain who is out hands the board to an acting captain, but "
        "the captain's own result decides the rotation.",
        "  Newcomers:         A newcomer sits at the bottom, ahead of the player just sent down.",
        "  Partner:           No box partner.",
        "  Extras:            No extras.",
        "  Settling:          No deals (settlements); the box resigns the whole board or nothing.",
        "  Talk:              Anyone may talk over the team's plays. (The table keeps this "
        "rule: chouette does not check it.) *",
        "  Away:              A player away names a proxy, or their cube follows the captain's.",
        "  Size:              No limit on the table's size.",
        "",
        "Accepted by: bob (2026-11-20 20:00 UTC), ann (2026-11-20 20:02 UTC).",
        "Not yet accepted: cat, dan (chouette accept PLAYER...).",
    ]


def test_on_a_narrow_screen_each_rule_wraps_under_its_heading():
    card = cambridge_card()
    wrapped = card_text(card, width=80)
    assert all(len(line) <= 80 for line in wrapped if "https://" not in line)
    assert "  https://cambridgebackgammon.org/chouette-rules/" in wrapped  # never broken
    at = wrapped.index(
        "  Gammons:           Jacoby: a gammon or backgammon counts single against a"
    )
    assert wrapped[at + 1] == (
        "                     member whose cube was never turned (automatic doubles do"
    )
    assert " ".join(w.strip() for w in wrapped) == " ".join(w.strip() for w in card_text(card))


def test_a_preset_with_chouettes_own_choices_says_them_on_the_card():
    la = published("la")
    rules, origin = origin_of(HouseRules(), {}, preset=la)
    lines = card_text(Card("fri", 100, rules, origin))[:4]
    assert lines[2:] == [
        "Preset: la, L.A. chouette rules (Joe Russell, 2013), [S11] "
        "https://www.bgonline.org/forums/webbbs_config.pl?read=141034",
        "Where the source is silent, chouette chose: jacoby on (chouette rules --preset la "
        "says why).",
    ]
    boston = published("boston")
    rules, origin = origin_of(HouseRules(), {}, preset=boston)
    assert card_text(Card("fri", 100, rules, origin))[2].endswith("(partly read)")


@pytest.mark.parametrize(
    ("origin", "lines"),
    [
        (UNKNOWN, ["Preset: not recorded (the session was started before rules cards).",
                   "Differs from chouette's defaults: jacoby off."]),
        (Origin(), ["Preset: none; chouette's defaults (no option given)."]),
        (Origin(overrides=(Override("jacoby", True, False),)),
         ["Preset: none; chouette's defaults, with jacoby off."]),
        (Origin("tuesday", "club", NOW, "fri"),
         ["Preset: tuesday, the club's own (saved on 2026-11-20 20:00 UTC from fri)."]),
    ],
)  # fmt: skip
def test_where_rules_came_from_when_no_published_preset(origin, lines):
    card = Card("sat", 100, HouseRules(jacoby=False), origin)
    assert card_text(card)[2 : 2 + len(lines)] == lines


def test_an_acceptance_of_other_rules_does_not_count_and_is_asked_again():
    card = cambridge_card()
    now = card.rules.to_dict()
    other = replace(card.rules, deals=True).to_dict()
    card = cambridge_card(
        Acceptance("ann", NOW, other, 250),  # other rules
        Acceptance("bob", NOW, now, 500),  # another stake
        Acceptance("cat", NOW, now, 250),
        Acceptance("ann", NOW + timedelta(minutes=5), now, 250),
    )
    assert [a.player for a in card.accepted] == ["cat", "ann"]
    assert [a.player for a in card.earlier] == ["bob"]
    assert card.waiting == ["bob", "dan"]
    assert card_text(card)[-3:] == [
        "Accepted by: cat (2026-11-20 20:00 UTC), ann (2026-11-20 20:05 UTC).",
        "Accepted other rules before: bob (to accept again).",
        "Not yet accepted: bob, dan (chouette accept PLAYER...).",
    ]


@pytest.mark.parametrize(
    ("players", "message"),
    [
        (["cat", "ann"], "ann accepted these rules already: nothing recorded (chouette rules "
         "shows who accepted them)"),
        (["cat", "cat"], "cat is named twice"),
    ],
)  # fmt: skip
def test_an_acceptance_is_recorded_once(players, message):
    card = cambridge_card()
    card = cambridge_card(Acceptance("ann", NOW, card.rules.to_dict(), 250))
    with pytest.raises(ChouetteError) as refused:
        check_accept(card, players)
    assert str(refused.value) == message
    check_accept(card, ["cat", "dan"])


@pytest.mark.parametrize(
    "rules",
    [
        HouseRules(),
        HouseRules(beavers=False, raccoons=False, auto_doubles=1, box_takes="half"),
        HouseRules(
            cubes="single", retention="score-sign", partner_from=5, partner_pick="last",
            consultation="no-cube-no-talk", roll_off="four-dice", credit_rule="refuse",
            rounds=12, edition=2,
        ),
    ],
)  # fmt: skip
def test_the_rules_one_line_summary_is_said_in_the_readers_words(rules):
    said = summary(rules)
    assert str(said) == rules.summary()  # (English: as chouette new takes them)
    for code in ("da", "cs"):
        assert words(code)(said) != rules.summary()


def test_the_summary_and_the_card_read_in_danish_and_czech():
    rules = HouseRules(beavers=False, raccoons=False, auto_doubles=1)
    assert words("da")(summary(rules)) == "beavers fra, raccoons fra, automatiske doblinger 1"
    assert words("cs")(summary(rules)) == "bobři vyp., mývalové vyp., automatická zdvojení 1"
    card = Card("fri", 125, rules, UNKNOWN, seated=("ann", "bob"))
    danish = card_text(card, words=words("da"))
    assert danish[:2] == ["Regelkort: fri", "Indsats: 1,25 pr. point."]
    assert danish[-1] == "Ikke accepteret endnu: ann, bob (chouette accept PLAYER...)."
    assert card_text(card)[1] == "Stake: 1.25 a point."
