"""Reports as data: the shapes of INTERFACE.md's ``--json`` and the rows of every table.

The ledger hands over plain values (:class:`GameLine`, :class:`Entry`, totals); the functions
here turn them into JSON-ready dicts and into rows of preformatted strings that the CLI
prints as a table, CSV or Markdown. Money is formatted here and only here, exact to the cent.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from chouette.amend import Correction
from chouette.exposure import Exposure
from chouette.game import Event, Extra, ExtraCube, Game
from chouette.line import Line
from chouette.money import Cents, format_money
from chouette.outcome import ExtraResult, Outcome, extra_points
from chouette.points import signed_points
from chouette.record import event_to_json
from chouette.rules import HouseRules
from chouette.settlement import Payment
from chouette.stop import StopState

Rows = tuple[list[str], list[list[str]]]


@dataclass(frozen=True)
class GameLine:
    """One finished game on the score sheet."""

    number: int
    kind: str
    box: str
    captain: str | None
    points: dict[str, int]
    cents: dict[str, Cents]
    ended_at: datetime | None = None
    session: str = ""
    extras: tuple[ExtraResult, ...] = ()
    partner: str | None = None  # the box's partner in this game, if any
    amended: tuple[Correction, ...] = ()  # the corrections made to it (chouette amend)

    @property
    def box_side(self) -> str:
        """The box as the sheet names it: ``ann+cat`` with a partner."""
        return f"{self.box}+{self.partner}" if self.partner else self.box


@dataclass(frozen=True)
class Entry:
    """One line of the ledger: a game's booking or a payment."""

    at: datetime
    session: str
    game: int | None
    player: str
    points: int
    cents: Cents
    note: str = "game"


@dataclass(frozen=True)
class Standing:
    """A player's totals: ``cents`` the balance (what they won at the table, the fees and
    shared costs, and the payments between players), ``paid`` those payments (paid +,
    received −), ``costs`` what fees and shared costs did (owed to them +, by them −)."""

    name: str
    points: int
    cents: Cents
    paid: Cents = 0
    costs: Cents = 0

    @property
    def table_cents(self) -> Cents:
        """What the player won (+) or lost (−) at the table, payments and costs aside."""
        return self.cents - self.paid - self.costs


@dataclass(frozen=True)
class SessionSummary:
    """A session in the list of sessions."""

    name: str
    created_at: datetime
    stake: Cents
    rules: HouseRules
    players: int
    games: int
    current: bool
    night: str = ""


@dataclass(frozen=True)
class Undone:
    """What ``undo`` took back: a command's events (``events``, of game ``number``; the game
    has not started now if ``game_gone``), the games of a ``record`` or an ``import`` (games
    ``number`` to ``last``; an import's ``file``), a ``payment``, a ``charge`` (a fee or a
    shared cost), a change of the ``line`` or
    a ``split`` of the table, a ``rename`` of the session or players' ``accept``ance of the
    rules, the correction (``amend``) of a game, or a board given to a cube decision booked
    (``position``) (``said``: what the command said it did)."""

    what: Literal[
        "events",
        "record",
        "import",
        "payment",
        "charge",
        "line",
        "split",
        "rename",
        "accept",
        "amend",
        "position",
    ]
    number: int = 0
    last: int | None = None
    events: tuple[Event, ...] = ()
    file: str | None = None
    game_gone: bool = False
    said: str = ""


@dataclass(frozen=True)
class Status:
    """The table as it stands: the line, and the game in progress if there is one."""

    session: str
    line: Line
    number: int
    game: Game | None
    stake: Cents = 0
    rules_summary: str = ""
    notes: list[str] = field(default_factory=list)
    carry: int | None = None  # automatic doubles carried over to the next game
    at_risk: Exposure | None = None  # the most each can lose on the game in progress
    balances: Mapping[str, Cents] = field(default_factory=dict)  # for the credits' headroom
    stop: StopState | None = None  # the session's agreed stop (--rounds, --until)

    def credit_rows(self) -> list[dict[str, Any]]:
        """Each player with a credit: the credit, the balance, and what is left of the credit
        once the most at risk on the game in progress is lost."""
        risk = self.at_risk.cents if self.at_risk is not None else {}
        return [
            {
                "player": player,
                "credit_cents": credit,
                "balance_cents": self.balances.get(player, 0),
                "left_cents": self.balances.get(player, 0) + credit - risk.get(player, 0),
            }
            for player, credit in self.line.credits
        ]


signed = signed_points  # (the name every report and page template uses)


def money(cents: Cents) -> str:
    return format_money(cents)


def balance(cents: Cents) -> str:
    """A balance: ``+50.00`` received, ``-5.00`` paid."""
    return format_money(cents, sign=True)


# ---------------------------------------------------------------- status


def _pending(game: Game, member: str) -> str | None:
    offer = game.cubes[member].offer
    if offer is None:
        return None
    return "box" if offer.answerer == "box" else member


