"""Hypothesis strategies: house rules, lines of 3–8 players (some away, by proxy, where the
house rules allow it), and random legal games (extras given among them where allowed)."""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from typing import Any

from hypothesis import strategies as st

from chouette.errors import ChouetteError
from chouette.game import (
    ANSWERS,
    Answer,
    AutoDouble,
    BuyOut,
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
    apply,
    start,
)
from chouette.line import FOLLOWS, Line, choose_partner, name_proxy, new_line
from chouette.rules import EDITION, HouseRules

NAMES = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal"]
PERMUTATIONS = st.permutations(NAMES)


# A strategy is made once per set of values and kept: Hypothesis checks every strategy it
# is given anew before its first draw, which cost more than the game drawn.
@functools.cache
def _sampled(typed: tuple[tuple[type, object], ...]) -> st.SearchStrategy[Any]:
    return st.sampled_from([value for _, value in typed])


def sampled(values: Sequence[Any]) -> st.SearchStrategy[Any]:
    """``st.sampled_from(values)``, made once for these values (by type too: ``True`` is
    not ``1``)."""
    return _sampled(tuple((type(value), value) for value in values))


@functools.cache
def subsets(values: tuple[str, ...], min_size: int = 1) -> st.SearchStrategy[list[str]]:
    """Some of ``values`` (at least ``min_size``), each once, in the order drawn."""
    return st.lists(sampled(values), unique=True, min_size=min_size)


def index(size: int) -> st.SearchStrategy[int]:
    """An index into a list of ``size`` things, each as likely (``st.sampled_from`` of
    things that are not hashable, such as games)."""
    return st.integers(0, size - 1)


@st.composite
def house_rules(draw: st.DrawFn) -> HouseRules:
    beavers = draw(st.booleans())
    jacoby = draw(st.booleans())
    extras = draw(st.booleans())
    mandatory_beaver = draw(st.booleans())
    partner_from = draw(sampled([None, None, 3, 4, 5, 6]))
    partner_pick = draw(sampled(["next", "last", "box"]))
    partners = partner_from is not None
    table_stakes = None if partners or extras else draw(sampled([None, None, 2, 5]))
    max_cube = draw(sampled([None, None, 1, 2, 8, 64]))
    starting_cube = draw(sampled([1, 1, 1, 2, 4]))  # (a tournament's level)
    if max_cube is not None:
        starting_cube = min(starting_cube, max_cube)
    return HouseRules(
        cubes=draw(sampled(["multi", "single"])),
        jacoby=jacoby,
        jacoby_scope=draw(sampled(["per-cube", "any-cube-turned"])) if jacoby else "per-cube",
        beavers=beavers,
        raccoons=beavers and draw(st.booleans()),
        beavers_by=draw(sampled(["both", "both", "team", "box"])) if beavers else "both",
        beaver_limit=draw(sampled([None, None, 1, 2, 3])) if beavers else None,
        auto_past_limit=draw(sampled(["ignored", "box-choice", "carry-over"])),
        box_takes=draw(sampled(["any", "half", "break-even"])),
        mandatory_extras=extras and not mandatory_beaver and draw(st.booleans()),
        extra_redoubles=extras and draw(st.booleans()),
        resignations=draw(sampled(["board", "per-member"])),
        deals=draw(sampled([True, True, False])),
        auto_doubles=draw(st.integers(0, 3)),
        max_cube=max_cube,
        starting_cube=starting_cube,
        retention=draw(
            sampled(
                ["captain", "net-profit", "net-not-loss", "won-not-loss", "beat-all", "score-sign"]
            )
        ),
        acting_captain=draw(sampled(["keep-seat", "inherit"])),
        newcomer=draw(sampled(["after-loser", "before-loser"])),
        box_doubles=draw(sampled(["any", "same-level", "with-captain"])),
        mandatory_beaver=mandatory_beaver,
        partner_from=partner_from,
        partner_pick=partner_pick,
        partner_optional=partners and partner_pick != "box" and draw(st.booleans()),
        partner_run=partners and draw(st.booleans()),
        buy_outs=partners and draw(st.booleans()),
        table_stakes=table_stakes,
        roll_off=draw(sampled(["one-die", "two-dice", "four-dice"])),
        partner_share=draw(sampled([0, 33, 50, 100])),
        extras=extras,
        consultation=draw(sampled(["free", "no-cube-no-talk", "none", "after-accept"])),
        proxies=draw(st.booleans()),
        split_at=draw(sampled([None, 5, 8])),
        edition=draw(sampled([1, 2, EDITION, EDITION])),  # older chouettes' sessions
    )


@st.composite
def lines(draw: st.DrawFn, rules: HouseRules, min_players: int = 3) -> Line:
    most = 8 if rules.table_stakes is None else min(8, rules.table_stakes + 1)  # a box covers
    players = draw(PERMUTATIONS)[: draw(st.integers(min_players, max(most, min_players)))]
    line = new_line(players, rules)
    if rules.partner_pick == "box" and rules.partner_from is not None:
        crew = line.crew if len(line.active) >= rules.partner_from else ()
        named = draw(sampled([None, *crew]))  # the box names a partner, or plays alone
        line = choose_partner(line, named, rules) if named is not None else line
    elif rules.partner_optional and line.partner is not None and draw(st.booleans()):
        line = choose_partner(line, None, rules)
    if rules.proxies and line.crew:  # some of the crew away: following the captain, or a proxy
        for member in draw(subsets(tuple(line.crew), min_size=0)):
            proxy = draw(sampled([FOLLOWS, FOLLOWS, line.order[1], line.order[0]]))
            line = name_proxy(line, member, proxy, rules)
    return line


