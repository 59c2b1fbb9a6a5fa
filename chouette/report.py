"""Reports as data: the shapes of INTERFACE.md's ``--json`` and the rows of every table.

The ledger hands over plain values (:class:`GameLine`, :class:`Entry`, totals); the functions
here turn them into JSON-ready dicts and into rows of cells that the CLI prints as a table,
CSV or Markdown: text, amounts (:class:`~chouette.words.Money`, exact to the cent) and
sentences (:class:`~chouette.words.Said`), each written in the reader's words by the door
that shows it. A table's headings are English words (``marked``), which the door translates;
what a person reads is said as a value (:mod:`chouette.words`), its English ``str()`` in the
JSON.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, TypeAlias

from chouette.amend import Correction
from chouette.exposure import Exposure
from chouette.game import KINDS, Event, Extra, ExtraCube, Game
from chouette.line import Line
from chouette.money import Cents
from chouette.outcome import ExtraResult, Outcome, extra_points
from chouette.points import signed_points
from chouette.record import event_to_json
from chouette.rules import HouseRules
from chouette.settlement import Payment
from chouette.stop import StopState
from chouette.words import Joined, Money, Said, Sayable, joined, marked, said, said_in, said_n

#: A cell of a table: text (a name, a number), an amount, or something said.
Cell: TypeAlias = str | Money | Said | Joined
#: A table: its headings (English words, translated by the door that shows them) and rows.
Rows = tuple[Sequence[Sayable], Sequence[Sequence[Cell]]]


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


#: A game's booking's note in the ledger (its payments' and charges' say who and what).
GAME_NOTE = said("game")


@dataclass(frozen=True)
class Entry:
    """One line of the ledger: a game's booking or a payment."""

    at: datetime
    session: str
    game: int | None
    player: str
    points: int
    cents: Cents
    note: Sayable = GAME_NOTE


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
    said: Sayable = ""


@dataclass(frozen=True)
class Status:
    """The table as it stands: the line, and the game in progress if there is one."""

    session: str
    line: Line
    number: int
    game: Game | None
    stake: Cents = 0
    rules_summary: Sayable = ""
    notes: list[Sayable] = field(default_factory=list)
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


def money(cents: Cents) -> Money:
    """An amount: ``5.00`` (as the reader's language writes it: ``5,00``)."""
    return Money(cents)


def balance(cents: Cents) -> Money:
    """A balance: ``+50.00`` received, ``-5.00`` paid."""
    return Money(cents, sign=True)


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


def line_json(session: str, told: Sequence[Sayable], line: Line) -> dict[str, Any]:
    """A command that changed the line (or started it), in ``--json``: what it said (in
    English), and the line it leaves."""
    return {"session": session, "said": [str(text) for text in told], **line_keys(line)}


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
                    "agreed": str(status.stop.agreed),
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


def status_text(status: Status) -> tuple[list[Sayable], Rows | None]:
    """Heading lines, and the cube table when a game is in progress (the notes are the
    caller's to give, on standard error)."""
    game = status.game
    line = game.line if game is not None else status.line
    heading: list[Sayable] = [
        said(
            "Session {session}: game {number} (in progress)",
            session=status.session,
            number=status.number,
        )
        if game is not None
        else said(
            "Session {session}: game {number} (not started)",
            session=status.session,
            number=status.number,
        ),
        said("Line: {line}", line=line.describe()),
    ]
    if line.partner is not None:
        heading.append(said("Box's partner: {partner}", partner=line.partner))
    stop_said = status.stop.sentence(status.number) if status.stop is not None else None
    if stop_said is not None:
        heading.append(stop_said)
    if status.line.credits:
        credits = joined(
            said(
                "{player} {credit} ({left} left)",
                player=row["player"],
                credit=Money(row["credit_cents"]),
                left=Money(row["left_cents"]),
            )
            for row in status.credit_rows()
        )
        heading.append(said("Credit: {credits}", credits=credits))
    if status.carry:
        heading.append(
            said_n(
                "Carried over: {n} automatic double, for the box to accept or decline first "
                "(chouette carry accept|decline)",
                "Carried over: {n} automatic doubles, for the box to accept or decline first "
                "(chouette carry accept|decline)",
                status.carry,
                n=status.carry,
            )
        )
    if game is None:
        return heading, None
    if game.carried_out:
        heading.append(
            said_n(
                "Carried over to the next game: {n} automatic double",
                "Carried over to the next game: {n} automatic doubles",
                game.carried_out,
                n=game.carried_out,
            )
        )
    acting = game.acting_captain
    if acting is not None and acting != line.captain:
        heading.append(said("Acting captain: {player}", player=acting))
    for e, held in zip(game.extras, game.extra_cubes, strict=True):
        where = extra_cube_text(e, held)
        heading.append(
            said("Extra: {extra}", extra=extra_sentence(e))
            if where is None
            else said("Extra: {extra} {cube}", extra=extra_sentence(e), cube=where)
        )
    if status.at_risk is not None:
        risk = status.at_risk
        heading.append(
            said(
                "At risk (the most each can lose on this game, as the cubes stand): {risks}",
                risks=joined(
                    said(
                        "{player} {amount} ({points})",
                        player=p,
                        amount=Money(risk.cents[p]),
                        points=risk.points[p],
                    )
                    for p in risk.points
                ),
            )
        )
    rows: list[list[Cell]] = []
    for m, c in game.cubes.items():
        pending = _pending(game, m)
        state: Sayable
        if not c.live:
            state = said("out, {points} ({how})", points=signed(c.result or 0), how=c.ended_by)
        elif pending is None or c.offer is None:
            state = said_in("cube", "live")
        else:
            state = PENDING[c.offer.stage]
        rows.append([m, str(c.value), _seat(_owner(game, m)), _seat(pending or "-"), state])
    heads = [
        marked("member"),
        marked("cube"),
        marked("owner"),
        marked("to answer"),
        marked("state"),
    ]
    return heading, (heads, rows)


