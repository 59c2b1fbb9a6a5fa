"""Hypothesis strategies: house rules, lines of 3–8 players (some away, by proxy, where the
house rules allow it), and random legal games (extras given among them where allowed)."""

from __future__ import annotations

from collections.abc import Iterator

from hypothesis import strategies as st

from chouette.errors import ChouetteError
from chouette.game import (
    ANSWERS,
    Answer,
    AutoDouble,
    Deal,
    Double,
    End,
    Event,
    Extra,
    Game,
    apply,
    start,
)
from chouette.line import FOLLOWS, Line, name_proxy, new_line
from chouette.rules import EDITION, HouseRules

NAMES = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal"]


@st.composite
def house_rules(draw: st.DrawFn) -> HouseRules:
    beavers = draw(st.booleans())
    return HouseRules(
        cubes=draw(st.sampled_from(["multi", "single"])),
        jacoby=draw(st.booleans()),
        beavers=beavers,
        raccoons=beavers and draw(st.booleans()),
        auto_doubles=draw(st.integers(0, 3)),
        max_cube=draw(st.sampled_from([None, None, 1, 2, 8, 64])),
        retention=draw(st.sampled_from(["captain", "net-profit", "net-not-loss", "beat-all"])),
        acting_captain=draw(st.sampled_from(["keep-seat", "inherit"])),
        newcomer=draw(st.sampled_from(["after-loser", "before-loser"])),
        box_doubles=draw(st.sampled_from(["any", "same-level"])),
        mandatory_beaver=draw(st.booleans()),
        partner_from=draw(st.sampled_from([None, None, 3, 4, 5, 6])),
        partner_pick=draw(st.sampled_from(["next", "last"])),
        partner_share=draw(st.sampled_from([0, 33, 50, 100])),
        extras=draw(st.booleans()),
        consultation=draw(st.sampled_from(["free", "no-cube-no-talk", "none"])),
        proxies=draw(st.booleans()),
        split_at=draw(st.sampled_from([None, 5, 8])),
        edition=draw(st.sampled_from([1, EDITION, EDITION])),  # a session of an older chouette
    )


@st.composite
def lines(draw: st.DrawFn, rules: HouseRules, min_players: int = 3) -> Line:
    players = draw(st.permutations(NAMES))[: draw(st.integers(min_players, 8))]
    line = new_line(players, rules)
    if rules.proxies and line.crew:  # some of the crew away: following the captain, or a proxy
        for member in draw(st.lists(st.sampled_from(line.crew), unique=True)):
            proxy = draw(st.sampled_from([FOLLOWS, FOLLOWS, "zed", line.order[0]]))
            line = name_proxy(line, member, proxy, rules)
    return line


def candidates(game: Game, subset: list[str]) -> Iterator[Event]:
    """Every kind of event a table might try now (legal or not)."""
    yield AutoDouble()
    yield Double("box", tuple(subset))
    yield Double("box", ())
    yield Double("team", ())
    for m in game.members:
        yield Double("member", (m,))
        for act in ANSWERS:
            yield Answer(act, m)
        yield Deal(m, len(m) - 4)
    yield Answer("take", game.box)
    for winner in ("box", "team"):
        for kind in ("single", "gammon", "backgammon"):
            yield End(winner, kind, kind == "gammon")  # type: ignore[arg-type]


def extra_candidates(game: Game, subset: list[str]) -> Iterator[Event]:
    """Extras a table might give now (legal or not): the club rule ``extras``."""
    yield Extra(game.members[-1], "box", 1, 0)
    yield Extra(game.members[0], game.members[-1], 2, 1)
    yield Extra(subset[0], game.partner or game.box, 4, 3)


def legal(game: Game, event: Event) -> Game | None:
    try:
        return apply(game, event)
    except ChouetteError:
        return None


# How often each kind of event is tried: mostly cube play, sometimes a deal or the end.
KINDS: list[type] = [Double] * 4 + [Answer] * 5 + [AutoDouble, Deal, Extra, End, End]


@st.composite
def games(
    draw: st.DrawFn,
    max_events: int = 30,
    rules: HouseRules | None = None,
    line: Line | None = None,
) -> tuple[Line, HouseRules, Game, list[Game]]:
    """A random legal game played to its end, with every state along the way (on the given
    house rules and line, or random ones)."""
    rules = rules or draw(house_rules())
    line = line or draw(lines(rules))
    game = start(line, rules)
    states = [game]
    for _ in range(max_events):
        if game.over:
            break
        subset = draw(st.lists(st.sampled_from(game.members), unique=True, min_size=1))
        tried = [*candidates(game, subset), *extra_candidates(game, subset)]
        every = [(e, g) for e in tried if (g := legal(game, e)) is not None]
        if not every:
            break
        kind = draw(st.sampled_from(KINDS))
        options = next(
            (
                found
                for k in (kind, Answer, Double)
                if (found := [x for x in every if type(x[0]) is k])
            ),
            every,
        )
        _, game = draw(st.sampled_from(options))
        states.append(game)
    while not game.over:  # answer what is pending, then end the board
        pending = next(iter(game.pending), None)
        if pending is None:
            game = apply(game, End(draw(st.sampled_from(["box", "team"]))))
        else:
            options = [g for act in ("take", "drop") if (g := legal(game, Answer(act, pending)))]
            if not options:
                options = [g for m in game.members if (g := legal(game, Answer("drop", m)))]
            game = options[0]
        states.append(game)
    return line, rules, game, states