def _owner(game: Game, member: str) -> str:
    owner = game.cubes[member].owner
    return member if owner == "member" else owner


def line_keys(line: Line) -> dict[str, Any]:
    """The line as ``status --json`` has it: the order, the roles, who sits out, who is away
    (and under table stakes every bank)."""
    return {
        "line": list(line.order),
        "box": line.box,
        "captain": line.captain,
        "crew": list(line.crew),
        "partner": line.partner,
        "sitting_out": [p for p in line.order if p in line.sitting_out],
        "away": dict(line.away),
        **({"banks": dict(line.banks)} if line.banks else {}),
    }


def line_json(session: str, said: Sequence[str], line: Line) -> dict[str, Any]:
    """A command that changed the line (or started it), in ``--json``: what it said, and the
    line it leaves."""
    return {"session": session, "said": list(said), **line_keys(line)}


def status_json(status: Status) -> dict[str, Any]:
    line, game = status.line, status.game
    if game is not None:
        line = game.line
    return {
        "session": status.session,
        **line_keys(line),
        "game": None
        if game is None
        else {
            "number": status.number,
            "cubes": {
                m: {
                    "value": c.value,
                    "owner": _owner(game, m),
                    "pending": _pending(game, m),
                    "out": not c.live,
                    **({"resign": c.resign.kind} if c.resign is not None else {}),
                }
                for m, c in game.cubes.items()
            },
            **({"extras": extras_json(game)} if game.extras else {}),
            **({"carried_over": game.carried_out} if game.carried_out else {}),
            **({"bought_out": dict(game.bought_out)} if game.bought_out else {}),
        },
        **({"carry": status.carry} if status.carry else {}),
        **(
            {
                "at_risk": {
                    p: {"points": status.at_risk.points[p], "cents": status.at_risk.cents[p]}
                    for p in status.at_risk.points
                }
            }
            if status.at_risk is not None
            else {}
        ),
        **({"credits": status.credit_rows()} if status.line.credits else {}),
        **(
            {
                "stop": {
                    "agreed": status.stop.agreed,
                    "last_game": status.stop.last,
                    "last_round": status.stop.last_round,
                    "ended": status.stop.ended,
                }
            }
            if status.stop is not None
            else {}
        ),
    }


def extras_json(game: Game) -> list[dict[str, Any]]:
    return [extra_json(e, c, game) for e, c in zip(game.extras, game.extra_cubes, strict=True)]


def extra_json(
    extra: Extra, cube: ExtraCube | None = None, game: Game | None = None
) -> dict[str, Any]:
    """An extra given in the game in progress: its record event without the act; and, once
    its cube has moved (house rules ``extra-redoubles``, ``mandatory-extras``), its cube:
    ``value``, ``holder`` (a name), ``pending`` (a redouble waits), ``settled`` (the team
    side's points from a dropped redouble, or null) and ``void``."""
    out = {k: v for k, v in event_to_json(extra).items() if k != "act"}
    if cube is None or game is None or cube == ExtraCube(extra.points):
        return out
    holder = extra.team_side if cube.holder == "team" else extra.box_side
    out["cube"] = {
        "value": cube.value,
        "holder": holder,
        "pending": cube.offered,
        "settled": cube.result,
        "void": cube.void,
    }
    return out


def extra_result_json(result: ExtraResult) -> dict[str, Any]:
    """What an extra booked, from its team side's view."""
    return {
        "team_side": result.team_side,
        "box_side": result.box_side,
        "points": result.points,
        "cents": result.cents,
    }


def status_text(status: Status) -> tuple[list[str], Rows | None]:
    """Heading lines, and the cube table when a game is in progress (the notes are the
    caller's to give, on standard error)."""
    game = status.game
    line = game.line if game is not None else status.line
    state = "in progress" if game is not None else "not started"
    heading = [
        f"Session {status.session}: game {status.number} ({state})",
        f"Line: {line.describe()}",
    ]
    if line.partner is not None:
        heading.append(f"Box's partner: {line.partner}")
    stop_said = status.stop.said(status.number) if status.stop is not None else None
    if stop_said is not None:
        heading.append(f"{stop_said[0].upper()}{stop_said[1:]}.")
    if status.line.credits:
        heading.append(
            "Credit: "
            + ", ".join(
                f"{row['player']} {format_money(row['credit_cents'])} "
                f"({format_money(row['left_cents'])} left)"
                for row in status.credit_rows()
            )
        )
    if status.carry:
        heading.append(
            f"Carried over: {status.carry} automatic double{'s' if status.carry > 1 else ''}, "
            "for the box to accept or decline first (chouette carry accept|decline)"
        )
    if game is None:
        return heading, None
    if game.carried_out:
        heading.append(
            f"Carried over to the next game: {game.carried_out} automatic "
            f"double{'s' if game.carried_out > 1 else ''}"
        )
    acting = game.acting_captain
    if acting is not None and acting != line.captain:
        heading.append(f"Acting captain: {acting}")
    heading += [
        f"Extra: {extra_sentence(e)}{extra_cube_text(e, c)}"
        for e, c in zip(game.extras, game.extra_cubes, strict=True)
    ]
    if status.at_risk is not None:
        risk = status.at_risk
        heading.append(
            "At risk (the most each can lose on this game, as the cubes stand): "
            + ", ".join(
                f"{p} {format_money(risk.cents[p])} ({risk.points[p]})" for p in risk.points
            )
        )
    rows = []
    for m, c in game.cubes.items():
        pending = _pending(game, m)
        if c.live:
            state = "live" if pending is None else f"{c.offer.stage if c.offer else ''} pending"
        else:
            state = f"out, {signed(c.result or 0)} ({c.ended_by})"
        rows.append([m, str(c.value), _owner(game, m), pending or "-", state])
    return heading, (["member", "cube", "owner", "to answer", "state"], rows)