#: A cube's owner, or who answers it, where it is no player: in the reader's words.
SEATS: Mapping[str, Sayable] = {
    "box": said("box"),
    "centre": said("centre"),
    "-": "-",
}


def _seat(who: str) -> Sayable:
    """A player's name, or a seat's (``box``, ``centre``) in the reader's words."""
    return SEATS.get(who, who)


#: A turn waiting for an answer, by its stage.
PENDING: Mapping[str, Sayable] = {
    "double": said("double pending"),
    "beaver": said("beaver pending"),
    "raccoon": said("raccoon pending"),
}


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
        "why": [str(reason) for reason in outcome.why],
    }


def why_lines(why: Sequence[Sayable]) -> list[Sayable]:
    """The reasons for a game's decisions, under a heading: ``Why:`` and one per line."""
    return [said("Why:"), *[joined(["  ", reason], "") for reason in why]] if why else []


def played_json(
    session: str, number: int, before: Game | None, game: Game, outcome: Outcome | None
) -> dict[str, Any]:
    """What one event command did, for ``--json``: the game, what it said (``said``), and
    either the game's bookings (it is ``over``: the keys of :func:`booked_json`) or every
    cube as it stands (the ``cubes`` of :func:`status_json`)."""
    told = [str(text) for text in describe_events(number, before, game)]
    if outcome is not None:
        return {**booked_json(session, number, outcome), "over": True, "said": told}
    board = status_json(Status(session, game.line, number, game))["game"]
    board.pop("number")
    return {
        "session": session,
        "game": number,
        "over": False,
        "said": told,
        **board,
        "why": [str(reason) for reason in game.why],
    }


def booked_rows(outcome: Outcome) -> Rows:
    rows: list[list[Cell]] = [
        [p, signed(outcome.points[p]), balance(outcome.cents[p])] for p in outcome.points
    ]
    return [marked("player"), marked("points"), marked("money")], rows


def extra_sentence(extra: Extra) -> Sayable:
    """``cat gives bob an extra on 2 (cat pays bob 1 for it)``."""
    if extra.premium:
        return said(
            "{box_side} gives {team_side} an extra on {points} ({box_side} pays {team_side} "
            "{premium} for it)",
            box_side=extra.box_side,
            team_side=extra.team_side,
            points=extra.points,
            premium=extra.premium,
        )
    return said(
        "{box_side} gives {team_side} an extra on {points}",
        box_side=extra.box_side,
        team_side=extra.team_side,
        points=extra.points,
    )


