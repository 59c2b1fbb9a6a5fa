"""Cube actions under every option, and every refusal with the message a player reads."""

from __future__ import annotations

import pytest

from chouette.errors import AutoDoubleIgnored, RuleError
from chouette.game import Answer, EventRefused, answer_all, apply_all
from chouette.rules import HouseRules
from files.words import words
from tests.table import ev, outcome, play, play_on

FOUR = "B | C, M1, M2"
SINGLE = HouseRules(cubes="single")

REFUSALS = [
    # (rules, events before, refused event, message)
    (
        HouseRules(),
        ["double C"],
        "double C --by member",
        "C cannot double: a double is already pending on C's cube",
    ),
    (
        HouseRules(),
        ["double C --by member", "take C"],
        "double C --by member",
        "C cannot double: the box owns C's cube",
    ),
    (
        HouseRules(),
        ["double C --by member", "take C", "double C"],
        "double C --by member",
        "C cannot double: a double is already pending on C's cube",
    ),
    (HouseRules(), [], "take C", "there is no double on C's cube to take"),
    (HouseRules(), [], "drop M1", "there is no double on M1's cube to drop"),
    (HouseRules(), ["double C"], "raccoon C", "cannot raccoon: only a beaver can be raccooned"),
    (HouseRules(), ["double C", "beaver C"], "beaver C", "only a double can be beavered"),
    (
        HouseRules(beavers=False, raccoons=False),
        ["double C"],
        "beaver C",
        r"C cannot beaver: beavers are off in this session \(house rule --no-beavers\)",
    ),
    (
        HouseRules(raccoons=False),
        ["double C", "beaver C"],
        "raccoon C",
        r"B cannot raccoon: raccoons are off in this session \(house rule --no-raccoons\)",
    ),
    (
        HouseRules(max_cube=2),
        ["double C", "take C"],
        "double C --by member",
        r"C cannot double: the cube would pass the maximum of 2 \(house rule max-cube 2\)",
    ),
    (
        HouseRules(max_cube=2),
        ["double C"],
        "beaver C",
        "C cannot beaver C's cube: the cube would pass the maximum of 2",
    ),
    (
        HouseRules(max_cube=4),
        ["double C", "beaver C"],
        "raccoon C",
        "B cannot raccoon C's cube: the cube would pass the maximum of 4",
    ),
    (
        HouseRules(box_doubles="same-level"),
        [],
        "double C",
        "the box must double M1, M2 too: under box-doubles same-level",
    ),
    (
        HouseRules(mandatory_beaver=True),
        ["double C M1", "drop M1"],
        "take C",
        "C is the only one to take the box's double: under the house rule mandatory-beaver C must "
        "beaver or drop",
    ),
    (
        HouseRules(mandatory_beaver=True),
        ["double C M1", "take C"],
        "drop M1",
        "M1's answer would leave C the only one to take",
    ),
    (HouseRules(), [], "double zed", "zed is not playing this game"),
    (HouseRules(), [], "double B", "B is the box: name a member of the team"),
    (
        HouseRules(),
        ["double C", "drop C"],
        "double C --by member",
        r"C is already out of this game \(C dropped\)",
    ),
    (
        HouseRules(),
        ["double C"],
        "end box",
        "the game cannot end with a decision pending on C's cube",
    ),
    (HouseRules(), [], "double", "name the members the box doubles"),
    (HouseRules(), [], "double C C", "C is named twice"),
    (HouseRules(), [], "double --by team", "--by team is for single-cube play"),
    (HouseRules(), [], "double C M1 --by member", "name exactly one member"),
    (SINGLE, [], "double C --by member", "the captain doubles for the team: use --by team"),
    (
        SINGLE,
        ["double"],
        "beaver M1",
        "the captain decides for the whole team: name the captain, C",
    ),
    (
        SINGLE,
        ["double --by team"],
        "take M1",
        "the box answers for the whole team: name the captain",
    ),
    (
        SINGLE,
        ["double", "take C", "take M1", "take M2"],
        "double",
        "the box cannot double C: the team owns the cube",
    ),
    (SINGLE, ["double --by team", "take C"], "double --by team", "C cannot double: the box owns"),
    (
        HouseRules(auto_doubles=2),
        ["double C"],
        "auto",
        "automatic doubles happen on the opening roll",
    ),
]


@pytest.mark.parametrize(("rules", "before", "event", "message"), REFUSALS)
def test_refused_events_name_the_player_and_change_nothing(rules, before, event, message):
    game = play(FOUR, *before, rules=rules)
    snapshot = repr(game)
    with pytest.raises(RuleError, match=message):
        play_on(game, event)
    assert repr(game) == snapshot


