"""Exposure: the most each player can lose on the game in progress, cube by cube, and the
credit check it feeds (house rule ``credit-rule``).

A live pair is at its most when its cube, as it stands (a turn waiting for an answer taken),
is lost as a backgammon, or as a single where Jacoby holds a centred cube to it; a pair
already over counts what it booked. The box side's exposure is its pairs' worst together,
shared with a partner by ``partner-share`` (a partner bought out keeps the buy-out); an
extra adds its worst for each of its two players. Under ``table-stakes`` no member can lose
more than their bank; the box loses at most its bank in points, but not in money where its
pairs' stakes differ (what it took from members at a low stake it pays its winners at a
higher one), so its exposure is the worst of the board's six ends, capped all in. Cubes
may be turned again later: exposure is what the cubes on the table put at risk now, not a
bound for the rest of the game.

A player's **credit** (``chouette credit``) is how far below zero their balance in the
session may go: a double or an answer that would let the game take the one who made it
past it is warned of or refused, as the house rule ``credit-rule`` says.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass

from chouette.game import Answer, Double, Event, Game, centred
from chouette.money import Cents, share
from chouette.outcome import cap_pairs
from chouette.points import pair_stake
from chouette.words import Money, Sayable, said


@dataclass(frozen=True)
class Exposure:
    """Each player's most to lose on the game, in points and in money."""

    points: dict[str, int]
    cents: dict[str, Cents]


def _live_most(game: Game, member: str, level: int = 3) -> int:
    """What a live pair can cost either side at most with the board ended at ``level`` (1, 2
    or 3; 3: a backgammon): its cube as it stands (a turn waiting for an answer taken), or as
    a single where Jacoby holds it."""
    cube = game.cubes[member]
    if cube.offer is not None:
        return cube.value * 2 * level
    single = game.rules.jacoby and centred(game, cube)
    if game.rules.jacoby_scope == "any-cube-turned" and game.pending:
        single = False  # a turn waiting, taken, lifts Jacoby for every pair
    return cube.value * (1 if single else level)


def _box_all_in(
    game: Game, stakes: Mapping[str, Cents], banks: Mapping[str, int]
) -> tuple[int, Cents]:
    """The box's most to lose under ``table-stakes`` (no partner, no extras go with it): the
    worst of the board's six ends (either side winning a single, gammon or backgammon), its
    live pairs as they stand, capped as the game's booking caps them (all in). Its bank caps
    its points, not its money: what it took from the members who lost, at their pairs'
    stakes, it pays its winners at theirs, which may be higher."""
    rates = {m: pair_stake(stakes, game.box, m) for m in game.cubes}
    most_points = most_cents = 0
    for sign, level in itertools.product((1, -1), (1, 2, 3)):
        pairs = {
            m: sign * _live_most(game, m, level) if c.result is None else c.result
            for m, c in game.cubes.items()
        }
        capped, _ = cap_pairs(game.box, pairs, banks)
        most_points = max(most_points, sum(capped.values()))
        most_cents = max(most_cents, sum(p * rates[m] for m, p in capped.items()))
    return most_points, most_cents