def extra_cube_text(extra: Extra, cube: ExtraCube) -> Sayable | None:
    """Where an extra's cube stands, once it has moved (None: it has not): ``(void)``,
    ``(settled: …)``, ``(cube 4, cat holds it)``, ``(redoubled to 4: cat to answer)``."""
    if cube.void:
        return said("(void: the lone taker dropped after all)")
    if cube.result is not None:
        return said(
            "(settled by a dropped redouble: {points} to {team_side})",
            points=signed(cube.result),
            team_side=extra.team_side,
        )
    holder, other = (
        (extra.team_side, extra.box_side)
        if cube.holder == "team"
        else (extra.box_side, extra.team_side)
    )
    if cube.offered:
        return said(
            "(redoubled to {value}: {player} to answer)", value=cube.value * 2, player=other
        )
    if cube.value != extra.points:
        return said("(cube {value}, {player} holds it)", value=cube.value, player=holder)
    return None


def extra_result_text(result: ExtraResult) -> Sayable:
    """``bob +3 from cat (+3.00)`` / ``bob -1 to cat (-1.00)`` / ``bob and cat: 0`` (nothing
    changed hands: a void extra, or a premium that matched the loss)."""
    if result.points == 0 and result.cents == 0:
        return said(
            "{team_side} and {box_side}: 0", team_side=result.team_side, box_side=result.box_side
        )
    values = {
        "team_side": result.team_side,
        "points": signed(result.points),
        "box_side": result.box_side,
        "amount": balance(result.cents),
    }
    if result.points > 0 or result.cents > 0:
        return said("{team_side} {points} from {box_side} ({amount})", **values)
    return said("{team_side} {points} to {box_side} ({amount})", **values)


def why_notes(reasons: Mapping[int, Sequence[Sayable]]) -> list[Sayable]:
    """The reasons for each game's decisions, under the sheet: a line a game (the reasons
    after the first under it, indented as deep as the English label ``game N:`` is long)."""
    notes: list[Sayable] = []
    for number, why in reasons.items():
        indent = " " * len(f"  game {number}: ")
        for i, text in enumerate(why):
            notes.append(
                said("  game {number}: {reason}", number=number, reason=text)
                if i == 0
                else joined([indent, text], "")
            )
    return [said("Why (the rules that decided each game):"), *notes] if notes else []


def extras_notes(lines: Iterable[GameLine], *, sessions: bool) -> list[Sayable]:
    """The extras the sheet's games include: one line each, under the sheet."""
    notes: list[Sayable] = []
    for line in lines:
        for e in line.extras:
            notes.append(
                said(
                    "  {session} game {number}: {extra}",
                    session=line.session,
                    number=line.number,
                    extra=extra_result_text(e),
                )
                if sessions
                else said(
                    "  game {number}: {extra}", number=line.number, extra=extra_result_text(e)
                )
            )
    return [said("Extras (in the games above):"), *notes] if notes else []


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
    rows: list[list[Cell]]
    if not paid and not costs:
        rows = [[s.name, signed(s.points), balance(s.cents)] for s in table]
        return [marked("player"), marked("points"), marked("money")], rows
    paid, costs = paid or {}, costs or {}
    head = [marked("player"), marked("points"), marked("at the table")]
    head += [marked("fees and costs")] if costs else []
    head += [marked("paid (+) / received (-)")] if paid else []
    rows = []
    for s in table:
        moved = [costs.get(s.name, 0)] if costs else []
        moved += [paid.get(s.name, 0)] if paid else []
        row: list[Cell] = [s.name, signed(s.points), balance(s.cents - sum(moved))]
        rows.append(row + [balance(c) for c in moved] + [balance(s.cents)])
    return [*head, marked("balance")], rows


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
) -> tuple[list[Sayable], Iterator[list[Cell]]]:
    """:func:`sheet_rows` as the games come (``everyone``: the sheet's players, known
    first): the headers, and the rows, made one by one."""
    words = [marked("game"), marked("box"), marked("captain")]
    headers = [*([marked("session")] if sessions else []), *words, *map(as_is, everyone)]
    return headers, _sheet_body(everyone, lines, sessions)


def as_is(name: str) -> Sayable:
    """A player's name as a table's heading: as it is, never taken for words to translate."""
    return joined([name], "")


def _sheet_body(
    everyone: Sequence[str], lines: Iterable[GameLine], sessions: bool
) -> Iterator[list[Cell]]:
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
        label: Cell = str(line.number) if line.kind == "chouette" else f"{line.number}*"
        if line.amended:
            label = said("{number} (amended)", number=label)
        prefix: list[Cell] = [line.session] if sessions else []
        yield [*prefix, label, line.box_side, line.captain or "", *cells]
    pad: list[Cell] = [""] if sessions else []
    yield [*pad, said_in("sheet", "total"), "", "", *[signed(running[p]) for p in everyone]]
    yield [*pad, MONEY_ROW, "", "", *[balance(money_total[p]) for p in everyone]]


