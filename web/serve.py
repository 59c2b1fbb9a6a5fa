"""``chouette serve``: listen on the address, print where the table finds the pages (with a
QR code of the scoreboard's address), the scorekeeper's PIN and a one-time sign-in link for
the scorekeeper's phone (with its QR code: :meth:`web.access.Access.new_link`; a restart
prints a new one), and serve until Ctrl-C: plain HTTP, or HTTPS with
``--certfile``/``--keyfile`` (uvicorn's own TLS), within the limits of :mod:`web.limits`."""

from __future__ import annotations

import errno
import io
import ipaddress
import logging
import os
import secrets
import socket
import ssl
from collections.abc import Callable, Sequence
from contextlib import suppress
from datetime import datetime
from pathlib import Path
from types import FrameType
from urllib.parse import urlsplit

import segno
import uvicorn

from chouette.errors import ChouetteError
from chouette.payments import CURRENCIES, Currency
from chouette.words import ENGLISH_WORDS, Joined, Sayable, Words, said
from chouette.words import Said as Told
from db.engine import dispose_all, where
from web.access import LINK_MINUTES, PIN_TRIES, TOKEN_HOURS, Access, load
from web.app import create_app
from web.heard import Commands, Heard
from web.hub import Hub
from web.i18n import from_environment, words
from web.limits import (
    BACKLOG,
    KEEP_ALIVE_SECONDS,
    MAX_HEAD,
    Once,
    Quiet,
    limits_for,
    open_files_limit,
    protocol,
)
from web.table import Table
from web.terminal import Terminal, ToTerminal

log = logging.getLogger("chouette.serve")

WILDCARDS = ("", "0.0.0.0", "::")
MIN_PIN = 4


def new_pin() -> str:
    """Six random digits."""
    return f"{secrets.randbelow(10**6):06d}"


def check_pin(pin: str) -> str:
    """A PIN given with ``--pin``: at least four characters, none of them blank or control."""
    if len(pin) < MIN_PIN:
        raise ChouetteError(
            said(
                "--pin: at least {least} characters (or leave it out for a random one)",
                least=MIN_PIN,
            )
        )
    if any(not ch.isprintable() or ch.isspace() for ch in pin):
        raise ChouetteError(said("--pin: letters, digits and signs only (no spaces)"))
    return pin


def listen(host: str, port: int) -> socket.socket:
    """A socket listening on ``host`` and ``port`` (0: any free port), or why not."""
    try:
        found = socket.getaddrinfo(
            host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )
    except socket.gaierror as err:
        raise ChouetteError(
            said("--host {host}: no such address ({reason})", host=host, reason=err.strerror)
        ) from None
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
            if not host:
                raise ChouetteError(
                    said(
                        "port {port} is in use on this computer (another `chouette serve`?): "
                        "choose another with --port",
                        port=port,
                    )
                ) from None
            raise ChouetteError(
                said(
                    "port {port} is in use on {host} (another `chouette serve`?): choose "
                    "another with --port",
                    port=port,
                    host=host,
                )
            ) from None
        raise ChouetteError(
            said(
                "cannot listen on {host} port {port}: {reason}",
                host=host,
                port=port,
                reason=err.strerror,
            )
        ) from None
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


def addresses(host: str, port: int, scheme: str = "http") -> tuple[list[str], bool]:
    """The pages' addresses (the one to share first), and whether other devices can reach
    them (False: bound to this computer alone)."""

    def url(name: str) -> str:
        shown = f"[{name}]" if ":" in name else name
        return f"{scheme}://{shown}:{port}/"

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


def host_names(host: str, urls: Sequence[str]) -> list[str]:
    """The names a request may give in ``Host``: the addresses printed, this computer's own
    (127.0.0.1, localhost, [::1]) and ``--host`` as given."""
    names = [urlsplit(u).netloc.rsplit(":", 1)[0] for u in urls]
    names += ["127.0.0.1", "localhost", "[::1]"]
    if host not in WILDCARDS:
        names.append(f"[{host}]" if ":" in host else host)
    return list(dict.fromkeys(n.lower() for n in names))


class Said(logging.Formatter):
    """The server's log on the terminal, as the CLI says things: ``Warning: …``; a line the
    server says as a value (``said(...)``) in the terminal's ``words`` (uvicorn's and
    asyncio's own lines as they write them: English)."""

    def __init__(self, fmt: str, told: Words) -> None:
        super().__init__(fmt)
        self.told = told

    def format(self, record: logging.LogRecord) -> str:
        if isinstance(record.msg, Told | Joined) and not record.args and not record.exc_info:
            text = self.told(record.msg)
        else:
            text = super().format(record)
        if record.levelno == logging.WARNING:
            return self.told(said("Warning: {message}", message=text))
        return f"{record.levelname.title()}: {text}"


