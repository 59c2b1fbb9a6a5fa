"""Club presets held to their sources (chouette/presets.py): every preset is house rules that
can be played, every option a preset sets is one its source states (in the source's own
words, quoted here) or one chouette says it chose; options given beside a preset, and where a
session's rules came from. The card that says them in words: ``test_card.py``."""

from __future__ import annotations

from dataclasses import fields, replace
from datetime import UTC, datetime

import pytest

from chouette.card import (
    UNKNOWN,
    Origin,
    origin_like,
    origin_of,
)
from chouette.errors import ChouetteError
from chouette.presets import PUBLISHED, Override, check_preset_name, override, published
from chouette.rules import EDITION, FOLLOW_OFF, HouseRules
from files.words import words

NOW = datetime(2026, 11, 20, 20, 0, tzinfo=UTC)

# Every option each published preset sets from its source, with words the source uses for
# it (the source's own, or for a source only partly read, the research notes' reading).
STATED = [
    ("act", "cubes", "multi", "Each team member has their own cube."),
    ("act", "auto_doubles", 1, "Automatic doubles apply where the Captain and the Box both roll"),
    ("act", "auto_past_limit", "box-choice", "any others are at the discretion of the Box"),
    ("act", "jacoby", True, 'The "Jacoby Rule" applies.'),
    ("act", "jacoby_scope", "per-cube", "if their cube has been offered or accepted"),
    ("act", "beavers", True, 'it may be "beavered"'),
    ("act", "raccoons", True, 'the originator has the option of re-doubling (a "racoon")'),
    ("act", "mandatory_beaver", True, "only one member decides to take, then they MUST beaver"),
    ("act", "lone_taker_scope", "all", "If the box cubes all of the team"),
    ("act", "split_at", 6, "There is a limit of six in any chouette."),
    ("act", "newcomer", "after-loser", "after the Box or Captain for that game (depending"),
    ("act", "consultation", "no-cube-no-talk", "who have offered or accepted a cube (not an"),
    *[
        (name, option, value, words)
        for name, raccoons, said in (
            ("amsterdam-020", False, "020 Amsterdam (no raccoon)"),
            ("rotterdam-010", True, "010 Rotterdam (raccoon)"),
        )
        for option, value, words in (
            ("retention", "captain", "winner of box vs captain is box"),
            ("cubes", "multi", "a cube per member"),
            ("consultation", "no-cube-no-talk", "no cube, no talk"),
            ("box_doubles", "same-level", "same value, same action"),
            ("partner_share", 50, "partner split equal, remainder to box"),
            ("deals", True, "deals box↔members"),
            ("raccoons", raccoons, said),
        )
    ],
    ("boston", "cubes", "multi", "Separate Cubes for every player."),
    ("boston", "jacoby", True, "Jacoby rule is in effect."),
    ("boston", "jacoby_scope", "per-cube", "No gammons unless the Cube has been turned"),
    ("boston", "beavers", True, "Beavers are allowed."),
    ("cambridge", "retention", "captain", "determined by the result of Captain vs Box."),
    ("cambridge", "acting_captain", "keep-seat", "the result of Captain vs Box."),
    ("cambridge", "jacoby", True, "The Jacoby rule is in force."),
    ("cambridge", "jacoby_scope", "per-cube", "The Jacoby rule is in force."),
    ("cambridge", "beavers", False, "No beavers."),
    ("cambridge", "raccoons", False, "No beavers."),
    ("cambridge", "extras", False, "No props/extras"),
    ("cambridge", "deals", False, "No settlements."),
    ("cambridge", "auto_doubles", 0, "Usually they aren't played."),
    ("cambridge", "auto_past_limit", "box-choice", "exclusively at the discretion of the Box"),
    ("cambridge", "newcomer", "before-loser", "will be ahead of the losing Captain or Box"),
    ("cambridge", "proxies", True, "their cube will be played as per the captains"),
    ("cambridge", "consultation", "no-cube-no-talk", "No consulting until your cube is turned."),
    ("clinton-hill", "jacoby", True, "The Jacoby rule is in effect"),
    ("clinton-hill", "jacoby_scope", "per-cube", "The Jacoby rule is in effect"),
    ("clinton-hill", "auto_doubles", 0, "No auto-doubles in opening rolls"),
    ("clinton-hill", "beavers", True, "Beavers and Raccoons allowed"),
    ("clinton-hill", "raccoons", True, "Beavers and Raccoons allowed"),
    ("clinton-hill", "box_takes", "half", "the Box must take half or more of cubes offered"),
    ("clinton-hill", "box_takes_scope", "several", "half or more of cubes offered"),
    ("clinton-hill", "consultation", "no-cube-no-talk", "unless their cube has been turned"),
    ("clinton-hill", "cubes", "multi", "Cubes are independent"),
    ("colorado", "cubes", "multi", "Each member of the Team has a doubling cube."),
    ("colorado", "partner_pick", "last", "The last person on the team would be the first"),
    ("colorado", "consultation", "after-accept", "turned and accepted ... Those without a cube"),
    ("colorado", "partner_from", 6, "Optionally Box may take a Partner when there are 6"),
    ("colorado", "partner_optional", True, "Optionally Box may take a Partner"),
    ("colorado", "roll_off", "two-dice", "rolled with 2 dice (doubles count)"),
    ("esk", "box_takes", "half", "take at least half of them or drop all"),
    ("esk", "beavers", False, "beavers: no"),
    ("esk", "raccoons", False, "raccoons: no"),
    ("esk", "auto_doubles", 1, "one by default"),
    ("esk", "split_at", 5, "split or take a partner above 5"),
    ("esk", "consultation", "no-cube-no-talk", "unless their own cube is in"),
    ("la", "consultation", "none", "Non-consulting at all times;"),
    ("la", "cubes", "multi", "Individual cubes;"),
    ("la", "partner_from", 7, "mandatory with 7"),
    ("la", "split_at", 7, "join a 7-handed game, the game splits"),
    ("la", "partner_pick", "next", "the next player in line is it"),
    ("la", "box_takes", "break-even", "at least break even and he must take the captain"),
    ("la", "box_takes_scope", "all", "If the box is doubled by everyone at the same time"),
    ("la", "extras", True, "the passing crew members may offer extras"),
    ("la", "mandatory_extras", True, "either pass the box's cube or take extras"),
    ("la", "box_doubles", "with-captain", "doubles anybody, he must double the captain"),
    ("la", "retention", "won-not-loss", "have the last active crew member pass your cube"),
    ("laws-1931", "cubes", "single", "Each rejector forfeits to the Man in the Box his count"),
    ("laws-1931", "acting_captain", "inherit", "the Man in the Box he loses his position"),
    ("laws-1931", "retention", "captain", "He retains his position until defeated."),
    ("laws-1931", "newcomer", "after-loser", "He becomes the last ranking member in the first"),
    ("laws-1931", "consultation", "free", "may consult with any or all of the partners"),
    ("woolsey", "partner_from", 6, "6 to 10 players, then the box must take a partner"),
    ("woolsey", "partner_pick", "next", "the next player in line becomes partner with"),
    ("woolsey", "newcomer", "after-loser", "he is behind the player who just lost"),
    ("woolsey", "split_at", 10, "The size of the chouette is limited to 10"),
    ("woolsey", "retention", "captain", "When the box wins that player retains the box"),
    ("woolsey", "partner_run", True, "the partnership remains intact for the remainder"),
    ("florida-challenge", "table_stakes", 50, "everyone starts with a bank (usually 50 points)"),
]  # fmt: skip

