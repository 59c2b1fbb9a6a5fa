"""The club's memory: what each player won and lost, by role and by night, and who beats whom.

Worked from the finished games as the score sheet reads them (:class:`~chouette.report.
GameLine`), over every session: only money won or lost at the table in games counts
(payments, fees and shared costs are not play).

- **Roles.** In a chouette game a player is the ``box``, the box's ``partner``, the
  ``captain`` or ``crew`` (every other member), as the line stood when the game began; in an
  imported engine game (a money session) both players play ``one-on-one``. Per role: games,
  money won (the games won, summed), money lost (the games lost, summed, as a positive
  amount), the net and the net per game, in whole cents rounded to the nearest, a half cent
  away from zero (:func:`per_game`).
- **Nights.** A night is the local date of a game's end, a game that ends before 06:00
  counting to the day before (:func:`night_of`: the one place that says what a night is).
- **Head to head** (:func:`money_between`): in a chouette game each member's pair is money
  between the member and the box; with a partner, the partner's share of each pair
  (``partner-share`` % of what the box side won or lost against that member, rounded toward
  zero) is money between the partner and that member instead, and whatever the partner's
  booking differs from the sum of those shares by (the rounding of the whole, the partner's
  own lower stake, a buy-out) is money between the partner and the box. An extra is money
  between its two sides. An engine game is money between its winner and its loser. Every
  player's head to head sums to the player's money, and A against B is −(B against A).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from chouette.money import Cents, share
from chouette.report import Cell, GameLine, Rows, balance, money
from chouette.words import Sayable, joined, marked, said, said_in, said_n

ROLES = ("box", "partner", "captain", "crew", "one-on-one")

#: A night runs until this hour of the next morning (local time).
NIGHT_ENDS = 6


def night_of(ended: datetime) -> date:
    """The night a game belongs to, from the local time it ended: its date, or the day
    before for a game that ends before 06:00 (a late game is the same evening's). A
    session's own night (issue 22) would come in here."""
    return (ended - timedelta(hours=NIGHT_ENDS)).date()


def per_game(cents: Cents, games: int) -> Cents:
    """``cents`` over ``games`` games, to the nearest cent (a half cent away from zero)."""
    if games <= 0:
        return 0
    whole = (2 * abs(cents) + games) // (2 * games)
    return whole if cents >= 0 else -whole


@dataclass
class Tally:
    """Games, money won and lost (a positive amount), in a role or in all."""

    games: int = 0
    won: Cents = 0
    lost: Cents = 0

    def add(self, cents: Cents) -> None:
        self.games += 1
        if cents > 0:
            self.won += cents
        else:
            self.lost -= cents

    @property
    def net(self) -> Cents:
        return self.won - self.lost

    @property
    def per_game(self) -> Cents:
        return per_game(self.net, self.games)


@dataclass(frozen=True)
class Night:
    """A player's money on one night, and the sessions they played in it."""

    night: date
    cents: Cents
    sessions: tuple[str, ...]


@dataclass(frozen=True)
class Opponent:
    """Money against one opponent (from the player's side), and the games they played
    against each other (as member and box or partner, or one-on-one, or an extra)."""

    name: str
    games: int
    cents: Cents


@dataclass(frozen=True)
class PlayerStats:
    """One player's memory: sessions and games played, all games and each role's
    (:data:`ROLES`, a role never played left out), the biggest night (the one they won
    most on; the earliest of equals), and head to head, the opponent they won most from
    first."""

    name: str
    sessions: int
    total: Tally
    roles: Mapping[str, Tally]
    biggest_night: Night | None
    head_to_head: tuple[Opponent, ...]


@dataclass(frozen=True)
class Between:
    """``cents`` from ``player``'s side against ``other`` in one game (``opposed``: they
    played against each other; False for the partner's difference with the box)."""

    player: str
    other: str
    cents: Cents
    opposed: bool = True


def roles_in(line: GameLine) -> dict[str, str]:
    """Each player booked in the game, and the role they played."""
    if line.kind != "chouette":
        return dict.fromkeys(line.cents, "one-on-one")
    found = {}
    for player in line.cents:
        if player == line.box:
            found[player] = "box"
        elif player == line.partner:
            found[player] = "partner"
        elif player == line.captain:
            found[player] = "captain"
        else:
            found[player] = "crew"
    return found


def money_between(line: GameLine, partner_share: int = 50) -> list[Between]:
    """The game's money, player against player (see the module's words): antisymmetric by
    construction, and each player's amounts sum to their booking in the game."""
    if line.kind != "chouette":
        players = list(line.cents)
        if len(players) != 2:
            return []
        return [Between(players[0], players[1], line.cents[players[0]])]
    found = []
    rest = dict(line.cents)
    for extra in line.extras:
        found.append(Between(extra.team_side, extra.box_side, extra.cents))
        rest[extra.team_side] = rest.get(extra.team_side, 0) - extra.cents
        rest[extra.box_side] = rest.get(extra.box_side, 0) + extra.cents
    box, partner = line.box, line.partner
    if box not in rest:
        return found
    partner = partner if partner in rest else None
    parts = 0
    for member, cents in rest.items():
        if member in (box, partner):
            continue
        if partner is None:
            found.append(Between(member, box, cents))
            continue
        part = share(-cents, partner_share)  # the partner's share of the box side's -cents
        parts += part
        found.append(Between(member, partner, -part))
        found.append(Between(member, box, cents + part))
    if partner is not None and rest[partner] != parts:
        found.append(Between(partner, box, rest[partner] - parts, opposed=False))
    return found


@dataclass
class _Player:
    sessions: set[str] = field(default_factory=set)
    total: Tally = field(default_factory=Tally)
    roles: dict[str, Tally] = field(default_factory=dict)
    nights: dict[date, tuple[Cents, set[str]]] = field(default_factory=dict)
    against: dict[str, list[int]] = field(default_factory=dict)  # [games, cents]


def club_stats(
    lines: Iterable[GameLine],
    *,
    shares: Mapping[str, int] | None = None,
    local: Callable[[datetime], datetime] | None = None,
    since: date | None = None,
) -> list[PlayerStats]:
    """Every player's stats over the finished games ``lines`` (``shares``: each session's
    partner-share, 50 where not given; ``local``: a moment in the reader's local time;
    ``since``: only the games of nights from that date on). Ranked by net money, the
    biggest winner first (then by name)."""
    local = local or (lambda moment: moment)
    players: dict[str, _Player] = {}
    for line in lines:
        night = None if line.ended_at is None else night_of(local(line.ended_at))
        if since is not None and (night is None or night < since):
            continue
        for player, role in roles_in(line).items():
            cents = line.cents[player]
            seen = players.setdefault(player, _Player())
            seen.sessions.add(line.session)
            seen.total.add(cents)
            seen.roles.setdefault(role, Tally()).add(cents)
            if night is not None:
                total, sessions = seen.nights.get(night, (0, set()))
                seen.nights[night] = (total + cents, sessions | {line.session})
        moved: dict[tuple[str, str], Cents] = {}
        opposed: set[tuple[str, str]] = set()
        for between in money_between(line, (shares or {}).get(line.session, 50)):
            for me, other, cents in (
                (between.player, between.other, between.cents),
                (between.other, between.player, -between.cents),
            ):
                moved[me, other] = moved.get((me, other), 0) + cents
                if between.opposed:
                    opposed.add((me, other))
        for (me, other), cents in moved.items():  # a game counts once against each opponent
            tally = players.setdefault(me, _Player()).against.setdefault(other, [0, 0])
            tally[0] += (me, other) in opposed
            tally[1] += cents
    found = [_finished(name, seen) for name, seen in players.items()]
    found.sort(key=lambda s: (-s.total.net, s.name))
    return found


def _finished(name: str, seen: _Player) -> PlayerStats:
    biggest = None
    if seen.nights:
        night, (cents, sessions) = max(
            seen.nights.items(), key=lambda n: (n[1][0], -n[0].toordinal())
        )
        biggest = Night(night, cents, tuple(sorted(sessions)))
    opponents = sorted(
        (Opponent(other, games, cents) for other, (games, cents) in seen.against.items()),
        key=lambda o: (-o.cents, o.name),
    )
    return PlayerStats(
        name=name,
        sessions=len(seen.sessions),
        total=seen.total,
        roles={role: seen.roles[role] for role in ROLES if role in seen.roles},
        biggest_night=biggest,
        head_to_head=tuple(opponents),
    )


# ---------------------------------------------------------------- as the reports show them


def tally_json(tally: Tally) -> dict[str, int]:
    return {
        "games": tally.games,
        "won_cents": tally.won,
        "lost_cents": tally.lost,
        "net_cents": tally.net,
        "per_game_cents": tally.per_game,
    }


def stats_json(
    found: Iterable[PlayerStats], *, player: str | None, since: date | None
) -> dict[str, Any]:
    """``stats --json``: every player's stats (one, when ``player`` is named)."""
    return {
        "player": player,
        "since": None if since is None else since.isoformat(),
        "players": [
            {
                "name": s.name,
                "sessions": s.sessions,
                **tally_json(s.total),
                "roles": {role: tally_json(t) for role, t in s.roles.items()},
                "biggest_night": None
                if s.biggest_night is None
                else {
                    "night": s.biggest_night.night.isoformat(),
                    "cents": s.biggest_night.cents,
                    "sessions": list(s.biggest_night.sessions),
                },
                "head_to_head": [
                    {"opponent": o.name, "games": o.games, "cents": o.cents} for o in s.head_to_head
                ],
            }
            for s in found
        ],
    }


def _money(tally: Tally) -> list[Cell]:
    return [money(tally.won), money(tally.lost), balance(tally.net), balance(tally.per_game)]


def night_text(night: Night | None) -> Cell:
    """``2026-11-20 +50.00`` (or nothing)."""
    return "" if night is None else joined([night.night.isoformat(), balance(night.cents)], " ")


#: The roles as a row of the stats names them, in the reader's words.
ROLE_WORDS: Mapping[str, Sayable] = {
    "box": said("box"),
    "partner": said("partner"),
    "captain": said("captain"),
    "crew": said("crew"),
    "one-on-one": said("one-on-one"),
}


def players_rows(found: Iterable[PlayerStats]) -> Rows:
    """A row per player: sessions, games, money won and lost, net, per game, biggest night."""
    head = [marked("player"), marked("sessions"), marked("games"), *_MONEY_HEADS]
    rows: list[list[Cell]] = [
        [s.name, str(s.sessions), str(s.total.games), *_money(s.total), night_text(s.biggest_night)]
        for s in found
    ]
    return [*head, marked("biggest night")], rows


#: The headings of :func:`_money`'s columns.
_MONEY_HEADS = [marked("won"), marked("lost"), marked("money"), marked("per game")]


def roles_rows(stats: PlayerStats) -> Rows:
    """A row per role the player played, then all games."""
    head = [marked("role"), marked("games"), *_MONEY_HEADS]
    rows: list[list[Cell]] = [
        [ROLE_WORDS.get(role, role), str(t.games), *_money(t)] for role, t in stats.roles.items()
    ]
    rows.append([said_in("role", "all"), str(stats.total.games), *_money(stats.total)])
    return head, rows


def opponents_rows(stats: PlayerStats) -> Rows:
    """The player's money against each opponent, the one they won most from first."""
    head = [marked("against"), marked("games"), marked("money")]
    rows: list[list[Cell]] = [[o.name, str(o.games), balance(o.cents)] for o in stats.head_to_head]
    return head, rows


def who_beats_whom(found: Iterable[PlayerStats]) -> list[tuple[str, str, Opponent]]:
    """Every two players who met once (``winner``, ``loser``, the winner's side), the
    biggest amount first; two who are square are listed by name."""
    pairs = [
        (s.name, o.name, o)
        for s in found
        for o in s.head_to_head
        if o.cents > 0 or (o.cents == 0 and s.name < o.name)
    ]
    pairs.sort(key=lambda p: (-p[2].cents, p[0], p[1]))
    return pairs


def head_to_head_rows(found: Iterable[PlayerStats]) -> Rows:
    """Who beats whom: a row per two players, from the winner's side."""
    head = [marked("player"), marked("against"), marked("games"), marked("money")]
    rows: list[list[Cell]] = [
        [a, b, str(o.games), balance(o.cents)] for a, b, o in who_beats_whom(found)
    ]
    return head, rows


def summary_text(stats: PlayerStats) -> list[Sayable]:
    """The player's lines above the tables."""
    t = stats.total
    lines: list[Sayable] = [
        said(
            "{player}: {sessions}, {games}; won {won}, lost {lost}, money {net} ({per_game} a "
            "game).",
            player=stats.name,
            sessions=said_n("{n} session", "{n} sessions", stats.sessions, n=stats.sessions),
            games=said_n("{n} game", "{n} games", t.games, n=t.games),
            won=money(t.won),
            lost=money(t.lost),
            net=balance(t.net),
            per_game=balance(t.per_game),
        )
    ]
    night = stats.biggest_night
    if night is not None:
        lines.append(
            said(
                "Biggest night: {night}, {amount} ({sessions}).",
                night=night.night.isoformat(),
                amount=balance(night.cents),
                sessions=", ".join(night.sessions),
            )
        )
    return lines
