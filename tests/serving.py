"""``chouette serve`` in its own process, and clients of it that a test (or the benchmark)
drives: a page's event stream, and the scorekeeper posting actions with the PIN.

The server is the real console script, started on 127.0.0.1 at a free port (``--port 0``:
it prints the address it got), with the real clock (``CHOUETTE_NOW`` is left out, as for
the other processes of the tests).
"""

from __future__ import annotations

import http.client
import json
import signal
import socket
import ssl
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from urllib.parse import urlencode, urlsplit

from tests.procs import environment, script

PIN = "2468"


class Server:
    """A running ``chouette serve``: its address, PIN and everything it printed; ``tls``
    the context its HTTPS connections trust (None: plain HTTP)."""

    def __init__(
        self,
        proc: subprocess.Popen[str],
        pin: str,
        tls: ssl.SSLContext | None = None,
        held: bool = False,
    ) -> None:
        self.proc = proc
        self.pin = pin
        self.tls = tls
        self.lines: list[str] = []
        self.url = ""
        self.connections: list[http.client.HTTPConnection] = []
        self.stopped: str | None = None
        self._found = threading.Event()
        # held: after its banner, what the server prints is not read until released
        self.released = threading.Event()
        if not held:
            self.released.set()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))
            if line.startswith("Scoreboard") and not self.url:
                self.url = line.split(": ", 1)[1].strip()
                self._found.set()
            if line.startswith("Ctrl-C stops the server."):
                self.released.wait()
        self._found.set()

    def wait_until_up(self, timeout: float = 60.0) -> None:
        if not self._found.wait(timeout) or not self.url:
            err = self.stop() if self.proc.poll() is None else self.proc.communicate()[1]
            raise AssertionError(f"chouette serve did not start: {self.lines} {err}")
        deadline = time.monotonic() + timeout
        while True:
            try:
                status, _ = self.get("/")
                if status == 200:
                    return
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError("chouette serve does not answer")
            time.sleep(0.05)

    @property
    def host(self) -> str:
        return urlsplit(self.url).hostname or "127.0.0.1"

    @property
    def port(self) -> int:
        return urlsplit(self.url).port or 80

    def connection(
        self, timeout: float = 30.0, source: str | None = None
    ) -> http.client.HTTPConnection:
        """A connection to the server (from the loopback address ``source``: 127.x.y.z),
        closed when the server stops."""
        bind = None if source is None else (source, 0)
        conn: http.client.HTTPConnection
        if self.tls is not None:
            conn = http.client.HTTPSConnection(
                self.host, self.port, timeout=timeout, source_address=bind, context=self.tls
            )
        else:
            conn = http.client.HTTPConnection(
                self.host, self.port, timeout=timeout, source_address=bind
            )
        self.connections.append(conn)
        return conn

    def get(
        self, path: str, headers: dict[str, str] | None = None, source: str | None = None
    ) -> tuple[int, str]:
        conn = self.connection(source=source)
        try:
            conn.request("GET", path, headers=headers or {})
            response = conn.getresponse()
            return response.status, response.read().decode("utf-8")
        finally:
            conn.close()

    def stop(self) -> str:
        """Ctrl-C, as a person stops it; what it wrote to stderr (never a traceback)."""
        if self.stopped is not None:
            return self.stopped
        for conn in self.connections:
            hang_up(conn)
        self.released.set()
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)
            raise AssertionError("chouette serve did not stop on Ctrl-C") from None
        finally:
            self._reader.join(timeout=10)
            assert self.proc.stderr is not None and self.proc.stdout is not None
            err = self.proc.stderr.read()
            self.proc.stderr.close()
            self.proc.stdout.close()
        assert "Traceback" not in err, err
        self.stopped = err
        return err


def hang_up(conn: http.client.HTTPConnection) -> None:
    """Close a connection, also while another thread waits on it for an event (a plain
    close would wait for the next event to arrive: up to the server's keep-alive)."""
    if conn.sock is not None:
        with suppress(OSError):
            conn.sock.shutdown(socket.SHUT_RDWR)
    conn.close()


# Lowers the open-file limit of the process that becomes the server, then becomes it.
LIMITED = "import os, resource, sys; n = int(sys.argv[1]); \
resource.setrlimit(resource.RLIMIT_NOFILE, (n, n)); os.execv(sys.argv[2], sys.argv[2:])"


@contextmanager
def serving(
    url: str,
    *args: str,
    pin: str | None = PIN,
    port: int = 0,
    serve: tuple[str, ...] = (),
    files: int | None = None,
    env: dict[str, str] | None = None,
    tls: ssl.SSLContext | None = None,
    held: bool = False,
) -> Iterator[Server]:
    """``chouette serve`` on the ledger at ``url`` for the ``with`` block: ``args`` before
    ``serve``, ``serve`` after it; ``pin`` None gives none on the command line (the
    environment's ``CHOUETTE_PIN``, say); ``files``: the server's limit of open files (set
    with ``resource.setrlimit`` in its own process); ``tls``: served over HTTPS, trusted
    with this context; ``held``: once it has printed its banner, nothing more it prints
    on standard output is read until ``server.released`` is set (nor standard error until it
    stops), as a paused terminal does."""
    command = [script(), *args, "serve", "--host", "127.0.0.1", "--port", str(port), *serve]
    if pin is not None:
        command += ["--pin", pin]
    if files is not None:
        command = [sys.executable, "-c", LIMITED, str(files), *command]
    proc = subprocess.Popen(
        command,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**environment(url), "PYTHONUNBUFFERED": "1", **(env or {})},
    )
    server = Server(proc, pin or (env or {}).get("CHOUETTE_PIN", ""), tls, held)
    try:
        server.wait_until_up()
        yield server
    finally:
        server.stop()


