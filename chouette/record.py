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
from dataclasses import dataclass
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
from chouette.text import RepeatedKey, no_constant, unique_keys
from chouette.words import said

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


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise RecordError(f"{what} must be text, not {json_type(value)}")
    try:
        return check_name(value)
    except LineError as err:
        raise RecordError(f"{what}: {err}") from None


def _names(value: Any, what: str) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise RecordError(f"{what} must be a list of names, not {json_type(value)}")
    return tuple(_text(v, f"{what}[{i}]") for i, v in enumerate(value))


def json_type(value: Any) -> str:
    """The JSON name of a value's type, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _keys(obj: Mapping[str, Any], allowed: set[str] | frozenset[str], what: str) -> None:
    unknown = sorted(set(obj) - set(allowed))
    if unknown:
        raise RecordError(f"{what}: unknown key {', '.join(map(repr, unknown))}")


def parse_event(obj: Any, where: str, *, allow_end: bool = False) -> Event:
    """One event object (``{"act": "take", "member": "cat"}``) -> an :data:`Event`.

    A record gives the board's end as its ``result``; stored games keep it as an event
    (``{"act": "end", ...}``), read with ``allow_end``."""
    if not isinstance(obj, dict):
        raise RecordError(f"{where} must be an object, not {json_type(obj)}")
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
            raise RecordError(f"{where}: carry 'doubles' must be a whole number, 1 or more")
        check_points(doubles, f"{where}: carry")
        if "accepted" not in obj:
            raise RecordError(f"{where}: carry needs 'accepted' (true or false)")
        return Carry(_flag(obj, "accepted", where), doubles)
    if act == "double":
        _keys(obj, {"act", "by", "members", "position"}, where)
        by = obj.get("by", "box")
        if by not in ("box", "member", "team"):
            raise RecordError(f"{where}: 'by' must be box, member or team, not {by!r}")
        members = _names(obj.get("members", []), f"{where}: members")
        return Double(by=by, members=members, position=_position(obj, where))
    if act in ANSWERS:
        _keys(obj, {"act", "member", "position"}, where)
        if "member" not in obj:
            raise RecordError(f"{where}: {act} needs a 'member'")
        member = _text(obj["member"], f"{where}: member")
        return Answer(act=act, member=member, position=_position(obj, where))
    if act == "captain-resigns":
        _keys(obj, {"act", "kind", "successor"}, where)
        kind = obj.get("kind", "single")
        if kind not in MULTIPLIER:
            raise RecordError(
                f"{where}: captain-resigns 'kind' must be single, gammon or backgammon"
            )
        return CaptainResign(kind, _text(obj.get("successor"), f"{where}: successor"))
    if act == "buy-out":
        _keys(obj, {"act"}, where)
        return BuyOut()
    if act == "cube":
        _keys(obj, {"act", "member", "value"}, where)
        value = obj.get("value")
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise RecordError(f"{where}: cube 'value' must be a whole number, 1 or more")
        check_points(value, f"{where}: cube")
        return CubeFix(_text(obj.get("member"), f"{where}: member"), value)
    if act == "deal":
        _keys(obj, {"act", "member", "points", "won_by"}, where)
        points = obj.get("points")
        if not isinstance(points, int) or isinstance(points, bool):
            raise RecordError(f"{where}: deal 'points' must be a whole number")
        check_points(points, f"{where}: deal")
        won_by = obj.get("won_by")
        if won_by is not None and won_by not in ("box", "captain"):
            raise RecordError(f"{where}: deal 'won_by' must be box or captain")
        return Deal(
            member=_text(obj.get("member"), f"{where}: member"), points=points, won_by=won_by
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
            raise RecordError(f"{where}: 'kind' must be single, gammon or backgammon, not {kind!r}")
        members = _names(obj.get("members", []), f"{where}: members")
        return Resign(cast(Kind, kind), members)
    if isinstance(act, str) and act in RESIGN_ANSWERS:
        _keys(obj, {"act", "member"}, where)
        if "member" not in obj:
            raise RecordError(f"{where}: {act} needs a 'member'")
        return ResignAnswer(RESIGN_ANSWERS[act], _text(obj["member"], f"{where}: member"))
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
    raise RecordError(f"{where}: 'act' must be one of {known}, not {act!r}")


EXTRA_ACTS = ("double-extra", "take-extra", "drop-extra")
#: A member's answer to the box's resignation, by its act; ``accept`` and ``refuse`` are the
#: names a game stored before the rules card took the word ``accept`` (read, never written).
RESIGN_ANSWERS = {"resign-accept": True, "resign-refuse": False, "accept": True, "refuse": False}


def _position(obj: Mapping[str, Any], where: str) -> str | None:
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


def _flag(obj: Mapping[str, Any], key: str, where: str) -> bool:
    value = obj.get(key, False)
    if not isinstance(value, bool):
        raise RecordError(f"{where}: '{key}' must be true or false, not {json_type(value)}")
    return value


def _sides(obj: Mapping[str, Any], where: str, act: str) -> tuple[str, str]:
    """An extra's two sides (``box_side`` may be ``"box"``)."""
    for key in ("team_side", "box_side"):
        if key not in obj:
            raise RecordError(f"{where}: {act} needs a '{key}'")
    box_side = obj["box_side"]
    if not (isinstance(box_side, str) and box_side.strip().casefold() == "box"):
        box_side = _text(box_side, f"{where}: box_side")
    return _text(obj["team_side"], f"{where}: team_side"), box_side.strip()


