"""One game on one board: a cube per box–member pair, moved by events applied one at a time.

A game is a list of events. :func:`apply` takes the game as it stands and one event and
returns the new game, or refuses the event with a :class:`RuleError` naming the player and
the reason; a refused event changes nothing. Live commands and chouette game records both
produce these same events and play them through :func:`apply_all`, and a stored game is its
events replayed (:func:`replay`). Engine imports are other programs' two-party games, whose
events the files do not keep whole: they are scored by the same rules, the functions of
:mod:`chouette.points` that score a pair here.

Cube bookkeeping: ``value`` is the stake in force for the pair. A pending offer (a double,
a beaver or a raccoon) would double it; whoever refuses a pending offer pays ``value``.
A beaver is a take plus an immediate redouble by the taker, a raccoon a take of the beaver
plus one more turn; either way the side that was doubled first ends up owning the cube.

Club rules: an :class:`Extra` is a side bet on the board between two players (house rule
``extras``); a member away from the table (house rule ``proxies``, the line's ``away``) has
a named proxy deciding for them, or a cube that follows the captain's: the box's double of
the captain doubles it too, the captain's double doubles it too, and it takes, drops or
beavers as the captain does (an answer only it faces, the captain gives by name). "The
captain" is whoever plays the board for the team: the captain while in, then the
highest-placed member still in who is at the table.

The cube's club rules (RULES.md §7): the box's obligations when it answers several members'
doubles together (:class:`Round`, ``box-takes``); automatic doubles past the limit that the
box chooses or that carry over to the next game (:class:`Carry`, ``auto-past-limit``); an
extra's own cube, redoubled or voided (:class:`ExtraCube`); the lone taker who may still drop
while extras are offered (:class:`LoneTaker`, ``mandatory-extras``); and the box's
resignation offered to some members (:class:`Resign`, ``resignations per-member``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal, cast

from chouette.errors import AutoDoubleIgnored, LimitError, RuleError
from chouette.limits import LIMIT, MONEY_SHOWN, check_points
from chouette.line import Line, send_down
from chouette.points import MULTIPLIER, Kind, Winner, pair_points, scored_kind, signed_points
from chouette.rules import HouseRules
from chouette.words import Number, Said, Sayable, joined, said, said_in, said_n

Party = Literal["box", "member"]
Owner = Literal["centre", "box", "member"]
Stage = Literal["double", "beaver", "raccoon"]
AnswerAct = Literal["take", "drop", "beaver", "raccoon"]

ANSWERS: tuple[AnswerAct, ...] = ("take", "drop", "beaver", "raccoon")
#: The most automatic doubles carried over that the box can accept at once (a cube past
#: 2^50 points is past the ledger's limit anyway).
MOST_CARRIED = 64


def other(party: Party) -> Party:
    return "member" if party == "box" else "box"


# ---------------------------------------------------------------- events


@dataclass(frozen=True)
class AutoDouble:
    """A tied opening roll: every cube doubles and stays centred. Past the session's limit
    (house rule ``auto-past-limit``) a tie changes nothing, doubles the cubes only if the
    box chooses it (``box_chose``), or carries over to the next game (``carried``, as
    applied: the cubes are unchanged now)."""

    box_chose: bool = False
    carried: bool = False

    def describe(self) -> str:
        if self.carried:
            return "auto-double (carried over to the next game)"
        return "auto-double" + (" --box-chooses" if self.box_chose else "")


@dataclass(frozen=True)
class Carry:
    """The box's answer to the automatic doubles the last game carried over (house rule
    ``auto-past-limit carry-over``), before anything else in the game: accepted, every cube
    starts doubled ``doubles`` times, centred; declined, they are gone."""

    accepted: bool
    doubles: int | None = None  # (None: as many as were carried over; applied, the number)

    def describe(self) -> str:
        verb = "accept" if self.accepted else "decline"
        if self.doubles is None:
            return f"carry {verb}"
        return f"carry {verb} ({_count(self.doubles, 'automatic double')} carried over)"


@dataclass(frozen=True)
class Double:
    """``by="box"``: the box doubles ``members``; ``"member"``: that one member doubles the box;
    ``"team"`` (single cube): the captain turns the team's cube. ``position``: the board then,
    as a GNU Backgammon Position ID from the doubler's side (:mod:`chouette.position`), if the
    table gave it."""

    by: Literal["box", "member", "team"]
    members: tuple[str, ...] = ()
    position: str | None = None

    def describe(self) -> str:
        who = f" {', '.join(self.members)}" if self.members else ""
        return f"double{who} --by {self.by}{_at(self.position)}"


@dataclass(frozen=True)
class Answer:
    """An answer on ``member``'s cube: take, drop, beaver or raccoon; ``position``: the board
    then, from the doubler's side, if the table gave it (the double's: the board does not move
    while a cube is answered)."""

    act: AnswerAct
    member: str
    position: str | None = None

    def describe(self) -> str:
        return f"{self.act} {self.member}{_at(self.position)}"


def _at(position: str | None) -> str:
    return "" if position is None else f" --position {position}"


@dataclass(frozen=True)
class Deal:
    """Box and member settle their pair at ``points`` (positive: the member receives);
    ``won_by``: who the table declares the winner of a deal at 0 with the captain (``box``
    or ``captain``: the captain rule's box stays or goes on it)."""

    member: str
    points: int
    won_by: str | None = None

    def describe(self) -> str:
        won = f" --won-by {self.won_by}" if self.won_by else ""
        return f"deal {self.member} {self.points}{won}"


@dataclass(frozen=True)
class Extra:
    """A side bet on the board (house rule ``extras``): ``team_side``, a member, bets on the
    team and ``box_side`` (the box, the box's partner or a teammate) on the box. At the
    board's end the side that lost pays ``points`` × 1, 2 or 3 by its level, and
    ``box_side`` pays ``team_side`` the ``premium`` for the extra (a point for an extra on
    2, as the clubs price it). If the board never ends (every pair over before it), the
    extra is void, premium and all."""

    team_side: str
    box_side: str
    points: int = 2
    premium: int = 1

    def describe(self) -> str:
        return (
            f"extra {self.team_side} {self.box_side} --points {self.points} "
            f"--premium {self.premium}"
        )


@dataclass(frozen=True)
class ExtraDouble:
    """The holder of an extra's cube turns it (house rule ``extra-redoubles``): the extra of
    ``team_side`` and ``box_side`` (the last one given between them)."""

    team_side: str
    box_side: str

    def describe(self) -> str:
        return f"double-extra {self.team_side} {self.box_side}"


@dataclass(frozen=True)
class ExtraAnswer:
    """The answer to an extra's redouble: take (the extra is worth twice as much, and the
    taker holds its cube) or drop (the dropper pays the extra's worth before the double)."""

    act: Literal["take", "drop"]
    team_side: str
    box_side: str

    def describe(self) -> str:
        return f"{self.act}-extra {self.team_side} {self.box_side}"


@dataclass(frozen=True)
class Resign:
    """The box offers to resign ``kind`` to ``members`` (house rule ``resignations
    per-member``; as applied, every member it was offered to): each accepts, their pair paid
    as the board's end at that level would pay it, or refuses and plays on."""

    kind: Kind
    members: tuple[str, ...] = ()

    def describe(self) -> str:
        who = f" {' '.join(self.members)}" if self.members else ""
        return f"resign{who} --{self.kind}"


@dataclass(frozen=True)
class ResignAnswer:
    """A member's answer to the box's resignation: accept or refuse (``chouette resign
    --accept MEMBER`` / ``--refuse``)."""

    accept: bool
    member: str

    def describe(self) -> str:
        return f"resign --{'accept' if self.accept else 'refuse'} {self.member}"


@dataclass(frozen=True)
class CaptainResign:
    """The captain resigns their own game at ``kind`` and ``successor``, another member,
    takes over the captain's place (house rule ``captain-resigns takeover``, the Czech
    rules): the captain's pair is paid as a resignation at that level and the captain goes to
    the bottom of the line; the successor plays the board, and their result is the captain's
    for the rotation."""

    kind: Kind
    successor: str

    def describe(self) -> str:
        return f"captain-resigns {self.successor} --{self.kind}"


@dataclass(frozen=True)
class BuyOut:
    """The box buys its partner out of the game (house rule ``buy-outs``, the Chicago
    buy-out: the box wants to double and the partner refuses): the box pays the partner
    their share (``partner-share``) of every live cube's value, and plays those cubes alone
    from then on; the partner keeps their share of the pairs already over."""

    def describe(self) -> str:
        return "buy-out"


@dataclass(frozen=True)
class CubeFix:
    """The table corrects a member's cube before the board's end (``chouette amend N --cube
    MEMBER=VALUE``): it was ``value`` when the game ended, whatever was recorded. A cube of 1
    is centred; a larger one was turned (its owner, if the record had none, taken as the
    member: only whether it was turned counts at the end)."""

    member: str
    value: int

    def describe(self) -> str:
        return f"cube {self.member} {self.value}"


@dataclass(frozen=True)
class End:
    """The board ends: who won, at what level, and whether by an accepted resignation."""

    winner: Winner
    kind: Kind = "single"
    resigned: bool = False

    def describe(self) -> str:
        return f"end {self.winner} {self.kind}" + (" resigned" if self.resigned else "")


Event = (
    AutoDouble
    | Carry
    | Double
    | Answer
    | Deal
    | Extra
    | ExtraDouble
    | ExtraAnswer
    | Resign
    | ResignAnswer
    | CaptainResign
    | BuyOut
    | CubeFix
    | End
)


def _count(number: int, word: str) -> str:
    return f"{number} {word}{'' if number == 1 else 's'}"


#: The levels of a win, as a sentence says them (``resigns a gammon``, ``wins a single``).
KINDS: Mapping[str, Said] = {
    "single": said_in("kind", "single"),
    "gammon": said_in("kind", "gammon"),
    "backgammon": said_in("kind", "backgammon"),
}

#: A gammon or backgammon as a reason names what counts (``the gammon counts single``), and a
#: resigned one (``the resigned gammon``).
LEVELS: Mapping[tuple[bool, str], Said] = {
    (False, "gammon"): said_in("level", "the gammon"),
    (False, "backgammon"): said_in("level", "the backgammon"),
    (True, "gammon"): said_in("level", "the resigned gammon"),
    (True, "backgammon"): said_in("level", "the resigned backgammon"),
}


def jacoby_single(kind: str) -> Said:
    """How a pair the board's end settled ended when Jacoby counts its gammon single."""
    return said("board; {level} counts single: Jacoby", level=LEVELS[False, kind])


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
class Resignation:
    """The box's resignation offered on a pair: its level, and the event that offered it."""

    kind: Kind
    origin: int


@dataclass(frozen=True)
class Cube:
    """One box–member pair: stake in force, owner, a pending offer, and the result once over;
    ``turns``: the beavers and raccoons played on its pending double (0 again once the
    double is taken, as gnubg's ``cBeavers``); ``resign``: the box's resignation waiting for
    the member's answer."""

    value: int = 1
    owner: Owner = "centre"
    offer: Offer | None = None
    result: int | None = None
    ended_by: Sayable | None = None
    turns: int = 0
    resign: Resignation | None = None

    @property
    def live(self) -> bool:
        return self.result is None

    def available_to(self, party: Party) -> bool:
        return (
            self.live
            and self.offer is None
            and self.resign is None
            and self.owner in ("centre", party)
        )


@dataclass(frozen=True)
class ExtraCube:
    """An extra's own cube (house rule ``extra-redoubles``): its worth at a single, who holds
    it (the team side, who took the extra, at first), whether a redouble waits for an
    answer, and its result (team side's view) if a redouble was dropped. ``void``: given to
    a lone taker who dropped the box's cube after all (house rule ``mandatory-extras``)."""

    value: int
    holder: Literal["team", "box"] = "team"
    offered: bool = False
    result: int | None = None
    void: bool = False


@dataclass(frozen=True)
class Round:
    """Several members' doubles the box answers together (house rule ``box-takes``): each
    member's answer so far (``pending``, ``take``, ``beaver``, ``drop`` or ``deal``), each
    cube's value before the double, and the captain if the captain is among them."""

    answers: Mapping[str, str]
    values: Mapping[str, int]
    captain: str | None
    #: Whether the round binds the box (``box-takes-scope all``: only every member still in
    #: doubling it at once does; ``several``: any two or more).
    binding: bool = True


@dataclass(frozen=True)
class LoneTaker:
    """The lone taker of the box's double, while nothing but extras has happened since the
    last answer to it (house rule ``mandatory-extras``): they may still drop, and ``since``
    is the index of the first event after that answer."""

    member: str
    origin: int
    since: int


@dataclass(frozen=True)
class Game:
    """A game in progress (or over). ``members`` is the team at the start, captain first;
    ``captain`` is the captain whose result decides the rotation (it changes only under
    ``acting-captain inherit``); ``start_line`` is the line the game began with and ``line``
    the line as it now stands (a captain who loses the seat under ``inherit`` moves down at
    once).

    ``carry_in``: the automatic doubles the last game carried over, waiting for the box's
    answer (None: not known, as in a stored game replayed alone); ``carried_out``: those this
    game carries over; ``take_rounds``: the members' doubles the box answered together, by
    the event that opened each round; ``resign_rounds``: the members each resignation of the
    box was offered to and their answers; ``extra_cubes``: each extra's cube, in the order of
    :attr:`extras`; ``lone_taker``: the lone taker's choice while it is open; ``why``: the
    reason for each decision the rules made in the game so far, in plain sentences, as they
    were made (who plays the board when the captain is out, how a gammon counts);
    ``last_ended``: the members whose pairs the last event to end any pair ended (the board's
    end ends every pair still live at once); ``bought_out``: the cubes the box bought its
    partner out of (:class:`BuyOut`), each member's cube value then; ``whole_team``: the
    box's doubles (by the event that gave them) given to every member still in, which alone
    have a lone taker under ``lone-taker-scope all``; ``positions``: the board of each cube
    exchange the table gave one for (a Position ID), by the event that began it (the
    double), whichever of the exchange's events gave it."""

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
    carry_in: int | None = None
    carried_out: int = 0
    take_rounds: Mapping[int, Round] = field(default_factory=dict)
    resign_rounds: Mapping[int, Mapping[str, str]] = field(default_factory=dict)
    extra_cubes: tuple[ExtraCube, ...] = ()
    lone_taker: LoneTaker | None = None
    why: tuple[Sayable, ...] = ()
    last_ended: tuple[str, ...] = ()
    bought_out: Mapping[str, int] = field(default_factory=dict)
    whole_team: frozenset[int] = frozenset()
    positions: Mapping[int, str] = field(default_factory=dict)

    @property
    def over(self) -> bool:
        return self.result is not None or not any(c.live for c in self.cubes.values())

    @property
    def players(self) -> tuple[str, ...]:
        """Everyone playing this game: the box, the box's partner if any, the members."""
        return (self.box, *((self.partner,) if self.partner else ()), *self.members)

    @property
    def acting_captain(self) -> str | None:
        """Who plays the board and decides for a single cube: the captain of the game while
        in (a member who took over the captain's place included), else the highest-placed
        live member at the table (one whose cube follows the captain's is away)."""
        seat = self.captain
        if self.cubes[seat].live and seat not in self.start_line.followers:
            return seat
        live = [m for m in self.members if self.cubes[m].live]
        return _leader(self) or (live[0] if live else None)

    @property
    def followers(self) -> tuple[str, ...]:
        """The members away whose cubes follow the captain's, in line order."""
        away = self.start_line.followers
        return tuple(m for m in self.members if m in away)

    @property
    def extras(self) -> tuple[Extra, ...]:
        """The extras given in this game, in order."""
        return tuple(e for e in self.events if isinstance(e, Extra))

    @property
    def pending(self) -> dict[str, Offer]:
        return {m: c.offer for m, c in self.cubes.items() if c.offer is not None}

    @property
    def resigning(self) -> dict[str, Resignation]:
        """The members the box's resignation waits on, and its level."""
        return {m: c.resign for m, c in self.cubes.items() if c.resign is not None}

    @property
    def turned(self) -> bool:
        """Whether any cube of the game was turned and accepted (automatic doubles are no
        turn: they leave a cube centred)."""
        return any(c.owner != "centre" for c in self.cubes.values())

    @property
    def pairs(self) -> dict[str, int]:
        """Points per member (from the member's side) for every pair that is over."""
        return {m: c.result for m, c in self.cubes.items() if c.result is not None}


def start(line: Line, rules: HouseRules, carry: int | None = None) -> Game:
    """A new game with the line as seated: every cube centred, at 1 (or at the house rule
    ``starting-cube``: a chouette tournament's level). ``carry``: the
    automatic doubles the last game carried over, for the box to accept or decline first
    (None: not known here, as when a stored game is replayed: its own answer says)."""
    box, team = line.box, line.team
    if box is None or not team:
        if not line.active:
            raise RuleError(said("a game needs a box and a captain: seated now is nobody"))
        raise RuleError(
            said(
                "a game needs a box and a captain: seated now is {players}",
                players=", ".join(line.active),
            )
        )
    for holder, refusal in (
        (
            box,
            said(
                "{player} is away, their cube following the captain's, but {player} is the box "
                "of this game: name a proxy (chouette proxy {player} --by NAME), withdraw it, "
                "or sit {player} out",
                player=box,
            ),
        ),
        (
            team[0],
            said(
                "{player} is away, their cube following the captain's, but {player} is the "
                "captain of this game: name a proxy (chouette proxy {player} --by NAME), "
                "withdraw it, or sit {player} out",
                player=team[0],
            ),
        ),
    ):
        if holder in line.followers:
            raise RuleError(refusal)
    return Game(
        rules=rules,
        start_line=line,
        line=line,
        box=box,
        partner=line.partner,
        members=team,
        cubes={m: Cube(value=rules.starting_cube) for m in team},
        captain=team[0],
        carry_in=carry,
    )


def replay(line: Line, rules: HouseRules, events: Iterable[Event]) -> Game:
    """The game that ``events`` make from a fresh start with ``line``."""
    game = start(line, rules)
    for event in events:
        game = apply(game, event)
    return game


class EventRefused(RuleError):
    """One of several events (``index``, 1-based) the rules refuse; the message is the
    rules' own (its value, rendered in the reader's words), so one command's refusal reads
    as it always did."""

    def __init__(self, index: int, event: Event, reason: RuleError) -> None:
        super().__init__(reason.said)
        self.index, self.event = index, event


@dataclass(frozen=True)
class Applied:
    """What :func:`apply_all` made: the game, the events it applied, and the automatic
    doubles it passed over past the limit (their 1-based index and why, a sentence to say),
    as at the table."""

    game: Game
    events: tuple[Event, ...]
    ignored: tuple[tuple[int, Sayable], ...]


def apply_all(game: Game, events: Iterable[Event]) -> Applied:
    """Apply events one after the other, as one command or one game record: an automatic
    double past the limit changes nothing and is noted; any other refusal refuses them all
    (:class:`EventRefused`, naming the event)."""
    applied: list[Event] = []
    ignored: list[tuple[int, Sayable]] = []
    for index, event in enumerate(events, start=1):
        try:
            game = apply(game, event)
        except AutoDoubleIgnored as err:
            ignored.append((index, err.said))
            continue
        except RuleError as err:
            raise EventRefused(index, event, err) from None
        applied.append(game.events[-1])  # as applied: an extra names the box's player
    return Applied(game, tuple(applied), tuple(ignored))


# ---------------------------------------------------------------- apply


def apply(game: Game, event: Event) -> Game:
    """The game after ``event``, or a :class:`RuleError` and no change. The event is kept as
    applied: an extra names the box's player, an automatic double says what it did, a
    resignation names every member it was offered to."""
    if game.over:
        raise RuleError(said("this game is over: the next event starts a new game"))
    if game.carry_in and not game.events and not isinstance(event, Carry):
        raise RuleError(
            said_n(
                "{n} automatic double carried over from the last game: the box accepts or "
                "declines it first (chouette carry accept|decline)",
                "{n} automatic doubles carried over from the last game: the box accepts or "
                "declines them first (chouette carry accept|decline)",
                game.carry_in,
            )
        )
    if isinstance(event, AutoDouble):
        event, new = _auto_double(game, event)
    elif isinstance(event, Carry):
        event, new = _carry(game, event)
    elif isinstance(event, Double):
        new = _double(game, event)
        if event.position is not None:
            new = _place(new, len(game.events), event.position)
    elif isinstance(event, Answer):
        new = _answer(game, event)
        if event.position is not None:
            new = _place(new, exchange_of(game, new, event.member), event.position)
    elif isinstance(event, Deal):
        new = _deal(game, event)
    elif isinstance(event, Extra):
        event = _extra(game, event)
        new = replace(game, extra_cubes=(*game.extra_cubes, ExtraCube(event.points)))
    elif isinstance(event, ExtraDouble | ExtraAnswer):
        event, new = _extra_cube(game, event)
    elif isinstance(event, Resign):
        event, new = _resign(game, event)
    elif isinstance(event, ResignAnswer):
        new = _resign_answer(game, event)
    elif isinstance(event, CubeFix):
        new = _cube_fix(game, event)
    elif isinstance(event, CaptainResign):
        new = _captain_resign(game, event)
    elif isinstance(event, BuyOut):
        new = _buy_out(game)
    else:
        new = _end(game, event)
    kept = new.lone_taker is not game.lone_taker or isinstance(event, Extra)
    ended = tuple(m for m, c in game.cubes.items() if c.live and not new.cubes[m].live)
    new = replace(  # one copy of the game made (each costs as much as the event's rule)
        new,
        events=(*game.events, event),
        lone_taker=new.lone_taker if kept else None,  # only extras keep its choice open
        last_ended=ended or new.last_ended,
    )
    return _acting_captain_why(game, _pass_captaincy(new))


def exchange_of(before: Game, after: Game, member: str) -> int | None:
    """The cube exchange an answer on ``member``'s cube belongs to (the event that began it,
    the double), from the game before and after it; None for an answer to no offer (a lone
    taker's drop after all)."""
    offer = before.cubes[member].offer or after.cubes[member].offer
    if offer is not None:
        return offer.origin
    lone = before.lone_taker
    return lone.origin if lone is not None and lone.member == member else None


def exchanges(line: Line, rules: HouseRules, events: Sequence[Event]) -> dict[int, int]:
    """The cube exchange each double and answer of ``events`` belongs to (by index, 0-based):
    the index of the double that began it. An answer to no offer has none."""
    game = start(line, rules)
    found: dict[int, int] = {}
    for index, event in enumerate(events):
        after = apply(game, event)
        if isinstance(event, Double):
            found[index] = index
        elif isinstance(event, Answer):
            origin = exchange_of(game, after, event.member)
            if origin is not None:
                found[index] = origin
        game = after
    return found


def _place(game: Game, origin: int | None, position: str) -> Game:
    """The board given for a cube exchange: refused if the exchange has another already (the
    board does not move while a cube is turned and answered)."""
    if origin is None:
        raise RuleError(said("there is no double here for the position to belong to"))
    known = game.positions.get(origin)
    if known is not None and known != position:
        raise RuleError(
            said(
                "the position {position} is not the board of this double, given as {known}: "
                "a double and its answers are made at one board",
                position=position,
                known=known,
            )
        )
    return replace(game, positions={**game.positions, origin: position})


def _acting_captain_why(before: Game, after: Game) -> Game:
    """Under ``acting-captain keep-seat``, who plays the board once the one who did is out,
    and why the rotation does not change (under ``inherit`` the seat itself passes: see
    :func:`_pass_captaincy`)."""
    if after.rules.acting_captain != "keep-seat" or after.result is not None:
        return after
    if before.captain != after.captain:  # a takeover says why itself (the seat moved)
        return after
    was, now = before.acting_captain, after.acting_captain
    if was is None or now is None or was == now or after.cubes[was].live:
        return after
    values = {"player": was, "how": after.cubes[was].ended_by, "acting": now}
    if was == after.captain:
        why = said(
            "the captain, {player}, is out ({how}): {acting} is acting captain; {player}'s own "
            "result decides the rotation (acting-captain keep-seat)",
            **values,
        )
    else:
        why = said(
            "the acting captain, {player}, is out ({how}): {acting} is acting captain; "
            "{captain}'s own result decides the rotation (acting-captain keep-seat)",
            captain=after.captain,
            **values,
        )
    return replace(after, why=(*after.why, why))


def _leader(game: Game) -> str | None:
    """Whom the cubes of members away follow: the captain while in, then the highest-placed
    member still in who is at the table (None: nobody is)."""
    away = game.start_line.followers
    return next((m for m in game.members if game.cubes[m].live and m not in away), None)


def _refuse_follower(game: Game, name: str, done: Callable[[str], Said]) -> None:
    """A member whose cube follows the captain's is away: nobody acts for them but the
    captain, by acting on their own cube (``done``: how, said of the captain)."""
    if name in game.start_line.followers:
        leader = _leader(game)
        how = done(leader) if leader else said("nobody at the table plays for the team")
        raise RuleError(
            said(
                "{player} is away and {player}'s cube follows the captain's: {how}",
                player=name,
                how=how,
            )
        )


def _answers_with_leader(game: Game, name: str) -> bool:
    """Whether ``name``'s cube follows the captain's and waits on the same offer as the
    captain's cube: then the captain's answer is theirs. An offer only they face (the box
    beavered their cube alone) the captain answers for them by name."""
    leader, offer = _leader(game), game.cubes[name].offer
    return (
        name in game.start_line.followers
        and leader is not None
        and offer is not None
        and _same_offer(game.cubes[leader], offer)
    )


def _same_offer(cube: Cube, offer: Offer) -> bool:
    found = cube.offer
    return (
        cube.live
        and found is not None
        and (found.stage, found.doubler, found.origin) == (offer.stage, offer.doubler, offer.origin)
    )


def _member(game: Game, name: str) -> Cube:
    """The live cube of ``name``, who must be a member of this game."""
    if name not in game.cubes:
        if name == game.box:
            raise RuleError(said("{player} is the box: name a member of the team", player=name))
        if name == game.partner:
            raise RuleError(
                said("{player} is the box's partner, not a member of the team", player=name)
            )
        if name in game.line.sitting_out:
            raise RuleError(said("{player} is sitting out this game", player=name))
        raise RuleError(said("{player} is not playing this game", player=name))
    cube = game.cubes[name]
    if not cube.live:
        raise RuleError(
            said("{player} is already out of this game ({how})", player=name, how=cube.ended_by)
        )
    return cube


def _live(game: Game) -> list[str]:
    return [m for m in game.members if game.cubes[m].live]


def _check_max(game: Game, to: int, doing: Said) -> None:
    """House rule ``max-cube``: ``doing`` (``C cannot double``) is refused past it."""
    limit = game.rules.max_cube
    if limit is not None and to > limit:
        raise RuleError(
            said(
                "{doing}: the cube would pass the maximum of {limit} (house rule max-cube {limit})",
                doing=doing,
                limit=limit,
            )
        )


def _auto_double(game: Game, event: AutoDouble) -> tuple[AutoDouble, Game]:
    """A tied opening roll, as the house rules take it: within the limit every cube doubles;
    past it the tie is ignored, doubles the cubes if the box chooses, or carries over."""
    if not all(isinstance(e, AutoDouble | Extra | Carry) for e in game.events):
        raise RuleError(
            said("automatic doubles happen on the opening roll, before any cube action")
        )
    rules = game.rules
    limit = rules.auto_doubles
    past = rules.auto_past_limit
    if game.auto_doubles >= limit:
        if past == "carry-over":
            return AutoDouble(carried=True), replace(game, carried_out=game.carried_out + 1)
        if past == "box-choice" and not event.box_chose:
            raise AutoDoubleIgnored(
                said(
                    "the tied roll doubles nothing unless the box chooses it (chouette "
                    "auto-double --box-chooses), as {why}",
                    why=_past_limit(limit),
                )
            )
        if past == "ignored":
            raise AutoDoubleIgnored(
                said("the tied roll doubles nothing, as {why}", why=_past_limit(limit))
            )
    value = game.cubes[game.members[0]].value * 2
    limit_cube = rules.max_cube
    if limit_cube is not None and value > limit_cube:
        raise AutoDoubleIgnored(
            said(
                "the tied roll doubles nothing, as the cubes are at the maximum of {limit}",
                limit=limit_cube,
            )
        )
    cubes = {m: replace(c, value=c.value * 2) for m, c in game.cubes.items()}
    chose = game.auto_doubles >= limit  # (within the limit the box has nothing to choose)
    return AutoDouble(box_chose=chose), replace(
        game, cubes=cubes, auto_doubles=game.auto_doubles + 1
    )


def _past_limit(limit: int) -> Said:
    """Why a tie past the limit doubles nothing by itself."""
    if limit == 0:
        return said("automatic doubles are off in this session")
    return said_n(
        "the session's {n} automatic double has been played",
        "the session's {n} automatic doubles have been played",
        limit,
    )


def _carry(game: Game, event: Carry) -> tuple[Carry, Game]:
    """The box accepts or declines the automatic doubles carried over from the last game."""
    if game.rules.auto_past_limit != "carry-over":
        raise RuleError(
            said(
                "automatic doubles do not carry over in this session (house rule "
                "auto-past-limit {rule})",
                rule=game.rules.auto_past_limit,
            )
        )
    if game.events:
        raise RuleError(
            said(
                "the box answers the automatic doubles carried over before anything else in a game"
            )
        )
    carried = game.carry_in
    doubles = carried if event.doubles is None else event.doubles
    if carried == 0:
        raise RuleError(said("no automatic double was carried over from the last game"))
    if doubles is None:
        raise RuleError(said("say how many automatic doubles were carried over"))
    if isinstance(doubles, bool) or doubles < 1:
        raise RuleError(
            said("a carry-over is 1 automatic double or more, not {value}", value=repr(doubles))
        )
    if carried is not None and carried != doubles:
        raise RuleError(
            said_n(
                "{n} automatic double carried over from the last game, not {doubles}",
                "{n} automatic doubles carried over from the last game, not {doubles}",
                carried,
                doubles=doubles,
            )
        )
    event = Carry(event.accepted, doubles)
    if not event.accepted:
        return event, game
    if doubles > MOST_CARRIED:
        raise RuleError(
            said(
                "the box cannot accept {doubles} automatic doubles: no cube goes past "
                "2^{most} (decline them)",
                doubles=doubles,
                most=MOST_CARRIED,
            )
        )
    factor = 1 << doubles
    limit_cube = game.rules.max_cube
    value = game.cubes[game.members[0]].value * factor
    if limit_cube is not None and value > limit_cube:
        raise RuleError(
            said_n(
                "the box cannot accept {n} automatic double: the cube would pass the maximum "
                "of {limit} (decline it)",
                "the box cannot accept {n} automatic doubles: the cube would pass the maximum "
                "of {limit} (decline them)",
                doubles,
                limit=limit_cube,
            )
        )
    cubes = {m: replace(c, value=c.value * factor) for m, c in game.cubes.items()}
    return event, replace(game, cubes=cubes, auto_doubles=game.auto_doubles + doubles)


def carried_over(events: Iterable[Event]) -> int:
    """The automatic doubles a game's events carried over to the next game."""
    return sum(1 for e in events if isinstance(e, AutoDouble) and e.carried)


def _double(game: Game, event: Double) -> Game:
    single = game.rules.cubes == "single"
    origin = len(game.events)
    if event.by == "team":
        if not single:
            raise RuleError(
                said(
                    "--by team is for single-cube play: each member doubles their own cube "
                    "(--by member)"
                )
            )
        return _team_double(game, event, origin)
    if event.by == "member":
        if single:
            raise RuleError(
                said("in single-cube play the captain doubles for the team: use --by team")
            )
        if len(event.members) != 1:
            raise RuleError(said("a member doubles only their own cube: name exactly one member"))
        (name,) = event.members
        cube = _member(game, name)
        _refuse_follower(
            game, name, lambda captain: said("it doubles when {captain} doubles", captain=captain)
        )
        if cube.offer is not None:
            raise RuleError(
                said(
                    "{player} cannot double: a double is already pending on {player}'s cube",
                    player=name,
                )
            )
        cannot = said("{player} cannot double", player=name)
        _refuse_resigning(cube, name, cannot)
        if cube.owner == "box":
            raise RuleError(
                said("{player} cannot double: the box owns {player}'s cube", player=name)
            )
        _check_max(game, cube.value * 2, cannot)
        offer = Offer("double", "member", origin)
        doubled = [name]
        if name == _leader(game):  # the captain's double doubles the cubes that follow it
            doubled += [f for f in game.followers if game.cubes[f].available_to("member")]
        for follower in doubled[1:]:
            _check_max(
                game,
                game.cubes[follower].value * 2,
                said("{player}'s cube cannot double", player=follower),
            )
        cubes = {m: replace(game.cubes[m], offer=offer) for m in doubled}
        return replace(game, cubes={**game.cubes, **cubes})
    return _box_double(game, event, origin)


def _box_double(game: Game, event: Double, origin: int) -> Game:
    live = _live(game)
    single = game.rules.cubes == "single"
    if single:
        if event.members and set(event.members) != set(live):
            raise RuleError(
                said(
                    "in single-cube play the box doubles the one cube: name no members "
                    "(live now: {players})",
                    players=", ".join(live),
                )
            )
        targets = tuple(live)
    else:
        if not event.members:
            raise RuleError(said("name the members the box doubles"))
        targets = event.members
        if _leader(game) in targets:  # the captain's cube: those that follow it double too
            targets += tuple(
                f for f in game.followers if f not in targets and game.cubes[f].available_to("box")
            )
    leader = _leader(game)
    for name in targets:
        if name in game.start_line.followers and leader not in targets:
            if leader:
                raise RuleError(
                    said(
                        "the box cannot double {player} alone: {player} is away and {player}'s "
                        "cube follows the captain's (the box doubles it with {captain})",
                        player=name,
                        captain=leader,
                    )
                )
            raise RuleError(
                said(
                    "the box cannot double {player} alone: {player} is away and {player}'s "
                    "cube follows the captain's (the box doubles it with the captain, and "
                    "nobody is in)",
                    player=name,
                )
            )
    for name in targets:
        if targets.count(name) > 1:
            raise RuleError(said("{player} is named twice", player=name))
        cube = _member(game, name)
        if cube.offer is not None:
            raise RuleError(
                said(
                    "the box cannot double {player}: a double is already pending on {player}'s "
                    "cube",
                    player=name,
                )
            )
        cannot = said("the box cannot double {player}", player=name)
        _refuse_resigning(cube, name, cannot)
        if cube.owner == "member" and single:
            raise RuleError(
                said("the box cannot double {player}: the team owns the cube", player=name)
            )
        if cube.owner == "member":
            raise RuleError(
                said("the box cannot double {player}: {player} owns the cube", player=name)
            )
        _check_max(game, cube.value * 2, cannot)
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
                said(
                    "the box must double {players} too: under box-doubles same-level every "
                    "cube at the same level doubles together",
                    players=", ".join(missed),
                )
            )
    if game.rules.box_doubles == "with-captain" and not single:
        _check_with_captain(game, targets)
    offer = Offer("double", "box", origin)
    cubes = {**game.cubes, **{m: replace(game.cubes[m], offer=offer) for m in targets}}
    rounds = {**game.box_rounds, origin: {m: "pending" for m in targets}}
    whole = game.whole_team | {origin} if set(targets) == set(live) else game.whole_team
    return replace(game, cubes=cubes, box_rounds=rounds, whole_team=whole)