# ---------------------------------------------------------------- a terminal beside it


def typed(url: str, *args: str, input: str | None = None) -> str:
    """``chouette ARGS`` typed at a terminal beside the server, which must succeed: its
    standard output. As :func:`tests.procs.ok` runs it (on the ledger at ``url``, with the
    real clock), but in the test's own process, which is another process than the server's
    all the same: a command in a process of its own pays Python's start and the imports
    again, about a second of CPU for one that writes."""
    from unittest import mock

    from typer.testing import CliRunner

    import cli

    with mock.patch.object(cli, "STARTED", time.time()):  # given now, as a process started now
        result = CliRunner().invoke(
            cli.app, list(args), input=input, env={"CHOUETTE_DB": url, "CHOUETTE_NOW": None}
        )
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert result.exit_code == 0, (args, result.exit_code, result.stdout, result.stderr)
    return result.stdout


# ---------------------------------------------------------------- a page's event stream


@dataclass
class Event:
    at: float  # time.monotonic() when it arrived
    kind: str
    id: str
    data: str


@dataclass
class Stream:
    """A page's server-sent events, read in a thread as they arrive."""

    server: Server
    path: str = "/events"
    headers: dict[str, str] = field(default_factory=dict)
    events: list[Event] = field(default_factory=list)
    status: int = 0
    source: str | None = None  # the loopback address it connects from
    body: str = ""  # a refusal's text
    retry_after: str | None = None

    def __post_init__(self) -> None:
        self._conn = self.server.connection(timeout=120, source=self.source)
        self._conn.request("GET", self.path, headers=self.headers)
        response = self._conn.getresponse()
        self.status = response.status
        self.retry_after = response.getheader("retry-after")
        self._response = response
        self._changed = threading.Condition()
        self.ended = threading.Event()  # the server ended the stream (or it was refused)
        if self.status == 200:
            threading.Thread(target=self._read, daemon=True).start()
        else:
            self.body = response.read().decode("utf-8")
            self.ended.set()
            self.close()

    def _read(self) -> None:
        kind, ident, data = "message", "", []
        try:
            for raw in self._response:
                line = raw.decode("utf-8").rstrip("\n")
                if not line:
                    if data:
                        with self._changed:
                            self.events.append(
                                Event(time.monotonic(), kind, ident, "\n".join(data))
                            )
                            self._changed.notify_all()
                    kind, data = "message", []
                    continue
                name, _, value = line.partition(":")
                value = value.removeprefix(" ")
                if name == "event":
                    kind = value
                elif name == "id":
                    ident = value
                elif name == "data":
                    data.append(value)
        except (OSError, ValueError, AttributeError):  # the connection was closed
            pass
        self.ended.set()

    def wait_for(
        self, what: Callable[[Event], bool], timeout: float = 10.0, after: int = 0
    ) -> Event:
        """The first event (from index ``after``) for which ``what`` holds."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                found = next((e for e in self.events[after:] if what(e)), None)
                if found is not None:
                    return found
                left = deadline - time.monotonic()
                if left <= 0:
                    shown = [(e.kind, e.data[:200]) for e in self.events[after:]]
                    raise AssertionError(f"no such event within {timeout} s: {shown}")
                self._changed.wait(left)

    def boards(self) -> list[Event]:
        return [e for e in self.events if e.kind == "board"]

    def close(self) -> None:
        hang_up(self._conn)


# ---------------------------------------------------------------- the scorekeeper


class Keeper:
    """The scorekeeper's browser: the PIN once, then actions as the page's script posts them
    (``source``: from this loopback address)."""

    def __init__(
        self,
        server: Server,
        pin: str | None = None,
        source: str | None = None,
        cookie: str | None = None,
    ) -> None:
        self.server = server
        self.source = source
        self._conn = server.connection(source=source)
        if cookie is not None:  # a device that holds a token already
            self.status, self.page, self.retry_after = 0, "", None
            self.cookie = self.set_cookie = cookie
            return
        conn = server.connection(source=source)
        conn.request(
            "POST",
            "/keeper",
            body=urlencode({"pin": pin or server.pin}),
            headers={"Content-Type": "application/x-www-form-urlencoded"},
        )
        response = conn.getresponse()
        self.page = response.read().decode("utf-8")
        self.status = response.status
        self.retry_after = response.getheader("retry-after")
        cookie = response.getheader("set-cookie") or ""
        self.cookie = cookie.split(";", 1)[0]
        self.set_cookie = cookie
        conn.close()

    def post(self, fields: list[tuple[str, str]] | dict[str, str]) -> tuple[int, dict[str, object]]:
        """One action: its status and the page's answer (``ok``, ``said``)."""
        headers = {
            "Content-Type": "application/x-www-form-urlencoded",
            "Accept": "application/json",
        }
        if self.cookie:
            headers["Cookie"] = self.cookie
        body = urlencode(fields)
        for attempt in (1, 2):  # a kept-alive connection the server closed: open another
            try:
                self._conn.request("POST", "/keeper/act", body=body, headers=headers)
                response = self._conn.getresponse()
                return response.status, json.loads(response.read().decode("utf-8"))
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self._conn.close()
                self._conn = self.server.connection(source=self.source)
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def act(self, line: str, session: str) -> list[str]:
        """A command line (the CLI's own words, as a button of the page posts them) that must
        succeed: what it said."""
        form = {"line": line, "session": session}
        status, answer = self.post(form)
        assert status == 200 and answer["ok"], (form, status, answer)
        said = answer["said"]
        assert isinstance(said, list)
        return [str(s) for s in said]
