"""The files a command reads or writes beside the ledger.

An export or a report is written whole or not at all: into a temporary file beside the
target, flushed to the disk, then renamed over it, so a full disk or a killed process leaves
the old file as it was; and never over the ledger's own files. A file of records is read
whole before the ledger is opened, bounded (:data:`MAX_INPUT`): a regular file or standard
input, UTF-8 text. An export is read line by line (:func:`export_lines`), each line bounded
(:data:`MAX_EXPORT_LINE`), from a regular file only.
"""

from __future__ import annotations

import codecs
import errno
import os
import stat
import sys
import tempfile
from collections.abc import Generator, Iterable, Sequence
from contextlib import suppress
from pathlib import Path
from typing import BinaryIO

from chouette.errors import ChouetteError
from chouette.text import clipped
from chouette.words import Number, Sayable, said

#: The most ``chouette record`` reads at once: 64 MiB, some 200,000 game records.
MAX_INPUT = 64 << 20
#: The longest line of an export chouette reads, in characters: a session's chain is one
#: line, some 250 characters a link (a command that changed the session), so some 250,000
#: commands; any other line is far shorter.
MAX_EXPORT_LINE = 64 << 20

_REASONS = {
    errno.ENOSPC: said("the disk is full"),
    errno.EDQUOT: said("the disk quota is used up"),
    errno.EFBIG: said("the file would pass the largest size allowed here"),
    errno.EROFS: said("the disk is read-only"),
    errno.EACCES: said("permission denied"),
    errno.EPERM: said("permission denied"),
    errno.ENOENT: said("no such folder"),
    errno.EISDIR: said("it is a folder"),
    errno.ENOTDIR: said("a part of the path is not a folder"),
    errno.ENAMETOOLONG: said("the name is too long"),
}


def reason(err: OSError) -> Sayable:
    """What went wrong with a file, in plain words (the reader's; else the system's)."""
    if err.errno in _REASONS:
        return _REASONS[err.errno]
    return err.strerror or str(err)


def refuse_ledger(target: Path, ledger: Sequence[Path]) -> None:
    """Refuse to write ``target`` if it is one of the ledger's own files (``ledger``: see
    :func:`db.urls.ledger_files`; through a symbolic or a hard link too), or if it is no file
    name at all."""
    if "\x00" in str(target):
        raise ChouetteError(_no_file_name(str(target)))
    real = Path(os.path.realpath(target))
    try:
        mine = os.stat(real)
    except OSError:
        mine = None
    for own in ledger:
        same = real == Path(os.path.realpath(own))
        if not same and mine is not None:
            with suppress(OSError):
                theirs = os.stat(own)
                same = (mine.st_dev, mine.st_ino) == (theirs.st_dev, theirs.st_ino)
        if same:
            raise ChouetteError(
                said(
                    "{file} is the ledger's own file ({own}): writing there would destroy the "
                    "ledger; give another file",
                    file=str(target),
                    own=str(own),
                )
            )


def write_whole(target: Path, data: bytes | Iterable[bytes], *, private: bool) -> bool:
    """Write ``data`` (the bytes, or their pieces as they are made) to ``target`` whole or
    not at all; True if it replaced a file.

    A new file is made readable by its owner only if ``private`` (an export holds the whole
    ledger), else as the umask says; a replaced file keeps its permissions. A terminal, a
    pipe or a device is written in place. Raises :class:`OSError`; the old file, if any, is
    then untouched and no temporary file is left."""
    try:
        found: os.stat_result | None = os.stat(target)  # through links: /dev/stdout too
    except FileNotFoundError:
        found = None
    if found is not None and not stat.S_ISREG(found.st_mode):
        if stat.S_ISDIR(found.st_mode):
            raise IsADirectoryError(errno.EISDIR, "Is a directory", str(target))
        with open(target, "wb") as out:
            _write(out, data)
        return False
    real = Path(os.path.realpath(target))  # a link is kept; the file it names is replaced
    handle, temporary = tempfile.mkstemp(dir=real.parent, prefix=f".{real.name}.", suffix=".part")
    try:
        with os.fdopen(handle, "wb") as out:
            _write(out, data)
            out.flush()
            os.fsync(out.fileno())
        if found is not None:
            os.chmod(temporary, stat.S_IMODE(found.st_mode))
        elif not private:
            mask = os.umask(0)
            os.umask(mask)
            os.chmod(temporary, 0o666 & ~mask)
        os.replace(temporary, real)
    except BaseException:
        with suppress(OSError):
            os.unlink(temporary)
        raise
    with suppress(OSError):  # the rename itself, on the disk
        folder = os.open(real.parent, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)
    return found is not None


