"""Who may do what on the pages of ``chouette serve``.

- **Secrets typed on a page** (the scorekeeper's PIN, a player's code): :class:`Gate` lets
  a device (a client address) get :data:`DEVICE_TRIES` wrong of each a minute, then that
  address waits a minute. Nothing one address does ever holds up another's try (a wait
  for the whole server let an attacker keep everyone out, the right PIN and codes too).
  Guessing is bounded by the secrets instead: a PIN gets :data:`PIN_TRIES` wrong tries from
  everyone together, then :class:`Access` retires it and prints a strong one on the
  server's terminal (:data:`CODE_LENGTH` letters of :data:`CODE_LETTERS`, as a player's
  code; a strong PIN is never retired); a player's code has as many letters to guess, with
  no budget shared with the PIN's. ``tests/serve/test_serve_access.py`` holds the right PIN
  and the right codes admitted against an attacker trying as fast as it likes.
- **A token per device**: the right secret gives the device a token of its own in a cookie,
  valid for :data:`TOKEN_HOURS` hours, listed on the scorekeeper's page (which device, when
  admitted, last seen) and revocable there one by one. It is signed with a key made from the
  PIN and a secret the ledger keeps (the ``setting`` table), so a restart with the same PIN
  keeps every device in and another PIN ends them all. A device that holds a valid token
  never types a secret again, so nobody's wrong PINs can lock it out.
- **A few devices a secret**: a player's code keeps at most :data:`MOST_DEVICES` devices
  signed in for that player, the PIN :data:`MOST_KEEPER_DEVICES` (one more signs the
  oldest out), and admits at most :data:`ADMITTED_A_MINUTE` new devices a minute; a device
  may sign out every other one (the scorekeeper's: all; a phone: its player's), so a
  code or PIN that leaked admits a handful of strangers at most, for as long as it takes
  to notice.
- **Who a request speaks for**: :meth:`Access.who` is the one answer every route asks —
  whether the device is the scorekeeper's (the PIN) and which player it speaks for (that
  player's code, for the session the pages show). A player's code never makes a device the
  scorekeeper's, and a device speaks for one player at most, the one whose code it gave.

- **The keeper's link** (:meth:`Access.new_link`): ``chouette serve`` prints, under the PIN,
  a sign-in link for the scorekeeper's phone (and its QR code). Its token is
  :data:`LINK_BYTES` random bytes (``secrets.token_urlsafe``: 256 bits, beyond guessing, so
  wrong tries are not counted), compared in constant time, and admits **one** device as
  the scorekeeper's, once: the first request that gives it takes it (under a lock: two
  phones racing the same link, exactly one wins), and from then on it is refused as a
  token that never existed (one answer for used, expired, wrong and made up). It lives in
  the server's memory alone, never in the ledger or the log: it ends when the server stops,
  or :data:`LINK_MINUTES` minutes after it was printed, whichever comes first; a restart
  prints a new one. It changes nothing of the PIN, which opens the page as before.

- **Several servers on one ledger** (two laptops on one PostgreSQL ledger) share their
  devices: each server reads them again whenever the ledger's :data:`STAMP` changes
  (:meth:`Access.reload`), and a sign-out is kept as a tombstone (:data:`REVOKED`) until
  the device would have expired, so a server that has not heard of it yet and writes the
  device back (its "last seen") never brings it back in.

Nothing here blocks: the methods that change what the ledger keeps return the settings to
write (:class:`Writes`), and the caller writes them (``web.app`` does, in a worker thread).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import math
import secrets
import threading
import time
from collections import defaultdict, deque
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Literal, Protocol

from chouette.words import Number, Said, Sayable, said, said_n

log = logging.getLogger("chouette.serve")

TOKEN_HOURS = 12  # an evening, with room: a device admitted at 6 pm is in until 6 am
DEVICE_TRIES = 5  # wrong PINs (or codes) from one address …
DEVICE_WINDOW = 60.0  # … within this many seconds, then that address waits
PIN_TRIES = 10  # wrong PINs from everyone, then the PIN is retired for a strong one
CODES_TOLD = (100, 1_000, 10_000, 100_000, 1_000_000)  # wrong codes the log tells of
MOST_DEVICES = 3  # a player's devices signed in at once (a phone, a tablet, a laptop) …
MOST_KEEPER_DEVICES = 5  # … and the scorekeeper's; one more signs the oldest out
ADMITTED_A_MINUTE = 5  # new devices one secret (the PIN, a player's code) admits a minute
SEEN_EVERY = timedelta(minutes=10)  # a device's "last seen" is written to the ledger this often

SERVE = "serve."  # every setting of the server's
SECRET = "serve.secret"
DEVICE = "serve.device."
REVOKED = "serve.revoked."  # a device signed out: kept until it would have expired
STAMP = "serve.stamp"  # changed with every write of the devices or codes
CODES = "serve.codes"
CODE_LENGTH = 8
CODE_LETTERS = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"  # no 0/O, 1/I/L to misread
LINK_BYTES = 32  # the keeper's one-time link: 256 random bits (43 letters of a URL) …
LINK_MINUTES = 30  # … that admit one device within this many minutes of being printed

Writes = dict[str, str | None]
"""Settings to write to the ledger (None: remove the key)."""


class Store(Protocol):
    """Where the server keeps its secret, its devices and its players' codes (the ledger's
    ``setting`` table: :class:`web.table.Table`)."""

    def settings(self, prefix: str) -> dict[str, str]: ...

    def put_settings(self, values: Mapping[str, str | None]) -> None: ...


class Memory:
    """A :class:`Store` that forgets at the end of the run (tests; a ledger the server
    cannot write)."""

    def __init__(self) -> None:
        self.values: dict[str, str] = {}

    def settings(self, prefix: str) -> dict[str, str]:
        return {k: v for k, v in self.values.items() if k.startswith(prefix)}

    def put_settings(self, values: Mapping[str, str | None]) -> None:
        for key, value in values.items():
            if value is None:
                self.values.pop(key, None)
            else:
                self.values[key] = value


@dataclass(frozen=True)
class Who:
    """What a request may do: ``device`` its token's device (None: it has none);
    ``keeper`` whether it gave the PIN; ``player`` the player it speaks for, in ``session``:
    the session the pages show, or under ``serve --room`` any table of the night (None:
    nobody)."""

    device: str | None = None
    keeper: bool = False
    player: str | None = None
    session: str | None = None


NOBODY = Who()


@dataclass(frozen=True)
class Device:
    """A device admitted: by the PIN (``keeper``) and/or a player's code (``player`` of
    ``session``), from ``address``, described as ``label``; ``key``: which PIN's key signed
    its token (a device of another PIN is no device of this server)."""

    id: str
    key: str
    label: str
    address: str
    keeper: bool
    player: str | None
    session: str | None
    admitted: datetime
    expires: datetime
    seen: datetime

    def text(self) -> str:
        return json.dumps(
            {
                **asdict(self),
                "admitted": self.admitted.isoformat(),
                "expires": self.expires.isoformat(),
                "seen": self.seen.isoformat(),
            },
            sort_keys=True,
        )

    @classmethod
    def read(cls, text: str) -> Device | None:
        """The device a setting describes, or None if it is not one (damaged: ignored)."""
        try:
            data = json.loads(text)
            return cls(
                id=str(data["id"]),
                key=str(data["key"]),
                label=str(data["label"]),
                address=str(data["address"]),
                keeper=data["keeper"] is True,
                player=None if data["player"] is None else str(data["player"]),
                session=None if data["session"] is None else str(data["session"]),
                admitted=_moment(data["admitted"]),
                expires=_moment(data["expires"]),
                seen=_moment(data["seen"]),
            )
        except (ValueError, KeyError, TypeError):
            return None


def _moment(text: object) -> datetime:
    moment = datetime.fromisoformat(str(text))
    if moment.tzinfo is None:
        raise ValueError("a time without its zone")
    return moment.astimezone(UTC)


@dataclass(frozen=True)
class Refusal:
    """A secret not checked (``wait`` seconds before the next try) or wrong (``wait`` 0)."""

    text: str
    wait: int = 0
    told: Sayable | None = field(default=None, compare=False)

    @property
    def words(self) -> Sayable:
        """What the page says of it, in its reader's words (``text`` is its English)."""
        return self.text if self.told is None else self.told


