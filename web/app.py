"""The web application of ``chouette serve`` (Starlette): the scoreboard, the scorekeeper's
page behind the PIN, the players' phones, their event streams, and the actions.

    GET  /                 the scoreboard (read-only; for the TV and the phones)
    GET  /events           its server-sent events: ``board`` (the board's HTML) on every change
    GET  /keeper           the scorekeeper's page (with the devices and the players' codes), or
                           the PIN form
    POST /keeper           the PIN: a token of its own for this device (a cookie)
    GET  /keeper/link/T    the keeper's one-time sign-in link (``serve`` prints it): as the
                           PIN, once; then refused (:meth:`web.access.Access.enter_link`)
    GET  /keeper/events    ``board`` and ``controls`` (the legal actions), the scorekeeper only
    POST /keeper/act       one action, the scorekeeper only: ``line``, a command in the CLI's own
                           words, as typed at ``chouette table`` (a form gives it in pieces:
                           :func:`web.moves.line_of`), run by the CLI's own parser in this
                           process, what it says kept as values (:mod:`web.heard`) and
                           rendered in the page's words; JSON for the script
    POST /keeper/devices   sign a device out (``revoke``: its id; ``others``: every device but
                           this one), the scorekeeper only
    POST /keeper/codes     a new code for a player (``player``), the scorekeeper only
    POST /keeper/table     the session the keeper's page runs (``table``): under ``--room`` one
                           of the night's tables, else any session; the scorekeeper only (the
                           page itself posts ``--session NAME`` to /keeper/act, the same)
    GET  /me               who this phone speaks for, over the scoreboard; or the code form
    POST /me               a player's code: this phone speaks for that player
    POST /me/accept        the phone's player accepts the session's rules (for itself only)
    POST /me/devices       the phone signs out its player's other devices
    POST /me/propose       the phone's player proposes a line about themselves (their answer
                           to a double that waits on them, a payment they made), for the
                           keeper to approve (``chouette approve N``, the keeper's page)
    GET  /me/events        ``board`` and ``mine`` (the player's own part), for the player's
                           phone only (it ends when signed out)
    GET  /whoami           JSON: ``{"keeper": bool, "player": name or null}``
    GET  /static/...       the style sheet and the small script

Who may do what is :mod:`web.access`'s to say: every route asks :func:`who` (whether the
device gave the PIN, which player's code it gave). Every request must name this server in its
``Host`` (the addresses it printed: a page of another site that a DNS trick points here is
refused); a posted form must come from our own page (``Origin``); event streams are capped per
client and in all (:mod:`web.limits`). Pages are rendered on the server (Jinja2); the script
only swaps in the fragments the events carry and posts the forms (a page without it posts
them itself). No page loads anything from elsewhere (a Content-Security-Policy says so to the
browser).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import shlex
from collections import Counter
from collections.abc import AsyncIterator, Callable, Collection, Mapping, Sequence
from contextlib import asynccontextmanager, suppress
from dataclasses import replace
from datetime import datetime
from functools import cache, lru_cache, partial
from typing import Any, NamedTuple
from urllib.parse import parse_qsl, quote, urlsplit

import segno
from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import (
    HTMLResponse,
    JSONResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from chouette.errors import ChouetteError
from chouette.money import format_money
from chouette.payments import Currency, PaymentCode, payment_code, remittance
from chouette.proposals import ANSWER_ACTS, Proposal
from chouette.report import signed
from chouette.settlement import settle
from chouette.text import clipped
from chouette.words import ENGLISH_WORDS, Fixed, Money, Number, Said, Sayable, Words, said
from db.reviewing import Review
from web.access import SERVE, STAMP, TOKEN_HOURS, Access, Refusal, Who, Writes, shown_code
from web.board import Board
from web.heard import Heard
from web.hub import Demand, Frames, Hub, Lazily, Pieces, V, changed, pieces
from web.i18n import LANGUAGES, negotiate, translation, words
from web.limits import STREAM_RETRY_SECONDS, Limits, Once, limits_for, quiet_loop
from web.moves import line_of, session_alone
from web.table import EventView, Proposing, Snapshot, Table

log = logging.getLogger("chouette.serve")

COOKIE = "chouette-device"
DEVICES_SECONDS = 1.0  # how often the ledger's stamp of the devices is read
MAX_FORM = 64 * 1024  # bytes: a form of the page is a few hundred
MAX_FIELDS = 500  # a form of the page has a handful
UPDATES_KEPT = 64  # the room's changes from one version to another kept made
SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; "
        b"connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]
NO_PIN = said("the scorekeeper's page needs the PIN that `chouette serve` printed")
NO_CODE = said("this page needs the player's code that the scorekeeper's page shows")
NOT_KEEPER = said(
    "this device speaks for a player, not for the scorekeeper: the scorekeeper's page needs "
    "the PIN that `chouette serve` printed"
)


@cache
def templates(lang: str = "en") -> Environment:
    """The pages' templates in ``lang`` (their words from its catalogue, :mod:`web.i18n`),
    with the CLI's ways of writing points, and money as ``lang`` writes it (``+6,25``);
    ``say`` renders what chouette says (:mod:`chouette.words`) in ``lang``."""
    env = Environment(
        loader=PackageLoader("web", "templates"),
        autoescape=select_autoescape(["html"]),
        trim_blocks=True,
        lstrip_blocks=True,
        extensions=["jinja2.ext.i18n"],
    )
    env.install_gettext_translations(translation(lang), newstyle=True)  # type: ignore[attr-defined]
    env.globals["lang"] = lang
    env.globals["translations"] = words(lang)  # (a Translator, and money as ``lang`` writes it)
    env.filters["signed"] = signed
    env.filters["word"] = shlex.quote  # a name as one word of a command line
    said_in_lang = words(lang)
    env.filters["balance"] = lambda cents: said_in_lang(Money(cents, sign=True))
    env.filters["amount"] = lambda cents: said_in_lang(Money(cents))
    env.filters["say"] = said_in_lang
    env.filters["equity"] = lambda value: said_in_lang(Fixed(value))  # ``0.135``; ``0,135``
    env.filters["typed"] = format_money  # an amount on a command line: as it is typed
    env.filters["sign_class"] = lambda cents: "pos" if cents > 0 else "neg" if cents < 0 else "zero"
    env.filters["clock"] = clock_text
    env.filters["device"] = lambda label: device_text(label, said_in_lang)
    return env


def device_text(label: str, say: Callable[[Said], str]) -> str:
    """A device's label as the ledger keeps it (``Chrome on Linux``: :func:`web.access.describe`)
    in the words of ``say``; the browser's and the system's names as they are."""
    browser, on, system = label.partition(" on ")
    if not on:
        return label
    return say(said("{browser} on {system}", browser=browser, system=system))


def clock_text(moment: datetime) -> str:
    """A moment as the server's clock shows it, the zone named: ``20:41 CET``."""
    here = moment.astimezone()
    return f"{here:%H:%M} {here.tzname()}" if here.tzname() else f"{here:%H:%M}"