# The options chouette chose for a preset where its source is silent (each says why).
OURS = {
    "act": {"retention": "captain"},
    "amsterdam-020": {"beavers": True, "jacoby": True},
    "rotterdam-010": {"beavers": True, "jacoby": True},
    "boston": {"raccoons": True, "retention": "captain"},
    "cambridge": {},
    "clinton-hill": {},
    "colorado": {},
    "esk": {"jacoby": True, "retention": "captain", "box_takes_scope": "several"},
    "la": {"jacoby": True},
    "laws-1931": {"jacoby": False, "beavers": False, "raccoons": False},
    "woolsey": {},
    "florida-challenge": {"jacoby": True, "retention": "captain"},
}

PARTLY_READ = {"amsterdam-020", "rotterdam-010", "boston", "colorado", "esk", "florida-challenge"}


def test_the_published_presets_are_the_club_rule_sets_chouette_can_express():
    assert [p.name for p in PUBLISHED] == [
        "act", "amsterdam-020", "rotterdam-010", "boston", "cambridge", "clinton-hill",
        "colorado", "esk", "florida-challenge", "la", "laws-1931", "woolsey",
    ]  # fmt: skip
    assert {p.source.tag for p in PUBLISHED} == {
        "S1", "S2", "S3", "S5", "S7", "S8", "S9", "S10", "S11", "S29", "T2",
    }  # fmt: skip
    assert {p.name for p in PUBLISHED if p.source.partly_read} == PARTLY_READ


