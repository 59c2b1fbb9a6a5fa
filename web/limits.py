"""What clients can hold of ``chouette serve``, so that no client, and no crowd of them, stops
the scoreboard answering.

- **File descriptors**: every connection is one. :func:`limits_for` shares the process's
  limit (``RLIMIT_NOFILE``) out: :data:`SPARE_FILES` for the ledger, the pages' files and
  the log; room for one batch of connections accepted at once (:data:`BACKLOG`); a quarter
  of the rest (at least :data:`PAGE_RESERVE`) for page loads; the remainder, up to
  :data:`MOST_STREAMS`, for the pages' event streams (per client at most
  :data:`STREAMS_PER_CLIENT`). A connection past the total (or past
  :data:`CONNECTIONS_PER_CLIENT` from one address) is answered 503 and closed at once.
- **Slow clients**: uvicorn drops a kept-alive connection that sends nothing for
  ``timeout_keep_alive`` s, but it has no timeout on reading a request: a connection that
  never finishes its headers, or sends its body a byte a second, is waited for as long as it
  lasts. :func:`protocol` adds one, in the narrowest place it can go (uvicorn's h11
  protocol, where the bytes arrive; an ASGI middleware only runs once the headers are in):
  a request must arrive whole (headers and body) within :data:`REQUEST_SECONDS` of the
  connection opening, or of its first byte on a kept-alive connection; else 408 and closed.
- **The log**: a refusal repeated a thousand times a second is said once a minute
  (:class:`Once`), never as a traceback.
"""

from __future__ import annotations

import asyncio
import logging
import resource
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import h11
from uvicorn.config import Config
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.server import ServerState

from chouette.words import Sayable, said, said_n

log = logging.getLogger("chouette.serve")

BACKLOG = 64  # connections waiting to be accepted (and accepted in one go)
SPARE_FILES = 32  # the ledger's files, the pages' static files, the log, the listening socket
PAGE_RESERVE = 16  # connections always left for page loads, beyond the event streams
MOST_STREAMS = 500  # event streams in all (a club has a few dozen pages open)
STREAMS_PER_CLIENT = 20  # … and from one address (a TV, a phone, a few tabs)
CONNECTIONS_PER_CLIENT = 64  # open connections from one address
REQUEST_SECONDS = 10.0  # to send a request whole: its line, headers and body
KEEP_ALIVE_SECONDS = 5  # an idle kept-alive connection (uvicorn's timeout_keep_alive)
MAX_HEAD = 16 * 1024  # bytes of a request's line and headers (uvicorn's h11 limit)
STREAM_RETRY_SECONDS = 10  # Retry-After of a refused event stream


def wait_for_files(limit: int) -> Sayable:
    """The server's log when no file descriptor is left."""
    return said(
        "no file descriptors left: new connections wait (the limit is {limit})", limit=limit
    )


@dataclass(frozen=True)
class Limits:
    """``files``: the process's limit of open files; ``connections``: open at once, in all
    (uvicorn's ``limit_concurrency``) and ``per_client``; ``streams``: event streams in all
    and ``streams_per_client``."""

    files: int
    connections: int
    per_client: int
    streams: int
    streams_per_client: int


