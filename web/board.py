"""What the scoreboard shows, as plain values: :func:`build_board` makes a :class:`Board`
from what the ledger hands every report (the session, the game in progress, the players,
their totals, the score sheet). Pure: no server, no database; the templates only lay it out.

The words are the CLI's: the cubes as ``chouette status`` and ``chouette game`` describe
them, the last event as ``chouette take`` prints it, the standings as ``chouette
standings`` ranks them, the chart as ``chouette report`` draws it. What it says is kept as
values (:mod:`chouette.words`), rendered in each page's language by its templates (the
``say`` filter): the TV may read Danish and a phone Czech, from the same board.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from chouette.card import Card, acceptance_lines, rule_lines, summary, topic_name
from chouette.exposure import exposure
from chouette.game import Game, replay
from chouette.line import Line
from chouette.money import Cents
from chouette.page import balance_chart, style_of
from chouette.report import (
    GameLine,
    Standing,
    cube_text,
    event_sentence,
    sheet_players,
    signed,
    standings,
)
from chouette.rules import HouseRules
from chouette.session import LiveGame, SessionInfo
from chouette.stop import StopState
from chouette.words import ENGLISH, Sayable, Translator, joined, said
from web.moves import Legal, legal

RECENT_GAMES = 6


@dataclass(frozen=True)
class CubeRow:
    """One member's cube: its value, who owns it, the offer waiting for an answer, or the
    pair's result once it is out."""

    member: str
    value: int
    owner: str
    pending: Sayable | None
    out: Sayable | None
    text: Sayable


@dataclass(frozen=True)
class LastGame:
    """A finished game: its number, box and captain, and what each player booked."""

    number: int
    engine: bool
    box: str
    captain: str | None
    results: tuple[Standing, ...]


@dataclass(frozen=True)
class Board:
    """The table as the scoreboard shows it."""

    session: str
    stake: Cents
    rules: Sayable
    single_cube: bool
    number: int
    in_progress: bool
    line: Line
    acting_captain: str | None
    cubes: tuple[CubeRow, ...]
    last: Sayable
    standings: tuple[Standing, ...]
    colours: Mapping[str, str]
    chart_players: tuple[str, ...]
    chart_lines: tuple[GameLine, ...]
    last_games: tuple[LastGame, ...]
    legal: Legal
    accepted: tuple[Sayable, ...] = ()
    fingerprint: str | None = None
    #: The most each player can lose on the game in progress (cents), and each credit.
    at_risk: Mapping[str, Cents] = field(default_factory=dict)
    credits: Mapping[str, Cents] = field(default_factory=dict)
    #: The session's agreed stop (``--rounds``, ``--until``), where it stands.
    stop: StopState | None = None
    #: The session's house rules (the rules card a player's phone shows).
    house_rules: HouseRules | None = None

    def card(self, tr: Translator = ENGLISH) -> list[tuple[str, str]]:
        """The rules card, a line per topic (its name and its rule), in the words of
        ``tr``, as ``chouette rules`` says it."""
        if self.house_rules is None:
            return []
        return [(topic_name(t, tr), text) for t, text in rule_lines(self.house_rules, tr)]

    def chart(self, tr: Translator = ENGLISH) -> str:
        """The running-balance chart, in the words of ``tr``."""
        return balance_chart(self.chart_players, self.chart_lines, tr)

    @property
    def payments(self) -> bool:
        """Whether payments between players were booked (the standings show them apart)."""
        return any(s.paid for s in self.standings)

    @property
    def costs(self) -> bool:
        """Whether fees or shared costs were booked (the standings show them apart)."""
        return any(s.costs for s in self.standings)

    @property
    def crew(self) -> tuple[str, ...]:
        return self.line.crew

    @property
    def sitting_out(self) -> tuple[str, ...]:
        return tuple(p for p in self.line.order if p in self.line.sitting_out)