#: The sheet's last row, its money: the CLI colours it by its sign, and knows it by this.
MONEY_ROW = said_in("sheet", "money")


def sheet_csv_rows(players: Sequence[str], lines: Sequence[GameLine], *, sessions: bool) -> Rows:
    """The sheet for a spreadsheet: one number per cell (points per game), then the totals."""
    headers, rows = sheet_csv_table(sheet_players(players, lines), lines, sessions=sessions)
    return headers, list(rows)


def sheet_csv_table(
    everyone: Sequence[str], lines: Iterable[GameLine], *, sessions: bool
) -> tuple[list[Sayable], Iterator[list[Cell]]]:
    """:func:`sheet_csv_rows` as the games come."""
    headers: list[Sayable] = [*(["session"] if sessions else []), "game", "kind", "box"]
    headers += ["captain", *everyone]
    return headers, _sheet_csv_body(everyone, lines, sessions)


def _sheet_csv_body(
    everyone: Sequence[str], lines: Iterable[GameLine], sessions: bool
) -> Iterator[list[Cell]]:
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
    pad: list[Cell] = [""] if sessions else []
    yield [*pad, "total", "points", "", "", *[str(points[p]) for p in everyone]]
    yield [*pad, "total", "money", "", "", *[money(cents[p]) for p in everyone]]


# ---------------------------------------------------------------- settlement


def settle_json(payments: Sequence[Payment]) -> dict[str, Any]:
    return {"payments": [{"from": p.payer, "to": p.payee, "cents": p.cents} for p in payments]}


def settle_rows(payments: Sequence[Payment]) -> Rows:
    rows: list[list[Cell]] = [[p.payer, p.payee, money(p.cents)] for p in payments]
    return [marked("from"), marked("to"), marked("amount")], rows


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
        "note": str(e.note),
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


def ledger_headers(zone: str = "UTC") -> list[Sayable]:
    """``ledger``'s columns, its time in ``zone`` (the reader's, named)."""
    words = [marked("session"), marked("game"), marked("player"), marked("points")]
    return [time_heading(zone), *words, marked("money"), marked("note")]


def time_heading(zone: str) -> Sayable:
    """A column of times in ``zone``: ``time (CET)``."""
    return said("time ({zone})", zone=zone)


def ledger_rows(entries: Iterable[Entry], local: Local = as_given, zone: str = "UTC") -> Rows:
    return ledger_headers(zone), list(entry_rows(entries, local, zone))


def entry_rows(
    entries: Iterable[Entry], local: Local = as_given, zone: str = "UTC"
) -> Iterator[list[Cell]]:
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


def cube_text(game: Game, member: str) -> Sayable:
    """``cube 2, bob owns it`` / ``cube 1, double to 2 pending: bob to answer`` / ``out, -1 …``."""
    cube = game.cubes[member]
    if not cube.live:
        return said("out, {points} ({how})", points=signed(cube.result or 0), how=cube.ended_by)
    if cube.offer is not None:
        values = {
            "value": cube.value,
            "doubled": cube.value * 2,
            "player": game.box if cube.offer.answerer == "box" else member,
        }
        if cube.offer.stage == "beaver":
            return said("cube {value}, beaver to {doubled} pending: {player} to answer", **values)
        if cube.offer.stage == "raccoon":
            return said("cube {value}, raccoon to {doubled} pending: {player} to answer", **values)
        return said("cube {value}, double to {doubled} pending: {player} to answer", **values)
    if cube.resign is not None:
        return said(
            "cube {value}, the box resigns a {kind}: {player} to accept or refuse",
            value=cube.value,
            kind=KINDS[cube.resign.kind],
            player=member,
        )
    if cube.owner == "centre":
        return said("cube {value}, centred", value=cube.value)
    owner = game.box if cube.owner == "box" else member
    return said("cube {value}, {player} owns it", value=cube.value, player=owner)


def decider(game: Game, member: str) -> Sayable:
    """`` (dan for cat)`` when a named proxy decides for ``member``, or the captain for a
    member whose cube follows the captain's (``game``: as it stood when they decided); else
    nothing (it follows what it adds to, a space before it)."""
    proxy = game.start_line.proxies.get(member)
    if proxy is None and member in game.followers and game.acting_captain != member:
        proxy = game.acting_captain
    return said(" ({proxy} for {member})", proxy=proxy, member=member) if proxy is not None else ""