# ---------------------------------------------------------------- a booked game


def booked_json(session: str, number: int, outcome: Outcome) -> dict[str, Any]:
    return {
        "session": session,
        "game": number,
        "pairs": dict(outcome.pairs),
        "points": dict(outcome.points),
        "cents": dict(outcome.cents),
        "next_line": list(outcome.next_line.order),
        **({"extras": [extra_result_json(e) for e in outcome.extras]} if outcome.extras else {}),
        "why": list(outcome.why),
    }


def why_lines(why: Sequence[str]) -> list[str]:
    """The reasons for a game's decisions, under a heading: ``Why:`` and one per line."""
    return ["Why:", *[f"  {reason}" for reason in why]] if why else []


def played_json(
    session: str, number: int, before: Game | None, game: Game, outcome: Outcome | None
) -> dict[str, Any]:
    """What one event command did, for ``--json``: the game, what it said (``said``), and
    either the game's bookings (it is ``over``: the keys of :func:`booked_json`) or every
    cube as it stands (the ``cubes`` of :func:`status_json`)."""
    said = describe_events(number, before, game)
    if outcome is not None:
        return {**booked_json(session, number, outcome), "over": True, "said": said}
    board = status_json(Status(session, game.line, number, game))["game"]
    board.pop("number")
    return {
        "session": session,
        "game": number,
        "over": False,
        "said": said,
        **board,
        "why": list(game.why),
    }


def booked_rows(outcome: Outcome) -> Rows:
    rows = [[p, signed(outcome.points[p]), balance(outcome.cents[p])] for p in outcome.points]
    return ["player", "points", "money"], rows


def extra_sentence(extra: Extra) -> str:
    """``cat gives bob an extra on 2 (cat pays bob 1 for it)``."""
    paid = f" ({extra.box_side} pays {extra.team_side} {extra.premium} for it)"
    return f"{extra.box_side} gives {extra.team_side} an extra on {extra.points}" + (
        paid if extra.premium else ""
    )


def extra_cube_text(extra: Extra, cube: ExtraCube) -> str:
    """Where an extra's cube stands, once it has moved: `` (void)``, `` (settled: …)``,
    `` (cube 4, cat holds it)``, `` (redoubled to 4: cat to answer)``."""
    if cube.void:
        return " (void: the lone taker dropped after all)"
    if cube.result is not None:
        return f" (settled by a dropped redouble: {signed(cube.result)} to {extra.team_side})"
    holder, other = (
        (extra.team_side, extra.box_side)
        if cube.holder == "team"
        else (extra.box_side, extra.team_side)
    )
    if cube.offered:
        return f" (redoubled to {cube.value * 2}: {other} to answer)"
    if cube.value != extra.points:
        return f" (cube {cube.value}, {holder} holds it)"
    return ""


def extra_result_text(result: ExtraResult) -> str:
    """``bob +3 from cat (+3.00)`` / ``bob -1 to cat (-1.00)`` / ``bob and cat: 0`` (nothing
    changed hands: a void extra, or a premium that matched the loss)."""
    if result.points == 0 and result.cents == 0:
        return f"{result.team_side} and {result.box_side}: 0"
    way = "from" if result.points > 0 or result.cents > 0 else "to"
    return (
        f"{result.team_side} {signed(result.points)} {way} {result.box_side} "
        f"({balance(result.cents)})"
    )


def why_notes(reasons: Mapping[int, Sequence[str]]) -> list[str]:
    """The reasons for each game's decisions, under the sheet: a line a game."""
    notes = []
    for number, why in reasons.items():
        label = f"  game {number}: "
        notes += [(label if i == 0 else " " * len(label)) + text for i, text in enumerate(why)]
    return ["Why (the rules that decided each game):", *notes] if notes else []


def extras_notes(lines: Iterable[GameLine], *, sessions: bool) -> list[str]:
    """The extras the sheet's games include: one line each, under the sheet."""
    notes = []
    for line in lines:
        where = f"{line.session} game {line.number}" if sessions else f"game {line.number}"
        notes += [f"  {where}: {extra_result_text(e)}" for e in line.extras]
    return ["Extras (in the games above):", *notes] if notes else []