def limits_for(files: int) -> Limits:
    """The limits within ``files`` open files (see the module's note)."""
    connections = max(8, files - SPARE_FILES - BACKLOG)
    pages = max(PAGE_RESERVE, connections // 4)
    streams = max(2, min(MOST_STREAMS, connections - pages))
    return Limits(
        files=files,
        connections=connections,
        per_client=min(CONNECTIONS_PER_CLIENT, connections),
        streams=streams,
        streams_per_client=min(STREAMS_PER_CLIENT, streams),
    )


def open_files_limit(want: int = 4096) -> int:
    """The process's limit of open files, raised (up to ``want``) where the system allows
    it, as servers do: Linux starts most programs at 1,024, macOS at 256."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    ceiling = want if hard == resource.RLIM_INFINITY else min(want, hard)
    if soft != resource.RLIM_INFINITY and soft < ceiling:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (ceiling, hard))
            soft = ceiling
        except (ValueError, OSError):
            pass
    return want if soft == resource.RLIM_INFINITY else soft


class Once:
    """Says each kind of trouble at most once every ``every`` seconds, with how many times
    it happened in between."""

    def __init__(
        self,
        say: Callable[[Sayable], None] = log.warning,
        every: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.say, self.every, self.clock = say, every, clock
        self.last: dict[str, float] = {}
        self.since: Counter[str] = Counter()

    def __call__(self, kind: str, text: Sayable) -> None:
        now = self.clock()
        if kind in self.last and now - self.last[kind] < self.every:
            self.since[kind] += 1
            return
        more = self.since.pop(kind, 0)
        self.last[kind] = now
        if more:
            text = said_n(
                "{text} ({n} more like it since it was last said)",
                "{text} ({n} more like it since it was last said)",
                more,
                text=text,
            )
        self.say(text)


class Quiet(logging.Filter):
    """A filter for uvicorn's own log: each message at most once a minute, with how many
    times it came in between (an attacker can make it say "Invalid HTTP request received."
    as often as it likes)."""

    def __init__(self, every: float = 60.0, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.every, self.clock = every, clock
        self.last: dict[str, float] = {}
        self.since: Counter[str] = Counter()

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        now = self.clock()
        if text in self.last and now - self.last[text] < self.every:
            self.since[text] += 1
            return False
        self.last[text] = now
        more = self.since.pop(text, 0)
        if more:
            record.msg, record.args = f"{text} ({more} more like it since it was last said)", ()
        return True


def quiet_loop(loop: asyncio.AbstractEventLoop, once: Once, limit: int) -> None:
    """The event loop's own complaints: out of file descriptors (asyncio logs a traceback
    for each connection it could not accept, hundreds a second) said once a minute, in a
    line; anything else as asyncio says it."""

    def handle(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if context.get("message") == "socket.accept() out of system resource":
            once("files", wait_for_files(limit))
            return
        loop.default_exception_handler(context)

    loop.set_exception_handler(handle)


def plain(status: str, text: str, *headers: str) -> bytes:
    """A whole response of one line of text, written before (or instead of) the app's."""
    body = f"Error: {text}\n".encode()
    head = [f"HTTP/1.1 {status}", "content-type: text/plain; charset=utf-8", *headers,
            "connection: close", f"content-length: {len(body)}"]  # fmt: skip
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


REFUSED = plain(
    "503 Service Unavailable",
    "the server has too many connections open; try again",
    f"retry-after: {STREAM_RETRY_SECONDS}",
)
TOO_SLOW = plain(
    "408 Request Timeout", f"the request did not arrive whole in {REQUEST_SECONDS:.0f} seconds"
)


def protocol(limits: Limits, once: Once) -> type[H11Protocol]:
    """uvicorn's h11 protocol with a deadline for each request and a cap on connections
    (see the module's note)."""
    clients: Counter[str] = Counter()

    class Protocol(H11Protocol):
        def __init__(
            self,
            config: Config,
            server_state: ServerState,
            app_state: dict[str, Any],
            _loop: asyncio.AbstractEventLoop | None = None,
        ) -> None:
            super().__init__(config, server_state, app_state, _loop)
            self.deadline: asyncio.TimerHandle | None = None
            self.counted: str | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            address = self.client[0] if self.client else "?"
            if len(self.connections) > limits.connections or clients[address] >= (
                limits.per_client
            ):
                once(
                    "connections",
                    said(
                        "too many connections ({open} open, {from_there} from {address}): a new "
                        "one is refused",
                        open=len(self.connections) - 1,
                        from_there=clients[address],
                        address=address,
                    ),
                )
                transport.write(REFUSED)
                transport.close()
                return
            self.counted = address
            clients[address] += 1
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            if self.counted is not None:
                clients[self.counted] -= 1
                if clients[self.counted] <= 0:
                    del clients[self.counted]
                self.counted = None
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            if self.deadline is None and self.conn.their_state is h11.IDLE:
                self._arm()  # the next request on a kept-alive connection begins
            super().data_received(data)
            if self.conn.their_state not in (h11.IDLE, h11.SEND_BODY):
                self._disarm()  # the request is in (or the connection is done)

        def _arm(self) -> None:
            if self.deadline is None:
                self.deadline = self.loop.call_later(REQUEST_SECONDS, self._too_slow)

        def _disarm(self) -> None:
            if self.deadline is not None:
                self.deadline.cancel()
                self.deadline = None

        def _too_slow(self) -> None:
            self.deadline = None
            if self.conn.their_state not in (h11.IDLE, h11.SEND_BODY):
                return
            address = self.client[0] if self.client else "?"
            once(
                "slow",
                said(
                    "a request from {address} did not arrive whole in {seconds} s: its "
                    "connection is closed",
                    address=address,
                    seconds=f"{REQUEST_SECONDS:.0f}",
                ),
            )
            if self.cycle is None or not self.cycle.response_started:
                self.transport.write(TOO_SLOW)
            self.transport.close()

    return Protocol