class Headers:
    """Every response says: nothing from elsewhere, no framing, no sniffing."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, with_headers if scope["type"] == "http" else send)


def host_name(value: str) -> str:
    """The name or address a ``Host`` header gives, without its port, in lower case."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[: value.find("]") + 1] if "]" in value else value
    name, colon, port = value.rpartition(":")
    return name if colon and port.isdigit() else value


class Hosts:
    """Only requests that name this server as it printed itself: a site whose name a DNS
    trick points at this computer (DNS rebinding) sends its own name in ``Host`` and is
    refused (421), before any route runs."""

    def __init__(self, app: ASGIApp, hosts: Collection[str]) -> None:
        self.app = app
        self.hosts = {host_name(h) for h in hosts}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            given = next((v for k, v in scope["headers"] if k == b"host"), b"")
            name = host_name(given.decode("latin-1"))
            if name not in self.hosts:
                shown = ", ".join(sorted(self.hosts))
                asked = dict(scope["headers"]).get(b"accept-language", b"").decode("latin-1")
                in_words = words(negotiate(asked))
                why = (
                    said(
                        "this server answers to {hosts} (the addresses `chouette serve` "
                        "printed), not to {host}",
                        hosts=shown,
                        host=name[:80],
                    )
                    if name
                    else said(
                        "this server answers to {hosts} (the addresses `chouette serve` "
                        "printed), not to a request without a Host",
                        hosts=shown,
                    )
                )
                text = in_words(said("Error: {message}", message=why)) + "\n"
                refused = Response(text, status_code=421, media_type="text/plain")
                await refused(scope, receive, send)
                return
        await self.app(scope, receive, send)