@pytest.mark.parametrize("preset", PUBLISHED, ids=lambda p: p.name)
def test_every_preset_is_house_rules_that_can_be_played(preset):
    rules = preset.rules
    assert isinstance(rules, HouseRules)
    assert HouseRules.from_dict(rules.to_dict()) == rules
    assert preset.source.url.startswith(("http://", "https://"))


@pytest.mark.parametrize(("name", "option", "value", "words"), STATED)
def test_each_option_a_preset_takes_from_its_source_in_the_sources_words(
    name, option, value, words
):
    preset = published(name)
    assert preset is not None
    (choice,) = [c for c in preset.stated if c.option == option]
    assert choice.value == value == getattr(preset.rules, option)
    assert words in choice.words


@pytest.mark.parametrize("preset", PUBLISHED, ids=lambda p: p.name)
def test_every_option_a_preset_sets_is_stated_by_its_source_or_chosen_with_a_reason(preset):
    stated = {(o, v) for n, o, v, _ in STATED if n == preset.name}
    assert {(c.option, c.value) for c in preset.stated} == stated
    assert {c.option: c.value for c in preset.ours} == OURS[preset.name]
    assert all(c.words for c in preset.ours)
    assert not {c.option for c in preset.stated} & {c.option for c in preset.ours}
    # anything that is not chouette's default comes from the source or from a stated choice
    default = HouseRules()
    changed = {
        f.name
        for f in fields(HouseRules)
        if getattr(preset.rules, f.name) != getattr(default, f.name)
    }
    assert changed <= {c.option for c in (*preset.stated, *preset.ours)}


@pytest.mark.parametrize("typed", ["la", "LA", "L.A.", " l.a. ", "Clinton Hill", "LAWS-1931"])
def test_a_preset_is_found_by_its_name_in_any_case_with_dots_or_spaces(typed):
    assert published(typed) is not None
    assert published("nowhere") is None


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("L.A.", "L.A. is the name of the published preset la (L.A. chouette rules (Joe "
         "Russell, 2013)): a club's own preset takes another name"),
        ("Cambridge", "Cambridge is the name of the published preset cambridge (Cambridge "
         "Backgammon chouette rules): a club's own preset takes another name"),
        ("", "a session's name cannot be empty"),
    ],
)  # fmt: skip
def test_a_clubs_own_preset_never_takes_a_published_name(name, message):
    with pytest.raises(ChouetteError) as refused:
        check_preset_name(name)
    assert str(refused.value) == message
    assert check_preset_name(" tuesday ") == "tuesday"


# ------------------------------------------------------------ options beside a preset


def test_options_given_beside_a_preset_change_it_and_are_listed():
    la = published("la")
    assert la is not None
    rules, changed = override(la.rules, {"jacoby": False, "split_at": 7, "partner_from": None})
    assert (rules.jacoby, rules.split_at, rules.partner_from) == (False, 7, None)
    # split-at 7 is the preset's own value: given, but nothing changed
    assert changed == (Override("jacoby", True, False), Override("partner_from", 7, None))


def test_options_beside_a_preset_are_refused_as_the_house_rules_refuse_them():
    cambridge = published("cambridge")
    assert cambridge is not None
    with pytest.raises(ChouetteError, match="raccoons need beavers"):
        override(cambridge.rules, {"raccoons": True})
    with pytest.raises(ChouetteError, match="unknown house rule 'colour'"):
        override(cambridge.rules, {"colour": "red"})


def test_a_session_like_another_keeps_its_preset_and_merges_what_is_changed():
    la = published("la")
    rules, origin = origin_of(HouseRules(), {"jacoby": False, "deals": False}, preset=la)
    old = replace(rules, edition=1)  # a session of an older chouette: played at today's
    made, like = origin_like(old, origin, {"jacoby": True, "retention": "captain"})
    assert (made.jacoby, made.deals, made.retention, made.edition) == (
        True,
        False,
        "captain",
        EDITION,
    )
    assert like.preset == "la" and like.overrides == (
        Override("deals", True, False),
        Override("retention", "won-not-loss", "captain"),
    )
    made, plain = origin_like(HouseRules(beavers=False, raccoons=False), UNKNOWN, {"deals": False})
    assert plain.preset is None and plain.known
    assert {o.option for o in plain.overrides} == {"beavers", "raccoons", "deals"}
    with pytest.raises(ChouetteError, match="raccoons"):
        origin_like(HouseRules(), Origin(), {"beavers": False, "raccoons": True})