def test_automatic_doubles_are_off_by_default():
    with pytest.raises(AutoDoubleIgnored, match="automatic doubles are off"):
        play(FOUR, "auto")


def test_automatic_doubles_stop_at_the_maximum_cube():
    rules = HouseRules(auto_doubles=3, max_cube=2)
    game = play(FOUR, "auto", rules=rules)
    with pytest.raises(AutoDoubleIgnored, match="maximum of 2"):
        play_on(game, "auto")


def test_ending_a_finished_game_is_refused():
    game = play("B | C", "double C", "drop C")
    assert game.over
    with pytest.raises(RuleError, match="this game is over"):
        play_on(game, "end box")


def test_every_pair_dropping_ends_the_game_without_a_board_result():
    game = play(FOUR, "double C M1 M2", "drop C", "drop M1", "drop M2")
    assert game.over and game.result is None
    assert outcome(game).points == {"B": 3, "C": -1, "M1": -1, "M2": -1}


def test_resignation_books_like_the_level_resigned_with_jacoby():
    game = play(FOUR, "double M1 --by member", "take M1", "end box gammon resigned")
    assert outcome(game).pairs == {"C": -1, "M1": -4, "M2": -1}


def test_a_deal_closes_one_pair_at_the_agreed_points():
    game = play(FOUR, "double C", "deal C 1", "end box")
    assert outcome(game).pairs == {"C": 1, "M1": -1, "M2": -1}


def test_members_double_the_box_independently():
    game = play(FOUR, "double C --by member", "double M1 --by member", "take C", "beaver M1")
    assert (game.cubes["C"].value, game.cubes["C"].owner) == (2, "box")
    assert (game.cubes["M1"].value, game.cubes["M1"].owner) == (2, "box")
    game = play_on(game, "take M1")
    assert (game.cubes["M1"].value, game.cubes["M1"].owner) == (4, "box")


def test_same_level_allows_the_box_to_double_every_cube_at_that_level():
    rules = HouseRules(box_doubles="same-level")
    game = play(FOUR, "double C --by member", "take C", "double M1 M2", rules=rules)
    assert sorted(game.pending) == ["M1", "M2"]


def test_mandatory_beaver_lets_a_lone_member_beaver():
    rules = HouseRules(mandatory_beaver=True)
    game = play(FOUR, "double C M1", "drop M1", "beaver C", "take C", rules=rules)
    assert game.cubes["C"].value == 4
    game = play(FOUR, "double C M1", "take M1", "take C", rules=rules)
    assert game.cubes["C"].value == game.cubes["M1"].value == 2


def test_single_cube_beaver_is_the_captains_decision_for_everyone_still_in():
    game = play(FOUR, "double", "take M2", "drop M1", "beaver C", rules=SINGLE)
    assert {m: c.value for m, c in game.cubes.items() if c.live} == {"C": 2, "M2": 2}
    assert sorted(game.pending) == ["C", "M2"]
    game = play_on(game, "raccoon C", "take C")
    assert {m: (c.value, c.owner) for m, c in game.cubes.items() if c.live} == {
        "C": (8, "member"),
        "M2": (8, "member"),
    }
    assert outcome(play_on(game, "end team")).pairs == {"C": 8, "M1": -1, "M2": 8}


def test_single_cube_box_drops_the_teams_double_for_everyone():
    game = play(FOUR, "double --by team", "drop C", rules=SINGLE)
    assert outcome(game).pairs == {"C": 1, "M1": 1, "M2": 1}


def test_single_cube_acting_captain_answers_after_the_captain_drops():
    game = play(FOUR, "double", "drop C", "take M1", "take M2", "double --by team", rules=SINGLE)
    with pytest.raises(RuleError, match="name the captain, M1"):
        play_on(game, "take M2")
    assert outcome(play_on(game, "take M1", "end team")).pairs == {"C": -1, "M1": 4, "M2": 4}


def test_take_all_answers_every_pending_double():
    game = play(FOUR, "double C M1")
    assert answer_all(game, "take") == [Answer("take", "C"), Answer("take", "M1")]
    game = play(FOUR, "double C --by member", "double M2 --by member")
    assert answer_all(game, "drop") == [Answer("drop", "C"), Answer("drop", "M2")]


def test_take_all_in_single_cube_is_one_answer_for_a_team_double():
    game = play(FOUR, "double --by team", rules=SINGLE)
    assert answer_all(game, "drop") == [Answer("drop", "C")]