def _extra(obj: dict[str, Any], where: str) -> Extra:
    """``{"act": "extra", "team_side": "bob", "box_side": "cat", "points": 2, "premium": 1}``:
    ``box_side`` may be ``"box"``; ``points`` defaults to 2, ``premium`` to half the points."""
    _keys(obj, {"act", "team_side", "box_side", "points", "premium"}, where)
    for key in ("team_side", "box_side"):
        if key not in obj:
            raise RecordError(f"{where}: extra needs a '{key}'")
    values: dict[str, int] = {}
    for key, default in (("points", 2), ("premium", None)):
        value = obj.get(key, default)
        if key == "premium" and value is None:  # half the points, as the clubs price an extra
            value = values["points"] // 2
        if not isinstance(value, int) or isinstance(value, bool):
            raise RecordError(f"{where}: extra '{key}' must be a whole number")
        values[key] = check_points(value, f"{where}: extra {key}")
    box_side = obj["box_side"]
    if not (isinstance(box_side, str) and box_side.strip().casefold() == "box"):
        box_side = _text(box_side, f"{where}: box_side")
    return Extra(
        _text(obj["team_side"], f"{where}: team_side"),
        box_side.strip(),
        values["points"],
        values["premium"],
    )


def _away(value: Any, where: str) -> dict[str, str | None]:
    """A record's ``away``: who is away, with their proxy's name or null (cube follows)."""
    if not isinstance(value, dict):
        raise RecordError(f"{where}: 'away' must be an object, not {json_type(value)}")
    return {
        _text(player, f"{where}: away"): None
        if proxy is None
        else _text(proxy, f"{where}: away[{player!r}]")
        for player, proxy in value.items()
    }


def parse_result(obj: Any, where: str = "result") -> End:
    if not isinstance(obj, dict):
        raise RecordError(f"{where} must be an object, not {json_type(obj)}")
    _keys(obj, {"winner", "kind", "resigned"}, where)
    winner = obj.get("winner")
    if winner not in ("box", "team"):
        raise RecordError(f"{where}: 'winner' must be box or team, not {winner!r}")
    kind = obj.get("kind", "single")
    if not isinstance(kind, str) or kind not in MULTIPLIER:
        raise RecordError(f"{where}: 'kind' must be single, gammon or backgammon, not {kind!r}")
    resigned = obj.get("resigned", False)
    if not isinstance(resigned, bool):
        raise RecordError(f"{where}: 'resigned' must be true or false")
    return End(winner=winner, kind=cast(Kind, kind), resigned=resigned)


def parse_record(obj: Any, where: str = "record") -> Record:
    """Validate one record object (the shapes of INTERFACE.md)."""
    if not isinstance(obj, dict):
        raise RecordError(f"{where} must be a JSON object, not {json_type(obj)}")
    _keys(obj, RECORD_KEYS, where)
    session = obj.get("session")
    if session is not None:
        if not isinstance(session, str):
            raise RecordError(f"{where}: 'session' must be text")
        try:
            session = check_session_name(session)
        except LineError as err:
            raise RecordError(f"{where}: session: {err}") from None
    if "line" in obj and any(k in obj for k in ("box", "captain", "crew")):
        raise RecordError(f"{where}: give either 'line' or 'box'/'captain'/'crew', not both")
    why = obj.get("why", [])  # as `game N --json` writes it: read, and decided again
    if not isinstance(why, list) or not all(isinstance(w, str) for w in why):
        raise RecordError(f"{where}: 'why' must be a list of sentences")
    events_obj = obj.get("events", [])
    if not isinstance(events_obj, list):
        raise RecordError(f"{where}: 'events' must be a list")
    events = tuple(parse_event(e, f"{where}, event {i}") for i, e in enumerate(events_obj, start=1))
    result = obj.get("result")
    partner = obj.get("partner")
    return Record(
        session=session,
        line=_names(obj["line"], f"{where}: line") if "line" in obj else None,
        box=_text(obj["box"], f"{where}: box") if "box" in obj else None,
        captain=_text(obj["captain"], f"{where}: captain") if "captain" in obj else None,
        crew=_names(obj["crew"], f"{where}: crew") if "crew" in obj else None,
        events=events,
        result=None if result is None else parse_result(result, f"{where}: result"),
        partner=None if partner is None else _text(partner, f"{where}: partner"),
        has_partner="partner" in obj,
        away=_away(obj["away"], where) if "away" in obj else None,
    )