#: The loggers whose lines the server's terminal shows: the server's own notes (wrong PINs,
#: refused streams, slow clients), uvicorn's and asyncio's.
LOGGERS = {"chouette.serve": logging.INFO, "uvicorn": logging.WARNING, "asyncio": logging.WARNING}


def log_to_terminal(terminal: Terminal, told: Words = ENGLISH_WORDS) -> None:
    """Every log line of the server to standard error through ``terminal`` (never waiting
    for it: :mod:`web.terminal`), what the server says itself in ``told``'s words."""
    for name, level in LOGGERS.items():
        logger = logging.getLogger(name)
        for old in [h for h in logger.handlers if isinstance(h, ToTerminal)]:
            logger.removeHandler(old)
        handler = ToTerminal(terminal)
        handler.setFormatter(Said("%(message)s", told))
        logger.addHandler(handler)
        logger.setLevel(level)
        logger.propagate = False


def start_access(
    pin: str,
    table: Table,
    now: Callable[[], datetime],
    retired: Callable[[str], None] | None = None,
) -> Access:
    """Who may do what, as the ledger keeps it (devices signed in survive a restart with the
    same PIN); a ledger that cannot be written keeps them until the server stops.
    ``retired`` hears the strong PIN that replaces one tried too often (see
    :mod:`web.access`)."""
    access, writes = load(pin, table, now, retired=retired)
    try:
        table.put_settings(writes)
    except ChouetteError as err:
        log.warning(
            said(
                "the ledger cannot keep the devices signed in ({reason}): a restart signs them out",
                reason=err.said,
            )
        )
    return access


class _Encrypted(Exception):
    """The key asks for a pass phrase."""


def _no_pass_phrase() -> str:
    """What OpenSSL asks for the pass phrase of an encrypted key (it would prompt on the
    terminal, and again when uvicorn loads the key): refused at once."""
    raise _Encrypted


def tls(certfile: Path | None, keyfile: Path | None) -> ssl.SSLContext | None:
    """The certificate and key of ``--certfile``/``--keyfile``, checked before listening
    (uvicorn loads them again). An encrypted key is refused, saying so: the server reads
    its key twice (here and in uvicorn), often starts with nobody at its terminal, and would
    keep a pass phrase in its memory all night anyway, so the key's protection is its file's
    permissions."""
    if certfile is None:
        if keyfile is not None:
            raise ChouetteError(
                said("--keyfile needs --certfile (the certificate it is the key of)")
            )
        return None
    for path in (certfile, keyfile):
        if path is not None and not path.is_file():
            raise ChouetteError(said("--certfile/--keyfile: no such file: {file}", file=str(path)))
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    try:
        context.load_cert_chain(
            str(certfile), None if keyfile is None else str(keyfile), password=_no_pass_phrase
        )
    except _Encrypted:
        key = keyfile or certfile
        raise ChouetteError(
            said(
                "--keyfile: the key in {file} is encrypted (it asks for a pass phrase): chouette "
                "serve needs an unencrypted key. Write one with `openssl pkey -in {file} -out "
                "club-key.pem` and keep that file readable by you alone",
                file=str(key),
            )
        ) from None
    except (ssl.SSLError, OSError) as err:
        reason = str(getattr(err, "reason", None) or err.strerror or err)
        if keyfile is None:
            raise ChouetteError(
                said(
                    "--certfile/--keyfile: {file} is no certificate with its key (PEM files; "
                    "{reason})",
                    file=str(certfile),
                    reason=reason,
                )
            ) from None
        raise ChouetteError(
            said(
                "--certfile/--keyfile: {file} and {key} are no certificate with its key (PEM "
                "files; {reason})",
                file=str(certfile),
                key=str(keyfile),
                reason=reason,
            )
        ) from None
    return context


def run(
    url: str,
    session: str | None,
    *,
    host: str,
    port: int,
    pin: str | None,
    clock: Callable[[], datetime],
    say: Callable[[str], None],
    certfile: Path | None = None,
    keyfile: Path | None = None,
    lang: str | None = None,
    private: bool = False,
    room: bool = False,
    event: str | None = None,
    commands: Commands | None = None,
    currency: str = "EUR",
) -> None:
    """Serve ``session`` (None: whichever is current) of the ledger at ``url``; every page
    in ``lang`` (None: as each browser asks); ``private``: money only on players' phones;
    ``room``: the scoreboard shows every table of the night, the keeper picks one;
    ``event``: a chouette tournament's (its name; "": the event used last): the scoreboard
    shows every table of its level, each phone its player's bank and table, the keeper's
    page runs the event;
    ``commands``: what runs the CLI's words the pages post (the CLI's own, handed in by
    ``chouette serve``; None: the pages change nothing)."""
    pin = new_pin() if pin is None else check_pin(pin)
    tls(certfile, keyfile)
    table = Table(url, session, clock, room=room, event=event, commands=commands)
    served = table.open()
    terminal = Terminal(say)
    try:
        serve(
            table,
            served,
            terminal,
            session=session,
            url=url,
            host=host,
            port=port,
            pin=pin,
            clock=clock,
            certfile=certfile,
            keyfile=keyfile,
            lang=lang,
            private=private,
            currency=currency,
        )
    finally:
        terminal.close()