def _check_with_captain(game: Game, targets: tuple[str, ...]) -> None:
    """L.A.'s rule (``box-doubles with-captain``): when the box doubles a cube at the level
    of the captain's, it doubles the captain's too, if it may. Automatic doubles turned every
    cube alike, so they never make levels differ."""
    captain = _leader(game)
    if captain is None or captain in targets or not game.cubes[captain].available_to("box"):
        return
    level = game.cubes[captain].value
    same = [m for m in targets if game.cubes[m].value == level]
    if same:
        raise RuleError(
            said(
                "the box must double the captain, {captain}, too: under box-doubles "
                "with-captain the captain's cube is doubled whenever the box doubles a cube at "
                "its level ({players} at {level})",
                captain=captain,
                players=", ".join(same),
                level=level,
            )
        )


def _refuse_resigning(cube: Cube, name: str, doing: Said) -> None:
    """No cube action on a pair the box's resignation waits on."""
    if cube.resign is not None:
        raise RuleError(
            said(
                "{doing}: the box's resignation waits for {player}'s answer "
                "(resign --accept or --refuse)",
                doing=doing,
                player=name,
            )
        )


def _team_double(game: Game, event: Double, origin: int) -> Game:
    live = _live(game)
    if event.members and set(event.members) != set(live):
        raise RuleError(said("the team's double turns the one cube: name no members"))
    captain = game.acting_captain
    if _leader(game) is None:
        raise RuleError(
            said_n(
                "nobody at the table doubles for the team: {players} is away",
                "nobody at the table doubles for the team: {players} are away",
                len(live),
                players=", ".join(live),
            )
        )
    cube = game.cubes[live[0]]
    if any(game.cubes[m].offer is not None for m in live):
        raise RuleError(said("{player} cannot double: a double is already pending", player=captain))
    cannot = said("{player} cannot double", player=captain)
    for m in live:
        _refuse_resigning(game.cubes[m], m, cannot)
    if any(game.cubes[m].owner == "box" for m in live):
        raise RuleError(said("{player} cannot double: the box owns the cube", player=captain))
    _check_max(game, cube.value * 2, cannot)
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
    if offer is None and event.act == "drop" and _lone_taker_drops(game, name):
        return _drop_after_all(game, name)
    if offer is None:
        raise RuleError(_of_player("no double", event.act, name))
    if offer.answerer == "member" and _answers_with_leader(game, name):
        _refuse_follower(
            game,
            name,
            lambda captain: said(
                "{captain}'s answer is {player}'s too", captain=captain, player=name
            ),
        )
    box_double = offer.stage == "double" and offer.doubler == "box"
    individual = box_double and event.act != "beaver"
    if single and not individual:
        captain = game.acting_captain
        if name != captain and offer.answerer == "box":
            raise RuleError(
                said(
                    "in single-cube play the box answers for the whole team: name the "
                    "captain, {captain}",
                    captain=captain,
                )
            )
        if name != captain:
            raise RuleError(
                said(
                    "in single-cube play the captain decides for the whole team: name the "
                    "captain, {captain}",
                    captain=captain,
                )
            )
        if box_double and game.rules.settled_edges:
            _check_answers_in(game, offer, name)
        targets = _team_targets(game, offer, event.act)
    else:
        targets = [name]
        if offer.answerer == "member" and name == _leader(game):  # they answer as it does
            targets += [f for f in game.followers if _same_offer(game.cubes[f], offer)]
    new = game
    for member in targets:
        new = _answer_one(new, member, event.act, offer)
    if offer.stage == "double" and offer.doubler == "box":
        return _box_round_answered(new, offer.origin, name)
    if (
        offer.stage == "double"
        and offer.answerer == "box"
        and event.act in ("take", "drop", "beaver")
        and not single
    ):
        return _take_round_answered(game, new, name, event.act)
    return new