def followed(before: Game | None, after: Game, event: Any) -> Sayable:
    """`` (eve's cube follows)``: the cubes an event moved with the captain's (nothing if
    none: it follows what it adds to, a space before it)."""
    from chouette.game import Answer, Double

    if not isinstance(event, Answer | Double) or before is None:
        return ""
    moved = [f for f in after.followers if before.cubes[f] != after.cubes[f]]
    named = set(event.members) if isinstance(event, Double) else {event.member}
    moved = [f for f in moved if f not in named]
    if not moved:
        return ""
    return said_n(
        " ({names}'s cube follows)", " ({names}'s cubes follow)", len(moved), names=", ".join(moved)
    )


def event_sentence(
    before: Game | None, after: Game, event: Any, *, step: tuple[Game, Game] | None = None
) -> Sayable:
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
            return said("tied opening roll: an automatic double carried over to the next game")
        if event.box_chose:
            return said("tied opening roll: the box, {box}, chooses an automatic double", box=box)
        return said("tied opening roll: an automatic double")
    if isinstance(event, Carry):
        doubles = event.doubles or 0
        if event.accepted:
            return said_n(
                "the box, {box}, accepts the {n} automatic double carried over",
                "the box, {box}, accepts the {n} automatic doubles carried over",
                doubles,
                box=box,
                n=doubles,
            )
        return said_n(
            "the box, {box}, declines the {n} automatic double carried over",
            "the box, {box}, declines the {n} automatic doubles carried over",
            doubles,
            box=box,
            n=doubles,
        )
    if isinstance(event, ExtraDouble):
        return said(
            "the extra of {team_side} and {box_side} is redoubled",
            team_side=event.team_side,
            box_side=event.box_side,
        )
    if isinstance(event, ExtraAnswer):
        sides = {"team_side": event.team_side, "box_side": event.box_side}
        if event.act == "take":
            return said("the redouble of the extra of {team_side} and {box_side} is taken", **sides)
        return said("the redouble of the extra of {team_side} and {box_side} is dropped", **sides)
    if isinstance(event, Resign):
        return said(
            "the box, {box}, resigns a {kind} to {members}",
            box=box,
            kind=KINDS[event.kind],
            members=", ".join(event.members),
        )
    if isinstance(event, ResignAnswer):
        by = decider(before or after, event.member)
        if event.accept:
            return said("{member} accepts the box's resignation{by}", member=event.member, by=by)
        return said("{member} refuses the box's resignation{by}", member=event.member, by=by)
    if isinstance(event, Double):
        if event.by == "box" and event.members:
            return said(
                "the box, {box}, doubles {members}{also}",
                box=box,
                members=", ".join(event.members),
                also=also,
            )
        if event.by == "box":
            return said("the box, {box}, doubles the cube{also}", box=box, also=also)
        if event.by == "team" and before is not None:
            return said("{captain} doubles for the team", captain=before.acting_captain)
        if event.by == "team":
            return said("the captain doubles for the team")
        (member,) = event.members
        return said(
            "{member} doubles the box{by}{also}",
            member=member,
            by=decider(before or after, member),
            also=also,
        )
    if isinstance(event, Answer):
        offer = (
            before.cubes[event.member].offer if before and event.member in before.cubes else None
        )
        if offer is not None and offer.answerer == "box":
            return _box_answers(event.act, box, event.member)
        if offer is None and event.act == "drop" and before is not None:
            return said(
                "{member} drops the box's double after all, rather than take the extras",
                member=event.member,
            )
        return _member_answers(
            event.act, event.member, decider(before or after, event.member), also
        )
    if isinstance(event, Deal):
        values = {
            "box": box,
            "member": event.member,
            "points": signed(event.points),
            "by": decider(before or after, event.member),
        }
        if event.won_by == "box":
            return said(
                "{box} and {member} deal: {points} to {member}, won by the box{by}", **values
            )
        if event.won_by is not None:
            return said(
                "{box} and {member} deal: {points} to {member}, won by {member}{by}", **values
            )
        return said("{box} and {member} deal: {points} to {member}{by}", **values)
    if isinstance(event, Extra):
        return extra_sentence(event)
    if isinstance(event, CubeFix):
        return said(
            "{member}'s cube was {value} (a correction)", member=event.member, value=event.value
        )
    if isinstance(event, CaptainResign):
        resigned = before.captain if before is not None else after.members[0]
        return said(
            "the captain, {captain}, resigns a {kind}; {successor} takes over the captain's place",
            captain=resigned,
            kind=KINDS[event.kind],
            successor=event.successor,
        )
    if isinstance(event, BuyOut):
        return said(
            "the box, {box}, buys its partner, {partner}, out of the live cubes",
            box=box,
            partner=after.partner,
        )
    if isinstance(event, End):
        kind = KINDS[event.kind]
        if event.winner == "box" and event.resigned:
            return said("the box wins a {kind} by resignation", kind=kind)
        if event.winner == "box":
            return said("the box wins a {kind}", kind=kind)
        if event.resigned:
            return said("the team wins a {kind} by resignation", kind=kind)
        return said("the team wins a {kind}", kind=kind)
    return str(event)


