"""The engine-neutral result record (INTERFACE.md), as JSON Lines or CSV.

One record per settled two-party game, for any engine, script or person::

    {"session": "club-2024-05-01", "game": 3, "winner": "ann", "loser": "bob", "cube": 2,
     "result": "gammon", "end": "bearoff", "points": 4, "played_at": "2024-05-01T21:30:00Z",
     "rules": "jacoby", "source": {"engine": "gnubg", "file": "may.sgf",
     "sha256": "…64 hex digits…", "game_index": 3}}

Required: ``session`` (the source's own name for its series), ``game`` (its number there,
1 or more), ``winner``, ``loser`` (different, non-empty), ``cube`` (1, 2, 4, …), ``result``
(``single``, ``gammon`` or ``backgammon``, as scored), ``end`` (``bearoff``, ``drop``,
``resign``, ``settle`` or ``forfeit``) and ``points`` (0 or more; ``cube × 1/2/3`` by the
result unless the game was settled or forfeited; a drop is single). Optional:
``played_at`` (an ISO 8601 date or time), ``rules`` (text, or a JSON object or list, kept as
JSON text) and ``source`` (``engine``, ``file``, ``sha256``, ``game_index``, each optional).
Any other field is refused.

JSON Lines: one JSON object per line; blank lines are skipped. A file whose first
non-blank character is ``[`` is read as one JSON array of records instead.

CSV: a header row naming the columns, in any order, then one row per record. The columns
are the fields above, with ``source`` flattened:

    session, game, winner, loser, cube, result, end, points,
    played_at, rules, source_engine, source_file, source_sha256, source_game_index

The first eight are required; the others may be left out or left empty. ``rules`` is text.
"""

from __future__ import annotations

import csv
import hashlib
import itertools
import json
import json.scanner
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from datetime import datetime
from typing import Any, NamedTuple, cast

from chouette.engines.model import (
    EngineGame,
    EngineRead,
    EngineSession,
    EngineSource,
    game_key,
    numbered,
    problem,
)
from chouette.points import MULTIPLIER, is_cube_value, pair_points
from chouette.text import NoConstant, RepeatedKey, no_constant, unique_keys
from chouette.words import Number, Sayable, said, said_n

REQUIRED = ("session", "game", "winner", "loser", "cube", "result", "end", "points")
OPTIONAL = ("played_at", "rules", "source")
SOURCE_FIELDS = ("engine", "file", "sha256", "game_index")
CSV_COLUMNS = (
    *REQUIRED,
    "played_at",
    "rules",
    *(f"source_{name}" for name in SOURCE_FIELDS),
)
_FIELDS = frozenset(REQUIRED + OPTIONAL)
_blake2b = hashlib.blake2b
_REQUIRED_SET = frozenset(REQUIRED)
_PLAYED = ("bearoff", "drop", "resign")
_RESULTS = ("single", "gammon", "backgammon")
_ENDS = ("bearoff", "drop", "resign", "settle", "forfeit")
_WORDS: dict[str, Any] = {word: word for word in _RESULTS + _ENDS}  # each word, one string
_INTEGER = re.compile(r"[0-9]{1,18}")
#: The largest file read as one JSON array (characters); JSON Lines has no such limit.
MAX_ARRAY = 64 << 20
_SHA256 = re.compile(r"[0-9a-fA-F]{64}")


def read_jsonl(lines: Iterable[str]) -> EngineRead:
    """Read neutral records from JSON Lines (or one JSON array): the first now, the rest as
    they stream. Raises :class:`~chouette.errors.EngineFileError` naming line and field."""
    return _read("jsonl", _json_records(numbered(lines)))


def read_csv(lines: Iterable[str]) -> EngineRead:
    """Read neutral records from CSV with a header row (columns in the module docstring)."""
    return _read("csv", _csv_records(numbered(lines)))