def _write(out: BinaryIO, data: bytes | Iterable[bytes]) -> None:
    if isinstance(data, bytes):
        out.write(data)
    else:
        out.writelines(data)


def _no_file_name(text: str) -> Sayable:
    return said("{name} is no file name: it holds a NUL character", name=repr(text))


def read_input(source: str, what: Sayable, limit: int = MAX_INPUT) -> str:
    """The text of a regular file, or of standard input for ``-``: at most ``limit`` bytes
    of UTF-8. ``what`` names the command's files in messages (``said("records")``)."""
    label: Sayable = said("standard input") if source == "-" else source
    if source == "-":
        data = sys.stdin.buffer.read(limit + 1)
    else:
        if "\x00" in source:
            raise ChouetteError(_no_file_name(source))
        try:
            handle = os.open(source, os.O_RDONLY | os.O_NONBLOCK)  # a pipe must not block us
        except OSError as err:
            raise ChouetteError(_cannot_read(source, err)) from None
        if not stat.S_ISREG(os.fstat(handle).st_mode):
            os.close(handle)
            raise ChouetteError(
                said(
                    "{file} is not a regular file (a device, a pipe or a folder): give a file "
                    "of {what}, or - for standard input",
                    file=source,
                    what=what,
                )
            )
        with open(handle, "rb") as file:
            try:
                data = file.read(limit + 1)
            except OSError as err:
                raise ChouetteError(_cannot_read(source, err)) from None
    if len(data) > limit:
        raise ChouetteError(
            said(
                "{file} holds more than {most} MiB, the most read at once: split the {what} "
                "into smaller files",
                file=label,
                most=limit >> 20,
                what=what,
            )
        )
    if data.startswith(codecs.BOM_UTF8):  # a mark some editors put first
        data = data[len(codecs.BOM_UTF8) :]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        byte = f"0x{data[err.start]:02x}"
        raise ChouetteError(
            said(
                "{file} is not UTF-8 text (byte {byte} on line {line})",
                file=label,
                byte=byte,
                line=line,
            )
        ) from None


def _cannot_read(source: str, err: OSError) -> Sayable:
    return said("cannot read {file}: {reason}", file=source, reason=reason(err))


class Unreadable(ChouetteError):
    """A file that cannot be read as text, its message naming it."""


def export_lines(path: Path, longest: int | None = None) -> Generator[tuple[int, str]]:
    """The lines of the export at ``path``, numbered from 1, as restore and ``verify`` read
    them: UTF-8 text (a byte-order mark first is skipped), no line longer than ``longest``
    characters (:data:`MAX_EXPORT_LINE` by default). A device, a pipe or a folder is refused
    at once (it may never end), as is a line longer than that (unread past the limit) or
    bytes that are not UTF-8, naming the line."""
    longest = MAX_EXPORT_LINE if longest is None else longest
    shown = clipped(str(path))
    try:
        handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a pipe must not block us
    except OSError as err:
        raise Unreadable(_cannot_read(shown, err)) from None
    except ValueError:  # (a NUL in the name)
        raise Unreadable(_no_file_name(str(path))) from None
    if not stat.S_ISREG(os.fstat(handle).st_mode):
        os.close(handle)
        raise Unreadable(
            said(
                "{path} is not a regular file (a device, a pipe or a folder): no chouette export",
                path=shown,
            )
        )
    number = 0
    with open(handle, encoding="utf-8-sig") as text:
        while True:
            number += 1
            try:
                line = text.readline(longest + 1)
            except UnicodeDecodeError:
                raise Unreadable(
                    said(
                        "{path} is not UTF-8 text (line {number}): no chouette export",
                        path=shown,
                        number=number,
                    )
                ) from None
            except OSError as err:
                raise Unreadable(_cannot_read(shown, err)) from None
            if not line:
                return
            if len(line) > longest and not line.endswith("\n"):
                raise ChouetteError(
                    said(
                        "line {number} is longer than {longest} characters: no line of a "
                        "chouette export is",
                        number=number,
                        longest=Number(longest),
                    )
                )
            yield number, line