#: Refusals said of a player (``{player}``) and an act: an answer where no double waits on
#: the player's cube (``no double``), and the box's answer to the player's double (or their
#: deal) that a house rule refuses (``box cannot``).
OF_PLAYER: Mapping[tuple[str, str], Said] = {
    ("no double", "take"): said("there is no double on {player}'s cube to take"),
    ("no double", "drop"): said("there is no double on {player}'s cube to drop"),
    ("no double", "beaver"): said("there is no double on {player}'s cube to beaver"),
    ("no double", "raccoon"): said("there is no double on {player}'s cube to raccoon"),
    ("box cannot", "deal"): said("{player} and the box cannot deal"),
    ("box cannot", "take"): said("the box cannot take {player}'s double"),
    ("box cannot", "beaver"): said("the box cannot beaver {player}'s double"),
    ("box cannot", "drop"): said("the box cannot drop {player}'s double"),
}


def _of_player(what: str, act: str, name: str) -> Said:
    """:data:`OF_PLAYER`'s sentence, said of ``name``."""
    return replace(OF_PLAYER[(what, act)], values=(("player", name),))


def _box_round_answered(game: Game, origin: int, answered: str) -> Game:
    """After an answer (or a deal) on the box's double: the mandatory beaver's check, and
    the lone taker's choice under mandatory extras once every answer is in. Under
    ``lone-taker-scope all`` only a double given to every member still in has a lone taker
    (ACT: "if the box cubes all of the team")."""
    if game.rules.lone_taker_scope == "all" and origin not in game.whole_team:
        return game
    if game.rules.mandatory_beaver:
        _check_lone_taker(game, origin, answered)
    if game.rules.mandatory_extras:
        lone = _lone(game.box_rounds.get(origin, {}))
        if lone is not None and game.box_rounds[origin][lone] == "take":
            return replace(game, lone_taker=LoneTaker(lone, origin, len(game.events) + 1))
    return game