def refusal_of(what: Said, wait: int = 0) -> Refusal:
    """A :class:`Refusal` that says ``what``."""
    return Refusal(str(what), wait, what)


WRONG_PIN_SAID = said("that is not the PIN `chouette serve` printed")
WRONG_CODE_SAID = said(
    "that is no player's code for this session: the scorekeeper's page shows each one"
)
USED_LINK_SAID = said(
    "this link has been used or is not valid: type the PIN that `chouette serve` printed"
)
WRONG_PIN = str(WRONG_PIN_SAID)
WRONG_CODE = str(WRONG_CODE_SAID)


#: What a try is of: the scorekeeper's PIN or a player's code (each its own count).
Kind = Literal["PIN", "code"]


class Gate:
    """How fast one address may guess (see the module's note): :data:`DEVICE_TRIES` wrong
    tries of each kind a minute. ``clock``: seconds, monotonic."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.by_address: dict[tuple[str, Kind], deque[float]] = defaultdict(deque)

    def closed(self, address: str, kind: Kind) -> Refusal | None:
        """Why a try of ``kind`` from ``address`` is not even checked now, or None: it may
        be. Only that address's own wrong tries ever close it."""
        now = self.clock()
        self._forget(now)
        tries = self.by_address.get((address, kind))
        if tries is not None and len(tries) >= DEVICE_TRIES:
            wait = max(1, math.ceil(tries[0] + DEVICE_WINDOW - now))
            return refusal_of(
                said("too many wrong PINs from this device: wait a minute and try again")
                if kind == "PIN"
                else said("too many wrong codes from this device: wait a minute and try again"),
                wait,
            )
        return None

    def wrong(self, address: str, kind: Kind) -> None:
        """A wrong try of ``kind`` from ``address``: counted for that address alone."""
        self.by_address[(address, kind)].append(self.clock())

    def _forget(self, now: float) -> None:
        for key in list(self.by_address):
            tries = self.by_address[key]
            while tries and tries[0] <= now - DEVICE_WINDOW:
                tries.popleft()
            if not tries:
                del self.by_address[key]


