"""``chouette serve``: listen on the address, print where the table finds the pages (with a
QR code of the scoreboard's address) and the scorekeeper's PIN, and serve until Ctrl-C."""

from __future__ import annotations

import errno
import io
import ipaddress
import secrets
import socket
from collections.abc import Callable, Sequence
from contextlib import suppress
from datetime import datetime
from types import FrameType

import segno
import uvicorn

from chouette.errors import ChouetteError
from db.engine import dispose_all, where
from web.app import create_app
from web.hub import Hub
from web.table import Table

WILDCARDS = ("", "0.0.0.0", "::")
MIN_PIN = 4


def new_pin() -> str:
    """Six random digits."""
    return f"{secrets.randbelow(10**6):06d}"


def check_pin(pin: str) -> str:
    """A PIN given with ``--pin``: at least four characters, none of them blank or control."""
    if len(pin) < MIN_PIN:
        raise ChouetteError(
            f"--pin: at least {MIN_PIN} characters (or leave it out for a random one)"
        )
    if any(not ch.isprintable() or ch.isspace() for ch in pin):
        raise ChouetteError("--pin: letters, digits and signs only (no spaces)")
    return pin


def listen(host: str, port: int) -> socket.socket:
    """A socket listening on ``host`` and ``port`` (0: any free port), or why not."""
    try:
        found = socket.getaddrinfo(
            host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )
    except socket.gaierror as err:
        raise ChouetteError(f"--host {host}: no such address ({err.strerror})") from None
    family, kind, proto, _, address = found[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6 and host in WILDCARDS:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        sock.bind(address)
        sock.listen(128)
    except OSError as err:
        sock.close()
        if err.errno == errno.EADDRINUSE:
            raise ChouetteError(
                f"port {port} is in use on {host or 'this computer'} (another `chouette serve`?): "
                "choose another with --port"
            ) from None
        raise ChouetteError(f"cannot listen on {host} port {port}: {err.strerror}") from None
    return sock


def lan_address() -> str | None:
    """This computer's address on its network (the club's wifi), if it has one: the address
    it would send from (connecting a UDP socket sends nothing)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 1))
            found = str(probe.getsockname()[0])
        except OSError:
            return None
    return None if ipaddress.ip_address(found).is_loopback else found


def addresses(host: str, port: int) -> tuple[list[str], bool]:
    """The pages' addresses (the one to share first), and whether other devices can reach
    them (False: bound to this computer alone)."""

    def url(name: str) -> str:
        shown = f"[{name}]" if ":" in name else name
        return f"http://{shown}:{port}/"

    if host in WILDCARDS:
        lan = lan_address()
        return ([url(lan)] if lan else []) + [url("127.0.0.1")], True
    try:
        local = ipaddress.ip_address(host).is_loopback
    except ValueError:
        local = host == "localhost"
    return [url(host)], not local


def qr_code(text: str) -> str:
    """A QR code of ``text`` drawn with block characters (light on a dark terminal)."""
    out = io.StringIO()
    segno.make(text, error="m").terminal(out=out, compact=True)
    return out.getvalue().rstrip("\n")


class Server(uvicorn.Server):
    """uvicorn's server, which also ends the pages' event streams when asked to stop, so
    that Ctrl-C stops it at once."""

    def __init__(self, config: uvicorn.Config, hub: Hub) -> None:
        super().__init__(config)
        self.hub = hub

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        self.hub.close_threadsafe()
        super().handle_exit(sig, frame)


def run(
    url: str,
    session: str | None,
    *,
    host: str,
    port: int,
    pin: str | None,
    clock: Callable[[], datetime],
    say: Callable[[str], None],
) -> None:
    """Serve ``session`` (None: whichever is current) of the ledger at ``url``."""
    pin = new_pin() if pin is None else check_pin(pin)
    table = Table(url, session, clock)
    served = table.open()
    sock = listen(host, port)
    port = sock.getsockname()[1]
    urls, shared = addresses(host, port)

    def said(lines: Sequence[str]) -> None:
        for text in lines:
            say(f"page: {text}")

    app = create_app(table, pin, said=said)
    what = (
        f"session {served}"
        if session is not None
        else (f"the current session ({served})" if served else "the current session (none yet)")
    )
    say(f"Serving {what} from {where(url)}.")
    say(f"Scoreboard (the TV, the phones): {urls[0]}")
    for other in urls[1:]:
        say(f"  also: {other}")
    say(f"Scorekeeper: {urls[0]}keeper  PIN {pin}")
    with suppress(UnicodeError):  # a terminal that cannot show block characters
        say(qr_code(urls[0]))
    if not shared:
        say(
            "Only this computer can open these pages: for phones and a TV on the club's wifi, "
            "start with --host 0.0.0.0."
        )
    say("Ctrl-C stops the server.")
    config = uvicorn.Config(
        app,
        log_level="warning",
        access_log=False,
        lifespan="on",
        proxy_headers=False,
        server_header=False,
        timeout_graceful_shutdown=2,
    )
    try:
        Server(config, app.state.hub).run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn raises the Ctrl-C again once it has stopped
        pass
    finally:
        sock.close()
        dispose_all()
    say("Stopped.")