def _take_round_answered(before: Game, after: Game, name: str, answer: str) -> Game:
    """House rule ``box-takes``: the box's answer to a member's double (a deal counts as not
    taking it), noted in the round it belongs to, and refused if it leaves the round's
    obligation impossible. A round opens at the box's first answer and holds every member's
    double then waiting on the box; a double given after that is a round of its own. Under
    ``box-takes-scope all`` a round binds the box only if every member still in doubled in
    it (L.A.: "if the box is doubled by everyone at the same time")."""
    if after.rules.box_takes == "any":
        return after
    rounds = dict(after.take_rounds)
    origin = next((o for o, r in rounds.items() if r.answers.get(name) == "pending"), None)
    if origin is None:
        origin = len(before.events)
        waiting = [
            m
            for m in before.members
            if (offer := before.cubes[m].offer) is not None
            and before.cubes[m].live
            and (offer.stage, offer.doubler) == ("double", "member")
            and not any(r.answers.get(m) == "pending" for r in rounds.values())
        ]
        leader = _leader(before)
        everyone = set(waiting) == set(_live(before))
        rounds[origin] = Round(
            answers=dict.fromkeys(waiting, "pending"),
            values={m: before.cubes[m].value for m in waiting},
            captain=leader if leader in waiting else None,
            binding=after.rules.box_takes_scope == "several" or everyone,
        )
    found = rounds[origin]
    found = replace(found, answers={**found.answers, name: answer})
    _check_box_takes(after, found, name, answer)
    rounds[origin] = found
    return replace(after, take_rounds=rounds)