def _read(kind: str, records: Iterator[tuple[int, Mapping[str, Any]]]) -> EngineRead:
    same: dict[str, str] = {}  # one copy of each name the records give, for all their games
    games = (
        _game(index, line, record, same.setdefault)
        for index, (line, record) in enumerate(records, 1)
    )
    first = next(games, None)
    if first is None:
        raise problem(1, said("no records in the file"))
    session = EngineSession(
        format="jsonl" if kind == "jsonl" else "csv", players=(), name=first.session
    )
    return EngineRead(session, itertools.chain((first,), games))


def _json_records(source: Iterator[tuple[int, str]]) -> Iterator[tuple[int, Mapping[str, Any]]]:
    """``(line, object)`` per record of a JSON Lines file, or of one JSON array."""
    first = True
    for number, text in source:
        stripped = text.strip()
        if not stripped:
            continue
        if first and stripped.startswith("["):
            yield from _json_array(number, text, source)
            return
        first = False
        yield number, _as_object(number, _parse_json(number, stripped))


def _json_array(
    first: int, text: str, source: Iterator[tuple[int, str]]
) -> Iterator[tuple[int, Mapping[str, Any]]]:
    """The records of a file that is one JSON array, each with the line where it starts.

    The array is read whole, up to :data:`MAX_ARRAY` characters: JSON Lines is the form for
    large files."""
    parts, size = [text], len(text)
    for number, rest in source:
        size += len(rest) + 1
        if size > MAX_ARRAY:
            raise problem(
                number,
                said(
                    "a JSON array longer than {most} characters: write the records as JSON "
                    "Lines (one record per line) instead",
                    most=Number(MAX_ARRAY),
                ),
            )
        parts.append(rest)
    whole = "\n".join(parts)
    del parts
    decoder = _DECODER
    counted, line = 0, first  # the line of ``whole[counted]``: lines are counted once

    def line_at(pos: int) -> int:
        nonlocal counted, line
        line += whole.count("\n", counted, pos)
        counted = pos
        return line

    pos = _skip_space(whole, whole.index("[") + 1)
    if pos < len(whole) and whole[pos] == "]":
        _array_end(line_at(pos), whole, pos)
        return
    while True:
        start = line_at(pos)
        try:
            value, pos = decoder.raw_decode(whole, pos)
        except (ValueError, RecursionError) as error:
            raise problem(start, _not_json(error)) from None
        yield start, _as_object(start, value)
        pos = _skip_space(whole, pos)
        if pos < len(whole) and whole[pos] == "]":
            _array_end(line_at(pos), whole, pos)
            return
        if pos >= len(whole) or whole[pos] != ",":
            raise problem(
                line_at(pos), said("expected ',' or ']' after a record of the JSON array")
            )
        pos = _skip_space(whole, pos + 1)


def _array_end(line: int, whole: str, pos: int) -> None:
    """The array closes at ``pos`` (on ``line``): only space may follow."""
    rest = _skip_space(whole, pos + 1)
    if rest < len(whole):
        raise problem(
            line + whole.count("\n", pos, rest), said("text after the end of the JSON array")
        )


