"""One place that watches the ledger and tells every connected page.

The ledger is shared by separate processes (every terminal, ``chouette table``, this
server), so the hub polls a cheap marker of what the pages show
(:meth:`db.ledger.Ledger.changes`) a few times a second; when it changes, it reads the
board once, renders the pages' fragments once (in the languages the open streams read:
:class:`Demand`; any other when a page asks, :class:`Lazily`), and wakes every page's event
stream at once, which sends the newest frames (a slow page skips to the latest, it never
queues). An action of the page itself pokes the hub, so it does not wait for the next poll.
A stream has no timer of its own: after :data:`KEEP_ALIVE_SECONDS` without a change the hub
wakes them all (each sends a comment, and checks that its device is still signed in).
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from html import unescape
from typing import TypeVar

from starlette.concurrency import run_in_threadpool

from chouette.errors import ChouetteError
from chouette.words import Sayable
from web.table import Snapshot, Table

log = logging.getLogger("chouette.serve")

V = TypeVar("V")

POLL_SECONDS = 0.25
KEEP_ALIVE_SECONDS = 15.0

#: A part of the room's page that can change alone (a table, the event's level and clock,
#: the players away, the night's totals): marked so in the templates, its outer element
#: naming it (``data-part``). Nothing a person writes can close or open one: the pages
#: escape ``<``.
PART = re.compile(r"<!--part-->(.*?)<!--/part-->", re.DOTALL)
PART_NAME = re.compile(r'data-part="([^"]*)"')

#: A page cut into its parts: what is left around them, and each part by name, in order.
Pieces = tuple[str, tuple[tuple[str, str], ...]]


def pieces(html: str) -> Pieces:
    """``html`` (the room's page) cut into its parts."""
    parts = []
    for found in PART.finditer(html):
        name = PART_NAME.search(found.group(1))
        parts.append((unescape(name.group(1)) if name else "", found.group(1)))
    return PART.sub("", html), tuple(parts)


def changed(before: Pieces, since: int, after: Pieces) -> str | None:
    """What a page showing ``before`` (the version ``since``) replaces to show ``after``,
    as JSON: ``{"since": version, "parts": [[name, html], ...]}``, the parts that differ;
    None if more than parts differ (another set of tables, the event ended: the whole page
    is sent)."""
    names = [name for name, _ in after[1]]
    if not names or before[0] != after[0] or names != [name for name, _ in before[1]]:
        return None
    parts = [
        [name, html]
        for (name, html), (_, was) in zip(after[1], before[1], strict=True)
        if html != was
    ]
    return json.dumps({"since": since, "parts": parts})


class Lazily(Mapping[str, V]):
    """Fragments by key (a player, a language), each made when a page first asks for it,
    then kept: a version's phones that nobody has open, and its pages in languages nobody
    reads, cost nothing. Equal to another made from an equal ``source`` (what they are made
    of: the same keys then make the same fragments) without making either; with no source,
    only to itself."""

    def __init__(
        self, keys: Sequence[str], make: Callable[[str], V], source: object = None
    ) -> None:
        self._keys = tuple(keys)
        self._make = make
        self._made: dict[str, V] = {}
        self.source = source

    def __getitem__(self, key: str) -> V:
        if key not in self._made:
            if key not in self._keys:
                raise KeyError(key)
            self._made[key] = self._make(key)
        return self._made[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys)

    @property
    def made(self) -> tuple[str, ...]:
        """The keys made so far, in the order they were."""
        return tuple(self._made)

    def __len__(self) -> int:
        return len(self._keys)

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if self.source is None or not isinstance(other, Lazily):
            return False
        return self._keys == other._keys and self.source == other.source

    __hash__ = object.__hash__


@dataclass(frozen=True)
class Frames:
    """The rendered fragments every page of one kind gets, by language: the board (public)
    and the scorekeeper's controls; and the session they show with its players (None: no
    session)."""

    board: Mapping[str, str]
    controls: Mapping[str, str]
    session: str | None = None
    players: tuple[str, ...] = ()
    #: Each player's own part of their phone (:file:`_mine.html`), by language, session and
    #: player.
    mine: Mapping[str, Mapping[str, Mapping[str, str]]] = field(default_factory=dict)
    #: Every table of the night side by side (``serve --room``: :file:`_room.html`), or of
    #: the event's level (``serve --event``: :file:`_event.html`).
    room: Mapping[str, str] = field(default_factory=dict)
    #: The same cut into its parts (:func:`pieces`), by language: a stream that sent the
    #: room of an earlier version sends only the parts that changed since.
    room_parts: Mapping[str, Pieces] = field(default_factory=dict)
    #: The sessions whose players' phones are answered, each with its players: the one
    #: shown, and under ``serve --room`` every table of the night; under ``serve --event``
    #: the event alone (by its name), with its entrants.
    tables: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: The board of each of those sessions, by language and session (a phone shows its own
    #: table's; under ``serve --event`` a phone's table is in its own part).
    boards: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    #: Under ``serve --event``: the event's name and its entrants. A player's code and
    #: phone are the event's then, not a table's (a player changes tables by level).
    scope: str | None = None
    entrants: tuple[str, ...] = ()

    @property
    def admits(self) -> str | None:
        """What a player's code is for: the event, or the session shown."""
        return self.scope if self.scope is not None else self.session

    @property
    def people(self) -> tuple[str, ...]:
        """Who may have a code: the event's entrants, or the session's players."""
        return self.entrants if self.scope is not None else self.players


class Demand:
    """What the open event streams send, each a frame of :class:`Frames` in a language
    (``("room", "da")``), counted as streams open and close: those are made with each
    version, in the worker thread that makes it, so that the event loop sending it to every
    stream only sends. A frame nobody streams is made when a page first asks for it."""

    def __init__(self) -> None:
        self._open: Counter[tuple[str, str]] = Counter()
        #: What the streams open now send (replaced whole, read from the worker thread).
        self.now: frozenset[tuple[str, str]] = frozenset()

    def add(self, wanted: Iterable[tuple[str, str]]) -> None:
        self._open.update(wanted)
        self.now = frozenset(self._open)

    def drop(self, wanted: Iterable[tuple[str, str]]) -> None:
        self._open.subtract(wanted)
        self._open = +self._open
        self.now = frozenset(self._open)

    def make(self, frames: Frames) -> None:
        """Make ``frames``' fragments the open streams send."""
        for name, code in self.now:
            made = getattr(frames, name)
            if code in made:
                made[code]


class Hub:
    """Polls ``table`` every ``interval`` seconds; ``render`` makes the frames of a snapshot
    (called in a worker thread)."""

    def __init__(
        self,
        table: Table,
        render: Callable[[Snapshot], Frames],
        interval: float = POLL_SECONDS,
    ) -> None:
        self.table = table
        self.render = render
        self.interval = interval
        self.version = 0
        self.frames: Frames | None = None
        self.problem: Sayable | None = None  # why the ledger cannot be read now (said)
        self.closing = False
        self._changes: tuple[object, ...] | None = None
        self._changed = asyncio.Event()
        self._poked = asyncio.Event()
        self._ready = asyncio.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._woken = 0.0  # when the streams were last woken (the loop's clock)

    async def run(self) -> None:
        """Poll until closed; wake every stream after :data:`KEEP_ALIVE_SECONDS` without a
        change."""
        self._loop = asyncio.get_running_loop()
        self._woken = self._loop.time()
        while not self.closing:
            if self._loop.time() - self._woken >= KEEP_ALIVE_SECONDS:
                self.wake()
            poked = self._poked.is_set()
            self._poked.clear()
            try:
                await self.refresh(poked)
            except ChouetteError as err:  # the ledger cannot be read now: say so, keep trying
                self._publish(self.frames, err.said)
            except Exception:  # a bug: log it, keep the pages up with what they show
                log.exception("reading the ledger failed")
            with suppress(TimeoutError):
                await asyncio.wait_for(self._poked.wait(), self.interval)

    async def refresh(self, poked: bool = False) -> None:
        """Read the marker; on a change, the snapshot and its frames, and tell the pages.
        ``poked`` (a page here changed something): the snapshot at once, with its marker."""
        known = self.frames is not None and self.problem is None
        if not poked:
            changes = await run_in_threadpool(self.table.changes)
            if known and changes == self._changes:
                return
        snapshot = await run_in_threadpool(self.table.snapshot)
        if known and snapshot.changes == self._changes:
            return
        frames = await run_in_threadpool(self.render, snapshot)
        self._changes = snapshot.changes
        self._publish(frames, None)

    def _publish(self, frames: Frames | None, problem: Sayable | None) -> None:
        if frames == self.frames and problem == self.problem and self._ready.is_set():
            return
        self.frames, self.problem = frames, problem
        self.version += 1
        self._ready.set()
        self.wake()

    def poke(self) -> None:
        """Something changed here: look now."""
        self._poked.set()

    def wake(self) -> None:
        """Wake every event stream without a change (each then checks that its device is
        still signed in)."""
        changed, self._changed = self._changed, asyncio.Event()
        if self._loop is not None:
            self._woken = self._loop.time()
        changed.set()

    def close(self) -> None:
        """Stop polling and end every event stream."""
        self.closing = True
        self._poked.set()
        self._changed.set()

    def close_threadsafe(self) -> None:
        """:meth:`close` from another thread (a signal handler)."""
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self.close)

    async def ready(self) -> None:
        """Until the first frames (or the first problem) are known."""
        await self._ready.wait()

    async def newer(self, version: int, timeout: float) -> None:
        """Until the pages have a version newer than ``version`` (at most ``timeout`` s)."""
        deadline = asyncio.get_running_loop().time() + timeout
        while self.version <= version and not self.closing:
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                return
            with suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), left)

    async def follow(self) -> AsyncIterator[int | None]:
        """The version now, then each newer one as it comes (None every
        :data:`KEEP_ALIVE_SECONDS` without a change, and when woken by :meth:`wake`), until
        the hub closes."""
        await self.ready()
        seen = -1
        while not self.closing:
            changed = self._changed
            if self.version != seen:
                seen = self.version
                yield seen
                continue
            await changed.wait()  # (no timer of its own: the hub wakes every stream at once)
            if self.version == seen and not self.closing:
                yield None  # woken without a change
