"""A finished chouette game: its points and money per player, its next line, and why.

The scoring of a pair is :mod:`chouette.points`'s; here a finished game
(:mod:`chouette.game`) is booked from it: the partner's share, the buy-outs, the table
stakes' caps, the box's retention and the rotation. An extra, a side bet on the board, is
worth its premium and its points × the board's level (:func:`extra_points`), at its two
players' pair stake.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from chouette.errors import RuleError
from chouette.game import CaptainResign, End, Extra, ExtraCube, Game, declared_winner
from chouette.line import Line, Rotation, banks_after, partner_news, rotation, seat
from chouette.money import Cents, share
from chouette.points import MULTIPLIER, pair_money, pair_stake, signed_points
from chouette.rules import HouseRules
from chouette.words import Money, Said, Sayable, joined, said, said_in, said_n


def extra_points(extra: Extra, result: End | None, cube: ExtraCube | None = None) -> int:
    """What an extra is worth to its team side: the premium, plus its points × 1, 2 or 3 by
    the board's level if the team won, less if the box did (no Jacoby: its cube is never
    centred); 0 if the board never ended (the extra is void, premium and all).

    ``cube``: the extra's own cube (house rules ``extra-redoubles`` and ``mandatory-extras``):
    a redouble taken doubles the points; a redouble dropped settles the extra there and then
    (the premium and what the dropper paid, whatever the board does); an extra voided by the
    lone taker's drop is worth nothing."""
    if cube is not None and cube.void:
        return 0
    if cube is not None and cube.result is not None:
        return extra.premium + cube.result
    if result is None:
        return 0
    sign = 1 if result.winner == "team" else -1
    points = extra.points if cube is None else cube.value
    return extra.premium + sign * points * MULTIPLIER[result.kind]


@dataclass(frozen=True)
class ExtraResult:
    """What one extra booked, from its team side's view (its box side got the opposite)."""

    team_side: str
    box_side: str
    points: int
    cents: Cents


@dataclass(frozen=True)
class Outcome:
    """``pairs``: points per member from the member's side; ``points`` and ``cents`` per player
    (box, partner and members; each sums to zero, extras included); ``next_line``: the line
    after rotation; ``extras``: what each extra booked (also in ``points`` and ``cents``);
    ``why``: which rule decided each thing, in plain sentences (the game's own decisions,
    the booking, the box's retention, the rotation, the partnership)."""

    pairs: dict[str, int]
    points: dict[str, int]
    cents: dict[str, Cents]
    next_line: Line
    extras: tuple[ExtraResult, ...] = ()
    why: tuple[Sayable, ...] = ()


def book(
    box: str,
    pairs: Mapping[str, int],
    stakes: Mapping[str, Cents],
    *,
    partner: str | None = None,
    partner_share: int = 50,
    partner_own_stake: bool = True,
    bought_out: Mapping[str, int] | None = None,
) -> tuple[dict[str, int], dict[str, Cents]]:
    """Points and cents per player for pair results (member's side), exact to the cent.

    Every member is paid by the box at their pair's stake, partner or not. With a partner, the
    box side's net is shared: ``partner_share`` % of it to the partner, rounded toward zero, the
    rest to the box. The partner's share of each pair is worked at the lower of the partner's
    own stake and that pair's (``partner_own_stake``; edition 1 ignored the partner's stake),
    so nobody risks more than their own stake a point; the box carries the rest. The split is
    made in points when the partner's share is worked at one stake for every pair, else in
    cents. ``bought_out``: the cubes the box bought the partner out of (house rule
    ``buy-outs``), each member's cube value then: the partner takes their share of those
    values instead of a share of those pairs' results.
    """
    bought = bought_out or {}
    points = {box: 0, **({partner: 0} if partner else {})}
    cents = dict.fromkeys(points, 0)
    rates = {m: pair_stake(stakes, box, m) for m in pairs}
    for member, pts in pairs.items():
        points[member] = pts
        cents[member] = pair_money(pts, rates[member])
    side_points = -sum(pairs.values())
    side_cents = -sum(cents[m] for m in pairs)
    if partner is None:
        points[box], cents[box] = side_points, side_cents
        return points, cents
    own = dict(rates)
    if partner_own_stake:
        own = {m: min(stakes[partner], rate) for m, rate in rates.items()}
    shared = {m: pts for m, pts in pairs.items() if m not in bought}
    points[partner] = share(-sum(shared.values()), partner_share) + share(
        sum(bought.values()), partner_share
    )
    points[box] = side_points - points[partner]
    if len(set(own.values())) <= 1:
        rate = next(iter(own.values()), 0)
        cents[partner] = points[partner] * rate
    else:
        cents[partner] = share(
            -sum(pts * own[m] for m, pts in shared.items()), partner_share
        ) + share(sum(value * own[m] for m, value in bought.items()), partner_share)
    cents[box] = side_cents - cents[partner]
    return points, cents


