"""Engine files as text: encodings, line ends and the limits that keep every reader linear.

Players bring files from many programs and machines: UTF-8 with or without a byte-order
mark, UTF-16 (with a mark, or without one, as some Windows programs write it), Latin-1 or
Windows-1252, line ends of ``\\n``, ``\\r\\n`` or a lone ``\\r``, and gzip-compressed copies.
:func:`sniff` picks the encoding from the first bytes (and, for SGF, the ``CA[]`` property);
:func:`text_lines` and :func:`text_chunks` decode a binary stream the caller opened, with
universal line ends, refusing a line longer than :data:`MAX_LINE` characters so that no
reader ever holds an unbounded line (a device such as ``/dev/zero`` given as a file, or a
file that is not text, is refused at its first long line). Pure: the caller opens and
closes the file.
"""

from __future__ import annotations

import codecs
import io
import re
from collections.abc import Generator
from typing import IO, NamedTuple

from chouette.engines.model import problem
from chouette.errors import EngineFileError
from chouette.words import Number, said

#: The longest line any reader accepts, in characters. Real engine files have lines of a
#: few hundred characters at most; a JSON array written on one line may be longer.
MAX_LINE = 1 << 20
#: How much SGF text is handed to the reader at a time (SGF has no need of lines).
CHUNK = 1 << 16
GZIP_MAGIC = b"\x1f\x8b"
#: The encodings tried, in order, when a file without a byte-order mark is not UTF-8.
FALLBACKS = ("cp1252", "latin-1")

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_CHARSET = re.compile(rb"CA\s*\[\s*([A-Za-z0-9_.:-]{1,40})\s*\]")
_NAMES = {"utf-8": "UTF-8", "utf-16-le": "UTF-16", "utf-16-be": "UTF-16"}


class Encoding(NamedTuple):
    """How a file's bytes become text: the codec, the length of its byte-order mark, and
    where the choice came from (for messages)."""

    codec: str
    bom: int = 0
    declared: str | None = None  # an SGF file's own CA[] property, when it gave the codec

    @property
    def label(self) -> str:
        name = codecs.lookup(self.codec).name
        return {"cp1252": "Windows-1252", "iso8859-1": "Latin-1"}.get(
            name, _NAMES.get(name, name.upper())
        )


class NotDecodable(EngineFileError):
    """The bytes at ``line`` are not text in the encoding tried."""

    def __init__(self, line: int, encoding: Encoding) -> None:
        super().__init__(
            said("line {line}: not {encoding} text", line=line, encoding=encoding.label)
        )
        self.line = line
        self.encoding = encoding


def sniff(head: bytes, *, sgf: bool = False) -> Encoding:
    """The encoding of a file that starts with ``head`` (a few kilobytes are plenty)."""
    for mark, codec in _BOMS:
        if head.startswith(mark):
            return Encoding(codec, len(mark))
    if len(head) >= 4 and head[0] and not head[1] and head[2] and not head[3]:
        return Encoding("utf-16-le")  # ASCII text as UTF-16 without a mark
    if len(head) >= 4 and not head[0] and head[1] and not head[2] and head[3]:
        return Encoding("utf-16-be")
    if sgf:
        declared = _CHARSET.search(head)
        if declared is not None:
            name = declared.group(1).decode("ascii")
            try:
                codec = codecs.lookup(name).name
            except LookupError:
                return Encoding("utf-8")
            return Encoding(codec, declared=name)
    return Encoding("utf-8")


def fallback(after: Encoding) -> Encoding | None:
    """The encoding to try when ``after`` failed, or ``None``: a file that says nothing of
    its encoding and is not UTF-8 was most likely written by a Windows program
    (Windows-1252), and Latin-1 reads any bytes at all."""
    if after.bom or after.codec.startswith(("utf-16", "utf-32")):
        return None
    tried = codecs.lookup(after.codec).name
    names = [codecs.lookup(c).name for c in FALLBACKS]
    if tried not in names:
        return Encoding(FALLBACKS[0])
    later = names.index(tried) + 1
    return Encoding(FALLBACKS[later]) if later < len(FALLBACKS) else None


def _wrap(stream: IO[bytes], encoding: Encoding) -> io.TextIOWrapper:
    if encoding.bom:
        stream.read(encoding.bom)
    return io.TextIOWrapper(
        stream,
        encoding=encoding.codec,
        errors="strict",
        newline=None,  # universal line ends: \n, \r\n and a lone \r all end a line
    )


def text_lines(stream: IO[bytes], encoding: Encoding) -> Generator[str, None, None]:
    """The lines of ``stream`` as text, without their line ends; a line longer than
    :data:`MAX_LINE` characters, or bytes that are not text in ``encoding``, are refused
    with the line's number. The stream is read to its end (not closed)."""
    text = _wrap(stream, encoding)
    number = 0
    try:
        while True:
            number += 1
            try:
                line = text.readline(MAX_LINE + 1)
            except UnicodeDecodeError:
                raise NotDecodable(number, encoding) from None
            if not line:
                return
            if line.endswith("\n"):
                line = line[:-1]
            elif len(line) > MAX_LINE:
                raise problem(
                    number,
                    said(
                        "a line longer than {most} characters: not an engine file this "
                        "program reads",
                        most=Number(MAX_LINE),
                    ),
                )
            if "\x00" in line:
                raise problem(number, said("a NUL character: not a text file"))
            yield line
    finally:
        text.detach()


def text_chunks(stream: IO[bytes], encoding: Encoding) -> Generator[str, None, None]:
    """The text of ``stream`` in pieces of about :data:`CHUNK` characters (line ends made
    ``\\n``), for readers that need no lines. Bytes that are not text in ``encoding`` are
    refused with the line they are on."""
    text = _wrap(stream, encoding)
    line = 1
    try:
        while True:
            try:
                chunk = text.read(CHUNK)
            except UnicodeDecodeError:
                raise NotDecodable(line, encoding) from None
            if not chunk:
                return
            if "\x00" in chunk:
                at = line + chunk.count("\n", 0, chunk.index("\x00"))
                raise problem(at, said("a NUL character"))
            line += chunk.count("\n")
            yield chunk
    finally:
        text.detach()