def describe(agent: str) -> str:
    """A device as a person names it, from its browser's User-Agent: "Chrome on Android"."""
    browser = next(
        (
            name
            for mark, name in (
                ("Edg/", "Edge"),
                ("OPR/", "Opera"),
                ("Firefox/", "Firefox"),
                ("FxiOS/", "Firefox"),
                ("CriOS/", "Chrome"),
                ("Chrome/", "Chrome"),
                ("Chromium/", "Chromium"),
                ("Safari/", "Safari"),
                ("curl/", "curl"),
                ("python", "a script"),
            )
            if mark.lower() in agent.lower()
        ),
        "a browser",
    )
    system = next(
        (
            name
            for mark, name in (
                ("iPhone", "iPhone"),
                ("iPad", "iPad"),
                ("Android", "Android"),
                ("Windows", "Windows"),
                ("Macintosh", "Mac"),
                ("CrOS", "ChromeOS"),
                ("Linux", "Linux"),
            )
            if mark in agent
        ),
        None,
    )
    return browser if system is None else f"{browser} on {system}"


class Access:
    """The devices of this server: ``pin`` the scorekeeper's PIN (the one it started with:
    the tokens' key is made from it, whatever PIN replaces it later); ``secret`` the
    ledger's (see :func:`secret_of`); ``devices`` those the ledger lists; ``codes`` each
    player's code generation (a new code: one more); ``now`` the wall clock (aware, UTC);
    ``retired`` hears the strong PIN that replaces a PIN tried :data:`PIN_TRIES` times
    wrong (the server prints it on its terminal); ``note``: the server's log."""

    def __init__(
        self,
        pin: str,
        secret: bytes,
        *,
        devices: Iterable[Device] = (),
        revoked: Iterable[str] = (),
        codes: Mapping[str, Mapping[str, int]] | None = None,
        now: Callable[[], datetime],
        gate: Gate | None = None,
        retired: Callable[[str], None] | None = None,
        note: Callable[[Sayable], None] = log.warning,
    ) -> None:
        self.pin = pin
        self.strong = False  # the PIN is one of strong_pin()'s: never retired
        self.wrong_pins = 0  # wrong tries of this PIN, from everyone
        self.wrong_codes = 0  # wrong players' codes since the server started
        self.retired = retired or (
            lambda pin: note(said("the scorekeeper's PIN is now {pin}", pin=pin))
        )
        self.note = note
        self.now = now
        self.gate = gate or Gate()
        self._key = hmac.new(secret, b"chouette serve\0" + pin.encode(), hashlib.sha256).digest()
        self.key_id = hashlib.sha256(self._key).hexdigest()[:16]
        at = now()
        self.revoked = set(revoked)  # devices signed out (by this server or another)
        self.devices = {
            d.id: d
            for d in devices
            if d.key == self.key_id and d.expires > at and d.id not in self.revoked
        }
        self.codes = {s: dict(players) for s, players in (codes or {}).items()}
        self._written: dict[str, datetime] = {d.id: d.seen for d in self.devices.values()}
        self._admissions: dict[str, deque[float]] = defaultdict(deque)  # by secret
        self._link: tuple[str, datetime] | None = None  # the keeper's link: token, until
        self._link_lock = threading.Lock()

    # ------------------------------------------------------------ tokens

    def token(self, device: str) -> str:
        return f"{device}.{self._sign('device', device)}"

    def _sign(self, *parts: str) -> str:
        return hmac.new(self._key, "\0".join(parts).encode(), hashlib.sha256).hexdigest()

    def device(self, token: str) -> Device | None:
        """The device of a valid token: signed with this PIN's key, not revoked, not
        expired."""
        ident, _, signature = token.partition(".")
        if not ident or not hmac.compare_digest(
            signature.encode("ascii", "replace"), self._sign("device", ident).encode()
        ):
            return None
        found = self.devices.get(ident)
        if found is None or found.expires <= self.now() or ident in self.revoked:
            return None
        return found

    def who(self, token: str, sessions: str | Collection[str] | None) -> Who:
        """What a request holding ``token`` (its cookie; "" none) may do while the pages
        answer phones of ``sessions`` (the session shown; under ``serve --room`` every
        table of the night): the one place that says it."""
        found = self.device(token)
        if found is None:
            return NOBODY
        answered = {sessions} if isinstance(sessions, str) else set(sessions or ())
        if found.session is None or found.session not in answered:
            return Who(found.id, found.keeper)
        return Who(found.id, found.keeper, found.player, found.session)

    def holds(self, device: str, *, keeper: bool) -> bool:
        """Whether ``device`` is still signed in (not revoked, not expired), as the
        scorekeeper's if ``keeper``: an open event stream asks at each event."""
        found = self.devices.get(device)
        return found is not None and found.expires > self.now() and (found.keeper or not keeper)

    def seen(self, device: str) -> Writes:
        """``device`` made a request now: its last seen (written to the ledger now and then)."""
        found = self.devices.get(device)
        if found is None:
            return {}
        at = self.now()
        self.devices[device] = updated = replace(found, seen=at)
        if at - self._written.get(device, found.admitted) < SEEN_EVERY:
            return {}
        self._written[device] = at
        return {DEVICE + device: updated.text()}

    # ------------------------------------------------------------ admission

    def enter_pin(
        self, address: str, pin: str, agent: str, token: str
    ) -> tuple[str, Writes] | Refusal:
        """The PIN typed on the page from ``address`` (``agent``: its User-Agent; ``token``:
        the one it holds): its token and what to write, or why not. The :data:`PIN_TRIES`-th
        wrong PIN from everyone retires a PIN that is not strong (see the module's note)."""
        shut = self.gate.closed(address, "PIN")
        if shut is not None:
            return shut
        given = typed_code(pin) if self.strong else pin.strip()
        if not hmac.compare_digest(given.encode("utf-8", "replace"), self.pin.encode()):
            self.gate.wrong(address, "PIN")
            self.wrong_pins += 1
            if not self.strong and self.wrong_pins >= PIN_TRIES:
                self.pin, self.strong, self.wrong_pins = strong_pin(), True, 0
                self.retired(shown_code(self.pin))
            return refusal_of(WRONG_PIN_SAID)
        return self._admit(token, address, agent, keeper=True)

    def new_link(self) -> str:
        """A new one-time token for the keeper's sign-in link (see the module's note): the
        token before it admits nobody from now on. Kept in this server's memory alone."""
        token = secrets.token_urlsafe(LINK_BYTES)
        with self._link_lock:
            self._link = (token, self.now() + timedelta(minutes=LINK_MINUTES))
        return token

    def enter_link(
        self, address: str, given: str, agent: str, token: str
    ) -> tuple[str, Writes] | Refusal:
        """The keeper's link opened from ``address`` (``given``: its token; ``agent``, ``token``
        as for :meth:`enter_pin`): the device's token as the scorekeeper's and what to write,
        the link used up; or one refusal, whatever was wrong with it (used, expired, never
        made). Of requests racing with the right token, exactly one is admitted."""
        with self._link_lock:
            link = self._link
            if link is not None and link[1] <= self.now():
                self._link = link = None
            if link is None or not hmac.compare_digest(
                given.encode("utf-8", "replace"), link[0].encode()
            ):
                return refusal_of(USED_LINK_SAID)
            result = self._admit(token, address, agent, keeper=True)
            if not isinstance(result, Refusal):  # (a device refused leaves it for another)
                self._link = None
            return result

    def enter_code(
        self, address: str, code: str, agent: str, token: str, session: str | None,
        players: Iterable[str], *, tables: Mapping[str, Iterable[str]] | None = None,
    ) -> tuple[str, Writes] | Refusal:  # fmt: skip
        """A player's code typed (or scanned) on a phone, for the session the pages show and
        its ``players`` (or, under ``serve --room``, for any of ``tables``: each table of the
        night with its players): a token speaking for that player at that table, and what
        to write; or why not."""
        shut = self.gate.closed(address, "code")
        if shut is not None:
            return shut
        given = typed_code(code).encode("ascii", "replace")
        seats = [(session, name) for name in players] if session is not None else []
        seats += [(s, p) for s, names in (tables or {}).items() if s != session for p in names]
        found = None
        for table, name in seats:
            if hmac.compare_digest(given, self.code(table, name).encode()):
                found, session = name, table
        if found is None:
            self.gate.wrong(address, "code")
            self.wrong_codes += 1
            if self.wrong_codes in CODES_TOLD:
                self.note(
                    said(
                        "{wrong} wrong players' codes since the server started ({length} "
                        "letters each: guessing one takes longer than the evening); devices "
                        "already admitted are not affected",
                        wrong=Number(self.wrong_codes),
                        length=CODE_LENGTH,
                    )
                )
            return refusal_of(WRONG_CODE_SAID)
        return self._admit(token, address, agent, player=found, session=session)

    def _admit(
        self,
        token: str,
        address: str,
        agent: str,
        *,
        keeper: bool = False,
        player: str | None = None,
        session: str | None = None,
    ) -> tuple[str, Writes] | Refusal:
        """A device admitted: the one ``token`` names (a PIN adds the scorekeeper to a
        player's phone; a code sets the player), or a new one, unless the secret admitted
        :data:`ADMITTED_A_MINUTE` new ones in the last minute; past the most devices the
        secret keeps, the oldest are signed out."""
        at = self.now()
        held = self.device(token)
        secret = "PIN" if keeper else f"code\0{session}\0{player}"
        if held is None:
            busy = self._admitting(secret)
            if busy is not None:
                return busy
            device = Device(
                id=secrets.token_urlsafe(16),
                key=self.key_id,
                label=describe(agent)[:60],
                address=address[:60],
                keeper=keeper,
                player=player,
                session=session,
                admitted=at,
                expires=at + timedelta(hours=TOKEN_HOURS),
                seen=at,
            )
        else:
            device = replace(held, keeper=held.keeper or keeper, seen=at, address=address[:60])
            if player is not None:
                device = replace(device, player=player, session=session)
        self.devices[device.id] = device
        self._written[device.id] = at
        writes: Writes = {DEVICE + device.id: device.text()}
        for old in self._too_many(device):
            writes.update(self.revoke(old))
        return self.token(device.id), writes

    def _admitting(self, secret: str) -> Refusal | None:
        """Why ``secret`` admits no new device now (it admitted the most a minute), or
        None: it may, and the admission is counted."""
        now = self.gate.clock()
        times = self._admissions[secret]
        while times and times[0] <= now - DEVICE_WINDOW:
            times.popleft()
        for other in [k for k, t in self._admissions.items() if not t and k != secret]:
            del self._admissions[other]
        if len(times) >= ADMITTED_A_MINUTE:
            wait = max(1, math.ceil(times[0] + DEVICE_WINDOW - now))
            count = len(times)
            return refusal_of(
                said_n(
                    "this PIN signed in {n} device within the minute, the most it may: wait a "
                    "minute and try again",
                    "this PIN signed in {n} devices within the minute, the most it may: wait a "
                    "minute and try again",
                    count,
                    n=count,
                )
                if secret == "PIN"
                else said_n(
                    "this code signed in {n} device within the minute, the most it may: wait a "
                    "minute and try again",
                    "this code signed in {n} devices within the minute, the most it may: wait a "
                    "minute and try again",
                    count,
                    n=count,
                ),
                wait,
            )
        times.append(now)
        return None

    def _too_many(self, device: Device) -> list[str]:
        """The devices to sign out now that ``device`` is in: the oldest beyond the most
        that its PIN (and its player's code) keeps."""
        groups = []
        if device.keeper:
            groups.append(([d for d in self.devices.values() if d.keeper], MOST_KEEPER_DEVICES))
        if device.player is not None:
            mine = [
                d
                for d in self.devices.values()
                if (d.session, d.player) == (device.session, device.player)
            ]
            groups.append((mine, MOST_DEVICES))
        gone: list[str] = []
        for members, most in groups:
            older = sorted((d for d in members if d.id != device.id), key=lambda d: d.admitted)
            gone += [d.id for d in older[: max(0, len(older) + 1 - most)] if d.id not in gone]
        return gone

    def revoke(self, device: str) -> Writes:
        """Sign a device out (its token is refused from now on, by every server on the
        ledger): its record gone, a tombstone kept until it would have expired."""
        at = self.now()
        found = self.devices.pop(device, None)
        self._written.pop(device, None)
        self.revoked.add(device)
        until = found.expires if found is not None else at + timedelta(hours=TOKEN_HOURS)
        tomb = json.dumps({"at": at.isoformat(), "expires": until.isoformat()})
        return {DEVICE + device: None, REVOKED + device: tomb}

    def reload(self, settings: Mapping[str, str]) -> None:
        """The devices and codes as the ledger keeps them now (``settings``: every one
        under :data:`SERVE`), another server's sign-ins, sign-outs and new codes among them:
        a device signed out anywhere is out here; one signed in elsewhere is in; a device
        known here keeps what this server knows of it too (its last seen, the PIN given)."""
        devices, revoked, _ = read_devices(settings, self.now())
        self.revoked |= revoked
        for ident in revoked:
            self.devices.pop(ident, None)
            self._written.pop(ident, None)
        for device in devices:
            if device.key != self.key_id:
                continue
            mine = self.devices.get(device.id)
            if mine is None:
                self.devices[device.id] = device
                self._written[device.id] = device.seen
            else:
                self.devices[device.id] = replace(
                    mine, keeper=mine.keeper or device.keeper, seen=max(mine.seen, device.seen)
                )
        try:
            codes = read_codes(settings.get(CODES, "{}"))
        except ValueError:  # damaged: the codes this server knows stand
            codes = {}
        for session, players in codes.items():
            known = self.codes.setdefault(session, {})
            for player, generation in players.items():
                known[player] = max(known.get(player, 0), generation)

    def others(self, device: str, *, player: bool = False) -> list[str]:
        """The devices other than ``device``: all of them for the scorekeeper's, those of
        its player for a player's phone (or with ``player``)."""
        found = self.devices.get(device)
        if found is None:
            return []
        everyone = found.keeper and not player
        return [
            d.id
            for d in self.devices.values()
            if d.id != device
            and (everyone or (d.session, d.player) == (found.session, found.player))
        ]

    def revoke_others(self, device: str, *, player: bool = False) -> Writes:
        """Sign out every device :meth:`others` names ("all but this one")."""
        writes: Writes = {}
        for other in self.others(device, player=player):
            writes.update(self.revoke(other))
        return writes

    def listed(self) -> list[Device]:
        """The devices admitted and not expired, the newest first."""
        at = self.now()
        return sorted(
            (d for d in self.devices.values() if d.expires > at),
            key=lambda d: d.admitted,
            reverse=True,
        )

    # ------------------------------------------------------------ players' codes

    def code(self, session: str, player: str) -> str:
        """``player``'s code for ``session``: made from this PIN's key, so only this server
        (or one restarted with the same PIN) knows it; a new code replaces it."""
        generation = self.codes.get(session, {}).get(player, 0)
        digest = self._sign("code", session, player, str(generation))
        number = int(digest, 16)
        letters = []
        for _ in range(CODE_LENGTH):
            number, digit = divmod(number, len(CODE_LETTERS))
            letters.append(CODE_LETTERS[digit])
        return "".join(letters)

    def new_code(self, session: str, player: str) -> Writes:
        """A new code for ``player``: the old one admits nobody from now on (phones already
        admitted stay in: sign them out on the list)."""
        players = self.codes.setdefault(session, {})
        players[player] = players.get(player, 0) + 1
        return {CODES: json.dumps(self.codes, sort_keys=True)}


