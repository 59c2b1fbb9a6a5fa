"""The scorekeeper's page offers exactly what the rules allow (``web.moves``: pure, no
server). That each button posts the CLI's words for it is tested in test_serve_table.py."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from chouette.errors import ChouetteError
from chouette.game import (
    Answer,
    AutoDouble,
    BuyOut,
    CaptainResign,
    Carry,
    Deal,
    Double,
    End,
    Event,
    Extra,
    ExtraAnswer,
    ExtraDouble,
    Game,
    Resign,
    ResignAnswer,
    answer_all,
    apply,
    replay,
)
from chouette.line import Line, new_line
from chouette.rules import HouseRules
from tests.examples import examples
from tests.strategies import candidates, extra_candidates, games
from web.moves import Legal, legal

STANDARD = HouseRules()
LINE = new_line(["ann", "bob", "cat", "dan"], STANDARD)


def play(*events: Event, rules: HouseRules = STANDARD, line: Line = LINE) -> Game:
    return replay(line, rules, events)


def sets(*groups: str) -> frozenset[frozenset[str]]:
    return frozenset(frozenset(g.split()) for g in groups)


# ---------------------------------------------------------------- the table, state by state


def test_before_the_first_event_everything_that_starts_a_game_is_offered():
    found = legal(LINE, STANDARD, None)
    assert not found.in_game and found.playable
    assert found.members == ("bob", "cat", "dan")
    assert found.box_doubles == sets("bob", "cat", "dan", "bob cat", "bob dan", "cat dan",
                                     "bob cat dan")  # fmt: skip
    assert found.member_doubles == {"bob", "cat", "dan"}
    assert found.answers == {} and not found.take_all and not found.drop_all
    assert found.deals == {"bob", "cat", "dan"} and found.end
    assert not found.auto_double  # automatic doubles are off under the standard rules
    assert not found.undo
    # between games the line can change: anyone may leave or sit out, nobody sits in
    assert found.join and found.leave == found.sit_out == {"ann", "bob", "cat", "dan"}
    assert found.sit_in == frozenset()


def test_a_double_waiting_for_an_answer_offers_the_answers_and_blocks_the_end():
    found = legal(LINE, STANDARD, play(Double("box", ("bob", "cat"))))
    assert found.in_game
    assert found.answers == {"bob": {"take", "drop", "beaver"}, "cat": {"take", "drop", "beaver"}}
    assert found.take_all and found.drop_all
    assert found.box_doubles == sets("dan") and found.member_doubles == {"dan"}
    assert not found.end  # a decision is pending
    assert found.deals == {"bob", "cat", "dan"}
    assert not found.join and not found.leave and not found.sit_out  # the line waits


def test_after_a_beaver_the_box_answers_and_take_all_waits_for_both_sides():
    found = legal(LINE, STANDARD, play(Double("box", ("bob", "cat")), Answer("beaver", "bob")))
    assert found.answers == {"bob": {"take", "drop", "raccoon"}, "cat": {"take", "drop", "beaver"}}
    assert not found.take_all and not found.drop_all  # the box on bob, cat on their own


def test_a_member_who_owns_the_cube_may_double_and_the_box_may_not():
    found = legal(LINE, STANDARD, play(Double("box", ("bob",)), Answer("take", "bob")))
    assert "bob" in found.member_doubles
    assert not found.box_may_double("bob") and found.box_may_double("cat")
    assert found.end


def test_a_member_out_of_the_game_has_no_button_left():
    found = legal(LINE, STANDARD, play(Double("box", ("bob",)), Answer("drop", "bob")))
    assert "bob" not in found.answers and "bob" not in found.deals
    assert "bob" not in found.member_doubles and not found.box_may_double("bob")


def test_mandatory_beaver_refuses_the_lone_take():
    rules = replace(STANDARD, mandatory_beaver=True)
    game = play(Double("box", ("bob", "cat")), Answer("drop", "cat"), rules=rules)
    found = legal(LINE, rules, game)
    assert found.answers["bob"] == {"drop", "beaver"}


def test_under_the_same_level_rule_only_whole_levels_are_offered():
    rules = replace(STANDARD, box_doubles="same-level")
    game = play(Double("member", ("bob",)), Answer("take", "bob"), rules=rules)  # bob's at 2
    found = legal(LINE, rules, game)
    assert found.box_doubles == sets("bob", "cat dan", "bob cat dan")
    assert found.box_doubles_most == ["bob", "cat", "dan"]
    assert found.box_double_lists() == [["bob"], ["cat", "dan"], ["bob", "cat", "dan"]]


def test_single_cube_the_box_doubles_the_one_cube_and_the_captain_answers_for_the_team():
    rules = replace(STANDARD, cubes="single")
    found = legal(LINE, rules, None)
    assert found.box_doubles == {frozenset()} and found.team_double
    assert found.member_doubles == frozenset()
    found = legal(LINE, rules, play(Double("team"), rules=rules))
    assert found.answers == {"bob": {"take", "drop", "beaver"}}  # the box answers, naming bob
    assert found.take_all


def test_automatic_doubles_only_on_the_opening_roll_and_up_to_the_limit():
    rules = replace(STANDARD, auto_doubles=1)
    assert legal(LINE, rules, None).auto_double
    assert not legal(LINE, rules, play(AutoDouble(), rules=rules)).auto_double
    assert not legal(LINE, rules, play(Double("box", ("bob",)), rules=rules)).auto_double


def test_sitting_out_players_sit_in_and_nobody_plays_without_a_captain():
    line = replace(LINE, sitting_out=frozenset({"cat"}))
    found = legal(line, STANDARD, None)
    assert found.sit_in == {"cat"} and "cat" not in found.sit_out
    alone = new_line(["ann", "bob"], STANDARD)
    lonely = legal(replace(alone, sitting_out=frozenset({"bob"})), STANDARD, None)
    assert not lonely.playable and not lonely.end and lonely.join and lonely.sit_in == {"bob"}


# ---------------------------------------------------------------- the law


def enabled(found: Legal, game: Game, event: Event) -> bool:
    """Whether the page offers ``event`` (or the same event as the page writes it)."""
    if isinstance(event, AutoDouble):
        return found.auto_double or (event.box_chose and found.auto_double_box)
    if isinstance(event, Carry):
        return bool(found.carry) and (found.carry_accept or not event.accepted)
    if isinstance(event, Resign):
        if len(event.members) == 1 and event.members[0] in found.resign_to:
            return found.resign_to[event.members[0]]  # (the box resigns to one member)
        return found.resign
    if isinstance(event, CaptainResign):
        return found.captain_resigns.get(event.successor, False)
    if isinstance(event, ExtraDouble | ExtraAnswer):
        act = "double-extra" if isinstance(event, ExtraDouble) else f"{event.act}-extra"
        return found.extra_act(event.team_side, event.box_side, act)
    if isinstance(event, ResignAnswer):
        return found.resign_answer(
            event.member, "resign-accept" if event.accept else "resign-refuse"
        )
    if isinstance(event, Double):
        if event.by == "team":
            return found.team_double
        if event.by == "member":
            return event.members[0] in found.member_doubles
        targets = event.members
        if game.rules.cubes == "single":  # the page names no member: the one cube
            live = {m for m in game.members if game.cubes[m].live}
            if targets and set(targets) != live:
                return False
            targets = ()
        return len(set(targets)) == len(targets) and frozenset(targets) in found.box_doubles
    if isinstance(event, Answer):
        return found.answer(event.member, event.act)
    if isinstance(event, Deal):
        return event.member in found.deals
    if isinstance(event, BuyOut):
        return found.buy_out
    assert isinstance(event, End)
    return found.end


def offered(game: Game, event: Event) -> bool:
    """Whether the page has a button for ``event`` at all: it answers a carry-over only where
    it knows what the last game carried over (a game's first event, from the ledger), and
    the box resigns from it to every member still in, or (``resignations per-member``) to
    one member; an extra is given with a form, not a button."""
    if isinstance(event, Carry):
        return game.carry_in is not None
    if isinstance(event, Extra):
        return False
    if (
        isinstance(event, Resign)
        and len(event.members) == 1
        and game.rules.resignations == "per-member"
    ):
        return True
    if isinstance(event, Resign) and event.members:
        waiting = {m for m in game.members if game.cubes[m].live and game.cubes[m].resign is None}
        return set(event.members) == waiting
    return True


def applies(game: Game, events: list[Event]) -> bool:
    """Whether the rules accept every one of ``events`` (an automatic double past the limit,
    which changes nothing, counts as refused: the page does not offer it)."""
    try:
        for event in events:
            game = apply(game, event)
    except ChouetteError:
        return False
    return True


@settings(max_examples=examples(100))
@given(games(), st.data())
def test_a_button_is_enabled_exactly_when_the_rules_accept_its_event(played, data):
    _, _, _, states = played
    for game in states:
        if game.over:
            continue
        found = legal(game.start_line, game.rules, game)
        subset = data.draw(st.lists(st.sampled_from(game.members), unique=True, min_size=1))
        others = [
            *extra_candidates(game, subset),
            *(Resign("gammon", (m,)) for m in game.members),
            *(CaptainResign("single", m) for m in game.members),
        ]
        for event in [*candidates(game, subset), *others]:
            if not offered(game, event):
                continue
            assert enabled(found, game, event) == applies(game, [event]), event
        for act in ("take", "drop"):
            wanted = found.take_all if act == "take" else found.drop_all
            try:
                events = answer_all(game, act)
            except ChouetteError:
                assert not wanted
                continue
            assert wanted == applies(game, events)


def test_a_line_of_session_alone_names_the_session_to_switch_to():
    """The keeper's session picker posts ``--session NAME``, as the table's prompt moves."""
    from web.moves import line_of, session_alone

    assert session_alone(line_of([("--session", "thursday night")])) == "thursday night"
    assert session_alone("--session friday") == "friday"
    assert session_alone("--session friday status") is None  # a command in that session
    assert session_alone("take bob") is None
    assert session_alone("--session 'unclosed") is None
