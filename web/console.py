"""The CLI run inside the server: a command line in the CLI's own words, run by the CLI's own
parser (:func:`cli.run_words`, as at the ``chouette table`` prompt; handed in, never
imported: the server sits below the command line) in this process, what it
prints caught for the page.

The server runs many threads (the event loop, the board's reads) and only the command's thread
may be caught: standard output, error and input are routed per thread (:class:`Routed`), so
what the command prints goes to the page while everything else the server prints still goes
to its terminal. A command reads no input here (it gets none: the page has no terminal).
"""

from __future__ import annotations

import io
import logging
import re
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Any, TextIO

log = logging.getLogger("chouette.serve")

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")  # a colour the CLI adds (FORCE_COLOR set)

#: What runs a command line in the CLI's words and gives its exit code.
Commands = Callable[[Sequence[str]], int]

_caught = threading.local()


class Routed(io.TextIOBase):
    """A standard stream that, in a thread catching its output (:func:`run`), is that
    thread's own buffer, and elsewhere the stream it replaced."""

    def __init__(self, real: TextIO, name: str) -> None:
        self.real = real
        self.name = name

    def _own(self) -> io.StringIO | None:
        found: io.StringIO | None = getattr(_caught, self.name, None)
        return found

    def _target(self) -> Any:
        own = self._own()
        return self.real if own is None else own

    def write(self, text: str) -> int:
        return int(self._target().write(text))

    def read(self, size: int | None = -1) -> str:
        return str(self._target().read(size))

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        return str(self._target().readline(size))

    def flush(self) -> None:
        self._target().flush()

    def isatty(self) -> bool:
        return self._own() is None and bool(self.real.isatty())

    def fileno(self) -> int:
        if self._own() is not None:
            raise io.UnsupportedOperation("fileno: a caught stream")
        return int(self.real.fileno())

    def readable(self) -> bool:
        return self.name == "stdin"

    def writable(self) -> bool:
        return self.name != "stdin"

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return "utf-8" if self._own() is not None else str(getattr(self.real, "encoding", "utf-8"))

    @property
    def errors(self) -> str | None:  # type: ignore[override]
        return "strict" if self._own() is not None else getattr(self.real, "errors", None)


def _route() -> None:
    """Route the standard streams per thread (again, if something replaced them since)."""
    for name in ("stdin", "stdout", "stderr"):
        current = getattr(sys, name)
        if not isinstance(current, Routed):
            setattr(sys, name, Routed(current, name))


_once = threading.Lock()


def run(commands: Commands, words: list[str]) -> tuple[int, str, str]:
    """``chouette WORDS`` run by the CLI in this thread (``commands``: the CLI's
    :func:`cli.run_words`, handed to the server by ``chouette serve``, so that nothing here
    imports the command line), as the table's prompt runs a line: its exit code, what it
    printed on standard output and on standard error (colours taken out). A failure of
    chouette's own (a bug) is logged and said as an error."""
    with _once:
        _route()
    _caught.stdin, _caught.stdout, _caught.stderr = io.StringIO(), io.StringIO(), io.StringIO()
    try:
        code = commands(words)
    except Exception:  # a bug of chouette's: the server's log has it, the page says so
        log.exception("chouette failed running %r", words[:40])
        code = 1
        _caught.stderr.write("Error: chouette failed (the terminal of chouette serve says why)\n")
    finally:
        out, err = _caught.stdout.getvalue(), _caught.stderr.getvalue()
        _caught.stdin = _caught.stdout = _caught.stderr = None
    return code, ANSI.sub("", out), ANSI.sub("", err)
