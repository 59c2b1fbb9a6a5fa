"""Reading two-party game results from backgammon engines (ENGINES.md).

No engine records a chouette: gnubg, XG, BGBlitz and the servers record two-player money
sessions or matches. Each reader here turns an engine file into :class:`EngineGame` values
— who won, how many points, how the game ended — streamed one game at a time from an
iterable of text lines, so memory stays flat however large the file. Readers are pure: they
take the lines and the session's house rules (for what a file cannot say), and raise
:class:`~chouette.errors.EngineFileError` naming the line and the reason.

The readers: :func:`~chouette.engines.mat.read_mat` (Jellyfish ``.mat``),
:func:`~chouette.engines.sgf.read_sgf` (gnubg SGF), and
:func:`~chouette.engines.neutral.read_jsonl` / :func:`~chouette.engines.neutral.read_csv`
(the engine-neutral result record); :func:`read_engine_file` picks one by the file's name.
eXtreme Gammon ``.xg`` and BGBlitz ``.bgf`` files are binary: the optional gammonview
library decodes them (the importer calls it) and
:func:`~chouette.engines.binary.read_gammonview` turns what it gives into games.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import PurePath

from chouette.engines.binary import LABELS, binary_kind, read_gammonview
from chouette.engines.mat import read_mat
from chouette.engines.model import (
    Ending,
    EngineGame,
    EngineRead,
    EngineSession,
    EngineSource,
    Scored,
)
from chouette.engines.neutral import read_csv, read_jsonl
from chouette.engines.sgf import read_sgf
from chouette.errors import EngineFileError
from chouette.points import MULTIPLIER
from chouette.words import said

#: The kinds of engine file :func:`read_engine_file` reads, by extension.
KINDS = {
    ".mat": "Jellyfish .mat",
    ".txt": "Jellyfish .mat (as text)",
    ".sgf": "gnubg SGF",
    ".jsonl": "neutral records (JSON Lines)",
    ".json": "neutral records (JSON)",
    ".csv": "neutral records (CSV)",
    ".xg": "eXtreme Gammon .xg (with gammonview)",
    ".bgf": "BGBlitz .bgf (with gammonview)",
}


def read_engine_file(
    name: str, lines: Iterable[str], *, jacoby: bool, auto_doubles: int = 0
) -> EngineRead:
    """Read an engine file, choosing the reader by the extension of ``name``.

    ``lines`` is the file's text (lines, or chunks for SGF); ``jacoby`` and
    ``auto_doubles`` are the session's house rules for what the file does not say.
    """
    suffix = PurePath(name).suffix.lower()
    if suffix in (".mat", ".txt"):
        return read_mat(lines, jacoby=jacoby, auto_doubles=auto_doubles)
    if suffix == ".sgf":
        return read_sgf(lines, jacoby=jacoby, auto_doubles=auto_doubles)
    if suffix in (".jsonl", ".json"):
        return read_jsonl(lines)
    if suffix == ".csv":
        return read_csv(lines)
    kind = binary_kind(name)
    if kind is not None:  # the importer reads these as bytes, never as text
        raise EngineFileError(
            said("{file}: an {kind} file is binary, not text", file=name, kind=LABELS[kind])
        )
    raise EngineFileError(
        said(
            "{file}: not an engine file this program reads (it reads {known})",
            file=name,
            known=", ".join(KINDS),
        )
    )


__all__ = [
    "KINDS",
    "MULTIPLIER",
    "Ending",
    "EngineGame",
    "EngineRead",
    "EngineSession",
    "EngineSource",
    "Scored",
    "binary_kind",
    "read_csv",
    "read_engine_file",
    "read_gammonview",
    "read_jsonl",
    "read_mat",
    "read_sgf",
]
