"""One game on one board: a cube per box–member pair, moved by events applied one at a time.

A game is a list of events. :func:`apply` takes the game as it stands and one event and
returns the new game, or refuses the event with a :class:`RuleError` naming the player and
the reason; a refused event changes nothing. Live commands and chouette game records both
produce these same events and play them through :func:`apply_all`, and a stored game is its
events replayed (:func:`replay`). Engine imports are other programs' two-party games, whose
events the files do not keep whole: they are scored by the same rules, the functions of
:mod:`chouette.outcome` that score a pair here.

Cube bookkeeping: ``value`` is the stake in force for the pair. A pending offer (a double,
a beaver or a raccoon) would double it; whoever refuses a pending offer pays ``value``.
A beaver is a take plus an immediate redouble by the taker, a raccoon a take of the beaver
plus one more turn; either way the side that was doubled first ends up owning the cube.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Literal

from chouette.errors import AutoDoubleIgnored, RuleError
from chouette.line import Line, send_down
from chouette.outcome import MULTIPLIER, Kind, pair_points
from chouette.rules import HouseRules

Party = Literal["box", "member"]
Owner = Literal["centre", "box", "member"]
Stage = Literal["double", "beaver", "raccoon"]
AnswerAct = Literal["take", "drop", "beaver", "raccoon"]
Winner = Literal["box", "team"]

ANSWERS: tuple[AnswerAct, ...] = ("take", "drop", "beaver", "raccoon")


def other(party: Party) -> Party:
    return "member" if party == "box" else "box"


# ---------------------------------------------------------------- events


@dataclass(frozen=True)
class AutoDouble:
    """A tied opening roll: every cube doubles and stays centred."""

    def describe(self) -> str:
        return "auto-double"


@dataclass(frozen=True)
class Double:
    """``by="box"``: the box doubles ``members``; ``"member"``: that one member doubles the box;
    ``"team"`` (single cube): the captain turns the team's cube."""

    by: Literal["box", "member", "team"]
    members: tuple[str, ...] = ()

    def describe(self) -> str:
        who = f" {', '.join(self.members)}" if self.members else ""
        return f"double{who} --by {self.by}"


@dataclass(frozen=True)
class Answer:
    """An answer on ``member``'s cube: take, drop, beaver or raccoon."""

    act: AnswerAct
    member: str

    def describe(self) -> str:
        return f"{self.act} {self.member}"


@dataclass(frozen=True)
class Deal:
    """Box and member settle their pair at ``points`` (positive: the member receives)."""

    member: str
    points: int

    def describe(self) -> str:
        return f"deal {self.member} {self.points}"


@dataclass(frozen=True)
class End:
    """The board ends: who won, at what level, and whether by an accepted resignation."""

    winner: Winner
    kind: Kind = "single"
    resigned: bool = False

    def describe(self) -> str:
        return f"end {self.winner} {self.kind}" + (" resigned" if self.resigned else "")


Event = AutoDouble | Double | Answer | Deal | End


# ---------------------------------------------------------------- the state


@dataclass(frozen=True)
class Offer:
    """A turn of the cube waiting for an answer. ``doubler`` turned it first; ``origin`` is the
    index of the double event that began the exchange."""

    stage: Stage
    doubler: Party
    origin: int

    @property
    def answerer(self) -> Party:
        """After a beaver the original doubler answers; otherwise the doubled side."""
        return self.doubler if self.stage == "beaver" else other(self.doubler)


@dataclass(frozen=True)
class Cube:
    """One box–member pair: stake in force, owner, a pending offer, and the result once over."""

    value: int = 1
    owner: Owner = "centre"
    offer: Offer | None = None
    result: int | None = None
    ended_by: str | None = None

    @property
    def live(self) -> bool:
        return self.result is None

    def available_to(self, party: Party) -> bool:
        return self.live and self.offer is None and self.owner in ("centre", party)