def _check_box_takes(game: Game, found: Round, name: str, answer: str) -> None:
    """Refuse an answer after which no way of answering the round's other doubles keeps the
    house rule: the box may always drop every double, but once it takes one it takes at
    least half (``half``), or enough to break even on a single game and the captain's
    (``break-even``); with two members, both or neither."""
    answers = found.answers
    if len(answers) < 2 or not found.binding:
        return
    taken = [m for m, a in answers.items() if a in ("take", "beaver")]
    if not taken:
        return
    waiting = [m for m, a in answers.items() if a == "pending"]
    paid = [m for m, a in answers.items() if a in ("drop", "deal")]
    rule = game.rules.box_takes
    names = _and(list(answers))
    doing = _of_player("box cannot", answer, name)
    if paid:
        so_far = said(
            "it took {taken} and did not take {paid}",
            taken=_and(taken, possessive=True),
            paid=_and(paid, possessive=True),
        )
    else:
        so_far = said("it took {taken}", taken=_and(taken, possessive=True))
    if len(game.members) == 2:
        if paid:
            raise RuleError(
                said(
                    "{doing}: with two members the box takes both doubles ({players}) or drops "
                    "both (house rule box-takes {rule}; {so_far})",
                    doing=doing,
                    players=names,
                    rule=rule,
                    so_far=so_far,
                )
            )
        return
    if rule == "half":
        need = (len(answers) + 1) // 2
        if len(taken) + len(waiting) < need:
            raise RuleError(
                said(
                    "{doing}: under box-takes half the box takes at least {need} of the "
                    "{count} doubles from {players}, or drops them all ({so_far})",
                    doing=doing,
                    need=need,
                    count=len(answers),
                    players=names,
                    so_far=so_far,
                )
            )
        return
    captain = found.captain
    if captain is not None and answers[captain] in ("drop", "deal"):
        raise RuleError(
            said(
                "{doing}: under box-takes break-even the box takes the captain's double, "
                "{captain}'s, whenever it takes any ({so_far})",
                doing=doing,
                captain=captain,
                so_far=so_far,
            )
        )
    wins = 2 * sum(found.values[m] for m in (*taken, *waiting))
    pays = sum(game.cubes[m].result or 0 for m in paid)
    if wins < pays:
        raise RuleError(
            said(
                "{doing}: under box-takes break-even the box takes enough of the doubles from "
                "{players} to break even on a single game, or drops them all ({so_far}: a "
                "single would win it {wins} at most, against the {pays} it pays)",
                doing=doing,
                players=names,
                so_far=so_far,
                wins=wins,
                pays=pays,
            )
        )


def _and(names: list[str], *, possessive: bool = False) -> Sayable:
    """``C``, ``C and M1``, ``C, M1 and M2`` (``possessive``: ``C's and M1's``), in the
    reader's words."""
    words: list[Sayable] = (
        [said("{player}'s", player=n) for n in names] if possessive else list(names)
    )
    if len(words) == 1:
        return words[0]
    return said("{names} and {last}", names=joined(words[:-1]), last=words[-1])


def _lone(answers: Mapping[str, str]) -> str | None:
    """The one member to take (or beaver) a box double given to two or more, once every
    answer is in; None if there is none."""
    if "pending" in answers.values() or len(answers) < 2:
        return None
    takers = [m for m, a in answers.items() if a in ("take", "beaver")]
    return takers[0] if len(takers) == 1 else None


def _lone_taker_drops(game: Game, name: str) -> bool:
    """Mandatory extras: whether ``name`` is the lone taker of the box's double and may still
    drop it, nothing but extras having happened since the last answer to it."""
    lone = game.lone_taker
    return (
        game.rules.mandatory_extras
        and lone is not None
        and lone.member == name
        and game.cubes[name].live
        and game.cubes[name].offer is None
    )


def _drop_after_all(game: Game, name: str) -> Game:
    """The lone taker drops the box's double after all, rather than take the extras
    offered: they pay the cube's value before the double (the cube as it was: centred if it
    had never been turned), and the extras given to them since are void."""
    lone = game.lone_taker
    assert lone is not None
    cube = game.cubes[name]
    paid = cube.value // 2
    never_turned = paid == 1 << game.auto_doubles  # (else the box owned it to double it)
    dropped = replace(
        cube,
        value=paid,
        owner="centre" if never_turned else "box",
        result=-paid,
        ended_by=said("{player} dropped after all, rather than take the extras", player=name),
    )
    extras = [i for i, e in enumerate(game.events) if isinstance(e, Extra)]
    void = {
        k
        for k, i in enumerate(extras)
        if i >= lone.since and cast(Extra, game.events[i]).team_side == name
    }
    rounds = {**game.box_rounds, lone.origin: {**game.box_rounds[lone.origin], name: "drop"}}
    return replace(
        game,
        cubes={**game.cubes, name: dropped},
        box_rounds=rounds,
        extra_cubes=tuple(
            replace(c, void=True) if k in void else c for k, c in enumerate(game.extra_cubes)
        ),
    )