# ---------------------------------------------------------------- standings


def standings(
    players: Sequence[str],
    totals: Mapping[str, tuple[int, Cents]],
    paid: Mapping[str, Cents] | None = None,
    costs: Mapping[str, Cents] | None = None,
) -> list[Standing]:
    """Every player with their totals (``paid``: what each paid, +, or received, −, in
    payments between players; ``costs``: what fees and shared costs did to each balance),
    ranked by what they won at the table, best first: a payment or a cost moves a balance,
    never a place (ties by points, then in the order they joined)."""
    paid, costs = paid or {}, costs or {}
    names = list(players) + [p for p in totals if p not in players]
    names += [p for p in [*paid, *costs] if p not in names]
    rank = {name: i for i, name in enumerate(names)}
    table = [Standing(p, *totals.get(p, (0, 0)), paid.get(p, 0), costs.get(p, 0)) for p in names]
    return sorted(table, key=lambda s: (-s.table_cents, -s.points, rank[s.name]))


def standings_json(
    session: str | None, table: Sequence[Standing], *, costs: bool = False
) -> dict[str, Any]:
    """``standings --json``; ``costs``: fees or shared costs were booked (each player then
    has ``costs_cents``)."""
    return {
        "session": session,
        "players": [
            {
                "name": s.name,
                "points": s.points,
                "cents": s.cents,
                "table_cents": s.table_cents,
                "paid_cents": s.paid,
            }
            | ({"costs_cents": s.costs} if costs else {})
            for s in table
        ],
    }


def standings_rows(
    table: Sequence[Standing],
    paid: Mapping[str, Cents] | None = None,
    costs: Mapping[str, Cents] | None = None,
) -> Rows:
    """Points and money per player. Where payments were booked between players (``paid``:
    what each paid, +, or received, −) or fees and shared costs (``costs``: owed to the
    player +, by them −), the money won at the table, the fees and costs, the payments and
    the balance they leave, as the HTML report shows them."""
    if not paid and not costs:
        rows = [[s.name, signed(s.points), balance(s.cents)] for s in table]
        return ["player", "points", "money"], rows
    paid, costs = paid or {}, costs or {}
    head = ["player", "points", "at the table"]
    head += ["fees and costs"] if costs else []
    head += ["paid (+) / received (-)"] if paid else []
    rows = []
    for s in table:
        moved = [costs.get(s.name, 0)] if costs else []
        moved += [paid.get(s.name, 0)] if paid else []
        row = [s.name, signed(s.points), balance(s.cents - sum(moved))]
        rows.append(row + [balance(c) for c in moved] + [balance(s.cents)])
    return [*head, "balance"], rows


# ---------------------------------------------------------------- the score sheet


def sheet_players(players: Sequence[str], lines: Iterable[GameLine]) -> list[str]:
    names = list(players)
    for line in lines:
        names += [p for p in line.points if p not in names]
    return names


class Seen:
    """What the games of a sheet held, noted as they pass on their way to the output: an
    engine game, and the games with extras (for the notes under the sheet)."""

    def __init__(self) -> None:
        self.engine = False
        self.extras: list[GameLine] = []

    def tap(self, lines: Iterable[GameLine]) -> Iterator[GameLine]:
        for line in lines:
            if line.kind != "chouette":
                self.engine = True
            if line.extras:
                self.extras.append(line)
            yield line


def sheet_json(
    session: str | None, players: Sequence[str], lines: Sequence[GameLine]
) -> dict[str, Any]:
    everyone = sheet_players(players, lines)
    games = [sheet_game_json(line, everyone, session) for line in lines]
    return {"session": session, "players": everyone, "games": games}


def sheet_game_json(line: GameLine, everyone: Sequence[str], session: str | None) -> dict[str, Any]:
    """One game of ``sheet --json`` (``everyone``: the sheet's players, in order)."""
    entry: dict[str, Any] = {
        "game": line.number,  # the session's own number, as `chouette game N` takes it
        "points": {p: line.points[p] for p in everyone if p in line.points},
        "cents": {p: line.cents[p] for p in everyone if p in line.cents},
    }
    if line.partner:
        entry["partner"] = line.partner
    if line.extras:
        entry["extras"] = [extra_result_json(e) for e in line.extras]
    if line.amended:
        entry["amended"] = [c.to_json() for c in line.amended]
    if session is None:
        entry["session"] = line.session
    return entry


def sheet_rows(players: Sequence[str], lines: Sequence[GameLine], *, sessions: bool) -> Rows:
    """A row per game: box, captain, and each player's result with the running total."""
    headers, rows = sheet_table(sheet_players(players, lines), lines, sessions=sessions)
    return headers, list(rows)