def _box_answers(act: str, box: str | None, member: str) -> Sayable:
    """The box's answer on a member's cube, in a sentence."""
    if act == "take":
        return said("the box, {box}, takes on {member}'s cube", box=box, member=member)
    if act == "drop":
        return said("the box, {box}, drops on {member}'s cube", box=box, member=member)
    if act == "beaver":
        return said("the box, {box}, beavers on {member}'s cube", box=box, member=member)
    return said("the box, {box}, raccoons on {member}'s cube", box=box, member=member)


def _member_answers(act: str, member: str, by: Sayable, also: Sayable) -> Sayable:
    """A member's answer (``by``: who decided for them; ``also``: the cubes that followed)."""
    if act == "take":
        return said("{member} takes{by}{also}", member=member, by=by, also=also)
    if act == "drop":
        return said("{member} drops{by}{also}", member=member, by=by, also=also)
    if act == "beaver":
        return said("{member} beavers{by}{also}", member=member, by=by, also=also)
    return said("{member} raccoons{by}{also}", member=member, by=by, also=also)


def describe_events(number: int, before: Game | None, after: Game) -> list[Sayable]:
    """What one command did: a sentence per event, then every cube it changed."""
    from chouette.game import apply, start

    done = len(before.events) if before is not None else 0
    steps: list[tuple[Game, Game] | None] = [None] * (len(after.events) - done)
    if after.followers:  # each event's own step: which cubes followed the captain's in it
        state = before or start(after.start_line, after.rules)
        for i, event in enumerate(after.events[done:]):
            steps[i] = (state, state := apply(state, event))
    lines: list[Sayable] = [
        said(
            "Game {number}: {event}.",
            number=number,
            event=event_sentence(before, after, e, step=step),
        )
        for e, step in zip(after.events[done:], steps, strict=True)
    ]
    for member, cube in after.cubes.items():
        old = before.cubes.get(member) if before is not None else None
        if old != cube and (old is not None or cube.value != 1 or not cube.live or cube.offer):
            lines.append(_member_line(member, cube_text(after, member)))
    if after.over:
        lines.append(said("Game {number} is over.", number=number))
    else:  # (a game's end says all its reasons with its bookings)
        known = len(before.why) if before is not None else 0
        lines += [said("Why: {reason}.", reason=reason) for reason in after.why[known:]]
    return lines


def _member_line(member: str, text: Sayable) -> Sayable:
    """``  cat: cube 2, cat owns it``: a member's part, indented under what it follows."""
    return joined(["  ", member, ": ", text], "")


def game_text(
    session: str,
    number: int,
    *,
    over: bool,
    game: Game | None,
    detail: Mapping[str, Any] | None,
    line_after: Line | None,
    bookings: Sequence[Entry],
    why: Sequence[Sayable] = (),
) -> tuple[list[Sayable], Rows]:
    """``chouette game N``: the seats, the events in order (or an imported game's result),
    the line after it and why, the bookings."""
    heading: list[Sayable] = [
        said("Game {number} of {session} (over)", number=number, session=session)
        if over
        else said("Game {number} of {session} (in progress)", number=number, session=session)
    ]
    if game is not None:
        heading.append(said("Line: {line}", line=game.start_line.describe()))
        heading += [
            joined([f"  {i}. ", e.describe(), by], "")
            for i, (e, by) in enumerate(zip(game.events, _deciders(game), strict=True), start=1)
        ]
        if over:
            heading += [_member_line(m, cube_text(game, m)) for m in game.cubes]
            heading += [
                _extra_line(e, c, game) for e, c in zip(game.extras, game.extra_cubes, strict=True)
            ]
    else:
        found = detail or {}
        points = found.get("points")
        heading.append(
            said_n(
                "Imported: {winner} beat {loser}, {n} point (cube {cube}, {result}, {end})",
                "Imported: {winner} beat {loser}, {n} points (cube {cube}, {result}, {end})",
                points if isinstance(points, int) else 0,
                winner=found.get("winner"),
                loser=found.get("loser"),
                n=points,
                cube=found.get("cube"),
                result=found.get("result"),
                end=found.get("end"),
            )
        )
    if line_after is not None:
        heading.append(said("Next line: {line}", line=line_after.describe()))
    heading += why_lines(game.why if game is not None and not over else why)
    rows: list[list[Cell]] = [[b.player, signed(b.points), balance(b.cents)] for b in bookings]
    return heading, ([marked("player"), marked("points"), marked("money")], rows)