@dataclass(frozen=True)
class Game:
    """A game in progress (or over). ``members`` is the team at the start, captain first;
    ``captain`` is the captain whose result decides the rotation (it changes only under
    ``acting-captain inherit``); ``start_line`` is the line the game began with and ``line``
    the line as it now stands (a captain who loses the seat under ``inherit`` moves down at
    once)."""

    rules: HouseRules
    start_line: Line
    line: Line
    box: str
    partner: str | None
    members: tuple[str, ...]
    cubes: Mapping[str, Cube]
    captain: str
    auto_doubles: int = 0
    events: tuple[Event, ...] = ()
    result: End | None = None
    box_rounds: Mapping[int, Mapping[str, str]] = field(default_factory=dict)

    @property
    def over(self) -> bool:
        return self.result is not None or not any(c.live for c in self.cubes.values())

    @property
    def players(self) -> tuple[str, ...]:
        """Everyone playing this game: the box, the box's partner if any, the members."""
        return (self.box, *((self.partner,) if self.partner else ()), *self.members)

    @property
    def acting_captain(self) -> str | None:
        """The highest-placed live member: who plays the board and decides for a single cube."""
        return next((m for m in self.members if self.cubes[m].live), None)

    @property
    def pending(self) -> dict[str, Offer]:
        return {m: c.offer for m, c in self.cubes.items() if c.offer is not None}

    @property
    def pairs(self) -> dict[str, int]:
        """Points per member (from the member's side) for every pair that is over."""
        return {m: c.result for m, c in self.cubes.items() if c.result is not None}


def start(line: Line, rules: HouseRules) -> Game:
    """A new game with the line as seated: every cube at 1, centred."""
    box, team = line.box, line.team
    if box is None or not team:
        seated = ", ".join(line.active) or "nobody"
        raise RuleError(f"a game needs a box and a captain: seated now is {seated}")
    return Game(
        rules=rules,
        start_line=line,
        line=line,
        box=box,
        partner=line.partner,
        members=team,
        cubes={m: Cube() for m in team},
        captain=team[0],
    )


def replay(line: Line, rules: HouseRules, events: Iterable[Event]) -> Game:
    """The game that ``events`` make from a fresh start with ``line``."""
    game = start(line, rules)
    for event in events:
        game = apply(game, event)
    return game


class EventRefused(RuleError):
    """One of several events (``index``, 1-based) the rules refuse; the message is the
    rules' own, so one command's refusal reads as it always did."""

    def __init__(self, index: int, event: Event, reason: RuleError) -> None:
        super().__init__(str(reason))
        self.index, self.event = index, event


@dataclass(frozen=True)
class Applied:
    """What :func:`apply_all` made: the game, the events it applied, and the automatic
    doubles it passed over past the limit (their 1-based index and why), as at the table."""

    game: Game
    events: tuple[Event, ...]
    ignored: tuple[tuple[int, str], ...]


def apply_all(game: Game, events: Iterable[Event]) -> Applied:
    """Apply events one after the other, as one command or one game record: an automatic
    double past the limit changes nothing and is noted; any other refusal refuses them all
    (:class:`EventRefused`, naming the event)."""
    applied: list[Event] = []
    ignored: list[tuple[int, str]] = []
    for index, event in enumerate(events, start=1):
        try:
            game = apply(game, event)
        except AutoDoubleIgnored as err:
            ignored.append((index, str(err)))
            continue
        except RuleError as err:
            raise EventRefused(index, event, err) from None
        applied.append(event)
    return Applied(game, tuple(applied), tuple(ignored))


# ---------------------------------------------------------------- apply


def apply(game: Game, event: Event) -> Game:
    """The game after ``event``, or a :class:`RuleError` and no change."""
    if game.over:
        raise RuleError("this game is over: the next event starts a new game")
    if isinstance(event, AutoDouble):
        new = _auto_double(game)
    elif isinstance(event, Double):
        new = _double(game, event)
    elif isinstance(event, Answer):
        new = _answer(game, event)
    elif isinstance(event, Deal):
        new = _deal(game, event)
    else:
        new = _end(game, event)
    return _pass_captaincy(replace(new, events=(*game.events, event)))


def _member(game: Game, name: str) -> Cube:
    """The live cube of ``name``, who must be a member of this game."""
    if name not in game.cubes:
        if name == game.box:
            raise RuleError(f"{name} is the box: name a member of the team")
        if name == game.partner:
            raise RuleError(f"{name} is the box's partner, not a member of the team")
        if name in game.line.sitting_out:
            raise RuleError(f"{name} is sitting out this game")
        raise RuleError(f"{name} is not playing this game")
    cube = game.cubes[name]
    if not cube.live:
        raise RuleError(f"{name} is already out of this game ({cube.ended_by})")
    return cube


def _live(game: Game) -> list[str]:
    return [m for m in game.members if game.cubes[m].live]


def _check_max(game: Game, to: int, who: str) -> None:
    limit = game.rules.max_cube
    if limit is not None and to > limit:
        raise RuleError(f"{who}: the cube would pass the maximum of {limit}")