def sheet_table(
    everyone: Sequence[str], lines: Iterable[GameLine], *, sessions: bool
) -> tuple[list[str], Iterator[list[str]]]:
    """:func:`sheet_rows` as the games come (``everyone``: the sheet's players, known
    first): the headers, and the rows, made one by one."""
    headers = [*(["session"] if sessions else []), "game", "box", "captain", *everyone]
    return headers, _sheet_body(everyone, lines, sessions)


def _sheet_body(
    everyone: Sequence[str], lines: Iterable[GameLine], sessions: bool
) -> Iterator[list[str]]:
    running = dict.fromkeys(everyone, 0)
    money_total = dict.fromkeys(everyone, 0)
    for line in lines:
        cells = []
        for p in everyone:
            if p in line.points:
                running[p] += line.points[p]
                money_total[p] += line.cents[p]
                cells.append(f"{signed(line.points[p])} → {signed(running[p])}")
            else:
                cells.append("")
        label = str(line.number) if line.kind == "chouette" else f"{line.number}*"
        if line.amended:
            label += " (amended)"
        prefix = [line.session] if sessions else []
        yield [*prefix, label, line.box_side, line.captain or "", *cells]
    pad = [""] if sessions else []
    yield [*pad, "total", "", "", *[signed(running[p]) for p in everyone]]
    yield [*pad, "money", "", "", *[balance(money_total[p]) for p in everyone]]


def sheet_csv_rows(players: Sequence[str], lines: Sequence[GameLine], *, sessions: bool) -> Rows:
    """The sheet for a spreadsheet: one number per cell (points per game), then the totals."""
    headers, rows = sheet_csv_table(sheet_players(players, lines), lines, sessions=sessions)
    return headers, list(rows)


def sheet_csv_table(
    everyone: Sequence[str], lines: Iterable[GameLine], *, sessions: bool
) -> tuple[list[str], Iterator[list[str]]]:
    """:func:`sheet_csv_rows` as the games come."""
    headers = [*(["session"] if sessions else []), "game", "kind", "box", "captain", *everyone]
    return headers, _sheet_csv_body(everyone, lines, sessions)


def _sheet_csv_body(
    everyone: Sequence[str], lines: Iterable[GameLine], sessions: bool
) -> Iterator[list[str]]:
    points = dict.fromkeys(everyone, 0)
    cents = dict.fromkeys(everyone, 0)
    for line in lines:
        prefix = [line.session] if sessions else []
        cells = []
        for p in everyone:
            if p in line.points:
                points[p] += line.points[p]
                cents[p] += line.cents.get(p, 0)
                cells.append(str(line.points[p]))
            else:
                cells.append("")
        yield [*prefix, str(line.number), line.kind, line.box, line.captain or "", *cells]
    pad = [""] if sessions else []
    yield [*pad, "total", "points", "", "", *[str(points[p]) for p in everyone]]
    yield [*pad, "total", "money", "", "", *[money(cents[p]) for p in everyone]]


# ---------------------------------------------------------------- settlement


def settle_json(payments: Sequence[Payment]) -> dict[str, Any]:
    return {"payments": [{"from": p.payer, "to": p.payee, "cents": p.cents} for p in payments]}


def settle_rows(payments: Sequence[Payment]) -> Rows:
    return ["from", "to", "amount"], [[p.payer, p.payee, money(p.cents)] for p in payments]


# ---------------------------------------------------------------- the ledger


def ledger_json(session: str | None, entries: Iterable[Entry]) -> dict[str, Any]:
    return {"session": session, "bookings": [entry_json(e) for e in entries]}


def entry_json(e: Entry) -> dict[str, Any]:
    """One booking of ``ledger --json``."""
    return {
        "at": e.at.isoformat(),
        "session": e.session,
        "game": e.game,
        "player": e.player,
        "points": e.points,
        "cents": e.cents,
        "note": e.note,
    }


Local = Callable[[datetime], datetime]
"""Turns a moment (aware, UTC) into the reader's local time: the CLI passes
``datetime.astimezone``; the rules never read the system's zone themselves."""


def as_given(moment: datetime) -> datetime:
    return moment


def local_time(moment: datetime, local: Local = as_given, zone: str | None = None) -> str:
    """A moment as the reader's clock shows it; with the zone's name after it when that is
    not ``zone``, the one the column's heading names (summer time began in between, say)."""
    here = local(moment)
    text = here.strftime("%Y-%m-%d %H:%M")
    name = here.tzname()
    return text if zone is None or not name or name == zone else f"{text} {name}"


def ledger_headers(zone: str = "UTC") -> list[str]:
    """``ledger``'s columns, its time in ``zone`` (the reader's, named)."""
    return [f"time ({zone})", "session", "game", "player", "points", "money", "note"]


def ledger_rows(entries: Iterable[Entry], local: Local = as_given, zone: str = "UTC") -> Rows:
    return ledger_headers(zone), list(entry_rows(entries, local, zone))


