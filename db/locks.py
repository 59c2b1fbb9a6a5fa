"""Waiting for another writer: how long a command waits for the ledger's write lock, and
the note that says it waits.

Two commands that write one ledger take turns: on SQLite the second waits to begin its
transaction (``BEGIN IMMEDIATE``, SQLite's busy timeout), on PostgreSQL for the row the first
one locked (``SELECT … FOR UPDATE``, the server's ``lock_timeout``). It waits at most
:func:`lock_timeout_ms` (``CHOUETTE_LOCK_TIMEOUT`` seconds; default 30), then gives up with
a message, having written nothing. A wait longer than :data:`NOTE_AFTER` seconds is said
once, as it happens, by whatever :func:`say_waits` was given (the CLI: a note on standard
error), so a command that waits does not look hung.

Standard library only: the quick read path imports this too.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from chouette.errors import ChouetteError
from chouette.text import clipped
from chouette.words import Number, Said, said

#: How long a command waits for another's lock, by default (milliseconds).
BUSY_TIMEOUT_MS = 30_000
#: The bounds of ``CHOUETTE_LOCK_TIMEOUT``, in whole seconds.
LOCK_SECONDS = (1, 3_600)
#: After how many seconds of waiting the wait is said.
NOTE_AFTER = 1.0

_say: Callable[[Said], None] | None = None


def lock_timeout_ms() -> int:
    """How long a command waits for another's lock: ``CHOUETTE_LOCK_TIMEOUT`` (whole
    seconds, 1 to 3,600), else :data:`BUSY_TIMEOUT_MS`."""
    text = os.environ.get("CHOUETTE_LOCK_TIMEOUT", "").strip()
    if not text:
        return BUSY_TIMEOUT_MS
    least, most = LOCK_SECONDS
    if not (text.isascii() and text.isdigit() and least <= int(text[:6]) <= most):
        raise ChouetteError(
            said(
                "CHOUETTE_LOCK_TIMEOUT is {text}: give the seconds a command waits for "
                "another's lock, a whole number from {least} to {most} (default {default})",
                text=repr(clipped(text)),
                least=least,
                most=Number(most),
                default=BUSY_TIMEOUT_MS // 1000,
            )
        )
    return int(text) * 1000


def timeout_text() -> str:
    """The lock timeout as a message says it: ``30 s``."""
    return f"{lock_timeout_ms() / 1000:g} s"


def say_waits(say: Callable[[Said], None] | None) -> None:
    """Who says that a command waits (None: nobody, as in the server)."""
    global _say
    _say = say


class Watch:
    """A watch over a statement or a transaction that may wait for another writer's lock:
    once it has run :data:`NOTE_AFTER` seconds and ``blocked()`` says it waits for a lock
    (where that can be asked: PostgreSQL; else any wait is one), the wait is said, once;
    asked again each second until :meth:`stop`, which can wait for a look under way (on a
    connection of its own) to end."""

    def __init__(self, blocked: Callable[[], bool] | None = None) -> None:
        self.blocked = blocked
        self.done = threading.Event()
        self.thread: threading.Thread | None = None

    def start(self) -> Watch:
        if _say is not None:
            self.thread = threading.Thread(
                target=self._watch, name="chouette-lock-wait", daemon=True
            )
            self.thread.start()
        return self

    def stop(self, *, wait: bool = True) -> None:
        """End the watch, and (``wait``) wait for a look at the server under way: its
        connection is then back in the engine's pool (an engine disposed before it came
        back would leave that connection open, for the garbage collector to find)."""
        self.done.set()
        if wait and self.thread is not None and self.thread is not threading.current_thread():
            self.thread.join()

    def _watch(self) -> None:
        while not self.done.wait(NOTE_AFTER):
            try:
                waits = self.blocked is None or self.blocked()
            except Exception:  # a look at the server that fails says nothing
                waits = False
            say = _say
            if waits and not self.done.is_set() and say is not None:
                say(
                    said(
                        "waiting for another command that is writing to the ledger (giving up "
                        "after {wait}; CHOUETTE_LOCK_TIMEOUT sets how long)",
                        wait=timeout_text(),
                    )
                )
                return


@contextmanager
def waiting(blocked: Callable[[], bool] | None = None) -> Iterator[None]:
    """A :class:`Watch` over the statement in the block."""
    watch = Watch(blocked).start()
    try:
        yield
    finally:
        watch.stop()