def _check_answers_in(game: Game, offer: Offer, captain: str) -> None:
    """Single cube: the captain beavers the box's double for the members who take it, so every
    other member must have answered it first (nobody is swept into a beaver unasked)."""
    waiting = [
        m
        for m in _live(game)
        if m != captain
        and m not in game.followers  # they answer as the captain does
        and (o := game.cubes[m].offer) is not None
        and o.origin == offer.origin
    ]
    if waiting:
        raise RuleError(
            said_n(
                "{captain} cannot beaver for the team yet: {players} still has to take or drop "
                "the box's double (the beaver covers only the members who take)",
                "{captain} cannot beaver for the team yet: {players} still have to take or "
                "drop the box's double (the beaver covers only the members who take)",
                len(waiting),
                captain=captain,
                players=", ".join(waiting),
            )
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
        (isinstance(e, Answer) and e.act in ("take", "drop")) or isinstance(e, Deal | Extra)
        for e in since
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
    if act == "take":  # the double is over: the next one may be beavered afresh
        new = replace(cube, value=cube.value * 2, owner=doubled, offer=None, turns=0)
    elif act == "drop":
        paid = -cube.value if answerer == "member" else cube.value
        how = (
            said("{player} dropped", player=who)
            if offer.stage == "double"
            else said("{player} refused the beaver", player=who)
            if offer.stage == "beaver"
            else said("{player} refused the raccoon", player=who)
        )
        new = replace(cube, offer=None, result=paid, ended_by=how)
    elif act == "beaver":
        if offer.stage != "double":
            raise RuleError(
                said("{player} cannot beaver: only a double can be beavered", player=who)
            )
        if not rules.beavers:
            raise RuleError(
                said(
                    "{player} cannot beaver: beavers are off in this session (house rule "
                    "--no-beavers)",
                    player=who,
                )
            )
        side = "box" if answerer == "box" else "team"
        if rules.beavers_by not in ("both", side) and rules.beavers_by == "box":
            raise RuleError(
                said(
                    "{player} cannot beaver: only the box may beaver in this session (house "
                    "rule beavers-by {rule})",
                    player=who,
                    rule=rules.beavers_by,
                )
            )
        if rules.beavers_by not in ("both", side):
            raise RuleError(
                said(
                    "{player} cannot beaver: only the team's members may beaver in this "
                    "session (house rule beavers-by {rule})",
                    player=who,
                    rule=rules.beavers_by,
                )
            )
        _check_turns(cube, name, who, act, rules.beaver_limit)
        _check_max(
            game,
            cube.value * 4,
            said("{player} cannot beaver {member}'s cube", player=who, member=name),
        )
        new = replace(
            cube,
            value=cube.value * 2,
            owner=doubled,
            offer=replace(offer, stage="beaver"),
            turns=cube.turns + 1,
        )
    else:
        if offer.stage != "beaver":
            raise RuleError(
                said("{player} cannot raccoon: only a beaver can be raccooned", player=who)
            )
        if not rules.raccoons:
            raise RuleError(
                said(
                    "{player} cannot raccoon: raccoons are off in this session (house rule "
                    "--no-raccoons)",
                    player=who,
                )
            )
        _check_turns(cube, name, who, act, rules.beaver_limit)
        _check_max(
            game,
            cube.value * 4,
            said("{player} cannot raccoon {member}'s cube", player=who, member=name),
        )
        new = replace(
            cube, value=cube.value * 2, offer=replace(offer, stage="raccoon"), turns=cube.turns + 1
        )
    rounds = game.box_rounds
    if offer.doubler == "box" and offer.stage == "double" and offer.origin in rounds:
        rounds = {**rounds, offer.origin: {**rounds[offer.origin], name: act}}
    return replace(game, cubes={**game.cubes, name: new}, box_rounds=rounds)


def _check_turns(cube: Cube, name: str, who: str, act: str, limit: int | None) -> None:
    """House rule ``beaver-limit``: the beavers and raccoons a pair may play on one double
    (gnubg's ``set beavers N``: its ``cBeavers`` counts them on the pending double and is
    reset by the take or the drop that answers it)."""
    if limit is None or cube.turns < limit:
        return
    if act == "beaver" and cube.turns == 1:
        refusal = said(
            "{player} cannot beaver: {member}'s cube has had a beaver on this double, the limit "
            "(beaver-limit {limit})",
            player=who,
            member=name,
            limit=limit,
        )
    elif act == "beaver":
        refusal = said_n(
            "{player} cannot beaver: {member}'s cube has had {n} beavers and raccoons on "
            "this double, the limit (beaver-limit {limit})",
            "{player} cannot beaver: {member}'s cube has had {n} beavers and raccoons on "
            "this double, the limit (beaver-limit {limit})",
            cube.turns,
            player=who,
            member=name,
            limit=limit,
        )
    elif cube.turns == 1:
        refusal = said(
            "{player} cannot raccoon: {member}'s cube has had a beaver on this double, the limit "
            "(beaver-limit {limit})",
            player=who,
            member=name,
            limit=limit,
        )
    else:
        refusal = said_n(
            "{player} cannot raccoon: {member}'s cube has had {n} beavers and raccoons on "
            "this double, the limit (beaver-limit {limit})",
            "{player} cannot raccoon: {member}'s cube has had {n} beavers and raccoons on "
            "this double, the limit (beaver-limit {limit})",
            cube.turns,
            player=who,
            member=name,
            limit=limit,
        )
    raise RuleError(refusal)


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
                said(
                    "{player} is the only one to take the box's double: under the house rule "
                    "mandatory-beaver {player} must beaver or drop",
                    player=lone,
                )
            )
        raise RuleError(
            said(
                "{answered}'s answer would leave {player} the only one to take the box's "
                "double: under the house rule mandatory-beaver {player} must beaver or drop "
                "(undo {player}'s take first)",
                answered=answered,
                player=lone,
            )
        )


def _deal(game: Game, event: Deal) -> Game:
    if not game.rules.deals:
        raise RuleError(
            said(
                "deals are off in this session (house rule --no-deals: no settlements): play "
                "the game out"
            )
        )
    cube = _member(game, event.member)
    _refuse_resigning(cube, event.member, said("{player} cannot deal", player=event.member))
    if event.won_by is not None:
        _check_won_by(game, event)
    if event.member in game.start_line.followers:
        raise RuleError(
            said(
                "{player} is away: nobody at the table deals for {player} ({player}'s cube "
                "follows the captain's)",
                player=event.member,
            )
        )
    if cube.offer is not None and cube.offer.answerer == "member":
        waiting = [f for f in game.followers if _same_offer(game.cubes[f], cube.offer)]
        if waiting and event.member == _leader(game):
            raise RuleError(
                said(
                    "{player} cannot deal yet: {player}'s answer to the double is {players}'s "
                    "too, so {player} answers it first",
                    player=event.member,
                    players=", ".join(waiting),
                )
            )
    how = said("dealt at {points}", points=f"{event.points:+d}")
    new = replace(cube, offer=None, result=event.points, ended_by=how)
    rounds = game.box_rounds
    offer = cube.offer
    after = replace(game, cubes={**game.cubes, event.member: new})
    if offer is not None and offer.origin in rounds:
        origin = offer.origin
        rounds = {**rounds, origin: {**rounds[origin], event.member: "deal"}}
        after = replace(after, box_rounds=rounds)
        if game.rules.deal_answers:  # a deal is an answer: the same answers, the same verdict
            return _box_round_answered(after, origin, event.member)
    elif (
        offer is not None
        and (offer.stage, offer.doubler) == ("double", "member")
        and game.rules.cubes == "multi"
    ):
        return _take_round_answered(game, after, event.member, "deal")
    return after


#: Who may be declared the winner of a deal at 0 with the captain.
WON_BY = ("box", "captain")


def _check_won_by(game: Game, event: Deal) -> None:
    """A winner is declared for a deal at 0 with the captain only: there the captain rule
    asks who won, and another deal's points say it."""
    if event.won_by not in WON_BY:
        raise RuleError(said("--won-by is box or captain, not {value}", value=repr(event.won_by)))
    if event.points != 0:
        points = f"{event.points:+d}"
        raise RuleError(
            said(
                "--won-by declares the winner of a deal at 0: a deal at {points} has one",
                points=points,
            )
        )
    if event.member != game.captain:
        raise RuleError(
            said(
                "--won-by declares the winner of a deal at 0 with the captain ({captain}), "
                "whose pair decides who keeps the box: {player} is not the captain",
                captain=game.captain,
                player=event.member,
            )
        )
    if game.rules.retention != "captain":
        raise RuleError(
            said(
                "--won-by is for the captain rule (house rule --retention captain): under "
                "{rule} the points decide",
                rule=game.rules.retention,
            )
        )


def declared_winner(game: Game) -> str | None:
    """Who the table declared the winner of a deal at 0 with the captain, if it did."""
    for event in game.events:
        if isinstance(event, Deal) and event.won_by is not None and event.member == game.captain:
            return event.won_by
    return None


def _extra(game: Game, event: Extra) -> Extra:
    """An extra checked against the game, its box side named (``box`` is the box)."""
    if not game.rules.extras:
        raise RuleError(said("extras are off in this session (house rule --extras)"))
    if isinstance(event.points, bool) or event.points < 1:
        raise RuleError(
            said("an extra is worth 1 point or more, not {points}", points=event.points)
        )
    if isinstance(event.premium, bool) or event.premium < 0:
        raise RuleError(
            said("an extra's premium is 0 or more, not {premium}", premium=event.premium)
        )
    check_points(event.points, "an extra")
    check_points(event.premium, "an extra's premium")
    box_side = game.box if event.box_side.casefold() == "box" else event.box_side
    team, other_side = event.team_side, box_side
    if team not in game.members:
        if team == game.box:
            raise RuleError(
                said("{player} is the box: the team side of an extra is a member", player=team)
            )
        if team == game.partner:
            raise RuleError(
                said(
                    "{player} is the box's partner, on the box's side: name a member",
                    player=team,
                )
            )
        raise RuleError(said("{player} is not playing this game", player=team))
    if other_side == team:
        raise RuleError(said("{player} cannot give themselves an extra", player=team))
    if other_side not in game.players:
        raise RuleError(said("{player} is not playing this game", player=other_side))
    for name in (team, other_side):
        if name in dict(game.start_line.away):
            raise RuleError(
                said(
                    "{player} is away: an extra is a bet between players at the table",
                    player=name,
                )
            )
    return replace(event, box_side=box_side)


