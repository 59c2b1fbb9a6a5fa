"""Club presets held to their sources, and the rules card in words (chouette/presets.py,
chouette/card.py): every preset is house rules that can be played, every option a preset
sets is one its source states (in the source's own words, quoted here) or one chouette says
it chose, and the card says each rule in plain words."""

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
    origin_like,
    origin_of,
    rule_lines,
)
from chouette.errors import ChouetteError
from chouette.presets import PUBLISHED, Override, check_preset_name, override, published
from chouette.rules import EDITION, HouseRules

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
    "esk": {"jacoby": True, "retention": "captain"},
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
    with pytest.raises(ChouetteError, match="a session's rules origin is not readable"):
        Origin.from_dict({"preset": "la"})


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
        (HouseRules(beavers_by="team", raccoons=False, beaver_limit=1), "Beavers",
         "Beavers allowed by the team only; raccoons not allowed; a pair plays at most 1 "
         "beaver or raccoon in a game."),
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