class Streams:
    """The event streams open now, per client address and in all, within ``limits``."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.by_client: Counter[str] = Counter()
        self.total = 0

    def take(self, address: str) -> Said | None:
        """One more stream for ``address``, or why not."""
        if self.total >= self.limits.streams:
            return said(
                "{n} event streams are open, the most this server keeps", n=Number(self.total)
            )
        if self.by_client[address] >= self.limits.streams_per_client:
            return said(
                "{address} has {n} event streams open, the most for one device",
                address=address,
                n=self.by_client[address],
            )
        self.by_client[address] += 1
        self.total += 1
        return None

    def give(self, address: str) -> None:
        self.total -= 1
        self.by_client[address] -= 1
        if self.by_client[address] <= 0:
            del self.by_client[address]


class Stream(StreamingResponse):
    """An event stream that gives its place back however it ends."""

    def __init__(self, body: AsyncIterator[bytes], release: Callable[[], None]) -> None:
        super().__init__(
            body,
            media_type="text/event-stream",
            headers={"cache-control": "no-store", "x-accel-buffering": "no"},
        )
        self.release = release

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.release()


def create_app(
    table: Table,
    access: Access,
    *,
    hosts: Collection[str],
    base_url: str = "http://127.0.0.1/",
    limits: Limits | None = None,
    secure: bool = False,
    interval: float | None = None,
    tell: Callable[[Heard], None] | None = None,
    once: Once | None = None,
    lang: str | None = None,
    private: bool = False,
    currency: Currency = "EUR",
) -> Starlette:
    """The application serving ``table``; ``access`` says who may do what; ``hosts`` the
    names a request may give in ``Host``; ``base_url`` the address the players' QR codes
    carry; ``limits`` of event streams (:func:`web.limits.limits_for`); ``secure``: served
    over TLS (the cookie says so); ``tell`` hears what each action of the page did (the
    terminal shows it, in its own words); ``once`` says repeated trouble once a minute in
    the server's log;
    ``lang``: the one language of every page (None: each browser's own, among
    :data:`web.i18n.LANGUAGES`, English when it asks for none of them); ``currency``: what
    the players pay in (it chooses the payment code their phones show)."""
    langs = (lang,) if lang is not None else tuple(LANGUAGES)

    def language(request: Request) -> str:
        """The language of the page ``request`` asks for."""
        if lang is not None:
            return lang
        return negotiate(request.headers.get("accept-language"))

    limits = limits or limits_for(1024)
    once = once or Once()
    streams = Streams(limits)

    #: The fragments the open event streams send, made with each version in the worker
    #: thread; any other is made when a page first asks for it (a language nobody reads
    #: costs nothing).
    demand = Demand()

    def render(snapshot: Snapshot) -> Frames:
        board = snapshot.board
        # who pays whom now: the keeper's page marks each payment made, each phone its own
        payments = [] if board is None else settle({s.name: s.cents for s in board.standings})
        # the tables whose phones are answered: the one shown; under --room, the night's
        # (under --event, the event's: a phone's table is in its own part)
        tables = [] if board is None else [board]
        shown = {b.session for b in tables}
        tables += [b for b in (snapshot.room if table.room else ()) if b.session not in shown]
        # each table's players' cube decisions reviewed (their own phones alone)
        reviews = {**snapshot.table_reviews}
        if board is not None:
            reviews[board.session] = snapshot.reviews
        proposing = snapshot.proposing
        waiting = [
            (b.session, p) for b in tables for p in proposing.get(b.session, Proposing()).waiting()
        ]
        event = snapshot.event
        # what every fragment is made of: equal sources make equal pages (no new version)
        source = replace(snapshot, changes=())

        def lazily(make: Callable[[str], V]) -> Lazily[V]:
            return Lazily(langs, make, source)

        def boards_in(code: str) -> dict[str, str]:
            made = templates(code).get_template("_board.html")
            return {b.session: made.render(board=b, private=private) for b in tables}

        boards = lazily(boards_in)

        def board_in(code: str) -> str:
            if board is None:
                made = templates(code).get_template("_board.html")
                return made.render(board=None, private=private)
            return boards[code][board.session]

        def controls_in(code: str) -> str:
            html = (
                templates(code)
                .get_template("_controls.html")
                .render(board=board, private=private, settlement=payments, proposals=waiting)
            )
            if table.event is not None:  # serve --event: the event's own controls come first
                own = templates(code).get_template("_event_controls.html")
                html = own.render(event=event) + html
            return html

        mine: Mapping[str, Mapping[str, Mapping[str, str]]]
        if table.event is None:
            mine = lazily(
                lambda code: {
                    b.session: mine_frames(b, code, reviews, proposing.get(b.session, Proposing()))
                    for b in tables
                }
            )
            answered = {b.session: tuple(s.name for s in b.standings) for b in tables}
        else:
            mine = event_mine(event, reviews, source)
            answered = {} if event is None else {event.name: tuple(p.name for p in event.players)}
        room = room_frames(snapshot, source)
        frames = Frames(
            board=lazily(board_in),
            controls=lazily(controls_in),
            session=None if board is None else board.session,
            players=() if board is None else tuple(s.name for s in board.standings),
            mine=mine,
            room=room,
            room_parts=lazily(lambda code: pieces(room[code])) if room else {},
            tables=answered,
            boards=boards,
            scope=None if event is None else event.name,
            entrants=() if event is None else tuple(p.name for p in event.players),
        )
        demand.make(frames)
        return frames

    def room_frames(snapshot: Snapshot, source: object) -> Mapping[str, str]:
        """The TV's page of every table: the night's (``--room``) or the event's
        (``--event``), by language (none without either)."""
        if table.event is not None:
            return Lazily(
                langs,
                lambda code: (
                    templates(code).get_template("_event.html").render(event=snapshot.event)
                ),
                source,
            )
        if not table.room:
            return {}
        night = night_totals(snapshot.room)
        return Lazily(
            langs,
            lambda code: (
                templates(code)
                .get_template("_room.html")
                .render(room=snapshot.room, night=night, private=private)
            ),
            source,
        )

    #: Each entrant's part of their phone as last made, by language and player, with what
    #: it was made from (their table's board, as the table read it, their review and their
    #: own facts).
    made_mine: dict[tuple[str, str], tuple[Board | None, tuple[object, ...], str]] = {}

    def event_mine(
        event: EventView | None,
        reviews: Mapping[str, Mapping[str, Review]],
        source: object,
    ) -> Mapping[str, Mapping[str, Mapping[str, str]]]:
        """Each entrant's own part of their phone under ``serve --event``, by language (and
        the event's name, as a phone's session): made when a phone first asks for it
        (:class:`web.hub.Lazily`), and made again only when something it shows has changed
        (a change at one table, the others' phones keep theirs)."""
        if event is None:
            return {}

        def mine(code: str, player: str) -> str:
            board = event.board_of(player)
            review = None if board is None else reviews.get(board.session, {}).get(player)
            facts = (
                event.seat(player),
                player in event.accepted,
                event.ended,
                event.places,
                event.card,
                event.name,
                review,
            )
            found = made_mine.get((code, player))
            if found is not None and found[0] is board and found[1] == facts:
                return found[2]
            html = (
                templates(code)
                .get_template("_mine_event.html")
                .render(event=event, player=player, review=review)
            )
            made_mine[(code, player)] = (board, facts, html)
            return html

        entrants = [p.name for p in event.players]
        name = event.name
        return Lazily(langs, lambda code: {name: Lazily(entrants, partial(mine, code))}, source)

    def mine_frames(
        board: Board,
        code: str,
        reviews: Mapping[str, Mapping[str, Review]],
        proposing: Proposing,
    ) -> dict[str, str]:
        """Each player's own part of their phone at ``board``'s table, in the language
        ``code`` (with who pays whom there now, and ``reviews``: each table's players' cube
        decisions reviewed, each on their own phone alone; ``proposing``: what each may
        propose, their proposals, and the payment code of each payment they make)."""
        payments = settle({s.name: s.cents for s in board.standings})
        players = {*board.line.order, *(s.name for s in board.standings)}
        mine = reviews.get(board.session, {})
        text = remittance(board.session, proposing.night)
        say = words(code)
        codes = {
            (p.payer, p.payee): phone_code(
                payment_code(
                    p.payer, p.payee, p.cents, proposing.accounts.get(p.payee), currency, text
                ),
                say,
            )
            for p in payments
        }
        return {
            player: templates(code)
            .get_template("_mine.html")
            .render(
                board=board,
                player=player,
                settlement=payments,
                review=mine.get(player),
                offers=proposing.offers.get(player, ()),
                proposals=proposing.of(player),
                codes=codes,
                paying={
                    (p.proposal.payee, p.proposal.cents)
                    for p in proposing.waiting()
                    if p.proposal.player == player and p.proposal.act == "pay"
                },
            )
            for player in players
        }

    hub = Hub(table, render) if interval is None else Hub(table, render, interval)

    #: The room's parts that changed from one version to another, by language, made once
    #: for every stream that sent the first and now sends the second (None: the whole room).
    updates: dict[tuple[str, int, int], bytes | None] = {}

    def room_message(
        frames: Frames, code: str, sent: tuple[int, Pieces] | None, version: int
    ) -> bytes:
        """The room's message of ``frames`` (the hub's ``version``) for a stream that last
        sent ``sent`` (its version and parts; None: nothing yet): the parts that changed
        since, or the whole room."""
        key = (code, -1 if sent is None else sent[0], version)
        if key not in updates:
            data = None if sent is None else changed(sent[1], sent[0], frames.room_parts[code])
            updates[key] = None if data is None else message("parts", data, version)
            while len(updates) > UPDATES_KEPT:
                del updates[next(iter(updates))]
        update = updates[key]
        return update if update is not None else message("room", frames.room[code], version)

    def shown() -> Frames | None:
        return hub.frames

    async def persist(writes: Writes) -> None:
        """What the ledger keeps of the devices: written in a worker thread; a ledger that
        cannot be written now is said in the log (the devices stay in until the server
        stops)."""
        if not writes:
            return
        try:  # (the stamp tells every server on the ledger to read the devices again)
            await run_in_threadpool(table.put_settings, {**writes, STAMP: secrets.token_hex(8)})
        except ChouetteError as err:
            once(
                "persist",
                said(
                    "the devices signed in cannot be kept in the ledger now: {reason}",
                    reason=err.said,
                ),
            )

    async def who(request: Request) -> Who:
        """What this request may do (:meth:`web.access.Access.who`), noting its device as
        seen."""
        frames = shown()
        found = access.who(request.cookies.get(COOKIE, ""), frames.tables if frames else ())
        if found.device is not None:
            await persist(access.seen(found.device))
        return found

    def page(
        request: Request, name: str, status: int = 200, table_of: str | None = None, **values: Any
    ) -> HTMLResponse:
        """The page ``name``, with the board of the session shown (or of ``table_of``'s table:
        a phone's own, under ``serve --room``)."""
        frames = hub.frames
        code = language(request)
        board = ""
        if frames is not None and table_of is not None and table_of == frames.scope:
            board = ""  # (serve --event: the phone's table is in its own part)
        elif frames is not None:
            board = frames.boards.get(code, {}).get(table_of or "", frames.board[code])
        html = (
            templates(code)
            .get_template(name)
            .render(
                board_html=board,
                room_html=frames.room.get(code, "") if frames else "",
                controls_html=frames.controls[code] if frames else "",
                problem=words(code)(hub.problem) if hub.problem else None,
                version=hub.version,
                pin_letters=access.strong,  # (a PIN retired for letters: see web.access)
                **values,
            )
        )
        return HTMLResponse(html, status_code=status, headers={"cache-control": "no-store"})

    def admitted(response: Response, token: str) -> Response:
        response.set_cookie(
            COOKIE,
            token,
            max_age=TOKEN_HOURS * 3600,
            httponly=True,
            secure=secure,
            samesite="strict",
        )
        return response

    def refuse(request: Request, status: int, text: Sayable, as_json: bool) -> Response:
        """:func:`refusal`, in the words of the page ``request`` asks for."""
        return refusal(status, text, as_json, words(language(request)))

    def refused(request: Request, name: str, refusal: Refusal, **values: Any) -> Response:
        status = 429 if refusal.wait else 403
        response = page(request, name, status=status, wrong=refusal.words, **values)
        if refusal.wait:
            response.headers["retry-after"] = str(refusal.wait)
        return response

    def address(request: Request) -> str:
        return request.client.host if request.client else "?"

    async def scoreboard(request: Request) -> Response:
        await hub.ready()
        if table.event is not None:
            return page(request, "event.html")
        return page(request, "room.html" if table.room else "board.html")

    def keeper_values(current: Who, lang: str) -> dict[str, Any]:
        """The devices and the players' codes the scorekeeper's page lists (in ``lang``)."""
        frames = shown()
        session = frames.session if frames else None
        admits = frames.admits if frames else None
        codes = []
        for name in frames.people if frames and admits else ():
            code = access.code(admits or "", name)
            url = f"{base_url}me?code={quote(code)}"
            qr = segno.make(url, error="m").svg_inline(
                scale=3, title=words(lang)(said("{player}'s code", player=name))
            )
            codes.append({"player": name, "code": shown_code(code), "url": url, "qr": qr})
        return {
            "devices": access.listed(),
            "this_device": current.device,
            "codes": codes,
            "hours": TOKEN_HOURS,
            "tables": table.choices(),
            "room": table.room or table.event is not None,
            "served": session,
        }

    async def keeper_page(request: Request) -> Response:
        await hub.ready()
        current = await who(request)
        if not current.keeper:
            return page(request, "pin.html")
        return page(request, "keeper.html", **keeper_values(current, language(request)))

    async def signed_in(
        request: Request,
        enter: Callable[[str, str, str, str], tuple[str, Writes] | Refusal],
        given: str,
        then: Callable[[str], None] | None = None,
    ) -> Response:
        """The scorekeeper's sign-in of the device that sent ``request`` (``enter``: the PIN's
        or the link's, :meth:`web.access.Access.enter_pin` or ``enter_link``, with what was
        ``given``): on to the keeper's page, signed in (``then`` told its token once the
        devices are kept), or the PIN page again, saying why not."""
        result = enter(
            address(request),
            given,
            request.headers.get("user-agent", ""),
            request.cookies.get(COOKIE, ""),
        )
        if isinstance(result, Refusal):
            await hub.ready()
            return refused(request, "pin.html", result)
        token, writes = result
        await persist(writes)
        if then is not None:
            then(token)
        return admitted(RedirectResponse("/keeper", status_code=303), token)

    async def enter_pin(request: Request) -> Response:
        fields = await form(request)
        if isinstance(fields, Response):
            return fields
        return await signed_in(request, access.enter_pin, one(fields, "pin"))

    async def enter_link(request: Request) -> Response:
        """The keeper's one-time link opened (scanned): this device the scorekeeper's, once;
        the terminal says which device took it (the token itself is said nowhere). A HEAD
        (a scanner app's look at the address before the browser opens it) takes nothing."""
        if request.method != "GET":
            return Response(headers={"cache-control": "no-store"})

        def took(token: str) -> None:
            if tell is None:
                return
            heard = Heard(words(language(request)))
            heard.say(
                said(
                    "the scorekeeper's sign-in link signed in {device} ({address}); it signs "
                    "in no other device",
                    device=getattr(access.device(token), "label", "?"),
                    address=address(request),
                )
            )
            tell(heard)

        return await signed_in(request, access.enter_link, request.path_params["token"], took)

    async def keeper_only(request: Request, as_json: bool) -> Who | Response:
        current = await who(request)
        if current.keeper:
            return current
        if current.device is None:
            return refuse(request, 401, NO_PIN, as_json)
        return refuse(request, 403, NOT_KEEPER, as_json)

    async def act(request: Request) -> Response:
        """One action of the keeper's page: a command line in the CLI's own words (``line``,
        or a form's pieces of one, :func:`web.moves.line_of`), run by the CLI as the table's
        prompt runs it (:meth:`web.table.Table.run_line`), in the page's ``session``."""
        wants_json = "application/json" in request.headers.get("accept", "")
        current = await keeper_only(request, wants_json)
        if isinstance(current, Response):
            return current
        pairs = await form_pairs(request)
        if isinstance(pairs, Response):
            return pairs
        fields = as_fields(pairs)
        seen = hub.version
        heard = Heard(words(language(request)))
        try:
            line = line_of(pairs)
            wanted = session_alone(line)
            if wanted is not None:  # as the table's prompt moves: the page runs that session
                ok = await switch(wanted, heard)
            else:
                ok, _ = await run_in_threadpool(
                    table.run_line, line, one(fields, "session") or None, heard
                )
        except ChouetteError as err:
            heard.add(said("Error: {message}", message=err.said))
            ok = False
        hub.poke()
        if tell is not None:
            tell(heard)
        lines = heard.lines(heard.words)
        if wants_json:
            answer = {"ok": ok, "message": "\n".join(lines), "said": lines}
            return JSONResponse(answer, status_code=200 if ok else 400)
        if ok:  # a page without the script: show it with the action's result on it
            await hub.newer(seen, timeout=2.0)
        return page(
            request,
            "keeper.html",
            status=200 if ok else 400,
            said=lines,
            ok=ok,
            **keeper_values(current, language(request)),
        )

    async def revoke(request: Request) -> Response:
        current = await keeper_only(request, False)
        if isinstance(current, Response):
            return current
        fields = await form(request)
        if isinstance(fields, Response):
            return fields
        if one(fields, "others"):  # every device but this one
            await persist(access.revoke_others(current.device or ""))
            hub.wake()
            return RedirectResponse("/keeper#devices", status_code=303)
        device = one(fields, "revoke")
        if device not in access.devices:
            return refuse(
                request, 404, said("there is no such device signed in (signed out already?)"), False
            )
        await persist(access.revoke(device))
        hub.wake()  # its event streams end now
        return RedirectResponse("/keeper#devices", status_code=303)

    async def my_devices(request: Request) -> Response:
        """A player's phone signs out the player's other devices (a code that leaked)."""
        current = await who(request)
        if current.player is None or current.device is None:
            return refuse(request, 401, NO_CODE, False)
        fields = await form(request)
        if isinstance(fields, Response):
            return fields
        await persist(access.revoke_others(current.device, player=True))
        hub.wake()
        return RedirectResponse("/me", status_code=303)

    async def new_code(request: Request) -> Response:
        current = await keeper_only(request, False)
        if isinstance(current, Response):
            return current
        fields = await form(request)
        if isinstance(fields, Response):
            return fields
        frames = shown()
        player = one(fields, "player")
        if frames is None or frames.admits is None or player not in frames.people:
            return refuse(
                request,
                404,
                said("{player} is no player of the session shown", player=repr(player[:80])),
                False,
            )
        await persist(access.new_code(frames.admits, player))
        return RedirectResponse("/keeper#codes", status_code=303)

    async def me(request: Request) -> Response:
        await hub.ready()
        current = await who(request)
        if current.player is not None:
            return me_page(request, current)
        return page(request, "code.html", code=request.query_params.get("code", "")[:40])

    def me_page(request: Request, current: Who, status: int = 200, **values: Any) -> Response:
        """The phone's page of its player (``values``: what the page says besides)."""
        frames = hub.frames
        mine = ""
        if frames is not None:
            tables = frames.mine.get(language(request), {})
            mine = tables.get(current.session or "", {}).get(current.player or "", "")
        return page(
            request,
            "me.html",
            status=status,
            table_of=current.session,
            player=current.player,
            keeper=current.keeper,
            mine_html=mine,
            others=len(access.others(current.device or "", player=True)),
            **values,
        )

    async def enter_code(request: Request) -> Response:
        fields = await form(request)
        if isinstance(fields, Response):
            return fields
        frames = shown()
        result = access.enter_code(
            address(request),
            one(fields, "code"),
            request.headers.get("user-agent", ""),
            request.cookies.get(COOKIE, ""),
            frames.admits if frames else None,
            frames.people if frames else (),
            tables=frames.tables if frames else {},
        )
        if isinstance(result, Refusal):
            await hub.ready()
            return refused(request, "code.html", result, code="")
        token, writes = result
        await persist(writes)
        return admitted(RedirectResponse("/me", status_code=303), token)

    async def accept_mine(request: Request) -> Response:
        """A player's phone accepts the session's rules: for its own player only (the device's
        token says who; the form names nobody)."""
        current = await who(request)
        if current.player is None:
            return refuse(request, 401, NO_CODE, False)
        fields = await form(request)
        if isinstance(fields, Response):
            return fields
        heard = Heard(words(language(request)))
        frames, seen = shown(), hub.version
        if frames is not None and frames.scope is not None:  # serve --event: the event's card
            accepting = ["event", "accept", f"--event={frames.scope}", "--", current.player]
            ok, lines = await run_in_threadpool(table.run_words, accepting, None, heard)
        else:
            ok, lines = await run_in_threadpool(  # in the phone's own session (its table)
                table.run_words, ["accept", "--", current.player], current.session, heard
            )
        if not ok:
            error = heard.words(said("Error: {message}", message=""))
            return refuse(request, 400, "\n".join(lines).removeprefix(error), False)
        hub.poke()
        if tell is not None:
            phone = Heard(heard.words)
            phone.say(said("{player}'s phone:", player=current.player))
            phone.items += heard.items
            tell(phone)
        await hub.newer(seen, timeout=2.0)  # the page it goes back to shows the acceptance
        return RedirectResponse("/me", status_code=303)

    async def propose_mine(request: Request) -> Response:
        """A player's phone proposes a line about its own player (the device's token says
        who; the form says what: ``act`` ``take``/``drop``/``beaver`` with ``member``,
        ``game``, ``origin``, ``stage`` as its page showed the double, or ``pay`` with
        ``payee`` and ``cents`` as its settlement line), checked by the rules and kept for
        the keeper; a refusal is the phone's page with the reason, nothing kept."""
        current = await who(request)
        if current.player is None or current.session is None:
            return refuse(request, 401, NO_CODE, False)
        fields = await form(request)
        if isinstance(fields, Response):
            return fields
        try:
            proposal = proposal_of(fields, current.player)
            number = await run_in_threadpool(table.propose, current.session, proposal)
        except ChouetteError as err:
            await hub.ready()
            return me_page(request, current, status=400, wrong=err.said)
        hub.poke()
        if tell is not None:
            told = Heard(words(language(request)))
            told.say(
                said(
                    "{player}'s phone proposes: {proposal} (chouette approve {number}).",
                    player=current.player,
                    proposal=proposal.told(),
                    number=number,
                )
            )
            tell(told)
        return RedirectResponse("/me#proposals", status_code=303)

    async def whoami(request: Request) -> Response:
        current = await who(request)
        return JSONResponse(
            {"keeper": current.keeper, "player": current.player, "session": current.session},
            headers={"cache-control": "no-store"},
        )

    async def events(request: Request) -> Response:
        return stream(request, ("room",) if table.room or table.event is not None else ("board",))

    async def pick_table(request: Request) -> Response:
        """The scorekeeper picks the session the keeper's page runs: one of the night's
        tables under ``serve --room``, else any session (:meth:`web.table.Table.choices`)."""
        current = await keeper_only(request, as_json=True)
        if isinstance(current, Response):
            return current
        fields = await form(request)
        if isinstance(fields, Response):
            return fields
        heard = Heard(words(language(request)))
        ok = await switch((fields.get("table") or [""])[0], heard)
        lines = heard.lines(heard.words)
        answer = {"ok": ok, "message": "\n".join(lines), "said": lines}
        return JSONResponse(answer, status_code=200 if ok else 400)

    async def switch(wanted: str, heard: Heard) -> bool:
        """The keeper's page runs the session ``wanted`` from now on, if it may (one of the
        night's tables under ``serve --room``, else any session): whether it does (what was
        said is in ``heard``)."""
        choices = await run_in_threadpool(table.choices)
        if wanted not in choices:
            known = ", ".join(choices[:10]) or said("none")
            name = repr(wanted[:80])
            why = (
                said("no table {name} tonight ({known})", name=name, known=known)
                if table.room
                else said("no session {name} to switch to ({known})", name=name, known=known)
            )
            heard.add(said("Error: {message}", message=why))
            return False
        frames, seen = shown(), hub.version
        table.session = wanted
        hub.poke()
        if frames is None or frames.session != wanted:  # its codes, on a page loaded now
            await hub.newer(seen, timeout=2.0)
        heard.say(said("The keeper's page runs {session}.", session=wanted))
        return True

    async def keeper_events(request: Request) -> Response:
        current = await who(request)
        if not current.keeper:
            # 401: the page's script asks for the PIN (a restart with a new PIN, signed out)
            if current.device is None:
                return refuse(request, 401, NO_PIN, False)
            return refuse(request, 403, NOT_KEEPER, False)
        device = current.device or ""
        return stream(request, ("board", "controls"), lambda: access.holds(device, keeper=True))

    async def me_events(request: Request) -> Response:
        current = await who(request)
        if current.player is None:  # 401: the page's script asks for the code
            return refuse(request, 401, NO_CODE, False)
        token, player, at = request.cookies.get(COOKIE, ""), current.player, current.session

        def still_in() -> bool:
            frames = shown()
            now = access.who(token, frames.tables if frames else ())
            return (now.player, now.session) == (player, at)

        kinds = ("mine",) if table.event is not None else ("board", "mine")  # (its table's)
        return stream(request, kinds, still_in, player=player, session=at)

    def stream(
        request: Request,
        kinds: tuple[str, ...],
        still_in: Callable[[], bool] = lambda: True,
        *,
        player: str | None = None,
        session: str | None = None,
    ) -> Response:
        client = address(request)
        why = streams.take(client)
        if why is not None:
            once("streams", said("an event stream is refused: {why}", why=why))
            busy = said(
                "Error: the server has too many event streams open ({why}); the page retries",
                why=why,
            )
            return Response(
                words(language(request))(busy) + "\n",
                status_code=503,
                media_type="text/plain",
                headers={"retry-after": str(STREAM_RETRY_SECONDS), "connection": "close"},
            )

        code = language(request)
        # the frames this stream sends, made with each version while it is open
        wanted = [
            (name, code)
            for kind in kinds
            for name in (
                ("room", "room_parts")
                if kind == "room"
                else ("boards",)
                if kind == "board" and session is not None
                else (kind,)
            )
        ]
        demand.add(wanted)

        def release() -> None:
            streams.give(client)
            demand.drop(wanted)

        async def sent() -> AsyncIterator[bytes]:
            yield b"retry: 1000\n\n"
            told: Sayable | None = "(not yet)"  # the first event says whether there is a problem
            room: tuple[int, Pieces] | None = None  # the room this stream sent last
            async for version in hub.follow():
                if not still_in():  # signed out, or expired: the page asks for the PIN (code)
                    return
                if version is None:
                    yield b": still here\n\n"
                    continue
                frames = hub.frames
                if frames is not None:
                    for kind in kinds:
                        if kind == "mine":  # the phone's own player's part
                            mine = frames.mine.get(code, {}).get(session or "", {})
                            yield message(kind, mine.get(player or "", ""), version)
                        elif kind == "board" and session is not None:  # the phone's table
                            board = frames.boards.get(code, {}).get(session, frames.board[code])
                            yield message(kind, board, version)
                        elif kind == "room":  # what changed since this stream's last room
                            yield room_message(frames, code, room, version)
                            room = (version, frames.room_parts[code])
                        else:
                            yield message(kind, getattr(frames, kind)[code], version)
                if hub.problem != told:
                    told = hub.problem
                    yield message("problem", words(code)(told) if told else "", version)

        return Stream(sent(), release)

    async def watch_devices() -> None:
        """Read the devices again whenever the ledger's stamp changes: another server on the
        same ledger signed one in or out, or made a new code (:meth:`Access.reload`); the
        streams of a device signed out end."""
        seen: str | None = None
        while True:
            try:
                stamp = (await run_in_threadpool(table.settings, STAMP)).get(STAMP, "")
                if stamp != seen:
                    access.reload(await run_in_threadpool(table.settings, SERVE))
                    seen = stamp
                    hub.wake()
            except ChouetteError:  # the ledger cannot be read now: the hub says so
                pass
            except Exception:  # a bug: log it, keep watching
                log.exception("reading the devices again failed")
            await asyncio.sleep(DEVICES_SECONDS)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        quiet_loop(asyncio.get_running_loop(), once, limits.files)
        task = asyncio.create_task(hub.run())
        watching = asyncio.create_task(watch_devices())
        try:
            yield
        finally:
            hub.close()
            watching.cancel()
            with suppress(asyncio.CancelledError):
                await watching
            await task

    app = Starlette(
        routes=[
            Route("/", scoreboard),
            Route("/events", events),
            Route("/keeper", keeper_page, methods=["GET"]),
            Route("/keeper", enter_pin, methods=["POST"]),
            Route("/keeper/link/{token}", enter_link, methods=["GET"]),
            Route("/keeper/events", keeper_events),
            Route("/keeper/act", act, methods=["POST"]),
            Route("/keeper/table", pick_table, methods=["POST"]),
            Route("/keeper/devices", revoke, methods=["POST"]),
            Route("/keeper/codes", new_code, methods=["POST"]),
            Route("/me", me, methods=["GET"]),
            Route("/me", enter_code, methods=["POST"]),
            Route("/me/accept", accept_mine, methods=["POST"]),
            Route("/me/devices", my_devices, methods=["POST"]),
            Route("/me/propose", propose_mine, methods=["POST"]),
            Route("/me/events", me_events),
            Route("/whoami", whoami),
            Mount("/static", StaticFiles(packages=[("web", "static")]), name="static"),
        ],
        lifespan=lifespan,
        middleware=[Middleware(Headers), Middleware(Hosts, hosts=hosts)],
    )
    app.state.hub = hub
    app.state.access = access
    app.state.streams = streams
    app.state.demand = demand
    return app


#: The longest number a proposal's form gives (a game, an event's index, cents).
LONGEST_NUMBER = 15


def proposal_of(fields: Mapping[str, Sequence[str]], player: str) -> Proposal:
    """What a phone's form proposes for its own ``player`` (never a player the form
    names): refused if it is no proposal at all (the rules check the rest)."""
    act = one(fields, "act")
    if act == "pay":
        return Proposal(player, "pay", payee=one(fields, "payee"), cents=number(fields, "cents"))
    for answer in ANSWER_ACTS:
        if act == answer:
            return Proposal(
                player,
                answer,
                one(fields, "member"),
                number(fields, "game"),
                number(fields, "origin"),
                one(fields, "stage"),
            )
    raise ChouetteError(
        said(
            "a phone proposes a take, a drop, a beaver or a payment, not {act}",
            act=repr(clipped(act, 40)),
        )
    )


def number(fields: Mapping[str, Sequence[str]], key: str) -> int:
    """A whole number a form gives, or a refusal naming the field."""
    text = one(fields, key)
    if not text.isascii() or not text.isdigit() or len(text) > LONGEST_NUMBER:
        raise ChouetteError(said("the form's {field} is no number", field=key))
    return int(text)


class PhoneCode(NamedTuple):
    """A payment as its payer's phone shows it: the line in words, and the code a bank app
    scans (an SVG, or empty when the payee's account makes none)."""

    said: Sayable
    svg: str


def phone_code(code: PaymentCode, say: Words) -> PhoneCode:
    """A payment code drawn for the payer's phone (its title in ``say``'s words)."""
    if not code.drawn:
        return PhoneCode(code.said, "")
    title = say(said("the payment code for {payee}", payee=code.payee))
    return PhoneCode(
        code.said, segno.make(code.payload, error="m").svg_inline(scale=4, title=title)
    )


@lru_cache(maxsize=64)
def message(kind: str, data: str, version: int) -> bytes:
    """One server-sent event: its name, id and data, a line of data per line of text, as
    the bytes sent. Made once for every stream that sends it, encoded too (a room of 128
    screens gets one version 128 times)."""
    lines = "".join(f"data: {line}\n" for line in data.split("\n"))
    return f"event: {kind}\nid: {version}\n{lines}\n".encode()


def one(fields: Mapping[str, Sequence[str]], key: str) -> str:
    values = fields.get(key) or [""]
    return values[-1].strip()


def refusal(status: int, text: Sayable, as_json: bool, in_words: Words = ENGLISH_WORDS) -> Response:
    """A request refused: ``Error: …`` in the page's words (``in_words``), as text or, for a
    page's script (``as_json``), as the keeper's page reads an answer."""
    error = in_words(said("Error: {message}", message=text))
    if as_json:
        return JSONResponse({"ok": False, "message": error, "said": [error]}, status_code=status)
    return Response(f"{error}\n", status_code=status, media_type="text/plain")


def browser_words(request: Request) -> Words:
    """The words of the language the browser asks for (a refusal before the app's own
    choice of language is at hand)."""
    return words(negotiate(request.headers.get("accept-language")))


def night_totals(boards: Sequence[Board]) -> list[tuple[str, int, int]]:
    """The night across its tables: each player's money (a sum of cents: points at different
    stakes are not added) and games played, most won first."""
    cents: dict[str, int] = {}
    for board in boards:
        for standing in board.standings:
            cents[standing.name] = cents.get(standing.name, 0) + standing.table_cents
    tables = {name: sum(1 for b in boards for s in b.standings if s.name == name) for name in cents}
    return sorted(
        ((name, total, tables[name]) for name, total in cents.items()), key=lambda t: (-t[1], t[0])
    )


async def form(request: Request) -> dict[str, list[str]] | Response:
    """A posted form (URL-encoded, as a page's form sends it), refused if it comes from
    another site's page or is larger than any form of ours: each field's values."""
    pairs = await form_pairs(request)
    return pairs if isinstance(pairs, Response) else as_fields(pairs)


def as_fields(pairs: Sequence[tuple[str, str]]) -> dict[str, list[str]]:
    """A form's fields by name, each with its values in order."""
    fields: dict[str, list[str]] = {}
    for key, value in pairs:
        fields.setdefault(key, []).append(value)
    return fields


async def form_pairs(request: Request) -> list[tuple[str, str]] | Response:
    """A posted form's fields in the order the page sent them (see :func:`form`)."""
    origin = request.headers.get("origin")
    if origin and origin != "null" and urlsplit(origin).netloc != request.headers.get("host"):
        refused = said("a form posted from another site is refused")
        return refusal(403, refused, False, browser_words(request))
    body = b""
    try:
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_FORM:
                return refusal(413, said("the form is too large"), False, browser_words(request))
    except ClientDisconnect:  # gone (or dropped as too slow) before its form arrived
        return refusal(400, said("the form did not arrive whole"), False, browser_words(request))
    try:
        return parse_qsl(
            body.decode("utf-8", "replace"), keep_blank_values=True, max_num_fields=MAX_FIELDS
        )
    except ValueError:  # parse_qsl past max_num_fields
        too_many = said("the form has more fields than any form of ours")
        return refusal(413, too_many, False, browser_words(request))