def _auto_double(game: Game) -> Game:
    if game.events and not all(isinstance(e, AutoDouble) for e in game.events):
        raise RuleError("automatic doubles happen on the opening roll, before any cube action")
    limit = game.rules.auto_doubles
    if game.auto_doubles >= limit:
        if limit == 0:
            raise AutoDoubleIgnored("automatic doubles are off in this session: cubes unchanged")
        raise AutoDoubleIgnored(
            f"the limit of {limit} automatic double{'s' if limit > 1 else ''} is reached: "
            "cubes unchanged"
        )
    value = game.cubes[game.members[0]].value * 2
    limit_cube = game.rules.max_cube
    if limit_cube is not None and value > limit_cube:
        raise AutoDoubleIgnored(f"the cube is at the maximum of {limit_cube}: cubes unchanged")
    cubes = {m: replace(c, value=c.value * 2) for m, c in game.cubes.items()}
    return replace(game, cubes=cubes, auto_doubles=game.auto_doubles + 1)


def _double(game: Game, event: Double) -> Game:
    single = game.rules.cubes == "single"
    origin = len(game.events)
    if event.by == "team":
        if not single:
            raise RuleError(
                "--by team is for single-cube play: each member doubles their own cube "
                "(--by member)"
            )
        return _team_double(game, event, origin)
    if event.by == "member":
        if single:
            raise RuleError("in single-cube play the captain doubles for the team: use --by team")
        if len(event.members) != 1:
            raise RuleError("a member doubles only their own cube: name exactly one member")
        (name,) = event.members
        cube = _member(game, name)
        if cube.offer is not None:
            raise RuleError(f"{name} cannot double: a double is already pending on {name}'s cube")
        if cube.owner == "box":
            raise RuleError(f"{name} cannot double: the box owns {name}'s cube")
        _check_max(game, cube.value * 2, f"{name} cannot double")
        offer = Offer("double", "member", origin)
        return replace(game, cubes={**game.cubes, name: replace(cube, offer=offer)})
    return _box_double(game, event, origin)


def _box_double(game: Game, event: Double, origin: int) -> Game:
    live = _live(game)
    single = game.rules.cubes == "single"
    if single:
        if event.members and set(event.members) != set(live):
            raise RuleError(
                "in single-cube play the box doubles the one cube: name no members "
                f"(live now: {', '.join(live)})"
            )
        targets = tuple(live)
    else:
        if not event.members:
            raise RuleError("name the members the box doubles")
        targets = event.members
    for name in targets:
        if targets.count(name) > 1:
            raise RuleError(f"{name} is named twice")
        cube = _member(game, name)
        if cube.offer is not None:
            raise RuleError(
                f"the box cannot double {name}: a double is already pending on {name}'s cube"
            )
        if cube.owner == "member":
            owner = "the team owns the cube" if single else f"{name} owns the cube"
            raise RuleError(f"the box cannot double {name}: {owner}")
        _check_max(game, cube.value * 2, f"the box cannot double {name}")
    if game.rules.box_doubles == "same-level":
        levels = {game.cubes[m].value for m in targets}
        missed = [
            m
            for m in live
            if m not in targets
            and game.cubes[m].value in levels
            and game.cubes[m].available_to("box")
        ]
        if missed:
            raise RuleError(
                f"the box must double {', '.join(missed)} too: under the same-level rule every "
                "cube at the same level doubles together"
            )
    offer = Offer("double", "box", origin)
    cubes = {**game.cubes, **{m: replace(game.cubes[m], offer=offer) for m in targets}}
    rounds = {**game.box_rounds, origin: {m: "pending" for m in targets}}
    return replace(game, cubes=cubes, box_rounds=rounds)


def _team_double(game: Game, event: Double, origin: int) -> Game:
    live = _live(game)
    if event.members and set(event.members) != set(live):
        raise RuleError("the team's double turns the one cube: name no members")
    captain = game.acting_captain
    cube = game.cubes[live[0]]
    if any(game.cubes[m].offer is not None for m in live):
        raise RuleError(f"{captain} cannot double: a double is already pending")
    if any(game.cubes[m].owner == "box" for m in live):
        raise RuleError(f"{captain} cannot double: the box owns the cube")
    _check_max(game, cube.value * 2, f"{captain} cannot double")
    offer = Offer("double", "member", origin)
    cubes = {**game.cubes, **{m: replace(game.cubes[m], offer=offer) for m in live}}
    return replace(game, cubes=cubes)


