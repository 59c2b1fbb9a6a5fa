"""The chouette game record (INTERFACE.md): read and validate it into events, write a game back.

A record is plain JSON data, as a person, a script or an app would write it::

    {"session": "friday", "line": ["ann", "bob", "cat"],
     "events": [{"act": "double", "by": "box", "members": ["bob"]},
                {"act": "take", "member": "bob"}],
     "result": {"winner": "box", "kind": "gammon", "resigned": false}}
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, cast

from chouette.errors import LineError, PositionError, RecordError, RuleError
from chouette.game import (
    ANSWERS,
    Answer,
    AutoDouble,
    BuyOut,
    CaptainResign,
    Carry,
    CubeFix,
    Deal,
    Double,
    End,
    Event,
    EventRefused,
    Extra,
    ExtraAnswer,
    ExtraDouble,
    Game,
    Resign,
    ResignAnswer,
    apply,
    apply_all,
    start,
)
from chouette.limits import check_points
from chouette.line import Line, check_name, check_session_name
from chouette.points import MULTIPLIER, Kind
from chouette.position import parse_position
from chouette.rules import HouseRules
from chouette.text import NoConstant, RepeatedKey, no_constant, unique_keys
from chouette.words import Said, Sayable, joined, said

RECORD_KEYS = frozenset(
    {"session", "line", "box", "captain", "crew", "partner", "away", "events", "result", "why"}
)


@dataclass(frozen=True)
class Record:
    """A parsed record: the seats it claims, its events, and how the board ended (if it did)."""

    session: str | None
    line: tuple[str, ...] | None
    box: str | None
    captain: str | None
    crew: tuple[str, ...] | None
    events: tuple[Event, ...]
    result: End | None
    partner: str | None = None
    has_partner: bool = False  # whether the record names the box's partner (null: nobody)
    away: dict[str, str | None] | None = None  # who is away, and their proxy (null: follows)


def at(where: Sayable, what: Sayable) -> Sayable:
    """``where: what``: a place in a record and what is there (a key, a reason), each in the
    reader's words (a key as it is written)."""
    return joined((where, what), ": ")


def _text(value: Any, what: Sayable) -> str:
    if not isinstance(value, str):
        raise RecordError(said("{what} must be text, not {kind}", what=what, kind=json_type(value)))
    try:
        return check_name(value)
    except LineError as err:
        raise RecordError(at(what, err.said)) from None


def _names(value: Any, what: Sayable) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise RecordError(
            said("{what} must be a list of names, not {kind}", what=what, kind=json_type(value))
        )
    return tuple(_text(v, joined((what, f"[{i}]"), "")) for i, v in enumerate(value))


