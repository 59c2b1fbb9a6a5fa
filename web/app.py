"""The web application of ``chouette serve`` (Starlette): the scoreboard, the scorekeeper's
page behind the PIN, their event streams, and the actions.

    GET  /                 the scoreboard (read-only; for the TV and the phones)
    GET  /events           its server-sent events: ``board`` (the board's HTML) on every change
    GET  /keeper           the scorekeeper's page, or the PIN form
    POST /keeper           the PIN: a cookie for this browser
    GET  /keeper/events    ``board`` and ``controls`` (the legal actions), PIN only
    POST /keeper/act       one action (one transaction), PIN only; JSON for the page's script
    GET  /static/...       the style sheet and the small script

Pages are rendered on the server (Jinja2); the script only swaps in the fragments the events
carry and posts the buttons. No page loads anything from elsewhere (a Content-Security-Policy
says so to the browser).
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import secrets
import time
from collections import defaultdict, deque
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import parse_qs, urlsplit

from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import Request
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
from chouette.report import balance, signed
from web.hub import Frames, Hub
from web.moves import read_action
from web.table import Snapshot, Table

log = logging.getLogger("chouette.serve")

COOKIE = "chouette-keeper"
MAX_FORM = 64 * 1024  # bytes: a form of the page is a few hundred
MAX_FIELDS = 500  # a form of the page has a handful
PIN_TRIES = 5  # wrong PINs from one address …
PIN_WINDOW = 60.0  # … within this many seconds, then it waits
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
NO_PIN = "the scorekeeper's page needs the PIN that `chouette serve` printed"


def templates() -> Environment:
    """The pages' templates, with the CLI's ways of writing points and money."""
    env = Environment(
        loader=PackageLoader("web", "templates"),
        autoescape=select_autoescape(["html"]),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["signed"] = signed
    env.filters["balance"] = balance
    env.filters["sign_class"] = lambda cents: "pos" if cents > 0 else "neg" if cents < 0 else "zero"
    return env


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


class Keeper:
    """The PIN: checked in constant time, a few wrong tries per address a minute; the right
    one gives the browser a cookie holding a token of this server's run (not the PIN)."""

    def __init__(self, pin: str, clock: Callable[[], float] = time.monotonic) -> None:
        self.pin = pin
        self.token = secrets.token_urlsafe(32)
        self.clock = clock
        self.wrong: dict[str, deque[float]] = defaultdict(deque)

    def admitted(self, request: Request) -> bool:
        given = request.cookies.get(COOKIE, "")
        return hmac.compare_digest(given.encode(), self.token.encode())

    def check(self, address: str, pin: str) -> str | None:
        """None if ``pin`` is right; else why not."""
        now = self.clock()
        tries = self.wrong[address]
        while tries and tries[0] < now - PIN_WINDOW:
            tries.popleft()
        if len(tries) >= PIN_TRIES:
            return "too many wrong PINs from this device: wait a minute and try again"
        if hmac.compare_digest(pin.strip().encode(), self.pin.encode()):
            tries.clear()
            return None
        tries.append(now)
        return "that is not the PIN `chouette serve` printed"