@dataclass(frozen=True)
class Retention:
    """Whether the box stays box, and the rule that decided it, in a sentence. ``still``:
    nobody moves (``score-sign``, neither the box nor the captain ahead); ``box_last``: the
    box goes last and the old captain next to last, the member after the captain taking the
    box (``won-not-loss``: the box won but lost points)."""

    keeps: bool
    why: Sayable
    still: bool = False
    box_last: bool = False


def retention(game: Game, rules: HouseRules) -> Retention:
    """Whether the box stays box, by the house rule ``retention``, and why. Under ``captain``
    the box stays only if it beat the captain (RULES.md §3): a pair dealt at 0 is no win for
    the box, unless the table declared the box its winner (``deal C 0 --won-by box``).
    Editions 2 and 3 kept the box on a deal at 0 (see :data:`chouette.rules.EDITION`)."""
    pairs = game.pairs
    net = -sum(pairs.values())
    if rules.retention == "captain":
        captain = game.captain
        result = pairs[captain]
        took_over = any(isinstance(e, CaptainResign) for e in game.events)
        who: Sayable = captain
        if captain != game.members[0] and took_over:
            who = said("{captain} (the captain by takeover)", captain=captain)
        elif captain != game.members[0]:
            who = said("{captain} (the captain by inherit)", captain=captain)
        declared = declared_winner(game) if result == 0 else None
        if declared == "box":
            return Retention(
                True,
                said(
                    "box stays: captain rule, the deal at 0 with {who} declared won by the box",
                    who=who,
                ),
            )
        if declared is not None:
            return Retention(
                False,
                said(
                    "box goes: captain rule, the deal at 0 with {who} declared won by {captain}",
                    who=who,
                    captain=captain,
                ),
            )
        keeps = result < 0 if rules.zero_deal_loses else result <= 0
        points = signed_points(result)
        if keeps and result == 0:
            return Retention(
                True,
                said(
                    "box stays: captain rule, {who} dealt at 0 with the box (as editions 2 and 3 "
                    "scored it: a session started since gives the box to the captain)",
                    who=who,
                ),
            )
        if keeps:
            return Retention(
                True,
                said(
                    "box stays: captain rule, {who} lost to the box ({points})",
                    who=who,
                    points=points,
                ),
            )
        if result > 0:
            return Retention(
                False,
                said(
                    "box goes: captain rule, {who} beat the box ({points})", who=who, points=points
                ),
            )
        return Retention(
            False,
            said(
                "box goes: captain rule, {who} dealt at 0 with the box ({points})",
                who=who,
                points=points,
            ),
        )
    side = said("box side") if game.partner else said("box")
    points = signed_points(net)
    if rules.retention == "net-profit":
        if net > 0:
            return Retention(
                True,
                said("box stays: net-profit rule, {side} {points} > 0", side=side, points=points),
            )
        return Retention(
            False,
            said("box goes: net-profit rule, {side} {points}, not > 0", side=side, points=points),
        )
    if rules.retention == "net-not-loss":
        if net >= 0:
            return Retention(
                True,
                said("box stays: net-not-loss rule, {side} {points} ≥ 0", side=side, points=points),
            )
        return Retention(
            False,
            said("box goes: net-not-loss rule, {side} {points} < 0", side=side, points=points),
        )
    if rules.retention == "won-not-loss":
        return _won_not_loss(game, net, side)
    if rules.retention == "score-sign":
        lead = pairs[game.captain]
        if net > 0:
            return Retention(
                True,
                said("box stays: score-sign rule, {side} {points} > 0", side=side, points=points),
            )
        if lead > 0:
            return Retention(
                False,
                said(
                    "box goes: score-sign rule, {side} {points} and the captain {captain} "
                    "{lead} > 0",
                    side=side,
                    points=points,
                    captain=game.captain,
                    lead=signed_points(lead),
                ),
            )
        return Retention(
            True,
            said(
                "nobody moves: score-sign rule, {side} {points} and the captain {captain} "
                "{lead}, neither > 0",
                side=side,
                points=points,
                captain=game.captain,
                lead=signed_points(lead),
            ),
            still=True,
        )
    unbeaten = [m for m, points in pairs.items() if points >= 0]
    if not unbeaten:
        return Retention(True, said("box stays: beat-all rule, the box beat every member"))
    return Retention(
        False,
        said_n(
            "box goes: beat-all rule, {names} was not beaten",
            "box goes: beat-all rule, {names} were not beaten",
            len(unbeaten),
            names=", ".join(unbeaten),
        ),
    )


