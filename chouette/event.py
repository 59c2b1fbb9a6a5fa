"""A chouette tournament (an **event**): entries into a prize pool, each with a bank of points;
levels, each with its starting cube, rising (the Florida "Chouette Challenge" [S29]: 1, 2, 4
… 64); tables drawn at random for every level; banks carried from level to level, a player
out once their bank is gone; re-entries until a level; and at the end a ranking by bank and
the payouts, shares of the pool to the cent.

Banks are points (chips), never money: a table plays under table stakes (each player's bank
caps what they lose, :mod:`chouette.outcome`) with every cube starting at the level's cube, so
a single moves each pair's banks by that cube. Money is the entries (the pool) and the
payouts only.

The event's state is its journal replayed (:func:`replay` of :class:`Entered`,
:class:`Reentered`, :class:`Drawn`, :class:`Closed`, :class:`Ended`, :class:`Accepted`);
each step refuses what the event's rules do not allow, naming the player and the reason.
A draw takes a seeded generator passed in (:func:`draw`): the same seed, the same players
and the same earlier tables draw the same tables again, so anyone can check a draw. Pure:
no database, no clock (moments are passed in), no hidden randomness. The ledger keeps the
journal and the tables, each a session (``db/events.py``).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from math import comb, factorial
from typing import Any, Literal, Protocol, get_args

from chouette.errors import ChouetteError
from chouette.limits import LEVEL_MINUTES, LEVELS, LIMIT, MAX_CUBE, within
from chouette.line import check_name, roll_off
from chouette.money import Cents
from chouette.names import case_twin
from chouette.outcome import Reentry
from chouette.rules import HouseRules
from chouette.words import Money, Said, marked, said, said_n

Ties = Literal["split", "roll"]
TIES: tuple[Ties, ...] = get_args(Ties)

#: The most levels an event lists (its cubes), and places it pays.
MOST_LEVELS = 64
MOST_PLACES = 100
#: The fewest and most players a table may be drawn with.
SMALLEST_TABLE, LARGEST_TABLE = 2, 20
#: The fewest a chouette is played by: a draw that cannot keep within the table size never
#: sits fewer at a table (unless the table size allows fewer).
CHOUETTE_LEAST = 3
#: A level's draw tries every possible set of tables when there are at most this many (the
#: fewest repeated pairings then proven); past it, a seeded search finds few.
EXACT_DRAWS = 50_000
#: The search's fresh starts, and its passes over the players each.
SEARCH_STARTS, SEARCH_PASSES = 4, 40


class Generator(Protocol):
    """A seeded generator (:class:`random.Random`): the draw's only randomness."""

    def shuffle(self, x: list[Any], /) -> None: ...

    def randrange(self, start: int, stop: int, /) -> int: ...

    def randint(self, a: int, b: int) -> int: ...