def _extra_cube(
    game: Game, event: ExtraDouble | ExtraAnswer
) -> tuple[ExtraDouble | ExtraAnswer, Game]:
    """House rule ``extra-redoubles``: the holder of an extra's cube redoubles it; the other
    side takes (the extra is worth twice as much, and they hold its cube) or drops (they pay
    its worth before the double, and the extra is settled: its premium stands)."""
    if not game.rules.extra_redoubles:
        raise RuleError(
            said("an extra's cube is not redoubled in this session (house rule --extra-redoubles)")
        )
    box_side = game.box if event.box_side.casefold() == "box" else event.box_side
    team = event.team_side
    found = [k for k, e in enumerate(game.extras) if e.team_side == team and e.box_side == box_side]
    if not found:
        raise RuleError(
            said(
                "{box_side} has given {team_side} no extra in this game",
                box_side=box_side,
                team_side=team,
            )
        )
    standing = [
        k for k in found if not game.extra_cubes[k].void and game.extra_cubes[k].result is None
    ]
    offered = [k for k in standing if game.extra_cubes[k].offered]
    if isinstance(event, ExtraAnswer) and offered:
        standing = offered  # the answer is to the last redouble between them
    if not standing:
        if game.extra_cubes[found[-1]].void:
            raise RuleError(
                said(
                    "the extra of {team_side} and {box_side} is void",
                    team_side=team,
                    box_side=box_side,
                )
            )
        raise RuleError(
            said(
                "the extra of {team_side} and {box_side} is settled by a drop",
                team_side=team,
                box_side=box_side,
            )
        )
    k = standing[-1]  # the last one given between them that still stands
    cube = game.extra_cubes[k]
    holder, taker = (team, box_side) if cube.holder == "team" else (box_side, team)
    if isinstance(event, ExtraDouble):
        if cube.offered:
            raise RuleError(
                said(
                    "the extra of {team_side} and {box_side} is already doubled: {player} to "
                    "answer",
                    team_side=team,
                    box_side=box_side,
                    player=taker,
                )
            )
        _check_max(game, cube.value * 2, said("{player} cannot double the extra", player=holder))
        new = replace(cube, offered=True)
    else:
        if not cube.offered and event.act == "take":
            raise RuleError(
                said(
                    "there is no double on the extra of {team_side} and {box_side} to take",
                    team_side=team,
                    box_side=box_side,
                )
            )
        if not cube.offered:
            raise RuleError(
                said(
                    "there is no double on the extra of {team_side} and {box_side} to drop",
                    team_side=team,
                    box_side=box_side,
                )
            )
        if event.act == "take":
            other_side: Literal["team", "box"] = "box" if cube.holder == "team" else "team"
            new = replace(cube, value=cube.value * 2, holder=other_side, offered=False)
        elif event.act == "drop":
            paid = cube.value if cube.holder == "team" else -cube.value
            new = replace(cube, offered=False, result=paid)
        else:
            raise RuleError(
                said("an extra's double is taken or dropped, not {act}", act=repr(event.act))
            )
    cubes = list(game.extra_cubes)
    cubes[k] = new
    return replace(event, box_side=box_side), replace(game, extra_cubes=tuple(cubes))


def _resign(game: Game, event: Resign) -> tuple[Resign, Game]:
    """House rule ``resignations per-member``: the box offers to resign to some members (no
    members named: every member still in)."""
    if game.rules.resignations != "per-member":
        raise RuleError(
            said(
                "the box resigns the whole board in this session: end team --resigned (house "
                "rule --resignations per-member lets it resign to some members)"
            )
        )
    if event.kind not in MULTIPLIER:
        raise RuleError(
            said(
                "a resignation is of a single, gammon or backgammon, not {kind}",
                kind=repr(event.kind),
            )
        )
    members = event.members or tuple(m for m in _live(game) if game.cubes[m].resign is None)
    if not members:
        raise RuleError(said("there is nobody still in to resign to"))
    origin = len(game.events)
    cubes = dict(game.cubes)
    for name in members:
        if members.count(name) > 1:
            raise RuleError(said("{player} is named twice", player=name))
        cube = _member(game, name)
        if cube.offer is not None:
            raise RuleError(
                said(
                    "the box cannot resign to {player}: a double is pending on {player}'s cube "
                    "(answer it first)",
                    player=name,
                )
            )
        if cube.resign is not None:
            raise RuleError(
                said("the box's resignation already waits for {player}'s answer", player=name)
            )
        cubes[name] = replace(cube, resign=Resignation(event.kind, origin))
    rounds = {**game.resign_rounds, origin: dict.fromkeys(members, "pending")}
    return Resign(event.kind, members), replace(game, cubes=cubes, resign_rounds=rounds)


def _resign_answer(game: Game, event: ResignAnswer) -> Game:
    """A member accepts the box's resignation (their pair is paid cube × 1, 2 or 3, Jacoby
    applied) or refuses it and plays on. A resignation offered to every member still in and
    accepted by them all ends the board, as ``end team --resigned`` would."""
    name = event.member
    cube = _member(game, name)
    offered = cube.resign
    if offered is None and event.accept:
        raise RuleError(said("there is no resignation offered to {player} to accept", player=name))
    if offered is None:
        raise RuleError(said("there is no resignation offered to {player} to refuse", player=name))
    if event.accept:
        level = scored_kind(offered.kind, centred=centred(game, cube), jacoby=game.rules.jacoby)
        values = {"player": name, "kind": KINDS[offered.kind]}
        how = (
            said("{player} accepted the box's resignation of a {kind}", **values)
            if level == offered.kind
            else said(
                "{player} accepted the box's resignation of a {kind}; {level} counts single: "
                "Jacoby",
                level=LEVELS[False, offered.kind],
                **values,
            )
        )
        new = replace(cube, resign=None, result=pair_points(cube.value, level), ended_by=how)
        game = replace(game, why=(*game.why, *scoring_why(game, offered.kind, [name], True)))
    else:
        new = replace(cube, resign=None)
    answers = {**game.resign_rounds[offered.origin], name: "accept" if event.accept else "refuse"}
    after = replace(
        game,
        cubes={**game.cubes, name: new},
        resign_rounds={**game.resign_rounds, offered.origin: answers},
    )
    if set(answers.values()) == {"accept"} and not any(c.live for c in after.cubes.values()):
        after = replace(after, result=End("team", offered.kind, resigned=True))
    return after


def _captain_resign(game: Game, event: CaptainResign) -> Game:
    """House rule ``captain-resigns takeover``: the captain resigns their own game and a
    member takes over the captain's place (see :class:`CaptainResign`)."""
    if game.rules.captain_resigns != "takeover":
        raise RuleError(
            said(
                "a captain who resigns resigns the board for the team (end box --resigned); "
                "the house rule --captain-resigns takeover lets another member take over the "
                "place"
            )
        )
    if event.kind not in MULTIPLIER:
        raise RuleError(
            said(
                "a resignation is a single, gammon or backgammon, not {kind}",
                kind=repr(event.kind),
            )
        )
    captain = game.captain
    cube = _member(game, captain)
    if cube.offer is not None or cube.resign is not None:
        raise RuleError(
            said("{captain}, the captain, has a decision pending: answer it first", captain=captain)
        )
    successor = event.successor
    if successor == captain:
        raise RuleError(
            said("{captain} is the captain: name the member who takes over", captain=captain)
        )
    _member(game, successor)
    if successor in game.start_line.followers:
        raise RuleError(
            said("{player} is away: a member at the table takes over the board", player=successor)
        )
    worth = pair_points(
        cube.value, event.kind, centred=centred(game, cube), jacoby=game.rules.jacoby
    )
    ended = said("{player} resigned", player=captain)
    cubes = {**game.cubes, captain: replace(cube, result=-worth, ended_by=ended)}
    why = said(
        "{captain}, the captain, resigns a {kind} ({points}): {successor} takes over the "
        "captain's place and {captain} goes to the bottom of the line (captain-resigns takeover)",
        captain=captain,
        kind=KINDS[event.kind],
        points=signed_points(-worth),
        successor=successor,
    )
    return replace(
        game,
        cubes=cubes,
        captain=successor,
        line=send_down(game.line, captain),
        why=(*game.why, why),
    )


def _buy_out(game: Game) -> Game:
    """House rule ``buy-outs``: the box buys its partner out of every live cube (see
    :class:`BuyOut`)."""
    if not game.rules.buy_outs:
        raise RuleError(
            said(
                "there are no buy-outs in this session (house rule --buy-outs, the Chicago "
                "buy-out of a box partner)"
            )
        )
    partner = game.partner
    if partner is None:
        raise RuleError(
            said("{box} plays without a partner: there is nobody to buy out", box=game.box)
        )
    if game.bought_out:
        raise RuleError(said("{partner} was bought out already in this game", partner=partner))
    pending = sorted(game.pending)
    if pending:
        raise RuleError(
            said_n(
                "a buy-out comes before the box's double, not with a decision pending (on "
                "{owners} cube)",
                "a buy-out comes before the box's double, not with a decision pending (on "
                "{owners} cubes)",
                len(pending),
                owners=_and(pending, possessive=True),
            )
        )
    live = {m: c.value for m, c in game.cubes.items() if c.live}
    share = game.rules.partner_share
    why = said_n(
        "{box} buys {partner} out of {n} cube worth {worth}: {partner} takes {share}% of it, "
        "and {box} plays them alone (buy-outs)",
        "{box} buys {partner} out of {n} cubes worth {worth}: {partner} takes {share}% of "
        "it, and {box} plays them alone (buy-outs)",
        len(live),
        n=len(live),
        box=game.box,
        partner=partner,
        worth=sum(live.values()),
        share=share,
    )
    return replace(game, bought_out=live, why=(*game.why, why))


