"""An export's lines, read strictly before anything is restored: one model per kind of line.

Each line is one JSON object, at most :data:`MAX_DEPTH` deep, without a key given twice or a
NaN; its ``kind`` names one of :data:`MODELS`, whose fields it has (the optional ones may be
left out) and no others; every time in it is an ISO 8601 time between the years
:data:`YEARS`; and its heading's schema is not newer than this chouette's. What the fields
hold is then checked by the restore itself (names, amounts, games replayed), which names
the field. Any refusal names the line, and nothing is written.

The models are pydantic's: a field's type here is the shape (text, a whole number, a list of
objects); the restore says what a value must be in words.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, ValidationError

from chouette.errors import ChouetteError
from chouette.text import RepeatedKey, clipped, no_constant, unique_keys
from chouette.words import Said, said

#: The deepest nesting a line may have (an export's deepest is a few levels).
MAX_DEPTH = 32
#: The years a time in an export may fall in (a report must be able to show it).
YEARS = (1970, 9998)


class _Line(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Heading(_Line):
    kind: Literal["chouette-ledger"]
    format: Any
    schema_: StrictInt | None = None
    exported_at: StrictStr | None = None

    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class Player(_Line):
    name: Any
    stake_cents: Any = None
    joined_at: Any


class Session(_Line):
    kind: Literal["session"]
    name: Any
    stake_cents: Any
    rules: dict[str, Any]
    created_at: Any
    line: dict[str, Any]
    players: list[Player]
    current: Any
    origin: dict[str, Any] | None = None
    night: Any = None  # (not in an export before schema 14)


class Preset(_Line):
    kind: Literal["preset"]
    name: Any
    rules: dict[str, Any]
    saved_from: Any
    saved_at: Any


class Account(_Line):
    kind: Literal["account"]
    player: Any
    holder: Any
    iban: Any
    phone: Any
    swish: Any


class Booking(_Line):
    player: Any
    points: Any
    cents: Any


class Game(_Line):
    kind: Literal["game"]
    session: StrictStr
    number: Any
    type: Any
    line: dict[str, Any]
    over: Any
    started_at: Any
    ended_at: Any
    events: list[dict[str, Any]] | None = None
    detail: Any = None
    source: Any = None
    key: Any = None
    bookings: list[Booking] | None = None
    amended: list[dict[str, Any]] | None = None


class Payment(_Line):
    kind: Literal["payment"]
    session: StrictStr
    payer: Any
    payee: Any
    cents: Any
    note: Any
    at: Any


class Charge(_Line):
    kind: Literal["charge"]
    session: StrictStr
    type: Any
    to: Any
    cents: Any
    shares: list[Any]
    note: Any
    at: Any
    words: dict[str, Any] | None = None


class SourceFile(_Line):
    kind: Literal["source_file"]
    sha256: Any
    name: Any
    format: Any
    session: StrictStr
    games: Any
    imported_at: Any
    first_game: Any = None
    last_game: Any = None


class Accept(_Line):
    kind: Literal["accept"]
    session: StrictStr
    players: list[Any]
    rules: dict[str, Any]
    stake_cents: Any
    at: Any


class EventStep(_Line):
    kind: StrictStr
    at: Any
    detail: dict[str, Any]
    digest: StrictStr | None = None  # (from schema 21)


class Event(_Line):
    kind: Literal["event"]
    name: StrictStr
    terms: dict[str, Any]
    purse: StrictStr
    created_at: Any
    tables: list[list[Any]]
    digest: StrictStr | None = None  # (from schema 21)
    steps: list[EventStep]


class Link(_Line):
    seq: StrictInt
    at: StrictStr
    what: StrictStr
    state: StrictStr
    hash: StrictStr
    journal: StrictStr | None = None  # (from schema 18)


class Chain(_Line):
    kind: Literal["chain"]
    session: StrictStr
    links: list[Link] = Field(min_length=1)


MODELS: dict[str, type[_Line]] = {
    "chouette-ledger": Heading,
    "session": Session,
    "preset": Preset,
    "account": Account,
    "game": Game,
    "payment": Payment,
    "charge": Charge,
    "source_file": SourceFile,
    "accept": Accept,
    "chain": Chain,
    "event": Event,
}
#: The fields that hold times, wherever they are in a line.
TIMES = frozenset(
    {"exported_at", "created_at", "joined_at", "saved_at", "started_at", "ended_at", "at",
     "imported_at"}
)  # fmt: skip
#: Where a line's times are: top-level fields, or fields of its lists of objects.
NESTED_TIMES = {"players": ("joined_at",), "steps": ("at",)}


def read_line(text: str, latest: int) -> dict[str, Any]:
    """One line of an export, checked as the module says (``latest``: the newest schema
    this chouette knows); a ChouetteError says what is wrong (the caller names the line)."""
    too_deep = said("it is nested more than {most} deep: no export line is", most=MAX_DEPTH)
    if text.count("[") + text.count("{") > MAX_DEPTH and _depth(text) > MAX_DEPTH:
        raise ChouetteError(too_deep)
    try:
        item = json.loads(text, object_pairs_hook=unique_keys, parse_constant=no_constant)
    except RepeatedKey as err:
        raise ChouetteError(clipped(str(err))) from None
    except RecursionError:
        raise ChouetteError(too_deep) from None
    except ValueError as err:
        raise ChouetteError(said("it is not JSON ({reason})", reason=clipped(str(err)))) from None
    if not isinstance(item, dict):
        raise ChouetteError(said("it is not a JSON object"))
    kind = item.get("kind")
    model = MODELS.get(kind) if isinstance(kind, str) else None
    if model is None:
        raise ChouetteError(said("unknown kind {kind}", kind=clipped(repr(kind))))
    shaped = {("schema_" if k == "schema" and model is Heading else k): v for k, v in item.items()}
    try:
        model.model_validate(shaped)
    except ValidationError as err:
        raise ChouetteError(
            said("a {kind} line: {problem}", kind=kind, problem=_said(err))
        ) from None
    for field in TIMES & item.keys():
        _check_time(item[field], field)
    for field, inner in NESTED_TIMES.items():
        for part in item.get(field) or ():
            for name in inner:
                if isinstance(part, dict) and name in part:
                    _check_time(part[name], f"{field}: {name}")  # (field names: no words)
    if model is Heading and isinstance(item.get("schema"), int) and item["schema"] > latest:
        raise ChouetteError(
            said(
                "the export was written by a newer chouette (schema {schema}; this one knows "
                "{latest}): upgrade chouette to restore it",
                schema=item["schema"],
                latest=latest,
            )
        )
    return item


def _depth(text: str) -> int:
    """How deep a JSON text nests, outside its strings (only for a line that may be deep)."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
            if deepest > MAX_DEPTH:
                return deepest
        elif char in "]}":
            depth -= 1
    return deepest


