"""What ``chouette serve`` prints on its terminal, written so that the terminal never holds
the server up.

Writing to a terminal can wait for as long as the terminal likes: Ctrl-S pauses it, a Windows
console with text selected stops its program's writes until the selection ends, and a pipe
that nobody reads is full after 64 KiB. The server's lines (``page: …`` for each action of the
keeper's page, the log's warnings) are made in its event loop, so one write that waits would
stop every page. :class:`Terminal` keeps them in a queue of at most :data:`MOST_LINES` lines
and writes them from a thread of its own: only that thread ever waits. While the terminal is
stuck and the queue full, further lines are left out (a line marked ``latest``, such as a new
PIN, replaces its own older one and is never left out), and once it moves again the terminal
is told how many, once.
"""

from __future__ import annotations

import logging
import sys
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

MOST_LINES = 1000  # lines waiting for the terminal (a few hundred kilobytes at most)


@dataclass(frozen=True)
class Line:
    text: str
    err: bool = False
    latest: str | None = None  # a kind of line of which only the newest matters


def to_stderr(text: str) -> None:
    """A line on standard error, as the CLI writes its warnings."""
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


class Terminal:
    """The server's lines, written in order by a thread of its own: ``out`` writes a line to
    standard output (the CLI's own ``say``), ``err`` one to standard error."""

    def __init__(
        self,
        out: Callable[[str], None],
        err: Callable[[str], None] = to_stderr,
        most: int = MOST_LINES,
    ) -> None:
        self.out, self.err, self.most = out, err, most
        self.waiting: deque[Line] = deque()
        self.left_out = 0  # lines left out since the terminal was last told
        self.writing = False
        self.closed = False
        self._changed = threading.Condition()
        self._thread = threading.Thread(target=self._run, name="terminal", daemon=True)
        self._thread.start()

    def say(self, text: str, *, err: bool = False, latest: str | None = None) -> None:
        """Queue a line for the terminal; never waits (see the module's note)."""
        line = Line(text, err, latest)
        with self._changed:
            if latest is not None:
                kept = [old for old in self.waiting if old.latest != latest]
                self.waiting = deque(kept)
            elif len(self.waiting) >= self.most:
                self.left_out += 1
                return
            while len(self.waiting) >= self.most and self._drop_one():
                pass
            self.waiting.append(line)
            self._changed.notify()

    def _drop_one(self) -> bool:
        """Leave out the oldest line that may be left out (to make room for a ``latest``
        one): whether there was one."""
        for at, old in enumerate(self.waiting):
            if old.latest is None:
                del self.waiting[at]
                self.left_out += 1
                return True
        return False

    def _run(self) -> None:
        while True:
            with self._changed:
                while not self.waiting and not self.closed:
                    self._changed.wait()
                if not self.waiting:
                    return
                line = self.waiting.popleft()
                self.writing = True
            try:
                (self.err if line.err else self.out)(line.text)
                with self._changed:
                    left_out, self.left_out = self.left_out, 0
                if left_out:
                    self.err(
                        f"Warning: the terminal did not take the server's lines for a while "
                        f"(paused, or a pipe nobody read): {left_out} line"
                        f"{'s' if left_out != 1 else ''} left out"
                    )
            except (OSError, ValueError):  # the terminal is gone: nothing more to show
                pass
            finally:
                with self._changed:
                    self.writing = False
                    self._changed.notify_all()

    def flush(self, timeout: float) -> bool:
        """Wait (at most ``timeout`` s) until every line queued is written: whether it was."""
        with self._changed:
            return self._changed.wait_for(
                lambda: not self.waiting and not self.writing, timeout=timeout
            )

    def close(self, timeout: float = 2.0) -> None:
        """Write what is queued (waiting at most ``timeout`` s for a stuck terminal), then
        stop the thread."""
        self.flush(timeout)
        with self._changed:
            self.closed = True
            self._changed.notify_all()


class ToTerminal(logging.Handler):
    """A log handler that hands each record's line to a :class:`Terminal` (standard error)."""

    def __init__(self, terminal: Terminal, level: int = logging.NOTSET) -> None:
        super().__init__(level)
        self.terminal = terminal

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.terminal.say(self.format(record), err=True)
        except Exception:  # (as logging's own handlers: a record that cannot be formatted)
            self.handleError(record)