def _cube_fix(game: Game, event: CubeFix) -> Game:
    """A member's cube as the table agrees it was (a correction of the record)."""
    cube = _member(game, event.member)
    value = event.value
    if value < 1 or value & (value - 1):
        raise RuleError(said("a cube is 1, 2, 4, 8, …, not {value}", value=value))
    if not cube.live or cube.offer is not None or cube.resign is not None:
        if cube.ended_by:
            raise RuleError(
                said(
                    "{player}'s cube was settled before the board's end ({how}): only a cube "
                    "the board's end settles is corrected this way",
                    player=event.member,
                    how=cube.ended_by,
                )
            )
        raise RuleError(
            said(
                "{player}'s cube was settled before the board's end (a decision pending): only "
                "a cube the board's end settles is corrected this way",
                player=event.member,
            )
        )
    _check_max(game, value, said("{player}'s cube", player=event.member))
    owner: Owner = "centre" if value == 1 else "member" if cube.owner == "centre" else cube.owner
    cubes = {**game.cubes, event.member: replace(cube, value=value, owner=owner)}
    why = said(
        "{player}'s cube is {value}, as the table agreed it was (a correction)",
        player=event.member,
        value=value,
    )
    return replace(game, cubes=cubes, why=(*game.why, why))


def centred(game: Game, cube: Cube) -> bool:
    """Whether Jacoby counts a pair's gammon single: its cube is centred (``per-cube``), or no
    cube of the game was turned and accepted (``any-cube-turned``)."""
    if game.rules.jacoby_scope == "any-cube-turned":
        return not game.turned
    return cube.owner == "centre"


def _end(game: Game, event: End) -> Game:
    if event.winner not in ("box", "team"):
        raise RuleError(
            said("the winner is the box or the team, not {winner}", winner=repr(event.winner))
        )
    if event.kind not in MULTIPLIER:
        raise RuleError(
            said("a game ends as a single, gammon or backgammon, not {kind}", kind=repr(event.kind))
        )
    pending = sorted(game.pending)
    if pending:
        raise RuleError(
            said(
                "the game cannot end with a decision pending on {players}'s cube: answer it first",
                players=", ".join(pending),
            )
        )
    resigning = sorted(game.resigning)
    if resigning:
        raise RuleError(
            said(
                "the game cannot end while the box's resignation waits for an answer from "
                "{players}: accept or refuse it first (resign --accept or --refuse)",
                players=_and(resigning),
            )
        )
    doubled = [e for e, c in zip(game.extras, game.extra_cubes, strict=True) if c.offered]
    if doubled:
        raise RuleError(
            said(
                "the game cannot end with a double pending on the extra of {team_side} and "
                "{box_side}: take or drop it first",
                team_side=doubled[0].team_side,
                box_side=doubled[0].box_side,
            )
        )
    sign = 1 if event.winner == "team" else -1
    cubes = dict(game.cubes)
    for name, cube in game.cubes.items():
        if cube.live:
            level = scored_kind(event.kind, centred=centred(game, cube), jacoby=game.rules.jacoby)
            how = said_in("ended", "board") if level == event.kind else jacoby_single(event.kind)
            worth = pair_points(cube.value, level)
            cubes[name] = replace(cube, result=sign * worth, ended_by=how)
    live = [m for m, c in game.cubes.items() if c.live]
    why = (*game.why, *scoring_why(game, event.kind, live))
    return replace(game, cubes=cubes, result=event, why=why)


def scoring_why(game: Game, kind: Kind, members: list[str], resigned: bool = False) -> list[Said]:
    """Why a gammon or backgammon counts as it does for the pairs of ``members`` (the house
    rule ``jacoby`` and its scope; ``resigned``: for a resignation). A single is a single:
    nothing was decided."""
    if kind == "single" or not members:
        return []
    rules, level = game.rules, LEVELS[resigned, kind]
    if not rules.jacoby:
        return [
            said(
                "{level} counts in full for {players}: no Jacoby rule",
                level=level,
                players=_and(members),
            )
        ]
    if rules.jacoby_scope == "any-cube-turned":
        if game.turned:
            return [
                said(
                    "{level} counts in full for {players}: a cube of the game was turned and "
                    "accepted (Jacoby, any-cube-turned)",
                    level=level,
                    players=_and(members),
                )
            ]
        return [
            said(
                "{level} counts single for {players}: no cube of the game was turned (Jacoby, "
                "any-cube-turned)",
                level=level,
                players=_and(members),
            )
        ]
    centred = [m for m in members if game.cubes[m].owner == "centre"]
    turned = [m for m in members if m not in centred]
    reasons = []
    if centred:
        reasons.append(
            said_n(
                "{level} counts single for {players}: Jacoby, {players}'s cube centred",
                "{level} counts single for {players}: Jacoby, their cubes centred",
                len(centred),
                level=level,
                players=_and(centred),
            )
        )
    if turned:
        reasons.append(
            said_n(
                "{level} counts in full for {players}: {players}'s cube was turned (Jacoby)",
                "{level} counts in full for {players}: their cubes were turned (Jacoby)",
                len(turned),
                level=level,
                players=_and(turned),
            )
        )
    return reasons


def _pass_captaincy(game: Game) -> Game:
    """Under ``acting-captain inherit``, a captain who is out hands the seat to the acting
    captain; a captain who lost their pair goes to the bottom of the line at once.

    The seat passes only once every answer is in (no offer pending), so the order in which
    members answer a double never changes who inherits: the highest-placed member still in.
    With nobody left in (everyone dropped) nobody inherits: the captain's own result counts."""
    if game.rules.acting_captain != "inherit" or game.result is not None:
        return game
    if (game.pending or game.resigning) and game.rules.settled_edges:
        return game
    line, captain = game.line, game.captain
    why: list[Sayable] = list(game.why)
    while not game.cubes[captain].live:
        acting = game.acting_captain
        if acting is None:
            break
        result = game.cubes[captain].result
        values = {"captain": captain, "how": game.cubes[captain].ended_by, "acting": acting}
        if result is not None and result < 0:
            line = send_down(line, captain)
            why.append(
                said(
                    "the captain, {captain}, is out ({how}): {acting} is acting captain and "
                    "takes the captain's seat (acting-captain inherit); {captain}, who lost, "
                    "goes to the bottom of the line at once",
                    **values,
                )
            )
        else:
            why.append(
                said(
                    "the captain, {captain}, is out ({how}): {acting} is acting captain and "
                    "takes the captain's seat (acting-captain inherit)",
                    **values,
                )
            )
        captain = acting
    if captain == game.captain:
        return game
    return replace(game, line=line, captain=captain, why=tuple(why))


def answer_all(game: Game, act: AnswerAct) -> list[Event]:
    """``take --all`` / ``drop --all``: one answer per pending cube (one for the whole team
    where a single cube answers at once). It answers for one side: when the box and members
    both have offers to answer, each is answered by name."""
    if act not in ("take", "drop"):
        raise RuleError(said("--all answers with take or drop"))
    box_answers = [m for m, o in game.pending.items() if o.answerer == "box"]
    member_answers = [m for m, o in game.pending.items() if o.answerer == "member"]
    if box_answers and member_answers:
        raise RuleError(
            said_n(
                "{act} --all answers for one side, but both have answers pending: the box on "
                "{players}'s cube, and {members} on their own; {act} them by name",
                "{act} --all answers for one side, but both have answers pending: the box on "
                "{players}'s cubes, and {members} on their own; {act} them by name",
                len(box_answers),
                act=act,
                players=", ".join(box_answers),
                members=", ".join(member_answers),
            )
        )
    events: list[Event] = []
    covered: set[str] = set()
    captain = game.acting_captain
    for name, offer in game.pending.items():
        if name in covered or (offer.answerer == "member" and _answers_with_leader(game, name)):
            continue  # a cube that follows the captain's answers as the captain does
        single = game.rules.cubes == "single"
        if single and not (offer.stage == "double" and offer.doubler == "box"):
            covered |= set(_team_targets(game, offer, act))
            events.append(Answer(act, captain or name))
        else:
            covered.add(name)
            events.append(Answer(act, name))
    if not events and act == "take":
        raise RuleError(said("there is no pending double to take"))
    if not events:
        raise RuleError(said("there is no pending double to drop"))
    return events


def check_game(game: Game, stakes: Mapping[str, int]) -> None:
    """Refuse a game that could book past the limit: every pair at its most (a finished
    pair's result; a live cube at its value, doubled if an offer is pending, times a
    backgammon; an extra at its premium and a backgammon) and the box side's sum of them, in
    points and in money at the highest stake at the table. Checked after every event, so a
    game can always end."""
    rate = max((stakes[p] for p in (game.box, *game.members) if p in stakes), default=1)
    side = 0
    for member, cube in game.cubes.items():
        if cube.result is not None:
            most = abs(cube.result)
        else:
            most = cube.value * (2 if cube.offer is not None else 1) * 3
        if most > LIMIT or most * rate > LIMIT:
            raise LimitError(
                said(
                    "the pair of {box} and {member} could book past the ledger's limit "
                    "({points} points, {money} in money)",
                    box=game.box,
                    member=member,
                    points=Number(LIMIT),
                    money=MONEY_SHOWN,
                )
            )
        side += most
    for extra, held in zip(game.extras, game.extra_cubes, strict=True):  # a side bet at its
        worth = held.value * (2 if held.offered else 1)  # most: its premium and a backgammon
        most = extra.premium + (abs(held.result) if held.result is not None else worth * 3)
        if most > LIMIT or most * rate > LIMIT:
            raise LimitError(
                said(
                    "the extra of {team_side} and {box_side} could book past the ledger's "
                    "limit ({points} points, {money} in money)",
                    team_side=extra.team_side,
                    box_side=extra.box_side,
                    points=Number(LIMIT),
                    money=MONEY_SHOWN,
                )
            )
        side += most
    if side > LIMIT or side * rate > LIMIT:
        raise LimitError(
            said(
                "the box, {box}, could be booked past the ledger's limit ({points} points, "
                "{money} in money) in this game",
                box=game.box,
                points=Number(LIMIT),
                money=MONEY_SHOWN,
            )
        )
