"""An engine file read and checked whole, before the ledger is opened: what it is (gzip or
not, a binary ``.xg``/``.bgf`` or text in which encoding, by its name or its first bytes),
its SHA-256, and its games, kept (in memory, or on disk for a big file) for the import
(:mod:`db.imports`) to book without reading the file again.

A regular file only: a device, a pipe or a folder is refused at once. A text file that is not
UTF-8 and does not say what it is, is read again as Windows-1252, then Latin-1, with a
warning. Nothing here touches the ledger.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import pickle
import stat
import tempfile
import zlib
from collections.abc import Callable, Iterator
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path, PurePath
from typing import IO, Any, TypeVar, cast

from chouette.engines import KINDS, EngineGame, EngineRead, read_engine_file
from chouette.engines.binary import (
    LABELS,
    MAGIC_BYTES,
    MAX_BINARY,
    Kind,
    binary_kind,
    binary_magic,
    check_inflated,
    read_gammonview,
)
from chouette.engines.text import (
    GZIP_MAGIC,
    Encoding,
    NotDecodable,
    fallback,
    sniff,
    text_chunks,
    text_lines,
)
from chouette.errors import EngineFileError
from chouette.rules import HouseRules
from chouette.words import Number, Said, Sayable, joined, said

BATCH = 5000
#: How many bytes of a checked file's games are kept in memory; past that, on disk.
KEPT_IN_MEMORY = 8 << 20
T = TypeVar("T")
CHUNK = 1 << 20


@dataclass(frozen=True)
class Checked:
    """An engine file read and checked whole before the ledger is locked: what it is (its
    encoding, format and SHA-256) and its games, kept as they were read (in batches, in
    memory or, for a big file, in a temporary file) for :func:`import_file` to book without
    reading the file again. Close it when done (it is a context manager)."""

    path: Path
    sha256: str
    encoding: Encoding | None  # None: a binary file (.xg, .bgf), not text
    format: str
    games: int
    notes: tuple[Sayable, ...] = ()  # what the reader says of the file (an unfinished game, …)
    warnings: tuple[Sayable, ...] = ()  # what a person should look at (a guessed encoding)
    kept: IO[bytes] = field(default_factory=io.BytesIO, repr=False)
    players: tuple[str, ...] = ()  # the players the file names

    def batches(self) -> Iterator[list[EngineGame]]:
        """The games, in order, a batch at a time."""
        self.kept.seek(0)
        while True:
            try:
                rows = pickle.load(self.kept)
            except EOFError:
                return
            yield [EngineGame._make(row) for row in rows]

    def close(self) -> None:
        self.kept.close()

    def __enter__(self) -> Checked:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def _opened(path: Path) -> tuple[IO[bytes], int]:
    """The file at ``path`` opened for reading, and its size: a regular file only (a device
    such as /dev/zero, a pipe or a directory would never end or never be a file of games)."""
    try:
        found = path.stat()
        if not stat.S_ISREG(found.st_mode):
            raise _Unreadable(
                said(
                    "{file}: not a regular file (a device, a pipe or a folder): nothing booked",
                    file=str(path),
                )
            )
        return path.open("rb"), found.st_size
    except OSError as err:
        raise _Unreadable(
            said("{file}: cannot read it ({reason})", file=str(path), reason=_system(err))
        ) from None


def _system(err: OSError) -> str:
    """The system's own words for what went wrong."""
    return str(err.strerror or err)


class _Unreadable(EngineFileError):
    """A path that is not a file that can be read (its message names the path as given)."""


class _Hashed(io.RawIOBase):
    """The file's bytes as they are read, hashed on the way and counted for progress."""

    def __init__(self, raw: IO[bytes], progress: Callable[[int], None] | None) -> None:
        self.raw, self.progress = raw, progress
        self.digest = hashlib.sha256()
        self.done = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = self.raw.read(len(buffer))
        size = len(data)
        buffer[:size] = data
        self.digest.update(data)
        self.done += size
        if self.progress is not None:
            self.progress(self.done)
        return size

    def finish(self) -> str:
        """The SHA-256 of the whole file (what was not read yet is read now)."""
        while data := self.raw.read(CHUNK):
            self.digest.update(data)
        return self.digest.hexdigest()


def read_pass(
    path: Path,
    encoding: Encoding | None,
    rules: HouseRules,
    progress: Callable[[int], None] | None,
    use: Callable[[EngineRead], T],
) -> tuple[Encoding | None, str, T, EngineRead]:
    """One pass over the file: decompressed if it is gzip (known by its first bytes, whatever
    its name), then read as a binary file (``.xg``, ``.bgf``: by its name without ``.gz``,
    or, when the name says nothing, by its first bytes) or decoded as text (as ``encoding``,
    or as its first bytes say) by the reader its name picks; ``use`` consumes the games.
    Returns the encoding (``None`` for a binary file), the file's SHA-256 (of its bytes as
    they are, compressed or not), what ``use`` returned and the read file."""
    raw, size = _opened(path)
    with raw:
        hashed = _Hashed(raw, progress)
        buffered = io.BufferedReader(hashed, CHUNK)
        try:
            compressed = buffered.peek(2)[:2] == GZIP_MAGIC
            stream = gzip.GzipFile(fileobj=buffered, mode="rb") if compressed else buffered
            name = path.name[:-3] if compressed and path.name.lower().endswith(".gz") else path.name
            kind = binary_kind(name)
            if kind is None and PurePath(name).suffix.lower() not in KINDS:
                kind = binary_magic(stream.peek(MAGIC_BYTES)[:MAGIC_BYTES])
            if kind is not None:
                read = _read_binary(stream, size, kind, compressed=compressed)
            else:
                sgf = PurePath(name).suffix.lower() == ".sgf"
                if encoding is None:
                    encoding = sniff(stream.peek(4096)[:4096], sgf=sgf)
                lines = cast(IO[bytes], stream)
                text = text_chunks(lines, encoding) if sgf else text_lines(lines, encoding)
                with closing(text):  # done with the text before the file closes, also on errors
                    read = read_engine_file(
                        name, text, jacoby=rules.jacoby, auto_doubles=rules.auto_doubles
                    )
                    result = use(read)
        except EOFError:
            raise EngineFileError(
                said(
                    "cannot read it: the gzip file is cut short (it ends before its compressed "
                    "data does): nothing booked"
                )
            ) from None
        except (OSError, zlib.error) as err:  # a damaged .gz
            raise EngineFileError(said("cannot read it: {reason}", reason=str(err))) from None
        sha = hashed.finish()
    if kind is not None:  # its games checked once the file is closed, as a text file's are
        return None, sha, use(read), read
    return encoding, sha, result, read