def test_take_all_with_nothing_pending_is_refused():
    with pytest.raises(RuleError, match="no pending double to take"):
        answer_all(play(FOUR), "take")


def test_a_game_needs_a_box_and_a_captain():
    from chouette.game import start
    from chouette.line import new_line

    with pytest.raises(RuleError, match="a game needs a box and a captain: seated now is ann"):
        start(new_line(["ann"], HouseRules()), HouseRules())


# ------------------------------------------------------------ mandatory beaver


MANDATORY = HouseRules(mandatory_beaver=True)


def test_mandatory_beaver_never_binds_a_two_player_session():
    game = play("B | C", "double C", "take C", rules=MANDATORY)
    assert (game.cubes["C"].value, game.cubes["C"].owner) == (2, "member")


def test_mandatory_beaver_never_binds_a_member_the_box_doubled_alone():
    game = play("B | C, M1, M2", "double M1", "take M1", rules=MANDATORY)
    assert game.cubes["M1"].value == 2


def test_mandatory_beaver_binds_the_lone_taker_of_a_double_to_several():
    with pytest.raises(RuleError, match="C is the only one to take the box's double"):
        play("B | C, M1, M2", "double C M1", "drop M1", "take C", rules=MANDATORY)
    game = play("B | C, M1, M2", "double C M1", "drop M1", "beaver C", rules=MANDATORY)
    assert game.cubes["C"].offer is not None and game.cubes["C"].offer.stage == "beaver"


def test_mandatory_beaver_in_single_cube_binds_the_last_member_in():
    rules = HouseRules(mandatory_beaver=True, cubes="single")
    with pytest.raises(RuleError, match="M1 is the only one to take"):
        play("B | C, M1", "double", "drop C", "take M1", rules=rules)
    play("B | C", "double", "take C", rules=rules)  # two players: a plain take


# ------------------------------------------------------------ the single cube's beaver


def test_single_cube_captain_beavers_only_once_every_member_has_answered():
    with pytest.raises(RuleError) as refused:
        play("B | C, M1, M2", "double", "beaver C", rules=SINGLE)
    assert str(refused.value) == (
        "C cannot beaver for the team yet: M1, M2 still have to take or drop the box's double "
        "(the beaver covers only the members who take)"
    )
    with pytest.raises(RuleError, match="M2 still has to take or drop"):
        play("B | C, M1, M2", "double", "drop M1", "beaver C", rules=SINGLE)
    game = play("B | C, M1, M2", "double", "drop M1", "take M2", "beaver C", rules=SINGLE)
    assert sorted(game.pending) == ["C", "M2"]
    assert outcome(play_on(game, "take C", "end team")).pairs == {"C": 4, "M1": -1, "M2": 4}


def test_single_cube_captain_who_took_may_still_beaver_once_the_answers_are_in():
    game = play("B | C, M1, M2", "double", "take C", "take M1", "drop M2", "beaver C", rules=SINGLE)
    assert sorted(game.pending) == ["C", "M1"]
    game = play_on(game, "drop C")  # the box refuses the beaver: pays the doubled value
    assert outcome(game).pairs == {"C": 2, "M1": 2, "M2": -1}


def test_single_cube_the_acting_captain_beavers_for_those_still_in():
    game = play("B | C, M1, M2", "double", "drop C", "take M2", "beaver M1", rules=SINGLE)
    assert sorted(game.pending) == ["M1", "M2"]
    with pytest.raises(RuleError, match="name the captain, M1"):
        play("B | C, M1, M2", "double", "drop C", "take M1", "beaver M2", rules=SINGLE)


def test_single_cube_the_beaver_window_closes_with_the_next_cube_action():
    game = play("B | C, M1", "double", "take C", "take M1", "double --by team", rules=SINGLE)
    game = play_on(game, "take C")
    with pytest.raises(RuleError, match="there is no double on C's cube to beaver"):
        play_on(game, "beaver C")


def test_edition_1_single_cube_beaver_swept_in_the_members_still_to_answer():
    old = HouseRules(cubes="single", edition=1)
    game = play("B | C, M1, M2", "double", "beaver C", rules=old)
    assert sorted(game.pending) == ["C", "M1", "M2"]


# ------------------------------------------------------------ take --all