def _extra_line(extra: Extra, cube: ExtraCube, game: Game) -> Sayable:
    """``  extra bob v cat: +2 to bob`` (and where its cube stood), under a finished game."""
    sides = {"team_side": extra.team_side, "box_side": extra.box_side}
    where = extra_cube_text(extra, cube)
    if game.result is None and cube.result is None:
        if where is None:
            return said("  extra {team_side} v {box_side}: void (the board did not end)", **sides)
        return said(
            "  extra {team_side} v {box_side}: void (the board did not end) {cube}",
            cube=where,
            **sides,
        )
    points = signed(extra_points(extra, game.result, cube))
    if where is None:
        return said(
            "  extra {team_side} v {box_side}: {points} to {team_side}", points=points, **sides
        )
    return said(
        "  extra {team_side} v {box_side}: {points} to {team_side} {cube}",
        points=points,
        cube=where,
        **sides,
    )


def _deciders(game: Game) -> list[Sayable]:
    """For each event of a game, what a player away made of it: who decided, if a named
    proxy did (`` (dan for cat)``: a member's double, deal or answer, not the box's answer on
    their cube), and the cubes that followed the captain's (`` (eve's cube follows)``)."""
    from chouette.game import Answer, Deal, Double, apply, start

    if not game.start_line.away:
        return [""] * len(game.events)
    found: list[Sayable] = []
    state = start(game.start_line, game.rules)
    for event in game.events:
        member = None
        if isinstance(event, Deal) or (isinstance(event, Double) and event.by == "member"):
            member = event.members[0] if isinstance(event, Double) else event.member
        elif isinstance(event, Answer) and event.member in state.cubes:
            offer = state.cubes[event.member].offer
            member = event.member if offer is None or offer.answerer == "member" else None
        after = apply(state, event)
        by = decider(state, member) if member else ""
        found.append(joined([by, followed(state, after, event)], ""))
        state = after
    return found


# ---------------------------------------------------------------- undo, sessions, imports


def games_text(first: int, last: int | None) -> Sayable:
    """``game 3`` or ``games 3–5``."""
    last = first if last is None else last
    if first == last:
        return said("game {number}", number=first)
    return said("games {first}–{last}", first=first, last=last)


def done_text(done: Undone) -> Sayable:
    """A thing done to a session, as ``log`` lists it and ``undo`` says it took it back."""
    if done.what == "import":
        if done.last is None:
            return said("the import of {file} (no game booked)", file=done.file)
        return said(
            "the import of {file} ({games})",
            file=done.file,
            games=games_text(done.number, done.last),
        )
    if done.what == "record":
        return said("the record of {games}", games=games_text(done.number, done.last))
    if done.what in ("payment", "charge", "line", "split", "rename", "accept", "amend", "position"):
        return done.said
    return said(
        "{events} (game {number})",
        events=joined(e.describe() for e in done.events),
        number=done.number,
    )


def joined_text(name: str, stake: Cents | None) -> Sayable:
    """``eve joins``, with the stake the player plays for when it is their own (given now,
    or kept from when they played here before): ``eve joins at 3.00 a point``."""
    if stake is None:
        return said("{player} joins", player=name)
    return said("{player} joins at {stake} a point", player=name, stake=Money(stake))


def undone_text(undone: Undone) -> Sayable:
    """What ``undo`` took back, in a sentence."""
    if undone.what == "events" and undone.game_gone:
        return said(
            "took back {events} (game {number} has not started now)",
            events=joined(e.describe() for e in undone.events),
            number=undone.number,
        )
    return said("took back {done}", done=done_text(undone))