def test_the_origin_of_a_sessions_rules_round_trips_through_the_ledgers_text():
    la = published("la")
    _, origin = origin_of(HouseRules(), {"jacoby": False}, preset=la)
    assert origin == Origin("la", "published", overrides=(Override("jacoby", True, False),))
    assert Origin.from_dict(origin.to_dict()) == origin
    club = ("tuesday", HouseRules(beavers=False, raccoons=False), NOW, "fri")
    rules, saved = origin_of(HouseRules(), {"deals": False}, club=club)
    assert (rules.beavers, rules.deals) == (False, False)
    assert Origin.from_dict(saved.to_dict()) == saved
    assert saved.kind == "club" and saved.saved_from == "fri"
    _, plain = origin_of(HouseRules(), {"retention": "beat-all", "jacoby": True})
    assert plain.preset is None
    assert plain.overrides == (Override("retention", "captain", "beat-all"),)
    with pytest.raises(ChouetteError, match="a session's rules origin is not readable") as err:
        Origin.from_dict({"preset": "la"})
    assert words("da")(err.value.said).startswith("hvor en sessions regler kommer fra, kan ikke")
    assert words("cs")(err.value.said).startswith("původ pravidel sezení nelze přečíst (")


@pytest.mark.parametrize(("rule", "off"), [(r, False) for r in FOLLOW_OFF if r != "partner_from"]
                         + [("partner_from", None)])  # fmt: skip
def test_a_rule_given_off_takes_the_rules_that_need_it_off_unless_they_are_given(rule, off):
    """``--rules la --no-extras``: mandatory extras go with the extras (issue 34)."""
    on = {"beavers": True, "jacoby": True, "extras": True, "partner_from": 5}
    followers = {"beavers": {"beaver_limit": 2, "beavers_by": "team"},
                 "jacoby": {"jacoby_scope": "any-cube-turned"},
                 "extras": {"mandatory_extras": True, "extra_redoubles": True},
                 "partner_from": {"partner_optional": True, "partner_run": True,
                                  "buy_outs": True}}[rule]  # fmt: skip
    base = HouseRules(**{rule: on[rule], **followers})
    rules, changed = override(base, {rule: off})
    assert getattr(rules, rule) == off
    assert all(getattr(rules, f) == FOLLOW_OFF[rule][f] for f in followers)
    assert {rule, *followers} <= {c.option for c in changed} <= {rule, *FOLLOW_OFF[rule]}
    with pytest.raises(ChouetteError, match=r"needs|is a rule of box partners"):
        override(base, {rule: off, **followers})  # given on: the rules refuse them


def test_a_presets_own_words_are_translated_and_its_sources_quoted_as_published():
    """Chouette's choices and notes are its own words, in each catalogue; what a source
    states is quoted as published, in no catalogue."""
    la = published("la")
    assert la is not None
    danish, czech = words("da"), words("cs")
    (jacoby,) = la.ours
    assert danish.gettext(jacoby.words) == (
        "ikke i reglerne, som de blev lagt ud; researchnoterne antager, at L.A. spiller med "
        "den (underforstået)"
    )
    assert czech.gettext(la.notes[-1]) == "Všichni hráči musí házet z kelímku přes házecí věž."
    for preset in PUBLISHED:
        for choice in preset.stated:
            assert danish.gettext(choice.words) == choice.words
            assert czech.gettext(choice.words) == choice.words
        for text in (*(c.words for c in preset.ours), *preset.notes):
            assert danish.gettext(text) != text and czech.gettext(text) != text


def test_a_presets_refusal_is_said_in_the_readers_words():
    with pytest.raises(ChouetteError) as refused:
        check_preset_name("L.A.")
    assert words("da")(refused.value.said).startswith(
        "L.A. er navnet på det offentliggjorte regelsæt la (L.A. chouette rules"
    )
    assert words("cs")(refused.value.said).startswith(
        "L.A. je název zveřejněné sady pravidel la (L.A. chouette rules"
    )