def _read_binary(
    stream: io.BufferedIOBase, size: int, kind: Kind, *, compressed: bool
) -> EngineRead:
    """An eXtreme Gammon ``.xg`` or BGBlitz ``.bgf`` file, read whole as bytes from
    ``stream`` (the file, or what its gzip holds), at most :data:`MAX_BINARY` of them either
    way (``size`` is the file's), and decoded by the optional gammonview library (imported
    here, and only here: no other command loads it)."""
    try:
        import gvformat  # type: ignore[import-untyped,unused-ignore]
    except ImportError:
        raise EngineFileError(
            said(
                "reading {kind} files needs the gammonview library, which is not installed: "
                "in chouette's clone, with the pip that installed chouette, pip install "
                "'.[xg]'",
                kind=LABELS[kind],
            )
        ) from None
    if size > MAX_BINARY:
        raise EngineFileError(_too_big(size, kind))
    data = stream.read(MAX_BINARY + 1)
    if len(data) > MAX_BINARY:
        if compressed:  # a decompression bomb, or no file of games
            raise EngineFileError(
                said(
                    "it is gzip, and expands to more than {most} MiB, more than any {kind} file "
                    "of games: refused",
                    most=MAX_BINARY >> 20,
                    kind=LABELS[kind],
                )
            )
        raise EngineFileError(_too_big(len(data), kind))  # it grew while it was read
    check_inflated(data, kind)
    convert = gvformat.convert_xg if kind == "xg" else gvformat.convert_bgf
    try:
        doc = convert(data)
    except Exception as err:  # the library's own errors: whatever a damaged file causes
        reason = " ".join(str(err).split())[:200] or type(err).__name__
        raise EngineFileError(
            said(
                "not a readable {kind} file (gammonview: {reason}): nothing booked",
                kind=LABELS[kind],
                reason=reason,
            )
        ) from None
    return read_gammonview(doc, kind)


def _too_big(size: int, kind: Kind) -> Said:
    return said(
        "{size} bytes, more than any {kind} file of games (at most {most} MiB): refused",
        size=Number(size),
        kind=LABELS[kind],
        most=MAX_BINARY >> 20,
    )


def check_file(
    path: Path,
    rules: HouseRules,
    *,
    match_as_money: bool = False,
    progress: Callable[[int], None] | None = None,
) -> Checked:
    """Read and check the engine file at ``path`` whole, without the ledger: every game it
    holds is readable, it is money play (or ``match_as_money``). A file that is not UTF-8
    and does not say what it is is read again as Windows-1252 (then Latin-1), with a note."""
    encoding: Encoding | None = None
    warnings: list[Sayable] = []
    kept: IO[bytes] = tempfile.SpooledTemporaryFile(max_size=KEPT_IN_MEMORY)  # noqa: SIM115

    def keep(read: EngineRead) -> int:
        if read.session.is_match and not match_as_money:
            raise EngineFileError(
                said(
                    "a {length}-point match, not money play: refused (give --match-as-money "
                    "to book its games as money games anyway)",
                    length=read.session.match_length,
                )
            )
        kept.seek(0)
        kept.truncate()
        count = 0
        batch: list[tuple[Any, ...]] = []
        for game in read.games:
            batch.append(tuple(game))
            if len(batch) >= BATCH:
                pickle.dump(batch, kept, protocol=pickle.HIGHEST_PROTOCOL)
                count += len(batch)
                batch = []
        pickle.dump(batch, kept, protocol=pickle.HIGHEST_PROTOCOL)
        return count + len(batch)

    try:
        while True:
            try:
                found, sha, games, read = read_pass(path, encoding, rules, progress, keep)
            except NotDecodable as err:
                encoding = fallback(err.encoding)
                if encoding is None:
                    raise EngineFileError(joined((path.name, err.said), ": ")) from None
                warnings = [
                    said(
                        "{file} is not {encoding} text: read as {fallback}",
                        file=path.name,
                        encoding=err.encoding.label,
                        fallback=encoding.label,
                    )
                ]
                continue
            except _Unreadable:
                raise
            except EngineFileError as err:
                raise EngineFileError(joined((path.name, err.said), ": ")) from None
            except OSError as err:  # the temporary file: a full disk
                raise EngineFileError(
                    said(
                        "{file}: no room to keep its games while it is checked ({reason})",
                        file=path.name,
                        reason=_system(err),
                    )
                ) from None
            return Checked(
                path,
                sha,
                found,
                read.session.format,
                games,
                tuple(read.notes),
                tuple(warnings),
                kept,
                players=read.session.players,
            )
    except BaseException:
        kept.close()
        raise