def entry_rows(
    entries: Iterable[Entry], local: Local = as_given, zone: str = "UTC"
) -> Iterator[list[str]]:
    """The bookings as rows of ``ledger``'s table (a time is written once for the bookings
    that share it: a game's, an import's), in the reader's local time (``zone`` named in the
    heading)."""
    at, when = None, ""
    for e in entries:
        if e.at != at:
            at, when = e.at, local_time(e.at, local, zone)
        yield [
            when,
            e.session,
            "" if e.game is None else str(e.game),
            e.player,
            signed(e.points),
            balance(e.cents),
            e.note,
        ]


# ---------------------------------------------------------------- what a command did

VERBS = {"take": "takes", "drop": "drops", "beaver": "beavers", "raccoon": "raccoons"}


def cube_text(game: Game, member: str) -> str:
    """``cube 2, bob owns it`` / ``cube 1, double to 2 pending: bob to answer`` / ``out, -1 …``."""
    cube = game.cubes[member]
    if not cube.live:
        return f"out, {signed(cube.result or 0)} ({cube.ended_by})"
    if cube.offer is not None:
        who = game.box if cube.offer.answerer == "box" else member
        return f"cube {cube.value}, {cube.offer.stage} to {cube.value * 2} pending: {who} to answer"
    if cube.resign is not None:
        return (
            f"cube {cube.value}, the box resigns a {cube.resign.kind}: {member} to accept or refuse"
        )
    if cube.owner == "centre":
        return f"cube {cube.value}, centred"
    return f"cube {cube.value}, {game.box if cube.owner == 'box' else member} owns it"


def decider(game: Game, member: str) -> str:
    """`` (dan for cat)`` when a named proxy decides for ``member``, or the captain for a
    member whose cube follows the captain's (``game``: as it stood when they decided)."""
    proxy = game.start_line.proxies.get(member)
    if proxy is None and member in game.followers and game.acting_captain != member:
        proxy = game.acting_captain
    return f" ({proxy} for {member})" if proxy is not None else ""


def followed(before: Game | None, after: Game, event: Any) -> str:
    """`` (eve's cube follows)``: the cubes an event moved with the captain's."""
    from chouette.game import Answer, Double

    if not isinstance(event, Answer | Double) or before is None:
        return ""
    moved = [f for f in after.followers if before.cubes[f] != after.cubes[f]]
    named = set(event.members) if isinstance(event, Double) else {event.member}
    moved = [f for f in moved if f not in named]
    if not moved:
        return ""
    return f" ({', '.join(moved)}'s cube{'s follow' if len(moved) > 1 else ' follows'})"


def event_sentence(
    before: Game | None, after: Game, event: Any, *, step: tuple[Game, Game] | None = None
) -> str:
    """What an event did, in a sentence (``before``/``after``: the game around the command;
    ``step``: around this event, where one command gave several)."""
    from chouette.game import (
        Answer,
        AutoDouble,
        BuyOut,
        CaptainResign,
        Carry,
        CubeFix,
        Deal,
        Double,
        End,
        Extra,
        ExtraAnswer,
        ExtraDouble,
        Resign,
        ResignAnswer,
    )

    box = after.box
    also = followed(*(step or (before, after)), event)
    if isinstance(event, AutoDouble):
        if event.carried:
            return "tied opening roll: an automatic double carried over to the next game"
        if event.box_chose:
            return f"tied opening roll: the box, {box}, chooses an automatic double"
        return "tied opening roll: an automatic double"
    if isinstance(event, Carry):
        doubles = event.doubles or 0
        what = f"automatic double{'s' if doubles != 1 else ''} carried over"
        verb = "accepts" if event.accepted else "declines"
        return f"the box, {box}, {verb} the {doubles} {what}"
    if isinstance(event, ExtraDouble):
        return f"the extra of {event.team_side} and {event.box_side} is redoubled"
    if isinstance(event, ExtraAnswer):
        verb = "taken" if event.act == "take" else "dropped"
        return f"the redouble of the extra of {event.team_side} and {event.box_side} is {verb}"
    if isinstance(event, Resign):
        return f"the box, {box}, resigns a {event.kind} to {', '.join(event.members)}"
    if isinstance(event, ResignAnswer):
        verb = "accepts" if event.accept else "refuses"
        who = decider(before or after, event.member)
        return f"{event.member} {verb} the box's resignation{who}"
    if isinstance(event, Double):
        if event.by == "box":
            return f"the box, {box}, doubles {', '.join(event.members) or 'the cube'}{also}"
        if event.by == "team":
            return f"{before.acting_captain if before else 'the captain'} doubles for the team"
        (member,) = event.members
        return f"{member} doubles the box{decider(before or after, member)}{also}"
    if isinstance(event, Answer):
        offer = (
            before.cubes[event.member].offer if before and event.member in before.cubes else None
        )
        if offer is not None and offer.answerer == "box":
            return f"the box, {box}, {VERBS[event.act]} on {event.member}'s cube"
        if offer is None and event.act == "drop" and before is not None:
            return f"{event.member} drops the box's double after all, rather than take the extras"
        return f"{event.member} {VERBS[event.act]}{decider(before or after, event.member)}{also}"
    if isinstance(event, Deal):
        dealt = f"{box} and {event.member} deal: {signed(event.points)} to {event.member}"
        if event.won_by is not None:
            dealt += f", won by {'the box' if event.won_by == 'box' else event.member}"
        return dealt + decider(before or after, event.member)
    if isinstance(event, Extra):
        return extra_sentence(event)
    if isinstance(event, CubeFix):
        return f"{event.member}'s cube was {event.value} (a correction)"
    if isinstance(event, CaptainResign):
        resigned = before.captain if before is not None else after.members[0]
        return (
            f"the captain, {resigned}, resigns a {event.kind}; {event.successor} takes over "
            "the captain's place"
        )
    if isinstance(event, BuyOut):
        return f"the box, {box}, buys its partner, {after.partner}, out of the live cubes"
    if isinstance(event, End):
        how = " by resignation" if event.resigned else ""
        return f"the {event.winner} wins a {event.kind}{how}"
    return str(event)