def _skip_space(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in " \t\r\n":
        pos += 1
    return pos


def _parse_json(number: int, text: str) -> Any:
    """One JSON value filling ``text`` (stripped); a field given twice in an object is
    refused. The decoder's scanner is called directly: one C call per record."""
    try:
        value, end = _SCAN(text, 0)
    except StopIteration:
        raise problem(number, said("not JSON: {reason}", reason="Expecting value")) from None
    except (ValueError, RecursionError) as error:
        raise problem(number, _not_json(error)) from None
    if end != len(text):
        raise problem(number, said("not JSON: {reason}", reason="Extra data"))
    return value


def _not_json(error: Exception) -> Sayable:
    """Why a record is not JSON: the decoder's own words (``Expecting value``), or ours."""
    if isinstance(error, json.JSONDecodeError):
        reason: Sayable = error.msg
    elif isinstance(error, RepeatedKey):
        reason = said("field {key} given twice", key=repr(error.key))
    elif isinstance(error, NoConstant):
        reason = error.said
    else:
        reason = str(error) or type(error).__name__
    return said("not JSON: {reason}", reason=reason)


_DECODER = json.JSONDecoder(parse_constant=no_constant, object_pairs_hook=unique_keys)
#: The decoder's own scanner (``JSONDecoder.scan_once``), typed: typeshed's stub for
#: ``make_scanner`` does not take the decoder it is documented to take.
_SCAN: Callable[[str, int], tuple[Any, int]] = json.scanner.make_scanner(cast(Any, _DECODER))


def _as_object(number: int, value: Any) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise problem(
            number, said("a record must be a JSON object, not {kind}", kind=_json_type(value))
        )
    return value


def _csv_records(source: Iterator[tuple[int, str]]) -> Iterator[tuple[int, Mapping[str, Any]]]:
    """``(line, record)`` per CSV row, the columns named by the header row."""
    lines = _CsvLines(source)
    reader = csv.reader(lines, strict=True)
    header: list[_Column] | None = None
    while True:
        start = lines.number + 1
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as error:
            raise problem(
                lines.number, said("cannot read the CSV: {reason}", reason=str(error))
            ) from None
        if not "".join(row).strip():
            continue
        if header is None:
            header = _csv_header(start, row)
            continue
        if len(row) != len(header):
            raise problem(
                start,
                said(
                    "{count} values, but the header row names {columns} columns",
                    count=len(row),
                    columns=len(header),
                ),
            )
        yield start, _csv_record(start, header, row)
    if header is None:
        raise problem(1, said("no header row (expected: {columns})", columns=",".join(REQUIRED)))


class _CsvLines:
    """The file's lines for :mod:`csv`, counting them (a quoted value may span lines)."""

    def __init__(self, source: Iterator[tuple[int, str]]) -> None:
        self.source = source
        self.number = 0

    def __iter__(self) -> _CsvLines:
        return self

    def __next__(self) -> str:
        self.number, text = next(self.source)
        return text + "\n"


class _Column(NamedTuple):
    """A CSV column as the header names it, and what its cells become in the record."""

    name: str  # as the header names it
    field: str  # the record's field (``source_file`` is ``file`` in ``source``)
    number: bool
    required: bool
    nested: bool  # a field of ``source``


def _csv_header(line: int, row: list[str]) -> list[_Column]:
    header = [cell.strip() for cell in row]
    for column in header:
        if column not in CSV_COLUMNS:
            raise problem(
                line,
                said(
                    "unknown column {column} (the columns are: {columns})",
                    column=repr(column),
                    columns=", ".join(CSV_COLUMNS),
                ),
            )
    seen: set[str] = set()
    for column in header:
        if column in seen:
            raise problem(line, said("column {column} named twice", column=repr(column)))
        seen.add(column)
    missing = [column for column in REQUIRED if column not in seen]
    if missing:
        raise problem(line, said("the header row lacks {columns}", columns=", ".join(missing)))
    return [
        _Column(
            name=column,
            field=column.removeprefix("source_"),
            number=column in ("game", "cube", "points", "source_game_index"),
            required=column in REQUIRED,
            nested=column.startswith("source_"),
        )
        for column in header
    ]


def _csv_record(line: int, header: list[_Column], row: list[str]) -> dict[str, Any]:
    """A CSV row as the JSON record it stands for: numbers as numbers, ``source`` nested.
    An optional column left empty is left out."""
    record: dict[str, Any] = {}
    source: dict[str, Any] = {}
    for column, text in zip(header, row, strict=True):
        value: Any = text
        if column.number:
            digits = text.strip()
            if not digits and not column.required:
                continue
            if not _INTEGER.fullmatch(digits):
                raise problem(
                    line,
                    said(
                        "{key} must be a whole number, not {value}",
                        key=column.name,
                        value=repr(text),
                    ),
                )
            value = int(digits)
        elif not column.required and not text.strip():
            continue
        if column.nested:
            source[column.field] = value
        else:
            record[column.field] = value
    if source:
        record["source"] = source
    return record


def _game(
    index: int, line: int, record: Mapping[str, Any], same: Callable[[str, str], str]
) -> EngineGame:
    """One record, checked field by field (a plain, valid record in one pass). A plain
    record's names and words are the copies ``same`` keeps (``dict.setdefault``) and
    :data:`_WORDS`: a hundred thousand such games hold a handful of strings, not half a
    million, and the import keeps them while it checks the file pickled once a batch, not
    once a game. (A record with more fields is read by :func:`_checked_game`, as given.)"""
    if record.keys() == _REQUIRED_SET:
        session, game, winner, loser = (
            record["session"],
            record["game"],
            record["winner"],
            record["loser"],
        )
        cube, result, end, points = (
            record["cube"],
            record["result"],
            record["end"],
            record["points"],
        )
        if (
            type(session) is str  # exact types: True is not a number of points
            and type(winner) is str
            and type(loser) is str
            and type(game) is int
            and type(cube) is int
            and type(points) is int
            and session.strip()
            and winner.strip()
            and loser.strip()
            and winner != loser
            and game >= 1
            and cube >= 1
            and cube & (cube - 1) == 0
            and result in _RESULTS
            and end in _PLAYED
            and points == pair_points(cube, result)
            and (end != "drop" or result == "single")
        ):
            key = _blake2b(  # game_key("neutral", …) in one step: this is the hot path
                f"neutral{session}\x1f{game}\x1f{winner}\x1f{loser}\x1f{cube}\x1f{result}"
                f"\x1f{end}\x1f{points}\x1f\x1f".encode("utf-8", "surrogatepass"),
                digest_size=16,
            ).hexdigest()
            return EngineGame(
                index, line, same(winner, winner), same(loser, loser), points, cube,
                _WORDS[result], _WORDS[end], None, (), game, same(session, session), None, None,
                key,
            )  # fmt: skip
    return _checked_game(index, line, record)


def _checked_game(index: int, line: int, record: Mapping[str, Any]) -> EngineGame:
    """One record, checked field by field, with the message for the first thing wrong."""
    for key in record:
        if key not in _FIELDS:
            raise problem(
                line,
                said(
                    "unknown field {key} (the fields are: {fields})",
                    key=repr(key),
                    fields=", ".join(REQUIRED + OPTIONAL),
                ),
            )
    missing = [key for key in REQUIRED if key not in record]
    if missing:
        raise problem(
            line,
            said_n(
                "missing field {fields}",
                "missing fields {fields}",
                len(missing),
                fields=", ".join(missing),
            ),
        )
    session = _name(line, record, "session")
    game = _integer(line, record, "game", 1)
    winner = _name(line, record, "winner")
    loser = _name(line, record, "loser")
    if winner == loser:
        raise problem(line, said("winner and loser are both {name}", name=repr(winner)))
    cube = _integer(line, record, "cube", 1)
    if not is_cube_value(cube):
        raise problem(line, said("cube must be 1, 2, 4, 8, …, not {cube}", cube=cube))
    result = _choice(line, record, "result", _RESULTS)
    end = _choice(line, record, "end", _ENDS)
    points = _integer(line, record, "points", 0)
    if end not in ("settle", "forfeit"):
        if end == "drop" and result != "single":
            raise problem(
                line, said("result must be single for a drop, not {result}", result=repr(result))
            )
        expected = pair_points(cube, result)
        if points != expected:
            raise problem(
                line,
                said(
                    "points must be {expected} (cube {cube} × {factor} for a {result}), not "
                    "{points}",
                    expected=expected,
                    cube=cube,
                    factor=MULTIPLIER[result],
                    result=result,
                    points=points,
                ),
            )
    played_at = _played_at(line, record.get("played_at"))
    return EngineGame(
        position=index,
        line=line,
        winner=winner,
        loser=loser,
        points=points,
        cube=cube,
        result=result,
        end=end,
        played_at=played_at,
        number=game,
        session=session,
        rules=_rules(line, record.get("rules")),
        source=_source(line, record.get("source")),
        key=game_key(
            "neutral", session, game, winner, loser, cube, result, end, points, played_at or ""
        ),
    )


def _name(line: int, record: Mapping[str, Any], key: str) -> str:
    value = record[key]
    if not isinstance(value, str):
        raise problem(line, said("{key} must be text, not {kind}", key=key, kind=_json_type(value)))
    if not value.strip():
        raise problem(line, said("{key} must not be empty", key=key))
    return value


def _integer(line: int, record: Mapping[str, Any], key: str, least: int) -> int:
    value = record[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise problem(
            line,
            said("{key} must be a whole number, not {value}", key=key, value=_json_type(value)),
        )
    if value < least:
        raise problem(
            line,
            said("{key} must be {least} or more, not {value}", key=key, least=least, value=value),
        )
    return value


def _choice(line: int, record: Mapping[str, Any], key: str, choices: tuple[str, ...]) -> Any:
    value = record[key]
    if value not in choices or not isinstance(value, str):
        raise problem(
            line,
            said(
                "{key} must be one of {choices}, not {value}",
                key=key,
                choices=", ".join(choices),
                value=repr(value),
            ),
        )
    return value


def _played_at(line: int, value: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise problem(line, _not_a_time(_json_type(value)))
    try:
        datetime.fromisoformat(value.strip())
    except ValueError:
        raise problem(line, _not_a_time(repr(value))) from None
    return value.strip()


def _rules(line: int, value: Any) -> str | None:
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, dict | list):
        return json.dumps(value, sort_keys=True, ensure_ascii=False)
    raise problem(
        line, said("rules must be text or a JSON object, not {kind}", kind=_json_type(value))
    )


def _not_a_time(value: Sayable) -> Sayable:
    return said("played_at must be an ISO 8601 date or time, not {value}", value=value)


def _source(line: int, value: Any) -> EngineSource | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise problem(
            line, said("source must be a JSON object, not {kind}", kind=_json_type(value))
        )
    for key in value:
        if key not in SOURCE_FIELDS:
            raise problem(
                line,
                said(
                    "unknown field source.{key} (the fields are: {fields})",
                    key=key,
                    fields=", ".join(SOURCE_FIELDS),
                ),
            )
    texts: dict[str, str | None] = {}
    for key in ("engine", "file", "sha256"):
        text = value.get(key)
        if text is not None and (not isinstance(text, str) or not text.strip()):
            raise problem(line, said("source.{key} must be non-empty text", key=key))
        texts[key] = text
    sha = texts["sha256"]
    if sha is not None and not _SHA256.fullmatch(sha):
        raise problem(line, said("source.sha256 must be 64 hexadecimal digits"))
    game_index = value.get("game_index")
    if game_index is not None and (
        isinstance(game_index, bool) or not isinstance(game_index, int) or game_index < 0
    ):
        raise problem(
            line,
            said("source.game_index must be a whole number, not {value}", value=repr(game_index)),
        )
    return EngineSource(
        engine=texts["engine"],
        file=texts["file"],
        sha256=sha.lower() if sha else None,
        game_index=game_index,
    )


def _json_type(value: Any) -> Sayable:
    """What a value is, for a message (``null`` and ``true/false`` as JSON writes them)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int | float):
        return said("the number {value}", value=repr(value))
    if isinstance(value, str):
        return said("the text {value}", value=repr(value))
    return said("a list") if isinstance(value, list) else said("an object")