def json_type(value: Any) -> Sayable:
    """The JSON name of a value's type, for messages (``null`` and ``true/false`` as JSON
    writes them)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int | float):
        return said("a number")
    if isinstance(value, str):
        return said("text")
    if isinstance(value, list):
        return said("a list")
    if isinstance(value, dict):
        return said("an object")
    return type(value).__name__


def _keys(obj: Mapping[str, Any], allowed: set[str] | frozenset[str], what: Sayable) -> None:
    unknown = sorted(set(obj) - set(allowed))
    if unknown:
        raise RecordError(
            said("{what}: unknown key {keys}", what=what, keys=", ".join(map(repr, unknown)))
        )


def parse_event(obj: Any, where: Sayable, *, allow_end: bool = False) -> Event:
    """One event object (``{"act": "take", "member": "cat"}``) -> an :data:`Event`.

    A record gives the board's end as its ``result``; stored games keep it as an event
    (``{"act": "end", ...}``), read with ``allow_end``. ``where``: where it is, for a refusal
    (a place in a record, in the reader's words)."""
    if not isinstance(obj, dict):
        raise RecordError(
            said("{what} must be an object, not {kind}", what=where, kind=json_type(obj))
        )
    act = obj.get("act")
    if act == "end" and allow_end:
        return parse_result({k: v for k, v in obj.items() if k != "act"}, where)
    if act == "auto-double":
        _keys(obj, {"act", "box_chose", "carried"}, where)
        flags = {key: _flag(obj, key, where) for key in ("box_chose", "carried")}
        return AutoDouble(**flags)
    if act == "carry":
        _keys(obj, {"act", "doubles", "accepted"}, where)
        doubles = obj.get("doubles")
        if not isinstance(doubles, int) or isinstance(doubles, bool) or doubles < 1:
            raise RecordError(
                said("{where}: carry 'doubles' must be a whole number, 1 or more", where=where)
            )
        check_points(doubles, str(at(where, "carry")))
        if "accepted" not in obj:
            raise RecordError(said("{where}: carry needs 'accepted' (true or false)", where=where))
        return Carry(_flag(obj, "accepted", where), doubles)
    if act == "double":
        _keys(obj, {"act", "by", "members", "position"}, where)
        by = obj.get("by", "box")
        if by not in ("box", "member", "team"):
            raise RecordError(
                said(
                    "{where}: 'by' must be box, member or team, not {value}",
                    where=where,
                    value=repr(by),
                )
            )
        members = _names(obj.get("members", []), at(where, "members"))
        return Double(by=by, members=members, position=_position(obj, where))
    if act in ANSWERS:
        _keys(obj, {"act", "member", "position"}, where)
        if "member" not in obj:
            raise RecordError(said("{where}: {act} needs a 'member'", where=where, act=act))
        member = _text(obj["member"], at(where, "member"))
        return Answer(act=act, member=member, position=_position(obj, where))
    if act == "captain-resigns":
        _keys(obj, {"act", "kind", "successor"}, where)
        kind = obj.get("kind", "single")
        if kind not in MULTIPLIER:
            raise RecordError(
                said(
                    "{where}: captain-resigns 'kind' must be single, gammon or backgammon",
                    where=where,
                )
            )
        return CaptainResign(kind, _text(obj.get("successor"), at(where, "successor")))
    if act == "buy-out":
        _keys(obj, {"act"}, where)
        return BuyOut()
    if act == "cube":
        _keys(obj, {"act", "member", "value"}, where)
        value = obj.get("value")
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise RecordError(
                said("{where}: cube 'value' must be a whole number, 1 or more", where=where)
            )
        check_points(value, str(at(where, "cube")))
        return CubeFix(_text(obj.get("member"), at(where, "member")), value)
    if act == "deal":
        _keys(obj, {"act", "member", "points", "won_by"}, where)
        points = obj.get("points")
        if not isinstance(points, int) or isinstance(points, bool):
            raise RecordError(said("{where}: deal 'points' must be a whole number", where=where))
        check_points(points, str(at(where, "deal")))
        won_by = obj.get("won_by")
        if won_by is not None and won_by not in ("box", "captain"):
            raise RecordError(said("{where}: deal 'won_by' must be box or captain", where=where))
        return Deal(
            member=_text(obj.get("member"), at(where, "member")), points=points, won_by=won_by
        )
    if act == "extra":
        return _extra(obj, where)
    if act in EXTRA_ACTS:
        _keys(obj, {"act", "team_side", "box_side"}, where)
        sides = _sides(obj, where, act)
        if act == "double-extra":
            return ExtraDouble(*sides)
        return ExtraAnswer("take" if act == "take-extra" else "drop", *sides)
    if act == "resign":
        _keys(obj, {"act", "kind", "members"}, where)
        kind = obj.get("kind", "single")
        if not isinstance(kind, str) or kind not in MULTIPLIER:
            raise RecordError(_bad_kind(where, kind))
        members = _names(obj.get("members", []), at(where, "members"))
        return Resign(cast(Kind, kind), members)
    if isinstance(act, str) and act in RESIGN_ANSWERS:
        _keys(obj, {"act", "member"}, where)
        if "member" not in obj:
            raise RecordError(said("{where}: {act} needs a 'member'", where=where, act=act))
        return ResignAnswer(RESIGN_ANSWERS[act], _text(obj["member"], at(where, "member")))
    known = ", ".join(
        [
            "auto-double",
            "carry",
            "double",
            *ANSWERS,
            "deal",
            "extra",
            *EXTRA_ACTS,
            "resign",
            "resign-accept",
            "resign-refuse",
            "captain-resigns",
            "buy-out",
        ]
    )
    raise RecordError(
        said(
            "{where}: 'act' must be one of {known}, not {act}",
            where=where,
            known=known,
            act=repr(act),
        )
    )


def _bad_kind(where: Sayable, kind: Any) -> Said:
    return said(
        "{where}: 'kind' must be single, gammon or backgammon, not {kind}",
        where=where,
        kind=repr(kind),
    )


EXTRA_ACTS = ("double-extra", "take-extra", "drop-extra")
#: A member's answer to the box's resignation, by its act; ``accept`` and ``refuse`` are the
#: names a game stored before the rules card took the word ``accept`` (read, never written).
RESIGN_ANSWERS = {"resign-accept": True, "resign-refuse": False, "accept": True, "refuse": False}


def _position(obj: Mapping[str, Any], where: Sayable) -> str | None:
    """A cube event's board, ``position`` (a Position ID or an XGID, from the doubler's side),
    as its Position ID; None when not given."""
    text = obj.get("position")
    if text is None:
        return None
    if not isinstance(text, str):
        raise RecordError(
            said(
                "{where}: the position must be text, not {kind}",
                where=where,
                kind=json_type(text),
            )
        )
    try:
        return parse_position(text).id
    except PositionError as err:
        raise RecordError(said("{where}: {reason}", where=where, reason=err.said)) from None


def _flag(obj: Mapping[str, Any], key: str, where: Sayable) -> bool:
    value = obj.get(key, False)
    if not isinstance(value, bool):
        raise RecordError(
            said(
                "{where}: '{key}' must be true or false, not {kind}",
                where=where,
                key=key,
                kind=json_type(value),
            )
        )
    return value


def _sides(obj: Mapping[str, Any], where: Sayable, act: str) -> tuple[str, str]:
    """An extra's two sides (``box_side`` may be ``"box"``)."""
    for key in ("team_side", "box_side"):
        if key not in obj:
            raise RecordError(said("{where}: {act} needs a '{key}'", where=where, act=act, key=key))
    box_side = obj["box_side"]
    if not (isinstance(box_side, str) and box_side.strip().casefold() == "box"):
        box_side = _text(box_side, at(where, "box_side"))
    return _text(obj["team_side"], at(where, "team_side")), box_side.strip()


def _extra(obj: dict[str, Any], where: Sayable) -> Extra:
    """``{"act": "extra", "team_side": "bob", "box_side": "cat", "points": 2, "premium": 1}``:
    ``box_side`` may be ``"box"``; ``points`` defaults to 2, ``premium`` to half the points."""
    _keys(obj, {"act", "team_side", "box_side", "points", "premium"}, where)
    for key in ("team_side", "box_side"):
        if key not in obj:
            raise RecordError(
                said("{where}: {act} needs a '{key}'", where=where, act="extra", key=key)
            )
    values: dict[str, int] = {}
    for key, default in (("points", 2), ("premium", None)):
        value = obj.get(key, default)
        if key == "premium" and value is None:  # half the points, as the clubs price an extra
            value = values["points"] // 2
        if not isinstance(value, int) or isinstance(value, bool):
            raise RecordError(
                said("{where}: extra '{key}' must be a whole number", where=where, key=key)
            )
        values[key] = check_points(value, str(at(where, f"extra {key}")))
    box_side = obj["box_side"]
    if not (isinstance(box_side, str) and box_side.strip().casefold() == "box"):
        box_side = _text(box_side, at(where, "box_side"))
    return Extra(
        _text(obj["team_side"], at(where, "team_side")),
        box_side.strip(),
        values["points"],
        values["premium"],
    )


def _away(value: Any, where: Sayable) -> dict[str, str | None]:
    """A record's ``away``: who is away, with their proxy's name or null (cube follows)."""
    if not isinstance(value, dict):
        raise RecordError(
            said(
                "{where}: 'away' must be an object, not {kind}", where=where, kind=json_type(value)
            )
        )
    return {
        _text(player, at(where, "away")): None
        if proxy is None
        else _text(proxy, at(where, f"away[{player!r}]"))
        for player, proxy in value.items()
    }


def parse_result(obj: Any, where: Sayable = "result") -> End:
    """A record's ``result`` (``where``: where it is, for a refusal)."""
    if not isinstance(obj, dict):
        raise RecordError(
            said("{what} must be an object, not {kind}", what=where, kind=json_type(obj))
        )
    _keys(obj, {"winner", "kind", "resigned"}, where)
    winner = obj.get("winner")
    if winner not in ("box", "team"):
        raise RecordError(
            said(
                "{where}: 'winner' must be box or team, not {winner}",
                where=where,
                winner=repr(winner),
            )
        )
    kind = obj.get("kind", "single")
    if not isinstance(kind, str) or kind not in MULTIPLIER:
        raise RecordError(_bad_kind(where, kind))
    resigned = obj.get("resigned", False)
    if not isinstance(resigned, bool):
        raise RecordError(said("{where}: 'resigned' must be true or false", where=where))
    return End(winner=winner, kind=cast(Kind, kind), resigned=resigned)


#: Where a record is, when nothing says more (its refusals begin with it).
RECORD = said("record")


def parse_record(obj: Any, where: Sayable = RECORD) -> Record:
    """Validate one record object (the shapes of INTERFACE.md)."""
    if not isinstance(obj, dict):
        raise RecordError(
            said("{what} must be a JSON object, not {kind}", what=where, kind=json_type(obj))
        )
    _keys(obj, RECORD_KEYS, where)
    session = obj.get("session")
    if session is not None:
        if not isinstance(session, str):
            raise RecordError(said("{where}: 'session' must be text", where=where))
        try:
            session = check_session_name(session)
        except LineError as err:
            raise RecordError(at(at(where, "session"), err.said)) from None
    if "line" in obj and any(k in obj for k in ("box", "captain", "crew")):
        raise RecordError(
            said("{where}: give either 'line' or 'box'/'captain'/'crew', not both", where=where)
        )
    why = obj.get("why", [])  # as `game N --json` writes it: read, and decided again
    if not isinstance(why, list) or not all(isinstance(w, str) for w in why):
        raise RecordError(said("{where}: 'why' must be a list of sentences", where=where))
    events_obj = obj.get("events", [])
    if not isinstance(events_obj, list):
        raise RecordError(said("{where}: 'events' must be a list", where=where))
    events = tuple(parse_event(e, event_at(where, i)) for i, e in enumerate(events_obj, start=1))
    result = obj.get("result")
    partner = obj.get("partner")
    return Record(
        session=session,
        line=_names(obj["line"], at(where, "line")) if "line" in obj else None,
        box=_text(obj["box"], at(where, "box")) if "box" in obj else None,
        captain=_text(obj["captain"], at(where, "captain")) if "captain" in obj else None,
        crew=_names(obj["crew"], at(where, "crew")) if "crew" in obj else None,
        events=events,
        result=None if result is None else parse_result(result, at(where, "result")),
        partner=None if partner is None else _text(partner, at(where, "partner")),
        has_partner="partner" in obj,
        away=_away(obj["away"], where) if "away" in obj else None,
    )


def event_at(where: Sayable, number: int) -> Said:
    """The ``number``-th event of the record at ``where``."""
    return said("{where}, event {number}", where=where, number=number)


def check_seats(record: Record, line: Line, where: Sayable = RECORD) -> None:
    """A record's seats must be the session's seats at that point."""
    if record.line is not None and record.line not in (line.order, line.active):
        raise RecordError(
            said(
                "{where}: its line {claimed} is not the session's line ({line})",
                where=where,
                claimed=", ".join(record.line),
                line=", ".join(line.order),
            )
        )
    for claimed, actual, refusal in (
        (record.box, line.box, said("{where}: the box is {actual}, not {claimed}")),
        (record.captain, line.captain, said("{where}: the captain is {actual}, not {claimed}")),
    ):
        if claimed is not None and claimed != actual:
            values = {"where": where, "actual": actual, "claimed": claimed}
            raise RecordError(replace(refusal, values=tuple(values.items())))
    if record.has_partner and record.partner != line.partner:
        raise RecordError(_partner_refused(where, record.partner, line.partner))
    if record.away is not None and record.away != dict(line.away):
        raise RecordError(
            said(
                "{where}: its 'away' is {claimed}; in the session it is {actual}",
                where=where,
                claimed=_away_words(record.away),
                actual=_away_words(dict(line.away)),
            )
        )
    if record.crew is not None and record.crew != line.crew:
        raise RecordError(
            said(
                "{where}: the crew is {actual}, not {claimed}",
                where=where,
                actual=_names_or_nobody(line.crew),
                claimed=_names_or_nobody(record.crew),
            )
        )


def _partner_refused(where: Sayable, claimed: str | None, actual: str | None) -> Said:
    """A record's ``partner`` that is not the session's box's partner."""
    if claimed is None:
        return said(
            "{where}: its 'partner' is nobody, but the box's partner is {actual}",
            where=where,
            actual=actual,
        )
    if actual is None:
        return said(
            "{where}: its 'partner' is {claimed}, but the box plays without a partner",
            where=where,
            claimed=claimed,
        )
    return said(
        "{where}: its 'partner' is {claimed}, but the box's partner is {actual}",
        where=where,
        claimed=claimed,
        actual=actual,
    )


def _names_or_nobody(names: tuple[str, ...]) -> Sayable:
    return ", ".join(names) if names else said("nobody")


def _away_words(away: Mapping[str, str | None]) -> Sayable:
    if not away:
        return said("nobody")
    return joined(
        (
            said("{player} (cube follows the captain's)", player=p)
            if by is None
            else said("{player} ({proxy} decides)", player=p, proxy=by)
            for p, by in away.items()
        ),
        "; ",
    )


def play_record(
    record: Record,
    line: Line,
    rules: HouseRules,
    where: Sayable = RECORD,
    carry: int | None = None,
) -> tuple[Game, list[Sayable]]:
    """Play a record's events on the session's line (``carry``: the automatic doubles the
    session's last game carried over, if known). Returns the finished game and notices
    (automatic doubles past the limit are ignored, as at the table)."""
    check_seats(record, line, where)
    try:
        game = start(line, rules, carry)
    except RuleError as err:
        raise RecordError(at(where, err.said)) from None
    try:
        applied = apply_all(game, record.events)
    except EventRefused as err:
        raise RecordError(
            said(
                "{where}, event {number} ({event}): {reason}",
                where=where,
                number=err.index,
                event=err.event.describe(),
                reason=err.said,
            )
        ) from None
    game = applied.game
    notices: list[Sayable] = [
        said("{where}, event {number} (auto-double) ignored: {why}", where=where, number=i, why=why)
        for i, why in applied.ignored
    ]
    if record.result is not None:
        if game.over:
            raise RecordError(
                said(
                    "{where}: every pair was already over before the board ended; leave "
                    "'result' out",
                    where=where,
                )
            )
        try:
            game = apply(game, record.result)
        except RuleError as err:
            raise RecordError(
                said("{where}, result: {reason}", where=where, reason=err.said)
            ) from None
    elif not game.over:
        live = ", ".join(m for m, c in game.cubes.items() if c.live)
        raise RecordError(
            said("{where}: no 'result', but {players} still playing", where=where, players=live)
        )
    return game, notices


def event_to_json(event: Event) -> dict[str, Any]:
    if isinstance(event, AutoDouble):
        flags = {"box_chose": event.box_chose, "carried": event.carried}
        return {"act": "auto-double", **{k: True for k, on in flags.items() if on}}
    if isinstance(event, Carry):
        return {"act": "carry", "doubles": event.doubles, "accepted": event.accepted}
    if isinstance(event, ExtraDouble):
        return {"act": "double-extra", "team_side": event.team_side, "box_side": event.box_side}
    if isinstance(event, ExtraAnswer):
        act = f"{event.act}-extra"
        return {"act": act, "team_side": event.team_side, "box_side": event.box_side}
    if isinstance(event, Resign):
        return {"act": "resign", "kind": event.kind, "members": list(event.members)}
    if isinstance(event, ResignAnswer):
        return {"act": "resign-accept" if event.accept else "resign-refuse", "member": event.member}
    if isinstance(event, Double):
        out: dict[str, Any] = {"act": "double", "by": event.by}
        if event.members:
            out["members"] = list(event.members)
        if event.position is not None:
            out["position"] = event.position
        return out
    if isinstance(event, Answer):
        answer: dict[str, Any] = {"act": event.act, "member": event.member}
        if event.position is not None:
            answer["position"] = event.position
        return answer
    if isinstance(event, CubeFix):
        return {"act": "cube", "member": event.member, "value": event.value}
    if isinstance(event, CaptainResign):
        return {"act": "captain-resigns", "kind": event.kind, "successor": event.successor}
    if isinstance(event, BuyOut):
        return {"act": "buy-out"}
    if isinstance(event, Deal):
        out = {"act": "deal", "member": event.member, "points": event.points}
        if event.won_by is not None:
            out["won_by"] = event.won_by
        return out
    if isinstance(event, Extra):
        return {
            "act": "extra",
            "team_side": event.team_side,
            "box_side": event.box_side,
            "points": event.points,
            "premium": event.premium,
        }
    assert isinstance(event, End)
    return {"act": "end", "winner": event.winner, "kind": event.kind, "resigned": event.resigned}


def result_to_json(end: End) -> dict[str, Any]:
    """The record's ``result`` object."""
    return {"winner": end.winner, "kind": end.kind, "resigned": end.resigned}


def to_record(game: Game, session: str | None = None) -> dict[str, Any]:
    """A game as a record that :func:`parse_record` and :func:`play_record` read back."""
    out: dict[str, Any] = {}
    if session is not None:
        out["session"] = session
    out["line"] = list(game.start_line.order)
    if game.partner is not None:
        out["partner"] = game.partner
    if game.start_line.away:
        out["away"] = dict(game.start_line.away)
    out["events"] = [event_to_json(e) for e in game.events if not isinstance(e, End)]
    if game.events and isinstance(game.events[-1], End):  # (not a resignation all accepted)
        out["result"] = result_to_json(game.events[-1])
    return out


_DECODER = json.JSONDecoder(object_pairs_hook=unique_keys, parse_constant=no_constant)


def _decode(text: str, where: Sayable) -> Any:
    """One JSON value; a key given twice in any object is refused (which value would count?)."""
    try:
        return _DECODER.decode(text)
    except json.JSONDecodeError as err:
        raise RecordError(
            said(
                "{where}: not JSON ({reason}, line {line})",
                where=where,
                reason=err.msg,
                line=err.lineno,
            )
        ) from None
    except RepeatedKey as err:
        raise RecordError(at(where, err.said)) from None
    except RecursionError:
        raise RecordError(
            said("{where}: not JSON this program reads (nested too deeply)", where=where)
        ) from None
    except ValueError as err:  # a number too long to read, NaN, Infinity
        reason = err.said if isinstance(err, NoConstant) else str(err)
        raise RecordError(
            said("{where}: not JSON this program reads ({reason})", where=where, reason=reason)
        ) from None


def read_records(text: str, label: Sayable) -> list[tuple[Sayable, Any]]:
    """The records in a text: one JSON value, a JSON array of them, or JSON Lines; each with
    where it was (``label``, ``label line 3``, ``label record 2``, in the reader's words)
    for messages."""
    stripped = text.strip()
    if not stripped:
        return []
    first, _, rest = stripped.partition("\n")
    if rest.strip() and _complete(first):
        found: list[tuple[Sayable, Any]] = []
        for number, line in enumerate(text.split("\n"), start=1):
            if line.strip():
                where = said("{file} line {number}", file=label, number=number)
                found.append((where, _decode(line, where)))
        return found
    data = _decode(stripped, label)
    if isinstance(data, list):
        return [
            (said("{file} record {number}", file=label, number=i), item)
            for i, item in enumerate(data, start=1)
        ]
    return [(label, data)]


def _complete(line: str) -> bool:
    """Whether a line holds a whole JSON value (then the text is JSON Lines)."""
    try:
        json.loads(line)
    except (ValueError, RecursionError):
        return False
    return True