def create_app(
    table: Table,
    pin: str,
    *,
    interval: float | None = None,
    said: Callable[[Sequence[str]], None] | None = None,
) -> Starlette:
    """The application serving ``table``; ``pin`` opens the scorekeeper's page; ``said``
    hears what each action of the page did (the terminal shows it)."""
    env = templates()
    keeper = Keeper(pin)

    def render(snapshot: Snapshot) -> Frames:
        board = snapshot.board
        return Frames(
            board=env.get_template("_board.html").render(board=board),
            controls=env.get_template("_controls.html").render(board=board),
        )

    hub = Hub(table, render) if interval is None else Hub(table, render, interval)

    def page(name: str, status: int = 200, **values: Any) -> HTMLResponse:
        frames = hub.frames
        html = env.get_template(name).render(
            board_html=frames.board if frames else "",
            controls_html=frames.controls if frames else "",
            problem=hub.problem,
            version=hub.version,
            **values,
        )
        return HTMLResponse(html, status_code=status, headers={"cache-control": "no-store"})

    async def scoreboard(request: Request) -> Response:
        await hub.ready()
        return page("board.html")

    async def keeper_page(request: Request) -> Response:
        await hub.ready()
        if not keeper.admitted(request):
            return page("pin.html")
        return page("keeper.html")

    async def enter_pin(request: Request) -> Response:
        fields = await form(request)
        if isinstance(fields, Response):
            return fields
        address = request.client.host if request.client else "?"
        why = keeper.check(address, one(fields, "pin"))
        if why is not None:
            await hub.ready()
            return page("pin.html", status=403, wrong=why)
        response = RedirectResponse("/keeper", status_code=303)
        response.set_cookie(COOKIE, keeper.token, httponly=True, samesite="strict")
        return response

    async def act(request: Request) -> Response:
        wants_json = "application/json" in request.headers.get("accept", "")
        if not keeper.admitted(request):
            return refusal(403, NO_PIN, wants_json)
        fields = await form(request)
        if isinstance(fields, Response):
            return fields
        seen = hub.version
        try:
            action = read_action(fields)
            lines = await run_in_threadpool(
                table.act, action, one(fields, "session"), game_number(one(fields, "game"))
            )
            ok = True
        except ChouetteError as err:
            lines, ok = [f"Error: {err}"], False
        hub.poke()
        if said is not None:
            said(lines)
        if wants_json:
            return JSONResponse({"ok": ok, "said": lines}, status_code=200 if ok else 400)
        if ok:  # a page without the script: show it with the action's result on it
            await hub.newer(seen, timeout=2.0)
        return page("keeper.html", status=200 if ok else 400, said=lines, ok=ok)

    async def events(request: Request) -> Response:
        return stream(("board",))

    async def keeper_events(request: Request) -> Response:
        if not keeper.admitted(request):
            return refusal(403, NO_PIN, False)
        return stream(("board", "controls"))

    def stream(kinds: tuple[str, ...]) -> StreamingResponse:
        async def sent() -> AsyncIterator[str]:
            yield "retry: 1000\n\n"
            told: str | None = "(not yet)"  # the first event says whether there is a problem
            async for version in hub.follow():
                if version is None:
                    yield ": still here\n\n"
                    continue
                frames = hub.frames
                if frames is not None:
                    for kind in kinds:
                        yield message(kind, getattr(frames, kind), version)
                if hub.problem != told:
                    told = hub.problem
                    yield message("problem", told or "", version)

        return StreamingResponse(
            sent(),
            media_type="text/event-stream",
            headers={"cache-control": "no-store", "x-accel-buffering": "no"},
        )

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        task = asyncio.create_task(hub.run())
        try:
            yield
        finally:
            hub.close()
            await task

    app = Starlette(
        routes=[
            Route("/", scoreboard),
            Route("/events", events),
            Route("/keeper", keeper_page, methods=["GET"]),
            Route("/keeper", enter_pin, methods=["POST"]),
            Route("/keeper/events", keeper_events),
            Route("/keeper/act", act, methods=["POST"]),
            Mount("/static", StaticFiles(packages=[("web", "static")]), name="static"),
        ],
        lifespan=lifespan,
        middleware=[Middleware(Headers)],
    )
    app.state.hub = hub
    app.state.keeper = keeper
    return app


def message(kind: str, data: str, version: int) -> str:
    """One server-sent event: its name, id and data, a line of data per line of text."""
    lines = "".join(f"data: {line}\n" for line in data.split("\n"))
    return f"event: {kind}\nid: {version}\n{lines}\n"


def one(fields: Mapping[str, Sequence[str]], key: str) -> str:
    values = fields.get(key) or [""]
    return values[-1].strip()


def game_number(text: str) -> int | None:
    """The game a form was for (as ``--game``), if it names one: a number from 1, in the
    digits the page writes (``str.isdigit`` alone also passes ``²``, which ``int`` refuses)."""
    if not text:
        return None
    if not (text.isascii() and text.isdigit()) or int(text) < 1:
        raise ChouetteError(f"the game is a number from 1, not {text!r}")
    return int(text)


def refusal(status: int, text: str, as_json: bool) -> Response:
    if as_json:
        return JSONResponse({"ok": False, "said": [f"Error: {text}"]}, status_code=status)
    return Response(f"Error: {text}\n", status_code=status, media_type="text/plain")


async def form(request: Request) -> dict[str, list[str]] | Response:
    """A posted form (URL-encoded, as a page's form sends it), refused if it comes from
    another site's page or is larger than any form of ours."""
    origin = request.headers.get("origin")
    if origin and origin != "null" and urlsplit(origin).netloc != request.headers.get("host"):
        return refusal(403, "a form posted from another site is refused", False)
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_FORM:
            return refusal(413, "the form is too large", False)
    try:
        return parse_qs(
            body.decode("utf-8", "replace"), keep_blank_values=True, max_num_fields=MAX_FIELDS
        )
    except ValueError:  # parse_qs past max_num_fields
        return refusal(413, "the form has more fields than any form of ours", False)