def build_board(
    info: SessionInfo,
    live: LiveGame,
    players: Sequence[str],
    totals: Mapping[str, tuple[int, Cents]],
    lines: Sequence[GameLine],
    *,
    undo: bool,
    card: Card | None = None,
    paid: Mapping[str, Cents] | None = None,
    costs: Mapping[str, Cents] | None = None,
    fingerprint: str | None = None,
    stop: StopState | None = None,
) -> Board:
    """The board of ``info``'s session: ``live`` the game in progress (or the next one),
    ``players`` and ``totals`` as the standings read them, ``lines`` the score sheet;
    ``undo``: whether undo has something to take back; ``card``: the rules card (who
    accepted the rules, as ``chouette rules`` says it, once anyone has: one line); ``paid``:
    what each paid (+) or received (−) in payments between players, ``costs`` what fees and
    shared costs did to each balance (the standings rank by what was won at the table)."""
    game = live.game
    line = game.line if game is not None else info.line
    everyone = sheet_players(players, lines)
    ranked = standings(players, totals, paid, costs)
    everyone += [s.name for s in ranked if s.name not in everyone]
    return Board(
        session=info.name,
        stake=info.stake,
        rules=summary(info.rules),  # (in each page's words)
        single_cube=info.rules.cubes == "single",
        number=live.number,
        in_progress=game is not None,
        line=line,
        acting_captain=None if game is None else game.acting_captain,
        cubes=() if game is None else tuple(_cube(game, m) for m in game.cubes),
        last=_last(live, lines),
        standings=tuple(ranked),
        colours={p: style_of(i)[0] for i, p in enumerate(everyone)},
        chart_players=tuple(everyone),
        chart_lines=tuple(lines),
        last_games=tuple(_finished(g) for g in reversed(lines[-RECENT_GAMES:])),
        legal=legal(
            info.line,
            info.rules,
            game,
            undo=undo,
            carry=live.carry,
            waiting=frozenset(card.waiting) if card is not None else frozenset(),
        ),
        accepted=(joined(acceptance_lines(card), " "),) if card and card.acceptances else (),
        fingerprint=fingerprint,
        at_risk={} if game is None else exposure(game, info.stakes(game.players)).cents,
        credits=dict(info.line.credits),
        stop=stop,
        house_rules=info.rules,
    )


def _cube(game: Game, member: str) -> CubeRow:
    cube = game.cubes[member]
    owner = {"centre": "centre", "box": game.box, "member": member}[cube.owner]
    pending: Sayable | None = None
    out: Sayable | None = None
    if cube.offer is not None:
        values = {
            "doubled": cube.value * 2,
            "player": game.box if cube.offer.answerer == "box" else member,
        }
        if cube.offer.stage == "beaver":
            pending = said("beaver to {doubled}: {player} to answer", **values)
        elif cube.offer.stage == "raccoon":
            pending = said("raccoon to {doubled}: {player} to answer", **values)
        else:
            pending = said("double to {doubled}: {player} to answer", **values)
    if not cube.live:
        out = said("{points} ({how})", points=signed(cube.result or 0), how=cube.ended_by)
    return CubeRow(member, cube.value, owner, pending, out, cube_text(game, member))


def _last(live: LiveGame, lines: Sequence[GameLine]) -> Sayable:
    """The last thing that happened at the table, in the CLI's words."""
    game = live.game
    if game is not None and game.events:
        before = replay(game.start_line, game.rules, game.events[:-1])
        event = event_sentence(before, game, game.events[-1])
        return said("Game {number}: {event}.", number=live.number, event=event)
    if game is not None:
        return said("Game {number} is in progress.", number=live.number)
    if lines:
        return said(
            "Game {last} is over; game {number} starts with the next event.",
            last=lines[-1].number,
            number=live.number,
        )
    return said("Game {number} starts with the first event.", number=live.number)


def _finished(line: GameLine) -> LastGame:
    results = tuple(Standing(p, line.points[p], line.cents.get(p, 0)) for p in line.points)
    return LastGame(line.number, line.kind != "chouette", line.box_side, line.captain, results)