def candidates(game: Game, subset: list[str]) -> Iterator[Event]:
    """Every kind of event a table might try now (legal or not)."""
    yield AutoDouble()
    yield AutoDouble(box_chose=True)
    yield Carry(True, game.carry_in or 1)
    yield Carry(False, game.carry_in or 1)
    yield Double("box", tuple(subset))
    yield Double("box", ())
    yield Double("team", ())
    for m in game.members:
        yield Double("member", (m,))
        for act in ANSWERS:
            yield Answer(act, m)
        yield Deal(m, len(m) - 4)
        yield ResignAnswer(True, m)
        yield ResignAnswer(False, m)
    yield Answer("take", game.box)
    yield BuyOut()
    yield Resign("gammon", tuple(subset))
    yield Resign("single")
    for winner in ("box", "team"):
        for kind in ("single", "gammon", "backgammon"):
            yield End(winner, kind, kind == "gammon")  # type: ignore[arg-type]


def extra_candidates(game: Game, subset: list[str]) -> Iterator[Event]:
    """Extras a table might give now (legal or not): the club rule ``extras``, and the
    redoubles of those given (``extra-redoubles``)."""
    yield Extra(game.members[-1], "box", 1, 0)
    yield Extra(game.members[0], game.members[-1], 2, 1)
    yield Extra(subset[0], game.partner or game.box, 4, 3)
    for extra in game.extras[-2:]:
        yield ExtraDouble(extra.team_side, extra.box_side)
        yield ExtraAnswer("take", extra.team_side, extra.box_side)
        yield ExtraAnswer("drop", extra.team_side, extra.box_side)


def legal(game: Game, event: Event) -> Game | None:
    try:
        return apply(game, event)
    except ChouetteError:
        return None


def legal_options(game: Game, subset: list[str], kind: type) -> list[Game]:
    """The games after the legal events of ``kind`` a table might try now; if none, after
    its legal answers, else its legal doubles, else after any legal event (none: the table
    is stuck). Only the events of the kinds looked at are applied: each is applied once,
    the expensive part of a drawn game."""
    tried = [*candidates(game, subset), *extra_candidates(game, subset)]
    looked: list[type] = []
    for k in (kind, Answer, Double):
        if k in looked:
            continue
        looked.append(k)
        found = [g for e in tried if type(e) is k and (g := legal(game, e)) is not None]
        if found:
            return found
    return [g for e in tried if type(e) not in looked and (g := legal(game, e)) is not None]


def given_extras(game: Game, subset: list[str]) -> list[Game]:
    """The games after each extra a table might give now that is legal."""
    tried = [e for e in extra_candidates(game, subset) if type(e) is Extra]
    return [g for e in tried if (g := legal(game, e)) is not None]


# How often each kind of event is tried: mostly cube play, sometimes a deal or the end.
KINDS: list[type] = (
    [Double] * 4
    + [Answer] * 5
    + [AutoDouble, Carry, Deal, Extra, ExtraDouble, ExtraAnswer, Resign, ResignAnswer, BuyOut]
    + [End, End]
)


@st.composite
def games(
    draw: st.DrawFn,
    max_events: int = 30,
    rules: HouseRules | None = None,
    line: Line | None = None,
    with_extra: bool = False,
) -> tuple[Line, HouseRules, Game, list[Game]]:
    """A random legal game played to its end, with every state along the way (on the given
    house rules and line, or random ones). ``with_extra`` (house rule ``extras``): where no
    extra was given before the step that would end the board, one is given instead, so that
    a law of extras draws games that have one rather than throwing the others away."""
    rules = rules or draw(house_rules())
    line = line or draw(lines(rules))
    carry = None  # what the last game carried over, where doubles carry over
    if rules.auto_past_limit == "carry-over":
        carry = draw(sampled([None, 0, 0, 1, 2]))
    game = start(line, rules, carry)
    states = [game]
    for _ in range(max_events):
        if game.over:
            break
        subset = draw(subsets(tuple(game.members)))
        kind = draw(sampled(KINDS))
        options = legal_options(game, subset, kind)
        if not options:
            break
        after = options[draw(index(len(options)))]
        if with_extra and after.over and not game.extras:
            extras = given_extras(game, subset)
            after = extras[draw(index(len(extras)))] if extras else after
        game = after
        states.append(game)
    while not game.over:  # answer what is pending, then end the board
        if with_extra and not game.extras:
            extras = given_extras(game, [draw(sampled(game.members))])
            if extras:
                game = extras[draw(index(len(extras)))]
                states.append(game)
                continue
        pending = next(iter(game.pending), None)
        resigning = next(iter(game.resigning), None)
        doubled = [e for e, c in zip(game.extras, game.extra_cubes, strict=True) if c.offered]
        if game.carry_in and not game.events:
            game = apply(game, Carry(draw(st.booleans()), game.carry_in))
        elif resigning is not None:
            game = apply(game, ResignAnswer(draw(st.booleans()), resigning))
        elif doubled:
            act = draw(sampled(["take", "drop"]))
            game = apply(game, ExtraAnswer(act, doubled[0].team_side, doubled[0].box_side))
        elif pending is None:
            game = apply(game, End(draw(sampled(["box", "team"]))))
        else:
            options = [g for act in ("take", "drop") if (g := legal(game, Answer(act, pending)))]
            if not options:
                options = [g for m in game.members if (g := legal(game, Answer("drop", m)))]
            game = options[0]
        states.append(game)
    return line, rules, game, states