def log_rows(
    done: Sequence[tuple[datetime, Undone]], local: Local = as_given, zone: str = "UTC"
) -> Rows:
    """``chouette log``: what ``undo`` would take back, newest first, in the reader's time
    (``zone`` named in the heading)."""
    rows: list[list[Cell]] = [[local_time(at, local, zone), done_text(d)] for at, d in done]
    return [time_heading(zone), marked("what was done")], rows


def log_json(session: str, done: Sequence[tuple[datetime, Undone]]) -> dict[str, Any]:
    return {
        "session": session,
        "done": [
            {"at": at.isoformat(), "what": d.what, "text": str(done_text(d))} for at, d in done
        ],
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
    rows: list[list[Cell]] = [
        [
            "*" if s.current else "",
            s.name,
            local(s.created_at).strftime("%Y-%m-%d"),
            s.night,
            Money(s.stake),
            str(s.players),
            str(s.games),
            rules_summary(s.rules),
        ]
        for s in found
    ]
    words = [marked("session"), marked("started"), marked("night"), marked("stake")]
    return ["", *words, marked("players"), marked("games"), marked("house rules")], rows


def rules_summary(rules: HouseRules) -> Sayable:
    """The options that differ from the defaults, as ``chouette new`` takes them (its own
    words), or "standard rules" in the reader's words."""
    summary = rules.summary()
    return said("standard rules") if summary == "standard rules" else summary


def already_imported_text(file: str, games: int, session: str, on: datetime) -> Sayable:
    """A file imported before: nothing booked (``on``: when, in the reader's local time)."""
    return said_n(
        "{file} was imported already ({n} game into {session} on {date}): nothing booked",
        "{file} was imported already ({n} games into {session} on {date}): nothing booked",
        games,
        file=file,
        n=games,
        session=session,
        date=f"{on:%Y-%m-%d}",
    )


def imported_text(file: str, booked: int, session: str, skipped: int) -> Sayable:
    """An import's first line: the games booked, and those the ledger held already."""
    if skipped:
        return said_n(
            "{file}: {n} game booked into {session}, {skipped} already in the ledger (skipped).",
            "{file}: {n} games booked into {session}, {skipped} already in the ledger (skipped).",
            booked,
            file=file,
            n=booked,
            session=session,
            skipped=skipped,
        )
    return said_n(
        "{file}: {n} game booked into {session}.",
        "{file}: {n} games booked into {session}.",
        booked,
        file=file,
        n=booked,
        session=session,
    )


def imported_rows(points: Mapping[str, int], cents: Mapping[str, Cents]) -> Rows:
    """An import's points and money per player, winners first as in the standings."""
    order = sorted(points, key=lambda p: (-cents[p], -points[p], p))
    rows: list[list[Cell]] = [[p, signed(points[p]), balance(cents[p])] for p in order]
    return [marked("player"), marked("points"), marked("money")], rows


# ---------------------------------------------------------------- a correction


def amended_lines(
    correction: Correction,
    number: int,
    outcome: Outcome,
    later: Sequence[int],
    moved: Mapping[str, Cents],
    line: Line | None,
    partner: Sequence[Sayable] = (),
) -> tuple[Sayable, list[Sayable]]:
    """What ``chouette amend`` says it did: the game and its ends (said before the game's
    bookings now, which the caller shows its way), then the later games played again, the
    money moved, the line now (``line``: if it changed), the partnership it began or ended
    (``partner``: :func:`chouette.line.partner_news`) and why."""
    told: list[Sayable] = []
    if later:
        told.append(
            said_n(
                "Played again on the new line: game {games}.",
                "Played again on the new line: games {games}.",
                len(later),
                games=", ".join(map(str, later)),
            )
        )
    if moved:
        shown = joined(
            said("{player} {amount}", player=p, amount=balance(c)) for p, c in moved.items()
        )
        told.append(said("Money moved by the correction: {moves}.", moves=shown))
    else:
        told.append(said("Money moved by the correction: none."))
    if line is not None:
        told.append(said("Line now: {line}", line=line.describe()))
    told += [joined([text, "."], "") for text in partner]
    head = said(
        "Game {number} amended: {correction} ({note}).",
        number=number,
        correction=correction.said(),
        note=correction.note,
    )
    return head, [*told, *why_lines(outcome.why)]