def test_take_all_answers_one_side_at_a_time():
    game = play("B | C, M1, M2", "double C M1", "double M2 --by member")
    with pytest.raises(RuleError) as refused:
        answer_all(game, "take")
    assert str(refused.value) == (
        "take --all answers for one side, but both have answers pending: the box on M2's "
        "cube, and C, M1 on their own; take them by name"
    )
    game = play_on(game, "take M2")
    assert answer_all(game, "take") == [Answer("take", "C"), Answer("take", "M1")]
    game = play("B | C, M1", "double C M1", "beaver C", "beaver M1")
    assert answer_all(game, "drop") == [Answer("drop", "C"), Answer("drop", "M1")]


# ---------------------------------------------------------------- in the reader's words

IN_WORDS = [
    # (rules, events before, refused event, the refusal in Danish, in Czech)
    (
        HouseRules(),
        ["double C --by member", "take C"],
        "double C --by member",
        "C kan ikke doble: boksen ejer Cs terning",
        "C nemůže zdvojit: kostku hráče C vlastní bankéř",
    ),
    (
        HouseRules(max_cube=2),
        ["double C"],
        "beaver C",
        "C kan ikke beavere Cs terning: terningen ville gå over maksimum på 2 (husregel "
        "max-cube 2)",
        "C nemůže bobrovat kostku hráče C: kostka by přesáhla maximum 2 (domácí pravidlo "
        "max-cube 2)",
    ),
    (
        HouseRules(resignations="per-member"),
        ["resign single C M1"],
        "end box",
        "spillet kan ikke slutte, mens boksens opgivelse venter på svar fra C og M1: tag imod "
        "den eller afvis den først (resign --accept eller --refuse)",
        "hra nemůže skončit, dokud vzdání bankéře čeká na odpověď od C a M1: nejdřív ho "
        "přijměte, nebo odmítněte (resign --accept nebo --refuse)",
    ),
    (
        HouseRules(),
        [],
        "take M1",
        "der er ingen dobling på M1s terning at tage",
        "na kostce hráče M1 není žádné zdvojení, které by šlo přijmout",
    ),
]


@pytest.mark.parametrize(("rules", "before", "event", "danish", "czech"), IN_WORDS)
def test_a_refusal_is_said_in_the_readers_words(rules, before, event, danish, czech):
    """A refusal is a value: English as it always read (``str``), and in Danish and Czech
    where a reader of those languages meets it, the seeds' words for the game's terms."""
    game = play(FOUR, *before, rules=rules)
    with pytest.raises(RuleError) as refused:
        play_on(game, event)
    assert words("da")(refused.value.said) == danish
    assert words("cs")(refused.value.said) == czech


def test_a_count_in_a_refusal_takes_each_languages_plural():
    """Czech has three forms: 1 zdvojení, 2 zdvojení (a few), 5 zdvojení (many)."""
    rules = HouseRules(auto_doubles=1, auto_past_limit="carry-over")
    for carried, danish, czech in (
        (1, "1 automatisk dobling blev", "bylo přeneseno 1 automatické zdvojení: bankéř ho"),
        (2, "2 automatiske doblinger blev", "byla přenesena 2 automatická zdvojení: bankéř je"),
        (5, "5 automatiske doblinger blev", "bylo přeneseno 5 automatických zdvojení: bankéř je"),
    ):
        with pytest.raises(RuleError) as refused:
            play("B | C, M1", "double M1", rules=rules, carry=carried)
        assert danish in words("da")(refused.value.said)
        assert czech in words("cs")(refused.value.said)
        assert str(refused.value).startswith(f"{carried} automatic double")


def test_one_of_several_events_refused_carries_the_reasons_value():
    """``EventRefused`` (a record's or a command's several events) says the rules' own
    refusal, in the reader's words, not its English."""
    game = play(FOUR)
    with pytest.raises(EventRefused) as refused:
        apply_all(game, [ev("double C"), ev("take M1")])
    assert refused.value.index == 2
    assert str(refused.value) == "there is no double on M1's cube to take"
    assert words("da")(refused.value.said) == "der er ingen dobling på M1s terning at tage"


def test_an_ignored_automatic_double_says_why_in_the_readers_words():
    applied = apply_all(play(FOUR), [ev("auto")])
    ((index, why),) = applied.ignored
    assert index == 1
    assert str(why) == (
        "the tied roll doubles nothing, as automatic doubles are off in this session"
    )
    assert words("da")(why) == (
        "det uafgjorte slag dobler intet, da automatiske doblinger er slået fra i denne session"
    )
    assert words("cs")(why) == (
        "shodný hod nic nezdvojuje, protože automatická zdvojení jsou v tomto sezení vypnutá"
    )