def _won_not_loss(game: Game, net: int, side: Sayable) -> Retention:
    """L.A.'s rule: the box stays if it won the game (the board, if played to completion; or
    the last member still in passed its cube or dealt below 0) and lost no points on it; a box
    that won but lost points goes last, the old captain next to last."""
    last = game.last_ended
    won = bool(last) and all(game.pairs[m] < 0 for m in last)
    how: Sayable
    if game.result is not None and game.result.winner == "box":
        how = said("the box won the board")
    elif game.result is not None:
        how = said("the team won the board")
    elif won:
        how = said("the last pair still in ({names}) ended in the box's favour", names=_names(last))
    else:
        how = said(
            "the last pair still in ({names}) did not end in the box's favour", names=_names(last)
        )
    if not won:
        return Retention(False, said("box goes: won-not-loss rule, {how}", how=how))
    points = signed_points(net)
    if net >= 0:
        return Retention(
            True,
            said(
                "box stays: won-not-loss rule, {how}, {side} {points} ≥ 0",
                how=how,
                side=side,
                points=points,
            ),
        )
    return Retention(
        False,
        said(
            "box goes last: won-not-loss rule, {how} but the {side} lost {points}",
            how=how,
            side=side,
            points=points,
        ),
        box_last=True,
    )


def _names(names: tuple[str, ...]) -> Sayable:
    return ", ".join(names) or said_in("players", "none")


def box_keeps(game: Game, rules: HouseRules) -> bool:
    """Whether the box stays box, by the house rule ``retention`` (see :func:`retention`)."""
    return retention(game, rules).keeps


def booking_why(
    game: Game, stakes: Mapping[str, Cents], points: Mapping[str, int]
) -> list[Sayable]:
    """Why the money is split as it is: the stakes a pair plays at where its two players'
    differ (the lower), and the box's partner's share of the box side."""
    box, partner = game.box, game.partner
    why: list[Sayable] = []
    for member in game.members:
        if stakes[member] != stakes[box]:
            why.append(
                said(
                    "{member} and {box} play at {rate} a point, the lower of their stakes "
                    "({member_stake} and {box_stake})",
                    member=member,
                    box=box,
                    rate=Money(pair_stake(stakes, box, member)),
                    member_stake=Money(stakes[member]),
                    box_stake=Money(stakes[box]),
                )
            )
    if partner is not None and game.bought_out:
        bought = game.bought_out
        why.append(
            said_n(
                "{partner}, the box's partner, was bought out of {members}'s cube (worth "
                "{worth}): {partner_points} to {partner} in all, and the box {box_points} "
                "(buy-outs, partner-share {share})",
                "{partner}, the box's partner, was bought out of {members}'s cubes (worth "
                "{worth}): {partner_points} to {partner} in all, and the box {box_points} "
                "(buy-outs, partner-share {share})",
                len(bought),
                partner=partner,
                members=", ".join(bought),
                worth=sum(bought.values()),
                partner_points=signed_points(points[partner]),
                box_points=signed_points(points[box]),
                share=game.rules.partner_share,
            )
        )
    elif partner is not None:
        side = points[box] + points[partner]
        share = game.rules.partner_share
        values = {
            "partner": partner,
            "share": share,
            "side": signed_points(side),
            "partner_points": signed_points(points[partner]),
            "box_points": signed_points(points[box]),
        }
        if side * share % 100:
            why.append(
                said(
                    "{partner}, the box's partner, takes {share}% of the box side's {side}: "
                    "{partner_points}, and the box {box_points} (the odd point to the box) "
                    "(partner-share {share})",
                    **values,
                )
            )
        else:
            why.append(
                said(
                    "{partner}, the box's partner, takes {share}% of the box side's {side}: "
                    "{partner_points}, and the box {box_points} (partner-share {share})",
                    **values,
                )
            )
    return why