@dataclass(frozen=True)
class EventRules:
    """The event's terms, as its rules card says them: each entry's ``bank`` of points; each
    level's starting cube (``levels``; past the last, the last); a level's ``minutes`` (None:
    no clock); the tables' ``table_size`` (fewest, most); each entry's money into the pool
    (``entry``, cents); the last level a player may enter or re-enter at
    (``reentries_until``; None: entries at level 1 only, and no re-entries); the ``payout``,
    per cent of the pool by place; how ``ties`` of the ranking are settled; the
    ``organiser``, who holds the pool and pays it out; and the ``house`` rules of every
    table (from ``preset``), with table stakes of the bank."""

    bank: int
    levels: tuple[int, ...]
    organiser: str
    house: HouseRules = field(default_factory=HouseRules)
    minutes: int | None = None
    table_size: tuple[int, int] = (3, 5)
    entry: Cents = 0
    reentries_until: int | None = None
    payout: tuple[int, ...] = (100,)
    ties: Ties = "split"
    preset: str | None = None

    def __post_init__(self) -> None:
        within(self.bank, 1, LIMIT, "--bank")
        if not self.levels:
            raise ChouetteError(said("an event has a level at least: --levels 1,2,4"))
        if len(self.levels) > MOST_LEVELS:
            raise ChouetteError(
                said(
                    "an event lists at most {most} levels, not {count}",
                    most=MOST_LEVELS,
                    count=len(self.levels),
                )
            )
        for cube in self.levels:
            within(cube, 1, MAX_CUBE, "a level's starting cube")
            if cube & (cube - 1):
                raise ChouetteError(
                    said(
                        "a level's starting cube is a power of two (1, 2, 4, …), not {cube}",
                        cube=cube,
                    )
                )
        for before, after in itertools.pairwise(self.levels):
            if after < before:
                raise ChouetteError(
                    said(
                        "the starting cube rises from level to level: {after} after {before}",
                        after=after,
                        before=before,
                    )
                )
        if self.minutes is not None:
            within(self.minutes, 1, LEVEL_MINUTES, "--minutes")
        least, most = self.table_size
        within(least, SMALLEST_TABLE, LARGEST_TABLE, "the smallest table")
        within(most, SMALLEST_TABLE, LARGEST_TABLE, "the largest table")
        if least > most:
            raise ChouetteError(
                said(
                    "a table size is FEWEST-MOST, the fewer first: {least}-{most}",
                    least=least,
                    most=most,
                )
            )
        within(self.entry, 0, LIMIT, "--entry (cents)")
        if self.reentries_until is not None:
            within(self.reentries_until, 1, LEVELS, "--reentries-until")
        self._check_payout()
        if self.ties not in TIES:
            raise ChouetteError(
                said(
                    "--ties is one of {choices}, not {given!r}",
                    choices=", ".join(TIES),
                    given=self.ties,
                )
            )
        if self.house.table_stakes != self.bank:
            raise ChouetteError(
                said(
                    "an event's tables play table stakes of its bank ({bank} points)",
                    bank=self.bank,
                )
            )
        self.table_rules(len(self.levels))  # the house rules take every level's cube

    def _check_payout(self) -> None:
        if not self.payout or len(self.payout) > MOST_PLACES:
            raise ChouetteError(
                said(
                    "a payout pays 1 to {most} places, as per cents: 50,25,15,10", most=MOST_PLACES
                )
            )
        for part in self.payout:
            within(part, 1, 100, "a place's per cent")
        if sum(self.payout) != 100:
            raise ChouetteError(
                said("a payout's per cents add up to 100, not {total}", total=sum(self.payout))
            )
        for above, below in itertools.pairwise(self.payout):
            if below > above:
                raise ChouetteError(
                    said(
                        "a place pays no more than the place above it: {below}% after {above}%",
                        below=below,
                        above=above,
                    )
                )

    def cube(self, level: int) -> int:
        """The starting cube of ``level`` (1-based; past the last listed, the last)."""
        return self.levels[min(level, len(self.levels)) - 1]

    def table_rules(self, level: int) -> HouseRules:
        """The house rules of a table of ``level``: every cube starts at the level's cube."""
        return replace(self.house, starting_cube=self.cube(level))

    @property
    def last_entry(self) -> int:
        """The last level a player may enter at (the re-entries' last, else level 1)."""
        return self.reentries_until or 1

    def to_dict(self) -> dict[str, Any]:
        """The terms as plain JSON-ready values (the ledger's and an export's)."""
        return {
            "bank": self.bank,
            "levels": list(self.levels),
            "organiser": self.organiser,
            "house": self.house.to_dict(),
            "minutes": self.minutes,
            "table_size": list(self.table_size),
            "entry_cents": self.entry,
            "reentries_until": self.reentries_until,
            "payout": list(self.payout),
            "ties": self.ties,
            "preset": self.preset,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> EventRules:
        """Terms written by :meth:`to_dict`, checked as when they were given."""
        known = {
            "bank",
            "levels",
            "organiser",
            "house",
            "minutes",
            "table_size",
            "entry_cents",
            "reentries_until",
            "payout",
            "ties",
            "preset",
        }
        unknown = sorted(set(data) - known)
        if unknown:
            raise ChouetteError(said("unknown term of an event: {term!r}", term=unknown[0]))
        size = data["table_size"]
        if not (isinstance(size, list) and len(size) == 2):
            raise ChouetteError(said("a table size is two whole numbers, not {size!r}", size=size))
        return cls(
            bank=_whole(data["bank"], "bank"),
            levels=tuple(_whole(c, "a level's cube") for c in _listed(data["levels"], "levels")),
            organiser=check_name(_text(data["organiser"], "organiser")),
            house=HouseRules.from_dict(data["house"]),
            minutes=_maybe_whole(data.get("minutes"), "minutes"),
            table_size=(_whole(size[0], "table size"), _whole(size[1], "table size")),
            entry=_whole(data.get("entry_cents", 0), "entry_cents"),
            reentries_until=_maybe_whole(data.get("reentries_until"), "reentries_until"),
            payout=tuple(
                _whole(p, "a place's per cent") for p in _listed(data["payout"], "payout")
            ),
            ties=_text(data.get("ties", "split"), "ties"),  # type: ignore[arg-type]
            preset=None if data.get("preset") is None else _text(data["preset"], "preset"),
        )


def _whole(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ChouetteError(
            said("{what} must be a whole number, not {value!r}", what=what, value=value)
        )
    return value


def _maybe_whole(value: Any, what: str) -> int | None:
    return None if value is None else _whole(value, what)


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise ChouetteError(said("{what} must be text, not {value!r}", what=what, value=value))
    return value


def _listed(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise ChouetteError(said("{what} must be a list, not {value!r}", what=what, value=value))
    return value


def parse_levels(text: str) -> tuple[int, ...]:
    """``1,2,4,8`` -> the levels' starting cubes (checked by :class:`EventRules`)."""
    return tuple(_number(part, "--levels") for part in text.split(","))


def parse_payout(text: str) -> tuple[int, ...]:
    """``50,25,15,10`` -> per cent of the pool by place (checked by :class:`EventRules`)."""
    return tuple(_number(part, "--payout") for part in text.split(","))


def parse_table_size(text: str) -> tuple[int, int]:
    """``3-5`` -> the fewest and the most at a table; ``4``: four at every table."""
    least, dash, most = text.partition("-")
    first = _number(least, "--table-size")
    return (first, _number(most, "--table-size")) if dash else (first, first)


def _number(text: str, option: str) -> int:
    part = text.strip()
    if not part.isascii() or not part.isdigit() or len(part) > 20:
        raise ChouetteError(
            said("{option}: {part!r} is not a whole number", option=option, part=part[:30])
        )
    return int(part)


# ---------------------------------------------------------------- the journal's steps


@dataclass(frozen=True)
class Entered:
    """Players enter (each pays the entry into the pool and gets a bank)."""

    players: tuple[str, ...]


@dataclass(frozen=True)
class Reentered:
    """A player whose bank is gone enters again: a fresh bank, another entry into the pool."""

    player: str


@dataclass(frozen=True)
class Drawn:
    """The current level's tables, drawn with ``seed`` (see :func:`draw`): each table's
    seats (box, captain, crew; late entries seated after them), the pairings they repeat from
    the earlier levels, and whether those are proven the fewest."""

    seed: int
    tables: tuple[tuple[str, ...], ...]
    repeats: int
    exact: bool


@dataclass(frozen=True)
class Closed:
    """The current level closed: each seated player's bank as their table left it."""

    banks: Mapping[str, int]


@dataclass(frozen=True)
class Ended:
    """The event ended (the level in play closed first with ``banks``); ``seed`` rolls off
    ties under ``--ties roll``."""

    banks: Mapping[str, int] | None = None
    seed: int | None = None


@dataclass(frozen=True)
class Accepted:
    """Players accept the event's rules card."""

    players: tuple[str, ...]


Step = Entered | Reentered | Drawn | Closed | Ended | Accepted


# ---------------------------------------------------------------- the state


@dataclass(frozen=True)
class EventState:
    """An event as its journal leaves it. ``entered``: every player, in the order they first
    entered; ``entries``: each one's entries (the first and the re-entries); ``banks``: each
    player's bank as carried into the level in play (a fresh one since, for a player who
    entered or re-entered during it); ``out``: who is out, and the level their bank went at;
    ``drawn``: the level in play's tables (None: not drawn yet), with late entries seated at
    them; ``carried``: what the banks at its tables must add up to, those carried into it
    and those given during it (games move points between players, never make any);
    ``played``: the earlier levels' tables (level 1's first); ``final``: the ranking once
    the event has ended."""

    name: str
    rules: EventRules
    entered: tuple[str, ...] = ()
    entries: Mapping[str, int] = field(default_factory=dict)
    banks: Mapping[str, int] = field(default_factory=dict)
    out: Mapping[str, int] = field(default_factory=dict)
    level: int = 1
    drawn: Drawn | None = None
    carried: int = 0
    played: tuple[Drawn, ...] = ()
    accepted: frozenset[str] = frozenset()
    final: tuple[Place, ...] | None = None

    @property
    def ended(self) -> bool:
        return self.final is not None

    @property
    def cube(self) -> int:
        """The starting cube of the level in play."""
        return self.rules.cube(self.level)

    @property
    def pool(self) -> Cents:
        """The prize pool: an entry for every entry and re-entry."""
        return self.rules.entry * sum(self.entries.values())

    @property
    def players_in(self) -> tuple[str, ...]:
        """The players not out, in the order they entered."""
        return tuple(p for p in self.entered if p not in self.out)

    def table_of(self, player: str) -> int | None:
        """The table (1-based) ``player`` sits at in the level in play, or None."""
        if self.drawn is None:
            return None
        for number, seats in enumerate(self.drawn.tables, start=1):
            if player in seats:
                return number
        return None

    @property
    def seated(self) -> tuple[str, ...]:
        """Everyone at a table of the level in play, table by table."""
        return () if self.drawn is None else tuple(p for t in self.drawn.tables for p in t)

    @property
    def waiting(self) -> tuple[str, ...]:
        """Players in who sit at no table of the level in play (they entered after its draw,
        every table being full): the next draw seats them."""
        seated = set(self.seated)
        return () if self.drawn is None else tuple(p for p in self.players_in if p not in seated)

    def met(self) -> Counter[tuple[str, str]]:
        """How often each pair of players sat at one table in the earlier levels."""
        pairs: Counter[tuple[str, str]] = Counter()
        for level in self.played:
            for seats in level.tables:
                pairs.update(_pairs(seats))
        return pairs


def _pairs(seats: Iterable[str]) -> list[tuple[str, str]]:
    return [(a, b) if a < b else (b, a) for a, b in itertools.combinations(seats, 2)]


def new_event(name: str, rules: EventRules) -> EventState:
    """An event before anyone entered."""
    return EventState(name, rules)


def _check_open(state: EventState) -> None:
    if state.ended:
        raise ChouetteError(said("the event {event} has ended", event=state.name))


def enter(state: EventState, players: Sequence[str]) -> EventState:
    """``players`` enter, each with a bank; during a drawn level each is seated at the table
    with the fewest players, if one has room (else the next draw seats them). Refused once
    entries have closed, for a player who entered already (a re-entry is :func:`reenter`),
    for one named twice and for one whose name differs only in case from another's (the
    organiser's too)."""
    _check_open(state)
    if not players:
        raise ChouetteError(said("name the players who enter"))
    if state.level > state.rules.last_entry:
        raise ChouetteError(
            said(
                "entries closed after level {last} (this is level {level})",
                last=state.rules.last_entry,
                level=state.level,
            )
        )
    names = [check_name(p) for p in players]
    seen: list[str] = []
    for name in names:
        if name in seen:
            raise ChouetteError(said("{player} is named twice", player=name))
        if name in state.entries:
            raise ChouetteError(
                said(
                    "{player} has entered already (a re-entry: event reenter {player})", player=name
                )
            )
        twin = case_twin(name, [*state.entered, *seen, state.rules.organiser])
        if twin is not None:
            raise ChouetteError(
                said(
                    "{twin} and {player} differ only in case: give one of them another name",
                    twin=twin,
                    player=name,
                )
            )
        seen.append(name)
    banks = {**state.banks, **{n: state.rules.bank for n in names}}
    entries = {**state.entries, **{n: 1 for n in names}}
    after = replace(state, entered=(*state.entered, *names), entries=entries, banks=banks)
    for name in names:
        after = _seat_late(after, name)
    return after


def _seat_late(state: EventState, player: str) -> EventState:
    """During a drawn level: ``player`` sits at the table with the fewest players (the first
    of them), if it has room; the bank they bring counts among the level's."""
    if state.drawn is None:
        return state
    tables = state.drawn.tables
    smallest = min(range(len(tables)), key=lambda i: (len(tables[i]), i))
    if len(tables[smallest]) >= state.rules.table_size[1]:
        return state  # every table full: the next draw seats them
    grown = tuple((*seats, player) if i == smallest else seats for i, seats in enumerate(tables))
    return replace(
        state,
        drawn=replace(state.drawn, tables=grown),
        carried=state.carried + state.banks[player],
    )


def reentry_problem(state: EventState, player: str, bank: int | None) -> Said | None:
    """Why ``player`` (their bank now ``bank`` at their table, or None when at no table)
    cannot re-enter now, or None."""
    if state.ended:
        return said("the event {event} has ended", event=state.name)
    last = state.rules.reentries_until
    if last is None:
        return said(
            "the event {event} takes no re-entries (event new --reentries-until LEVEL)",
            event=state.name,
        )
    if state.level > last:
        return said(
            "re-entries closed after level {last} (this is level {level})",
            last=last,
            level=state.level,
        )
    if player not in state.entries:
        return said(
            "{player} has not entered {event} (event enter {player})",
            player=player,
            event=state.name,
        )
    if player in state.out:
        return None
    if state.table_of(player) is not None and bank == 0:
        return None
    left = bank if bank is not None else state.banks[player]
    return said(
        "{player} still has {bank} in the bank: a re-entry is for a player whose bank is gone",
        player=player,
        bank=left,
    )


def reentry_at(rules: EventRules, level: int) -> Reentry:
    """How a player busted at a table of ``level`` gets back in (what its games say of
    them, :func:`chouette.outcome.emptied`): by the event's re-entry, up to the re-entries'
    last level; past it, not at all."""
    last = rules.reentries_until
    return "event" if last is not None and level <= last else "over"


def reenter(state: EventState, player: str, bank: int | None) -> EventState:
    """``player``, whose bank is gone, enters again: another entry into the pool and a fresh
    bank (``bank``: their bank now at their table, None when at no table). A player out
    comes back in, seated at a table with room during a drawn level; a player at a table
    plays on there. Refused, with the reason, as :func:`reentry_problem` says."""
    problem = reentry_problem(state, player, bank)
    if problem is not None:
        raise ChouetteError(problem)
    fresh = state.rules.bank
    after = replace(
        state,
        entries={**state.entries, player: state.entries[player] + 1},
        banks={**state.banks, player: fresh},
        out={p: at for p, at in state.out.items() if p != player},
    )
    if player in state.out:
        return _seat_late(after, player)
    return replace(after, carried=after.carried + fresh)


def table_sizes(count: int, least: int, most: int) -> tuple[int, ...]:
    """The tables ``count`` players sit at: as few as hold them at ``most`` a table, each of
    ``least`` or more, as even as can be (the larger first). Fewer players than ``least``
    (a final table) sit at one table; 1 player, none (``event end`` finishes the event).

    When no split is within the size (6 players at tables of 4 to 5), the nearest: the fewest
    seats outside the size in all, then the fewest tables, as even as can be, and never a
    table under :data:`CHOUETTE_LEAST` (nor under ``least``, if that is smaller); :func:`misfit`
    says so."""
    if count < 2:
        raise ChouetteError(
            said_n(
                "{n} player is in: a table needs two (event end finishes the event)",
                "{n} players are in: a table needs two (event end finishes the event)",
                count,
            )
        )
    if count < least:
        return (count,)
    floor = min(least, CHOUETTE_LEAST)
    best: tuple[tuple[int, int], tuple[int, ...]] | None = None
    for tables in range(1, count // floor + 1):
        base, more = divmod(count, tables)
        sizes = (base + 1,) * more + (base,) * (tables - more)
        outside = sum(max(least - size, 0, size - most) for size in sizes)
        if best is None or (outside, tables) < best[0]:
            best = ((outside, tables), sizes)
    assert best is not None  # count >= least >= floor: one table at least
    return best[1]


def misfit(sizes: Sequence[int], least: int, most: int) -> Said | None:
    """What a draw says when its tables (of :func:`table_sizes`) are not all within the
    table size of ``least`` to ``most``, or None when they are (or are one final table of
    fewer than ``least``)."""
    count = sum(sizes)
    if count < least or all(least <= size <= most for size in sizes):
        return None
    split = said_n(
        "one table of {sizes}",
        "{n} tables of {sizes}",
        len(sizes),
        sizes=", ".join(str(size) for size in sizes),
    )
    return said_n(
        "{n} player does not fit tables of {least} to {most}: {split}.",
        "{n} players do not fit tables of {least} to {most}: {split}.",
        count,
        least=least,
        most=most,
        split=split,
    )


def last_two(made: Drawn) -> Said | None:
    """What a draw says when it seats the last two players in at one table (None when it
    does not): a chouette of two is a plain game, the box against the captain with one
    cube between them, played on as the published finals are (CNB Italy's last two at a
    starting cube of 8; backgammonchouette.com's "last with chips") until one of them has
    every point; ``event end`` ranks them by bank whenever the organiser stops."""
    if len(made.tables) != 1 or len(made.tables[0]) != 2:
        return None
    first, second = sorted(made.tables[0])
    return said(
        "{first} and {second} are the last two in: they play head to head, the box against "
        "the captain with one cube, until one of them has every point (chouette event end "
        "ranks them by bank whenever the event stops).",
        first=first,
        second=second,
    )


def possible_draws(sizes: Sequence[int]) -> int:
    """How many ways there are to sit ``sum(sizes)`` players at tables of ``sizes`` (tables
    of one size told apart only by who sits there)."""
    count, left = 1, sum(sizes)
    for size in sizes:
        count *= comb(left, size)
        left -= size
    for times in Counter(sizes).values():
        count //= factorial(times)
    return count


def draw(state: EventState, seed: int, dice: Generator) -> Drawn:
    """The tables of the level in play for everyone in, drawn by ``dice`` (seeded with
    ``seed``, kept with the draw): as few pairings repeated from the earlier levels as the
    numbers allow (a pair that met twice counts twice). When there are at most
    :data:`EXACT_DRAWS` ways to sit them, every one is weighed and the draw is one of the
    fewest (``exact``); past that, the fewest a seeded search finds. Each table's seats (box,
    captain, crew) and the tables' order are drawn too."""
    _check_open(state)
    if state.drawn is not None:
        raise ChouetteError(
            said(
                "level {level} is drawn already (event next closes it and draws the next)",
                level=state.level,
            )
        )
    players = list(state.players_in)
    sizes = table_sizes(len(players), *state.rules.table_size)
    met = state.met()
    weight = [[met[(a, b) if a < b else (b, a)] for b in players] for a in players]
    exact = possible_draws(sizes) <= EXACT_DRAWS
    if not met:  # no pair has met: every draw is one of the fewest (a shuffle draws any alike)
        order = list(range(len(players)))
        dice.shuffle(order)
        groups, repeats, at = [], 0, 0
        for size in sizes:
            groups.append(tuple(order[at : at + size]))
            at += size
        exact = True
    elif exact:
        groups, repeats = _fewest(weight, sizes, dice)
    else:
        groups, repeats = _search(weight, sizes, dice)
    tables = [[players[i] for i in group] for group in groups]
    dice.shuffle(tables)
    tables.sort(key=len, reverse=True)  # (stable: the larger tables first, as drawn)
    for seats in tables:
        dice.shuffle(seats)
    return Drawn(seed, tuple(tuple(t) for t in tables), repeats, exact)


def _cost(weight: list[list[int]], group: Sequence[int]) -> int:
    return sum(weight[a][b] for a, b in itertools.combinations(group, 2))


def _fewest(
    weight: list[list[int]], sizes: Sequence[int], dice: Generator
) -> tuple[list[tuple[int, ...]], int]:
    """Every way to sit the players at tables of ``sizes`` (tables of one size ordered by
    their first player, so each way once), the fewest repeats kept; one of them drawn."""
    best: list[list[tuple[int, ...]]] = []
    least = [sum(map(sum, weight))]  # (more than any draw's)

    def fill(left: tuple[int, ...], at: int, chosen: list[tuple[int, ...]], cost: int) -> None:
        if at == len(sizes):
            if cost < least[0]:
                least[0], best[:] = cost, []
            best.append(list(chosen))
            return
        size = sizes[at]
        after = chosen[-1][0] if at and sizes[at - 1] == size else -1
        for group in itertools.combinations(left, size):
            if group[0] <= after:
                continue
            more = cost + _cost(weight, group)
            if more > least[0]:
                continue
            rest = tuple(p for p in left if p not in group)
            fill(rest, at + 1, [*chosen, group], more)

    fill(tuple(range(len(weight))), 0, [], 0)
    return best[dice.randrange(0, len(best))], least[0]


def _search(
    weight: list[list[int]], sizes: Sequence[int], dice: Generator
) -> tuple[list[tuple[int, ...]], int]:
    """A seeded local search: from a shuffled seating, swap two players of different tables
    while it lowers the repeats; a few fresh starts, the fewest kept."""
    count = len(weight)
    found: tuple[list[tuple[int, ...]], int] | None = None
    for _ in range(SEARCH_STARTS):
        order = list(range(count))
        dice.shuffle(order)
        groups: list[list[int]] = []
        for size in sizes:
            groups.append(order[:size])
            order = order[size:]
        table = {p: i for i, g in enumerate(groups) for p in g}
        for _ in range(SEARCH_PASSES):
            moved = False
            for a in range(count):
                here = groups[table[a]]
                own = sum(weight[a][x] for x in here if x != a)
                if own == 0:
                    continue
                swap, gain = None, 0
                for b in range(count):
                    there = groups[table[b]]
                    if table[b] == table[a]:
                        continue
                    b_own = sum(weight[b][x] for x in there if x != b)
                    a_new = sum(weight[a][x] for x in there if x != b)
                    b_new = sum(weight[b][x] for x in here if x != a)
                    better = own + b_own - a_new - b_new
                    if better > gain:
                        swap, gain = b, better
                if swap is not None:
                    ta, tb = table[a], table[swap]
                    groups[ta][groups[ta].index(a)] = swap
                    groups[tb][groups[tb].index(swap)] = a
                    table[a], table[swap] = tb, ta
                    moved = True
            if not moved:
                break
        cost = sum(_cost(weight, g) for g in groups)
        if found is None or cost < found[1]:
            found = ([tuple(sorted(g)) for g in groups], cost)
        if cost == 0:
            break
    assert found is not None
    return found


def drawn(state: EventState, made: Drawn) -> EventState:
    """The level in play with the tables ``made`` (from :func:`draw`, or read back from the
    journal): everyone in is seated, once."""
    _check_open(state)
    if state.drawn is not None:
        raise ChouetteError(said("level {level} is drawn already", level=state.level))
    seated = [p for t in made.tables for p in t]
    if sorted(seated) != sorted(state.players_in):
        raise ChouetteError(
            said(
                "the tables drawn seat {seated}, not the players in ({players})",
                seated=", ".join(seated),
                players=", ".join(state.players_in),
            )
        )
    return replace(state, drawn=made, carried=sum(state.banks[p] for p in seated))


def bank_problem(state: EventState, banks: Mapping[str, int]) -> Said | None:
    """Why ``banks`` (each seated player's bank as their table leaves it) cannot close the
    level in play, or None: every seated player has one, none below 0, and they add up to
    the banks carried into the level and given during it (:attr:`EventState.carried`)."""
    seated = set(state.seated)
    if set(banks) != seated:
        strays = sorted(set(banks) ^ seated)
        return said(
            "the banks of level {level} do not name the players at its tables: {names}",
            level=state.level,
            names=", ".join(strays),
        )
    below = sorted(p for p, b in banks.items() if b < 0)
    if below:
        return said("{player}'s bank is below 0", player=below[0])
    total = sum(banks.values())
    if total != state.carried:
        return said(
            "the banks of level {level} add up to {total}, but {carried} were carried into it "
            "and given during it",
            level=state.level,
            total=total,
            carried=state.carried,
        )
    return None


def close(state: EventState, banks: Mapping[str, int]) -> EventState:
    """The level in play closes with ``banks`` (as :func:`bank_problem` checks them): every
    bank carried to the next level, a player whose bank is gone put out; the starting cube
    rises. Not drawn yet, the level has nothing to close."""
    _check_open(state)
    if state.drawn is None:
        raise ChouetteError(
            said("level {level} has no tables yet: event draw seats it", level=state.level)
        )
    problem = bank_problem(state, banks)
    if problem is not None:
        raise ChouetteError(problem)
    gone = {p: state.level for p, b in banks.items() if b == 0}
    return replace(
        state,
        banks={**state.banks, **banks},
        out={**state.out, **gone},
        level=state.level + 1,
        drawn=None,
        carried=0,
        played=(*state.played, state.drawn),
    )


@dataclass(frozen=True)
class Place:
    """A player's place at the end (tied players share the first of their places), their
    bank, the level they went out at (None: never out), and what the pool pays them."""

    place: int
    name: str
    bank: int
    out_at: int | None
    cents: Cents


def end(state: EventState, banks: Mapping[str, int] | None, dice: Generator | None) -> EventState:
    """The event ends: the level in play closes with ``banks`` (if drawn), the players are
    ranked (:func:`ranking`) and paid (:func:`payouts`; ``dice`` rolls off ties under
    ``--ties roll``)."""
    _check_open(state)
    if state.drawn is not None:
        if banks is None:
            raise ChouetteError(said("the level in play closes with its banks"))
        state = close(state, banks)
    if not state.entered:
        raise ChouetteError(said("nobody entered {event}: nothing to end", event=state.name))
    groups = ranking(state)
    if state.rules.ties == "roll" and any(len(g) > 1 for g in groups):
        if dice is None:
            raise ChouetteError(said("ties are rolled off: a seed is needed"))
        groups = [list(roll_off(g, dice).order) if len(g) > 1 else g for g in groups]
        groups = [[p] for g in groups for p in g]
    amounts = payouts(groups, state.pool, state.rules.payout)
    places: list[Place] = []
    at = 1
    for group in groups:
        for player in group:
            bank = state.banks[player] if player not in state.out else 0
            places.append(Place(at, player, bank, state.out.get(player), amounts[player]))
        at += len(group)
    return replace(state, final=tuple(places))


def ranking(state: EventState) -> list[list[str]]:
    """Everyone who entered, ranked by bank; a player out by the level they went out at (the
    later first); players still level, together (a tie), in the order they entered."""

    def key(player: str) -> tuple[int, int]:
        out = state.out.get(player)
        bank = 0 if out is not None else state.banks[player]
        return (bank, out if out is not None else state.level + 1)

    ordered = sorted(state.entered, key=key, reverse=True)
    return [list(g) for _, g in itertools.groupby(ordered, key=key)]


def shares(pool: Cents, percents: Sequence[int]) -> list[Cents]:
    """``pool`` shared by ``percents`` (of their sum: a payout cut short by fewer players is
    shared by the places paid), to the cent: each place its share rounded down, the cents
    left over one each to the largest remainders (the better place first among equal ones)."""
    whole = sum(percents)
    parts = [pool * p // whole for p in percents]
    left = pool - sum(parts)
    by_remainder = sorted(range(len(percents)), key=lambda i: (-(pool * percents[i] % whole), i))
    for i in by_remainder[:left]:
        parts[i] += 1
    return parts


def payouts(
    groups: Sequence[Sequence[str]], pool: Cents, percents: Sequence[int]
) -> dict[str, Cents]:
    """What each player ranked in ``groups`` (ties together, best first) is paid from
    ``pool`` by the places' ``percents``: places past the field are not paid (their part
    goes to the places paid); tied players share their places' money, the odd cents one
    each to the first of them. Sums to the pool (for a field of one player or more)."""
    field_size = sum(len(g) for g in groups)
    paid = list(percents[:field_size])
    amounts = shares(pool, paid) + [0] * (field_size - len(paid))
    result: dict[str, Cents] = {}
    at = 0
    for group in groups:
        together = sum(amounts[at : at + len(group)])
        each, odd = divmod(together, len(group))
        for i, player in enumerate(group):
            result[player] = each + (1 if i < odd else 0)
        at += len(group)
    return result


def accept(state: EventState, players: Sequence[str]) -> EventState:
    """``players`` (who entered) accept the event's rules card, once each."""
    names = [check_name(p) for p in players]
    strangers = [p for p in names if p not in state.entries]
    if strangers:
        raise ChouetteError(
            said(
                "{players} did not enter {event}: only an entrant accepts its rules",
                players=", ".join(strangers),
                event=state.name,
            )
        )
    again = [p for p in names if p in state.accepted]
    if again or len(set(names)) != len(names):
        twice = again or [p for p in names if names.count(p) > 1]
        raise ChouetteError(
            said(
                "{players} accepted the event's rules already, or is named twice: nothing recorded",
                players=", ".join(dict.fromkeys(twice)),
            )
        )
    return replace(state, accepted=state.accepted | set(names))


def apply(state: EventState, step: Step, dice: Generator | None = None) -> EventState:
    """One step of the journal applied to the event."""
    if isinstance(step, Entered):
        return enter(state, step.players)
    if isinstance(step, Reentered):
        at_table = state.table_of(step.player) is not None and step.player not in state.out
        return reenter(state, step.player, 0 if at_table else None)
    if isinstance(step, Drawn):
        return drawn(state, step)
    if isinstance(step, Closed):
        return close(state, step.banks)
    if isinstance(step, Ended):
        return end(state, step.banks, dice)
    return accept(state, step.players)


def replay(
    name: str, rules: EventRules, steps: Iterable[Step], seed_dice: Any = None
) -> EventState:
    """The event its journal's ``steps`` make (``seed_dice``: a function from a seed to a
    seeded generator, for the roll-off of ties at the end)."""
    state = new_event(name, rules)
    for step in steps:
        dice = None
        if isinstance(step, Ended) and step.seed is not None and seed_dice is not None:
            dice = seed_dice(step.seed)
        state = apply(state, step, dice)
    return state


# ---------------------------------------------------------------- the clock


def level_ends(started: datetime, minutes: int | None) -> datetime | None:
    """When a level started at ``started`` ends (None: no clock)."""
    return None if minutes is None else started + timedelta(minutes=minutes)


def seconds_left(started: datetime, minutes: int | None, now: datetime) -> int | None:
    """The seconds left in a level started at ``started`` (0 once over; None: no clock)."""
    ends = level_ends(started, minutes)
    return None if ends is None else max(0, int((ends - now).total_seconds()))


# ---------------------------------------------------------------- in words


def card_lines(rules: EventRules) -> list[tuple[str, Said]]:
    """The event's terms in words, a sentence per topic (the tables' house rules are the
    session's card, :func:`chouette.card.rule_lines`)."""
    levels = ", ".join(str(c) for c in rules.levels)
    least, most = rules.table_size
    lines: list[tuple[str, Said]] = [
        (
            marked("Bank"),
            said(
                "Each entry gets a bank of {points} points (chips, not money); a player "
                "whose bank is gone is out at the end of the level.",
                points=rules.bank,
            ),
        ),
        (
            marked("Levels"),
            said(
                "The starting cube by level: {levels}; past the last, {last}. A single "
                "at a level's starting cube moves each pair's banks by that cube.",
                levels=levels,
                last=rules.levels[-1],
            ),
        ),
        (
            marked("Tables"),
            said(
                "Tables of {least} to {most}, drawn at random for every level from a "
                "seed kept with the draw, as few pairings repeated as the numbers "
                "allow.",
                least=least,
                most=most,
            ),
        ),
    ]
    if rules.minutes is not None:
        lines.append(
            (
                marked("Clock"),
                said_n("A level lasts {n} minute.", "A level lasts {n} minutes.", rules.minutes),
            )
        )
    entry = said(
        "Each entry pays {amount} into the prize pool, held by {organiser}.",
        amount=Money(rules.entry),
        organiser=rules.organiser,
    )
    lines.append((marked("Entries"), entry))
    if rules.reentries_until is None:
        lines.append((marked("Re-entries"), said("Entries at level 1 only; no re-entries.")))
    else:
        lines.append(
            (
                marked("Re-entries"),
                said(
                    "Entries and re-entries until level {level}: a player whose bank is gone may "
                    "enter again, with a fresh bank and another entry into the pool.",
                    level=rules.reentries_until,
                ),
            )
        )
    percents = ", ".join(f"{p}%" for p in rules.payout)
    lines.append(
        (
            marked("Payouts"),
            said(
                "The pool pays by place: {percents}, to the cent (a place past the field is "
                "not paid: its part goes to the places paid).",
                percents=percents,
            ),
        )
    )
    ties = {
        "split": said(
            "Ranked by bank; a player out by the level they went out at, the later "
            "first; players still level share their places' money, the odd cents "
            "to the first who entered."
        ),
        "roll": said(
            "Ranked by bank; a player out by the level they went out at, the later "
            "first; players still level roll off for their places (a seed kept "
            "with the end)."
        ),
    }[rules.ties]
    lines.append((marked("Ties"), ties))
    return lines


#: The topics of :func:`card_lines`, marked for the catalogue.
TOPIC_WORDS = (
    marked("Bank"),
    "Levels",
    "Tables",
    "Clock",
    "Entries",
    "Re-entries",
    "Payouts",
    "Ties",
)


def ordinal(place: int) -> Said:
    """A place as the reader's language writes it: ``1st``, ``2nd``, ``11th``, ``22nd`` in
    English; ``1.``, ``22.`` in Danish and Czech."""
    if 10 <= place % 100 <= 20 or place % 10 not in (1, 2, 3):
        return said("{place}th", place=place)
    if place % 10 == 1:
        return said("{place}st", place=place)
    if place % 10 == 2:
        return said("{place}nd", place=place)
    return said("{place}rd", place=place)


def entry_note(event: str) -> Said:
    """The note of an entry's fee in the purse: ``entry to fcc``."""
    return said("entry to {event}", event=event)


def reentry_note(event: str) -> Said:
    """The note of a re-entry's fee in the purse: ``re-entry to fcc``."""
    return said("re-entry to {event}", event=event)


def place_note(place: int, event: str) -> Said:
    """The note of a payout in the purse: ``1st place in fcc``."""
    return said("{place} place in {event}", place=ordinal(place), event=event)