def _answer(game: Game, event: Answer) -> Game:
    name = event.member
    cube = _member(game, name)
    single = game.rules.cubes == "single"
    offer = cube.offer
    if offer is None and single and event.act == "beaver":
        offer = next((c.offer for c in game.cubes.values() if c.live and c.offer), None)
        offer = offer or _open_box_round(game)
    if offer is None:
        raise RuleError(f"there is no double on {name}'s cube to {event.act}")
    box_double = offer.stage == "double" and offer.doubler == "box"
    individual = box_double and event.act != "beaver"
    if single and not individual:
        captain = game.acting_captain
        if name != captain:
            decider = "the box answers" if offer.answerer == "box" else "the captain decides"
            raise RuleError(
                f"in single-cube play {decider} for the whole team: name the captain, {captain}"
            )
        if box_double and game.rules.settled_edges:
            _check_answers_in(game, offer, name)
        targets = _team_targets(game, offer, event.act)
    else:
        targets = [name]
    new = game
    for member in targets:
        new = _answer_one(new, member, event.act, offer)
    if offer.stage == "double" and offer.doubler == "box" and game.rules.mandatory_beaver:
        _check_lone_taker(new, offer.origin, name)
    return new


def _check_answers_in(game: Game, offer: Offer, captain: str) -> None:
    """Single cube: the captain beavers the box's double for the members who take it, so every
    other member must have answered it first (nobody is swept into a beaver unasked)."""
    waiting = [
        m
        for m in _live(game)
        if m != captain and (o := game.cubes[m].offer) is not None and o.origin == offer.origin
    ]
    if waiting:
        raise RuleError(
            f"{captain} cannot beaver for the team yet: {', '.join(waiting)} still "
            f"{'has' if len(waiting) == 1 else 'have'} to take or drop the box's double "
            "(the beaver covers only the members who take)"
        )


def _open_box_round(game: Game) -> Offer | None:
    """Single cube: the box's last double while nothing but its answers has happened since,
    so the captain who took it may still beaver for the team."""
    if not game.box_rounds:
        return None
    origin = max(game.box_rounds)
    answers = game.box_rounds[origin]
    since = game.events[origin + 1 :]
    answered = all(
        (isinstance(e, Answer) and e.act in ("take", "drop")) or isinstance(e, Deal) for e in since
    )
    if "pending" in answers.values() or not answered:
        return None
    return Offer("double", "box", origin)


def _team_targets(game: Game, offer: Offer, act: AnswerAct) -> list[str]:
    """Single cube: the members a captain's or the box's answer covers."""
    key = (offer.stage, offer.doubler, offer.origin)
    targets = [
        m
        for m in _live(game)
        if (o := game.cubes[m].offer) is not None and (o.stage, o.doubler, o.origin) == key
    ]
    if act == "beaver" and offer.doubler == "box":
        took = game.box_rounds.get(offer.origin, {})
        targets += [m for m in _live(game) if took.get(m) == "take" and m not in targets]
    return targets