def describe_events(number: int, before: Game | None, after: Game) -> list[str]:
    """What one command did: a sentence per event, then every cube it changed."""
    from chouette.game import apply, start

    done = len(before.events) if before is not None else 0
    steps: list[tuple[Game, Game] | None] = [None] * (len(after.events) - done)
    if after.followers:  # each event's own step: which cubes followed the captain's in it
        state = before or start(after.start_line, after.rules)
        for i, event in enumerate(after.events[done:]):
            steps[i] = (state, state := apply(state, event))
    lines = [
        f"Game {number}: {event_sentence(before, after, e, step=step)}."
        for e, step in zip(after.events[done:], steps, strict=True)
    ]
    for member, cube in after.cubes.items():
        old = before.cubes.get(member) if before is not None else None
        if old != cube and (old is not None or cube.value != 1 or not cube.live or cube.offer):
            lines.append(f"  {member}: {cube_text(after, member)}")
    if after.over:
        lines.append(f"Game {number} is over.")
    else:  # (a game's end says all its reasons with its bookings)
        said = len(before.why) if before is not None else 0
        lines += [f"Why: {reason}." for reason in after.why[said:]]
    return lines


def game_text(
    session: str,
    number: int,
    *,
    over: bool,
    game: Game | None,
    detail: Mapping[str, Any] | None,
    line_after: Line | None,
    bookings: Sequence[Entry],
    why: Sequence[str] = (),
) -> tuple[list[str], Rows]:
    """``chouette game N``: the seats, the events in order (or an imported game's result),
    the line after it and why, the bookings."""
    heading = [f"Game {number} of {session} ({'over' if over else 'in progress'})"]
    if game is not None:
        heading.append(f"Line: {game.start_line.describe()}")
        heading += [
            f"  {i}. {e.describe()}{by}"
            for i, (e, by) in enumerate(zip(game.events, _deciders(game), strict=True), start=1)
        ]
        if over:
            heading += [f"  {m}: {cube_text(game, m)}" for m in game.cubes]
            heading += [
                f"  extra {e.team_side} v {e.box_side}: "
                + (
                    "void (the board did not end)"
                    if game.result is None and c.result is None
                    else f"{signed(extra_points(e, game.result, c))} to {e.team_side}"
                )
                + extra_cube_text(e, c)
                for e, c in zip(game.extras, game.extra_cubes, strict=True)
            ]
    else:
        found = detail or {}
        points = found.get("points")
        heading.append(
            f"Imported: {found.get('winner')} beat {found.get('loser')}, "
            f"{points} point{'' if points == 1 else 's'} (cube {found.get('cube')}, "
            f"{found.get('result')}, {found.get('end')})"
        )
    if line_after is not None:
        heading.append(f"Next line: {line_after.describe()}")
    heading += why_lines(game.why if game is not None and not over else why)
    rows = [[b.player, signed(b.points), balance(b.cents)] for b in bookings]
    return heading, (["player", "points", "money"], rows)


def _deciders(game: Game) -> list[str]:
    """For each event of a game, what a player away made of it: who decided, if a named
    proxy did (`` (dan for cat)``: a member's double, deal or answer, not the box's answer on
    their cube), and the cubes that followed the captain's (`` (eve's cube follows)``)."""
    from chouette.game import Answer, Deal, Double, apply, start

    if not game.start_line.away:
        return [""] * len(game.events)
    found = []
    state = start(game.start_line, game.rules)
    for event in game.events:
        member = None
        if isinstance(event, Deal) or (isinstance(event, Double) and event.by == "member"):
            member = event.members[0] if isinstance(event, Double) else event.member
        elif isinstance(event, Answer) and event.member in state.cubes:
            offer = state.cubes[event.member].offer
            member = event.member if offer is None or offer.answerer == "member" else None
        after = apply(state, event)
        found.append((decider(state, member) if member else "") + followed(state, after, event))
        state = after
    return found


# ---------------------------------------------------------------- undo, sessions, imports