def serve(
    table: Table,
    served: str | None,
    terminal: Terminal,
    *,
    session: str | None,
    url: str,
    host: str,
    port: int,
    pin: str,
    clock: Callable[[], datetime],
    certfile: Path | None,
    keyfile: Path | None,
    lang: str | None,
    private: bool,
    currency: str = "EUR",
) -> None:
    """:func:`run`'s server, everything it prints going through ``terminal``."""
    own = words(from_environment(os.environ))  # the terminal's language
    log_to_terminal(terminal, own)

    def say(what: Sayable, *, latest: str | None = None) -> None:
        terminal.say(own(what), latest=latest)

    def retired(new: str) -> None:
        """A PIN tried too often is retired: the new one on the terminal (the newest only,
        never left out, whatever the terminal has not taken yet)."""
        say(
            said(
                "Scorekeeper: {url}keeper  PIN {pin}  ({tries} wrong PINs were tried: the PIN "
                "printed before no longer opens the page; devices signed in stay in)",
                url=urls[0],
                pin=new,
                tries=PIN_TRIES,
            ),
            latest="pin",
        )

    access = start_access(pin, table, clock, retired)
    limits = limits_for(open_files_limit())
    once = Once(log.warning)
    sock = listen(host, port)
    port = sock.getsockname()[1]
    urls, shared = addresses(host, port, "https" if certfile else "http")

    def tell(heard: Heard) -> None:
        for text in heard.lines(own):
            say(said("page: {line}", line=text))

    app = create_app(
        table,
        access,
        hosts=host_names(host, urls),
        base_url=urls[0],
        limits=limits,
        secure=certfile is not None,
        tell=tell,
        once=once,
        lang=lang,
        private=private,
        currency=currency_of(currency),
    )
    place = where(url)
    say(
        said(
            "Serving the event {event} (its table {session}) from {ledger}.",
            event=table.event,
            session=served or said("none yet"),
            ledger=place,
        )
        if table.event is not None
        else said("Serving session {session} from {ledger}.", session=served, ledger=place)
        if session is not None
        else said(
            "Serving the current session ({session}) from {ledger}.", session=served, ledger=place
        )
        if served
        else said("Serving the current session (none yet) from {ledger}.", ledger=place)
    )
    say(said("Scoreboard (the TV, the phones): {url}", url=urls[0]))
    for other in urls[1:]:
        say(said("  also: {url}", url=other))
    with suppress(UnicodeError):  # a terminal that cannot show block characters
        say(qr_code(urls[0]))
    say(said("Scorekeeper: {url}keeper  PIN {pin}", url=urls[0], pin=pin))
    link = f"{urls[0]}keeper/link/{access.new_link()}"
    say(
        said(
            "Scorekeeper's phone without the PIN: open (or scan) this link once, within "
            "{minutes} minutes: {url}",
            minutes=LINK_MINUTES,
            url=link,
        )
    )
    with suppress(UnicodeError):
        say(qr_code(link))
    if not shared:
        say(
            said(
                "Only this computer can open these pages: for phones and a TV on the club's "
                "wifi, start with --host 0.0.0.0."
            )
        )
    say(
        said(
            "A device that gives the PIN (or a player's code) stays signed in for {hours} "
            "hours, or until signed out on the scorekeeper's page.",
            hours=TOKEN_HOURS,
        )
    )
    say(said("Ctrl-C stops the server."))
    config = uvicorn.Config(
        app,
        http=protocol(limits, once),
        log_config=None,  # uvicorn's log goes to the terminal as the server's own does
        log_level="warning",
        access_log=False,
        lifespan="on",
        proxy_headers=False,
        server_header=False,
        timeout_graceful_shutdown=2,
        timeout_keep_alive=KEEP_ALIVE_SECONDS,
        h11_max_incomplete_event_size=MAX_HEAD,
        limit_concurrency=limits.connections,
        backlog=BACKLOG,
        ssl_certfile=None if certfile is None else str(certfile),
        ssl_keyfile=None if keyfile is None else str(keyfile),
    )
    logging.getLogger("uvicorn.error").addFilter(Quiet())
    try:
        Server(config, app.state.hub).run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn raises the Ctrl-C again once it has stopped
        pass
    finally:
        sock.close()
        dispose_all()
    say(said("Stopped."))


def currency_of(code: str) -> Currency:
    """One of :data:`chouette.payments.CURRENCIES` (``EUR`` for one that is none)."""
    return next((c for c in CURRENCIES if c == code), "EUR")