def exposure(game: Game, stakes: Mapping[str, Cents]) -> Exposure:
    """The most each player of ``game`` can lose on it as its cubes stand (see the module)."""
    box, partner = game.box, game.partner
    points = dict.fromkeys(game.players, 0)
    cents = dict.fromkeys(game.players, 0)
    side_points = side_cents = 0
    sides: dict[str, int] = {}  # the box side's worst on each pair not bought out
    for member, cube in game.cubes.items():
        rate = pair_stake(stakes, box, member)
        if cube.result is not None:  # booked: the member's loss, the box side's result
            lose, side = max(-cube.result, 0), cube.result
        else:
            lose = side = _live_most(game, member)
        points[member], cents[member] = lose, lose * rate
        side_points += side
        side_cents += side * rate
        if member not in game.bought_out:
            sides[member] = side
    if partner is None:
        points[box], cents[box] = max(side_points, 0), max(side_cents, 0)
    else:  # the partner's part as the booking shares it (chouette.outcome.book)
        percent = game.rules.partner_share
        paid = share(sum(game.bought_out.values()), percent)  # the buy-out, the partner's
        own = {m: pair_stake(stakes, box, m) for m in game.cubes}
        if game.rules.settled_edges:
            own = {m: min(stakes[partner], rate) for m, rate in own.items()}
        part = share(sum(sides.values()), percent) - paid
        if len(set(own.values())) <= 1:
            part_cents = part * next(iter(own.values()), 0)
        else:
            part_cents = share(sum(v * own[m] for m, v in sides.items()), percent)
            part_cents -= share(sum(v * own[m] for m, v in game.bought_out.items()), percent)
        points[partner], cents[partner] = max(part, 0), max(part_cents, 0)
        points[box] = max(side_points - part, 0)
        cents[box] = max(side_cents - part_cents, 0)
    for extra, held in zip(game.extras, game.extra_cubes, strict=True):
        if held.void:
            continue
        rate = pair_stake(stakes, extra.team_side, extra.box_side)
        worth = (
            abs(held.result)
            if held.result is not None
            else held.value * (2 if held.offered else 1) * 3
        )
        for player, most in ((extra.team_side, worth), (extra.box_side, worth + extra.premium)):
            points[player] += most
            cents[player] += most * rate
    banks = dict(game.start_line.banks)
    if banks:  # table stakes: no member loses past their bank; the box's worst, all in
        for member in game.members:
            if points[member] > banks[member]:
                points[member] = banks[member]
                cents[member] = banks[member] * pair_stake(stakes, box, member)
        points[box], cents[box] = _box_all_in(game, stakes, banks)
    return Exposure(points, cents)


def actors(before: Game, event: Event) -> tuple[str, ...]:
    """Who takes on more risk by ``event`` by their own choice: the doubler of a double, the
    answerer of a take, beaver or raccoon (a drop, a deal, the end risk nothing more)."""
    if isinstance(event, Double):
        if event.by == "box":
            return (before.box,)
        if event.by == "team":
            return (before.acting_captain or before.captain,)
        return event.members
    if isinstance(event, Answer) and event.act != "drop":
        cube = before.cubes.get(event.member)
        offer = cube.offer if cube is not None else None
        if offer is not None and offer.answerer == "box":
            return (before.box,)
        return (event.member,)
    return ()


@dataclass(frozen=True)
class PastCredit:
    """A player a command would take past their credit: their balance now, the most the game
    can take from them, and their credit."""

    player: str
    balance: Cents
    most: Cents
    credit: Cents

    def told(self, what: Sayable) -> Sayable:
        """``what`` (the events) refused or warned of, and why."""
        return said(
            "{what}: it would let this game take {player} past their credit: {player}'s balance "
            "{balance}, at most {most} to lose on this game, credit {credit}",
            what=what,
            player=self.player,
            balance=Money(self.balance),
            most=Money(self.most),
            credit=Money(self.credit),
        )


def past_credit(
    before: Game,
    after: Game,
    events: tuple[Event, ...],
    stakes: Mapping[str, Cents],
    balances: Mapping[str, Cents],
    credits: Mapping[str, Cents],
) -> list[PastCredit]:
    """The players with a credit whom ``events`` (played from ``before`` to ``after``) would
    take past it by their own choice (a double, a take, a beaver or a raccoon of theirs):
    their balance less the most the game can then take from them is below minus their
    credit."""
    chosen = {p for event in events for p in actors(before, event)} & credits.keys()
    if not chosen:
        return []
    now = exposure(after, stakes)
    found = []
    for player in sorted(chosen):
        balance, most = balances.get(player, 0), now.cents.get(player, 0)
        if balance - most < -credits[player]:
            found.append(PastCredit(player, balance, most, credits[player]))
    return found