def shown_code(code: str) -> str:
    """A code as the page shows it: two groups of four."""
    return f"{code[:4]}-{code[4:]}"


def typed_code(text: str) -> str:
    """A code (or a strong PIN) as typed: case, dashes and spaces ignored."""
    return "".join(ch for ch in text.upper() if ch.isalnum())


def strong_pin() -> str:
    """A PIN that no guessing finds: :data:`CODE_LENGTH` letters of :data:`CODE_LETTERS`,
    as a player's code (about 8.5 * 10**11 of them)."""
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))


def secret_of(store: Store) -> tuple[bytes, Writes]:
    """The ledger's secret for the server's key, and what to write if it has none yet."""
    text = store.settings(SECRET).get(SECRET, "")
    try:
        found = bytes.fromhex(text)
    except ValueError:
        found = b""
    if len(found) >= 32:
        return found, {}
    made = secrets.token_bytes(32)
    return made, {SECRET: made.hex()}


def read_devices(
    settings: Mapping[str, str], at: datetime
) -> tuple[list[Device], set[str], Writes]:
    """The devices ``settings`` list, signed in and not expired at ``at``; the ids signed
    out (their tombstones); and what to clear: a device expired (of any PIN), signed out or
    damaged, a tombstone past its device's expiry or damaged."""
    writes: Writes = {}
    revoked = set()
    for key, text in settings.items():
        if key.startswith(REVOKED):
            try:
                until = _moment(json.loads(text)["expires"])
            except (ValueError, KeyError, TypeError):
                until = at
            if until <= at:
                writes[key] = None
            revoked.add(key.removeprefix(REVOKED))
    devices = []
    for key, text in settings.items():
        if not key.startswith(DEVICE):
            continue
        device = Device.read(text)
        if (
            device is None
            or device.expires <= at
            or key != DEVICE + device.id
            or device.id in revoked
        ):
            writes[key] = None
        else:
            devices.append(device)
    return devices, revoked, writes


def read_codes(text: str) -> dict[str, dict[str, int]]:
    """Each player's code generation by session, as the ledger keeps them (a
    :class:`ValueError` if it is damaged)."""
    try:
        read = json.loads(text)
        return {str(s): {str(p): int(n) for p, n in players.items()} for s, players in read.items()}
    except (AttributeError, TypeError):
        raise ValueError("damaged") from None


def load(
    pin: str,
    store: Store,
    now: Callable[[], datetime],
    gate: Gate | None = None,
    retired: Callable[[str], None] | None = None,
) -> tuple[Access, Writes]:
    """The server's access as the ledger keeps it (``store``), and what to write to it: a
    new secret if it has none, expired and signed-out devices removed."""
    secret, writes = secret_of(store)
    settings = store.settings(SERVE)
    devices, revoked, cleared = read_devices(settings, now())
    writes.update(cleared)
    codes: dict[str, dict[str, int]] = {}
    try:
        codes = read_codes(settings.get(CODES, "{}"))
    except ValueError:
        writes[CODES] = None
    found = Access(
        pin,
        secret,
        devices=devices,
        revoked=revoked,
        codes=codes,
        now=now,
        gate=gate,
        retired=retired,
    )
    return found, writes