def games_text(first: int, last: int | None) -> str:
    """``game 3`` or ``games 3–5``."""
    last = first if last is None else last
    return f"game {first}" if first == last else f"games {first}–{last}"


def done_text(done: Undone) -> str:
    """A thing done to a session, as ``log`` lists it and ``undo`` says it took it back."""
    if done.what == "import":
        if done.last is None:
            return f"the import of {done.file} (no game booked)"
        return f"the import of {done.file} ({games_text(done.number, done.last)})"
    if done.what == "record":
        return f"the record of {games_text(done.number, done.last)}"
    if done.what in ("payment", "charge", "line", "split", "rename", "accept", "amend", "position"):
        return done.said
    return f"{', '.join(e.describe() for e in done.events)} (game {done.number})"


def joined_text(name: str, stake: Cents | None) -> str:
    """``eve joins``, with the stake the player plays for when it is their own (given now,
    or kept from when they played here before): ``eve joins at 3.00 a point``."""
    return f"{name} joins" + ("" if stake is None else f" at {format_money(stake)} a point")


def undone_text(undone: Undone) -> str:
    """What ``undo`` took back, in a sentence."""
    if undone.what == "events" and undone.game_gone:
        events = ", ".join(e.describe() for e in undone.events)
        return f"took back {events} (game {undone.number} has not started now)"
    return f"took back {done_text(undone)}"


def log_rows(
    done: Sequence[tuple[datetime, Undone]], local: Local = as_given, zone: str = "UTC"
) -> Rows:
    """``chouette log``: what ``undo`` would take back, newest first, in the reader's time
    (``zone`` named in the heading)."""
    rows = [[local_time(at, local, zone), done_text(d)] for at, d in done]
    return [f"time ({zone})", "what was done"], rows


def log_json(session: str, done: Sequence[tuple[datetime, Undone]]) -> dict[str, Any]:
    return {
        "session": session,
        "done": [{"at": at.isoformat(), "what": d.what, "text": done_text(d)} for at, d in done],
    }


def sessions_json(found: Sequence[SessionSummary]) -> dict[str, Any]:
    return {
        "sessions": [
            {
                "name": s.name,
                "created_at": s.created_at.isoformat(),
                "night": s.night,
                "stake_cents": s.stake,
                "players": s.players,
                "games": s.games,
                "current": s.current,
                "rules": s.rules.to_dict(),
            }
            for s in found
        ]
    }


def sessions_rows(found: Sequence[SessionSummary], local: Local = as_given) -> Rows:
    rows = [
        [
            "*" if s.current else "",
            s.name,
            local(s.created_at).strftime("%Y-%m-%d"),
            s.night,
            format_money(s.stake),
            str(s.players),
            str(s.games),
            s.rules.summary(),
        ]
        for s in found
    ]
    return ["", "session", "started", "night", "stake", "players", "games", "house rules"], rows


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def already_imported_text(file: str, games: int, session: str, on: datetime) -> str:
    """A file imported before: nothing booked (``on``: when, in the reader's local time)."""
    return (
        f"{file} was imported already ({plural(games, 'game')} into {session} on "
        f"{on:%Y-%m-%d}): nothing booked"
    )


def imported_text(file: str, booked: int, session: str, skipped: int) -> str:
    """An import's first line: the games booked, and those the ledger held already."""
    known = f", {skipped} already in the ledger (skipped)" if skipped else ""
    return f"{file}: {plural(booked, 'game')} booked into {session}{known}."


def imported_rows(points: Mapping[str, int], cents: Mapping[str, Cents]) -> Rows:
    """An import's points and money per player, winners first as in the standings."""
    order = sorted(points, key=lambda p: (-cents[p], -points[p], p))
    return ["player", "points", "money"], [[p, signed(points[p]), balance(cents[p])] for p in order]


# ---------------------------------------------------------------- a correction


def amended_lines(
    correction: Correction,
    number: int,
    outcome: Outcome,
    later: Sequence[int],
    moved: Mapping[str, Cents],
    line: Line | None,
    partner: Sequence[str] = (),
) -> tuple[str, list[str]]:
    """What ``chouette amend`` says it did: the game and its ends (said before the game's
    bookings now, which the caller shows its way), then the later games played again, the
    money moved, the line now (``line``: if it changed), the partnership it began or ended
    (``partner``: :func:`chouette.line.partner_news`) and why."""
    said = []
    if later:
        games = "s" if len(later) > 1 else ""
        said.append(f"Played again on the new line: game{games} {', '.join(map(str, later))}.")
    shown = ", ".join(f"{p} {balance(c)}" for p, c in moved.items())
    said.append(f"Money moved by the correction: {shown or 'none'}.")
    if line is not None:
        said.append(f"Line now: {line.describe()}")
    said += [f"{text}." for text in partner]
    head = f"Game {number} amended: {correction.said()} ({correction.note})."
    return head, [*said, *why_lines(outcome.why)]