def _answer_one(game: Game, name: str, act: AnswerAct, offer: Offer) -> Game:
    cube = game.cubes[name]
    if cube.offer is None:
        # single cube: a member who took the box's double, beavered by the captain's decision
        cube = replace(cube, value=cube.value // 2, offer=offer)
    else:
        offer = cube.offer
    answerer = offer.answerer
    who = game.box if answerer == "box" else name
    doubled = other(offer.doubler)
    rules = game.rules
    if act == "take":
        new = replace(cube, value=cube.value * 2, owner=doubled, offer=None)
    elif act == "drop":
        paid = -cube.value if answerer == "member" else cube.value
        how = f"{who} dropped" if offer.stage == "double" else f"{who} refused the {offer.stage}"
        new = replace(cube, offer=None, result=paid, ended_by=how)
    elif act == "beaver":
        if offer.stage != "double":
            raise RuleError(f"{who} cannot beaver: only a double can be beavered")
        if not rules.beavers:
            raise RuleError(f"{who} cannot beaver: beavers are off in this session")
        _check_max(game, cube.value * 4, f"{who} cannot beaver {name}'s cube")
        new = replace(
            cube, value=cube.value * 2, owner=doubled, offer=replace(offer, stage="beaver")
        )
    else:
        if offer.stage != "beaver":
            raise RuleError(f"{who} cannot raccoon: only a beaver can be raccooned")
        if not rules.raccoons:
            raise RuleError(f"{who} cannot raccoon: raccoons are off in this session")
        _check_max(game, cube.value * 4, f"{who} cannot raccoon {name}'s cube")
        new = replace(cube, value=cube.value * 2, offer=replace(offer, stage="raccoon"))
    rounds = game.box_rounds
    if offer.doubler == "box" and offer.stage == "double" and offer.origin in rounds:
        rounds = {**rounds, offer.origin: {**rounds[offer.origin], name: act}}
    return replace(game, cubes={**game.cubes, name: new}, box_rounds=rounds)


def _check_lone_taker(game: Game, origin: int, answered: str) -> None:
    """Mandatory beaver: a member who is the only one to take a box double must beaver or drop.
    Only a double the box gave two or more members has a lone taker: a member doubled alone
    (and so every take in a two-player session) is a plain money game."""
    answers = game.box_rounds.get(origin, {})
    if "pending" in answers.values() or len(answers) < 2:
        return
    takers = [m for m, a in answers.items() if a in ("take", "beaver")]
    if len(takers) == 1 and answers[takers[0]] == "take":
        lone = takers[0]
        if lone == answered:
            raise RuleError(
                f"{lone} is the only one to take the box's double: under mandatory beaver "
                f"{lone} must beaver or drop"
            )
        raise RuleError(
            f"{answered}'s answer would leave {lone} the only one to take the box's double: "
            f"under mandatory beaver {lone} must beaver or drop (undo {lone}'s take first)"
        )


def _deal(game: Game, event: Deal) -> Game:
    cube = _member(game, event.member)
    how = f"dealt at {event.points:+d}"
    new = replace(cube, offer=None, result=event.points, ended_by=how)
    rounds = game.box_rounds
    if cube.offer is not None and cube.offer.origin in rounds:
        origin = cube.offer.origin
        rounds = {**rounds, origin: {**rounds[origin], event.member: "deal"}}
    return replace(game, cubes={**game.cubes, event.member: new}, box_rounds=rounds)


def _end(game: Game, event: End) -> Game:
    if event.winner not in ("box", "team"):
        raise RuleError(f"the winner is the box or the team, not {event.winner!r}")
    if event.kind not in MULTIPLIER:
        raise RuleError(f"a game ends as a single, gammon or backgammon, not {event.kind!r}")
    pending = sorted(game.pending)
    if pending:
        raise RuleError(
            f"the game cannot end with a decision pending on {', '.join(pending)}'s cube: "
            "answer it first"
        )
    sign = 1 if event.winner == "team" else -1
    cubes = dict(game.cubes)
    for name, cube in game.cubes.items():
        if cube.live:
            worth = pair_points(
                cube.value, event.kind, centred=cube.owner == "centre", jacoby=game.rules.jacoby
            )
            cubes[name] = replace(cube, result=sign * worth, ended_by="board")
    return replace(game, cubes=cubes, result=event)


def _pass_captaincy(game: Game) -> Game:
    """Under ``acting-captain inherit``, a captain who is out hands the seat to the acting
    captain; a captain who lost their pair goes to the bottom of the line at once.

    The seat passes only once every answer is in (no offer pending), so the order in which
    members answer a double never changes who inherits: the highest-placed member still in.
    With nobody left in (everyone dropped) nobody inherits: the captain's own result counts."""
    if game.rules.acting_captain != "inherit" or game.result is not None:
        return game
    if game.pending and game.rules.settled_edges:
        return game
    line, captain = game.line, game.captain
    while not game.cubes[captain].live:
        acting = game.acting_captain
        if acting is None:
            break
        result = game.cubes[captain].result
        if result is not None and result < 0:
            line = send_down(line, captain)
        captain = acting
    if captain == game.captain:
        return game
    return replace(game, line=line, captain=captain)


def answer_all(game: Game, act: AnswerAct) -> list[Event]:
    """``take --all`` / ``drop --all``: one answer per pending cube (one for the whole team
    where a single cube answers at once). It answers for one side: when the box and members
    both have offers to answer, each is answered by name."""
    if act not in ("take", "drop"):
        raise RuleError("--all answers with take or drop")
    box_answers = [m for m, o in game.pending.items() if o.answerer == "box"]
    member_answers = [m for m, o in game.pending.items() if o.answerer == "member"]
    if box_answers and member_answers:
        raise RuleError(
            f"{act} --all answers for one side, but both have answers pending: the box on "
            f"{', '.join(box_answers)}'s {'cube' if len(box_answers) == 1 else 'cubes'}, and "
            f"{', '.join(member_answers)} on their own; {act} them by name"
        )
    events: list[Event] = []
    covered: set[str] = set()
    captain = game.acting_captain
    for name, offer in game.pending.items():
        if name in covered:
            continue
        single = game.rules.cubes == "single"
        if single and not (offer.stage == "double" and offer.doubler == "box"):
            covered |= set(_team_targets(game, offer, act))
            events.append(Answer(act, captain or name))
        else:
            covered.add(name)
            events.append(Answer(act, name))
    if not events:
        raise RuleError(f"there is no pending double to {act}")
    return events