def _check_time(value: Any, field: str) -> None:
    """A time an export may hold: None where the field may be empty, or ISO 8601 text between
    :data:`YEARS` (a time without an offset is UTC)."""
    if value is None and field in ("started_at", "ended_at", "exported_at"):
        return
    if not isinstance(value, str):
        raise ChouetteError(
            said(
                "{field} must be a time (ISO 8601 text), not {value}",
                field=field,
                value=clipped(repr(value)),
            )
        )
    try:
        moment = datetime.fromisoformat(value)
        moment = moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
    except (ValueError, OverflowError):
        raise ChouetteError(
            said(
                "{field} is not a time chouette reads (ISO 8601, within the years {first} to "
                "{last}): {value}",
                field=field,
                first=YEARS[0],
                last=YEARS[1],
                value=clipped(repr(value)),
            )
        ) from None
    if not YEARS[0] <= moment.year <= YEARS[1]:
        raise ChouetteError(
            said(
                "{field} is {value}: a time in an export is within the years {first} to {last}",
                field=field,
                value=clipped(value),
                first=YEARS[0],
                last=YEARS[1],
            )
        )


def _said(err: ValidationError) -> Said | str:
    """The first thing pydantic found, in words: the field, and what is wrong with it
    (pydantic's own words, in English, after the field's name)."""
    first = err.errors()[0]
    where = ".".join(str(part) for part in first["loc"]).replace("schema_", "schema")
    if first["type"] == "extra_forbidden":
        return said("{field} is no field of it", field=repr(clipped(where)))
    if first["type"] == "missing":
        return said("it has no {field}", field=where)
    return f"{clipped(where)!r}: {first['msg'].lower()}"