def check_seats(record: Record, line: Line, where: str = "record") -> None:
    """A record's seats must be the session's seats at that point."""
    if record.line is not None and record.line not in (line.order, line.active):
        raise RecordError(
            f"{where}: its line {', '.join(record.line)} is not the session's line "
            f"({', '.join(line.order)})"
        )
    for key, claimed, actual in (
        ("box", record.box, line.box),
        ("captain", record.captain, line.captain),
    ):
        if claimed is not None and claimed != actual:
            raise RecordError(f"{where}: the {key} is {actual}, not {claimed}")
    if record.has_partner and record.partner != line.partner:
        actual = (
            f"the box's partner is {line.partner}"
            if line.partner
            else "the box plays without a partner"
        )
        claimed = "nobody" if record.partner is None else record.partner
        raise RecordError(f"{where}: its 'partner' is {claimed}, but {actual}")
    if record.away is not None and record.away != dict(line.away):
        raise RecordError(
            f"{where}: its 'away' is {_away_words(record.away)}; in the session it is "
            f"{_away_words(dict(line.away))}"
        )
    if record.crew is not None and record.crew != line.crew:
        raise RecordError(
            f"{where}: the crew is {', '.join(line.crew) or 'nobody'}, "
            f"not {', '.join(record.crew) or 'nobody'}"
        )


def _away_words(away: Mapping[str, str | None]) -> str:
    if not away:
        return "nobody"
    return "; ".join(
        f"{p} (cube follows the captain's)" if by is None else f"{p} ({by} decides)"
        for p, by in away.items()
    )


def play_record(
    record: Record,
    line: Line,
    rules: HouseRules,
    where: str = "record",
    carry: int | None = None,
) -> tuple[Game, list[str]]:
    """Play a record's events on the session's line (``carry``: the automatic doubles the
    session's last game carried over, if known). Returns the finished game and notices
    (automatic doubles past the limit are ignored, as at the table)."""
    check_seats(record, line, where)
    try:
        game = start(line, rules, carry)
    except RuleError as err:
        raise RecordError(f"{where}: {err}") from None
    try:
        applied = apply_all(game, record.events)
    except EventRefused as err:
        raise RecordError(f"{where}, event {err.index} ({err.event.describe()}): {err}") from None
    game = applied.game
    notices = [f"{where}, event {i} (auto-double) ignored: {why}" for i, why in applied.ignored]
    if record.result is not None:
        if game.over:
            raise RecordError(
                f"{where}: every pair was already over before the board ended; leave 'result' out"
            )
        try:
            game = apply(game, record.result)
        except RuleError as err:
            raise RecordError(f"{where}, result: {err}") from None
    elif not game.over:
        live = ", ".join(m for m, c in game.cubes.items() if c.live)
        raise RecordError(f"{where}: no 'result', but {live} still playing")
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


def _decode(text: str, where: str) -> Any:
    """One JSON value; a key given twice in any object is refused (which value would count?)."""
    try:
        return _DECODER.decode(text)
    except json.JSONDecodeError as err:
        raise RecordError(f"{where}: not JSON ({err.msg}, line {err.lineno})") from None
    except RepeatedKey as err:
        raise RecordError(f"{where}: {err}") from None
    except RecursionError:
        raise RecordError(f"{where}: not JSON this program reads (nested too deeply)") from None
    except ValueError as err:  # a number too long to read, NaN, Infinity
        raise RecordError(f"{where}: not JSON this program reads ({err})") from None


def read_records(text: str, label: str) -> list[tuple[str, Any]]:
    """The records in a text: one JSON value, a JSON array of them, or JSON Lines; each with
    where it was (``label``, ``label line 3``, ``label record 2``) for messages."""
    stripped = text.strip()
    if not stripped:
        return []
    first, _, rest = stripped.partition("\n")
    if rest.strip() and _complete(first):
        return [
            (f"{label} line {number}", _decode(line, f"{label} line {number}"))
            for number, line in enumerate(text.split("\n"), start=1)
            if line.strip()
        ]
    data = _decode(stripped, label)
    if isinstance(data, list):
        return [(f"{label} record {i}", item) for i, item in enumerate(data, start=1)]
    return [(label, data)]


def _complete(line: str) -> bool:
    """Whether a line holds a whole JSON value (then the text is JSON Lines)."""
    try:
        json.loads(line)
    except (ValueError, RecursionError):
        return False
    return True