def cap_pairs(
    box: str, pairs: Mapping[str, int], banks: Mapping[str, int]
) -> tuple[dict[str, int], list[Sayable]]:
    """The pairs' results (member's side) capped by the players' banks (house rule
    ``table-stakes``, the Florida "all in"): a member loses at most their bank; the box pays
    its winners at most what it took from the others plus its bank, shared in proportion to
    what each won (the points left over by the largest remainders, in team order). With why,
    in sentences."""
    capped = dict(pairs)
    why: list[Sayable] = []
    for member, pts in pairs.items():
        if pts < 0 and -pts > banks[member]:
            capped[member] = -banks[member]
            why.append(
                said(
                    "{member} loses {points} but has {bank} left in the bank: all in, {capped} "
                    "(table-stakes)",
                    member=member,
                    points=signed_points(pts),
                    bank=banks[member],
                    capped=signed_points(-banks[member]),
                )
            )
    received = -sum(p for p in capped.values() if p < 0)
    owed = sum(p for p in capped.values() if p > 0)
    can_pay = received + banks[box]
    if owed <= can_pay:
        return capped, why
    winners = [m for m, p in capped.items() if p > 0]
    shares = {m: capped[m] * can_pay // owed for m in winners}
    left = can_pay - sum(shares.values())
    by_remainder = sorted(winners, key=lambda m: -(capped[m] * can_pay % owed))
    for member in by_remainder[:left]:
        shares[member] += 1
    why.append(
        said(
            "{box}, the box, owes {owed} but has {bank} left in the bank and took {received}: "
            "all in, {can_pay} shared by what each won ({shares}) (table-stakes)",
            box=box,
            owed=owed,
            bank=banks[box],
            received=received,
            can_pay=can_pay,
            shares=joined(
                said(
                    "{member} {share} of {won}",
                    member=m,
                    share=signed_points(shares[m]),
                    won=signed_points(capped[m]),
                )
                for m in winners
            ),
        )
    )
    capped.update(shares)
    return capped, why


#: How a player whose bank is gone gets back into play, by the kind of table: ``bank`` at a
#: session of table stakes (a new bank, ``chouette bank``), ``event`` at a table of an event
#: that still takes re-entries (``chouette event reenter``), ``over`` at one past its
#: re-entries' last level (none: out when the level closes).
Reentry = Literal["bank", "event", "over"]


def emptied(player: str, reentry: Reentry) -> Said:
    """What a game says of a player whose bank it emptied, and how they get back in."""
    if reentry == "event":
        return said(
            "{player}'s bank is empty: {player} sits out (chouette event reenter {player} "
            "for a re-entry into the event)",
            player=player,
        )
    if reentry == "over":
        return said(
            "{player}'s bank is empty: {player} sits out, and is out of the event when the "
            "level closes (its re-entries are over)",
            player=player,
        )
    return said(
        "{player}'s bank is empty: {player} sits out (chouette bank {player} POINTS for a "
        "re-entry)",
        player=player,
    )


def settle_game(game: Game, stakes: Mapping[str, Cents], reentry: Reentry = "bank") -> Outcome:
    """The outcome of a finished game; ``stakes`` gives every player's stake per point;
    ``reentry`` how a player whose bank it empties gets back in (the table's kind)."""
    if not game.over:
        live = ", ".join(m for m, c in game.cubes.items() if c.live)
        raise RuleError(said("the game is not over: {members} still playing", members=live))
    pairs = game.pairs
    banks = game.start_line.banks
    capped, all_in = cap_pairs(game.box, pairs, dict(banks)) if banks else (dict(pairs), [])
    points, cents = book(
        game.box,
        capped,
        stakes,
        partner=game.partner,
        partner_share=game.rules.partner_share,
        partner_own_stake=game.rules.settled_edges,
        bought_out=game.bought_out,
    )
    booked = booking_why(game, stakes, points)  # (before the extras, which no partner shares)
    extras = []
    for extra, cube in zip(game.extras, game.extra_cubes, strict=True):  # (no partner shares)
        worth = extra_points(extra, game.result, cube)
        money = pair_money(worth, pair_stake(stakes, extra.team_side, extra.box_side))
        points[extra.team_side] += worth
        points[extra.box_side] -= worth
        cents[extra.team_side] += money
        cents[extra.box_side] -= money
        extras.append(ExtraResult(extra.team_side, extra.box_side, worth, money))
    decision = retention(game, game.rules)
    if decision.still:
        moved = Rotation(seat(game.line, game.rules), (said("the line stays as it is"),))
    else:
        moved = rotation(
            game.line,
            captain=game.captain,
            box_keeps=decision.keeps,
            captain_beat_box=pairs[game.captain] >= 0 and not decision.box_last,
            rules=game.rules,
            box_last=decision.box_last,
        )
    next_line = banks_after(moved.line, points)
    broke = [p for p in next_line.order if next_line.bank(p) == 0 and p in points]
    seated = seat(next_line, game.rules)  # (an empty bank may end a partnership too)
    why = (
        *game.why,
        *all_in,
        *booked,
        decision.why,
        *moved.why,
        *(emptied(p, reentry) for p in broke),
        *partner_news(game.start_line, seated, game.rules),
    )
    return Outcome(capped, points, cents, seated, tuple(extras), why)
