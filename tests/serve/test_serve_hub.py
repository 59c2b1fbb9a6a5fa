"""The hub that watches the ledger for every page (``web.hub``), with a ledger stand-in: it
reads the board only when the marker moves, tells the pages only when what they show
changes, says when the ledger cannot be read and recovers, and ends every stream on close."""

from __future__ import annotations

import asyncio

from chouette.errors import ChouetteError
from web.hub import Demand, Frames, Hub, Lazily
from web.table import Snapshot


class Ledger:
    """A ledger stand-in: ``marker`` and ``shown`` are what the next reads find."""

    def __init__(self) -> None:
        self.marker: tuple[object, ...] = (1,)
        self.shown = "game 1"
        self.broken: object = None
        self.snapshots = 0

    def changes(self) -> tuple[object, ...]:
        if self.broken:
            raise ChouetteError(self.broken)
        return self.marker

    def snapshot(self) -> Snapshot:
        self.snapshots += 1
        return Snapshot(self.marker, None)


def render(ledger: Ledger):
    return lambda snapshot: Frames(board=ledger.shown, controls=f"<{ledger.shown}>")


def test_the_hub_tells_the_pages_what_changed_and_only_that():
    async def evening() -> list[tuple[int | None, str | None, str | None]]:
        ledger = Ledger()
        hub = Hub(ledger, render(ledger), interval=0.01)  # type: ignore[arg-type]
        seen: list[tuple[int | None, str | None, str | None]] = []

        async def page() -> None:
            async for version in hub.follow():
                frames = hub.frames
                seen.append((version, frames.board if frames else None, hub.problem))

        polling = asyncio.create_task(hub.run())
        watching = asyncio.create_task(page())
        await hub.ready()

        async def settle() -> None:
            for _ in range(10):
                await asyncio.sleep(0.01)

        await settle()
        reads = ledger.snapshots
        await settle()
        assert ledger.snapshots == reads == 1  # the marker did not move: no read of the board
        ledger.marker = (2,)  # a change that shows nothing new (an undo and a redo, say)
        await settle()
        assert ledger.snapshots == 2
        ledger.marker, ledger.shown = (3,), "game 2"
        await settle()
        ledger.broken = "the ledger is busy"
        await settle()
        ledger.broken = None
        ledger.marker, ledger.shown = (4,), "game 3"
        hub.poke()
        await settle()
        hub.close()
        await asyncio.wait_for(watching, 1)
        await asyncio.wait_for(polling, 1)
        return seen

    assert asyncio.run(evening()) == [
        (1, "game 1", None),
        (2, "game 2", None),
        (3, "game 2", "the ledger is busy"),  # the pages keep what they show, and say why
        (4, "game 3", None),
    ]


def test_why_the_ledger_cannot_be_read_is_kept_said_for_each_pages_language():
    """The hub keeps the refusal as said (one hub for every page): each page renders it in
    its own language, the Danish page in Danish."""
    from chouette.words import said
    from web.i18n import words

    busy = said(
        "the ledger is busy: another command held it longer than {wait} "
        "(CHOUETTE_LOCK_TIMEOUT sets how long to wait); nothing was written, try "
        "again ({reason})",
        wait="5 s",
        reason="database is locked",
    )

    async def broken() -> object:
        ledger = Ledger()
        ledger.broken = busy
        hub = Hub(ledger, render(ledger), interval=0.01)  # type: ignore[arg-type]
        polling = asyncio.create_task(hub.run())
        await hub.ready()
        hub.close()
        await asyncio.wait_for(polling, 1)
        return hub.problem

    problem = asyncio.run(broken())
    assert words("da")(problem).startswith("regnskabet er optaget: en anden kommando holdt det")
    assert str(problem).startswith("the ledger is busy: another command held it")


def test_a_page_that_connects_later_gets_the_board_at_once():
    async def late() -> tuple[int | None, str | None]:
        ledger = Ledger()
        hub = Hub(ledger, render(ledger), interval=0.01)  # type: ignore[arg-type]
        polling = asyncio.create_task(hub.run())
        await hub.ready()
        ledger.marker, ledger.shown = (2,), "game 2"
        for _ in range(10):
            await asyncio.sleep(0.01)
        stream = hub.follow()
        first = await asyncio.wait_for(anext(stream), 1)
        hub.close()
        assert [v async for v in stream] == []  # and the stream ends with the hub
        await polling
        return first, hub.frames.board if hub.frames else None

    assert asyncio.run(late()) == (2, "game 2")


def test_a_page_that_falls_behind_skips_to_the_newest_version():
    """Versions that come while a stream is busy sending are not queued for it: it sends
    the newest next (the last state always arrives)."""

    async def behind() -> list[tuple[int | None, str | None]]:
        ledger = Ledger()
        hub = Hub(ledger, render(ledger), interval=0.01)  # type: ignore[arg-type]
        polling = asyncio.create_task(hub.run())
        stream = hub.follow()
        seen = [await anext(stream)]
        for n in (2, 3, 4):  # three changes while the stream sends nothing
            ledger.marker, ledger.shown = (n,), f"game {n}"
            hub.poke()
            while hub.version < n:
                await asyncio.sleep(0.005)
        seen.append(await asyncio.wait_for(anext(stream), 1))
        hub.close()
        await polling
        return [(v, hub.frames.board if hub.frames else None) for v in seen]

    assert asyncio.run(behind()) == [(1, "game 4"), (4, "game 4")]


def test_every_stream_is_woken_at_once_after_a_while_without_a_change(monkeypatch):
    """A stream has no timer of its own: the hub wakes them all (each sends its keep-alive
    then), and again only after as long without a change."""
    monkeypatch.setattr("web.hub.KEEP_ALIVE_SECONDS", 0.05)

    async def quiet() -> list[list[int | None]]:
        ledger = Ledger()
        hub = Hub(ledger, render(ledger), interval=0.01)  # type: ignore[arg-type]
        polling = asyncio.create_task(hub.run())
        streams = [hub.follow() for _ in range(3)]
        seen = [[await anext(s)] for s in streams]
        for stream, got in zip(streams, seen, strict=True):
            got.append(await asyncio.wait_for(anext(stream), 1))
        hub.close()
        await polling
        return seen

    assert asyncio.run(quiet()) == [[1, None]] * 3


def test_a_poke_reads_the_snapshot_at_once_with_its_marker():
    """A change made by a page of this server pokes the hub: it reads the snapshot (which
    carries the marker) without reading the marker first; a poke that changed nothing makes
    no new version."""

    async def poked() -> tuple[int, int, int]:
        ledger = CountingLedger()
        hub = Hub(ledger, render(ledger), interval=60)  # type: ignore[arg-type]
        polling = asyncio.create_task(hub.run())
        await hub.ready()
        before = ledger.markers
        ledger.marker, ledger.shown = (2,), "game 2"
        hub.poke()
        await hub.newer(1, timeout=1)
        after_change = ledger.markers - before
        hub.poke()  # nothing changed
        for _ in range(5):
            await asyncio.sleep(0.01)
        hub.close()
        await polling
        return after_change, ledger.snapshots, hub.version

    assert asyncio.run(poked()) == (0, 3, 2)


class CountingLedger(Ledger):
    def __init__(self) -> None:
        super().__init__()
        self.markers = 0

    def changes(self) -> tuple[object, ...]:
        self.markers += 1
        return super().changes()


def test_frames_made_from_equal_snapshots_are_equal_without_being_made():
    made: list[str] = []

    def make(code: str) -> str:
        made.append(code)
        return f"<p>{code}</p>"

    one, same = (
        Lazily(["en", "da"], make, source=(1, "ann")),
        Lazily(["en", "da"], make, (1, "ann")),
    )
    assert one == same and made == []  # an unchanged page: no new version, nothing made
    assert one != Lazily(["en", "da"], make, (2, "ann")) and one != Lazily(["en"], make, (1, "ann"))
    assert Lazily(["en"], make) != Lazily(["en"], make) and made == []  # no source: itself alone


def test_the_frames_the_open_streams_send_are_made_with_each_version_and_no_other():
    """The languages and frames the streams open now send are made in the worker thread
    that makes the version; any other only when a page asks for it."""
    made: list[tuple[str, str]] = []

    def frames() -> Frames:
        def lazily(name: str) -> Lazily[str]:
            return Lazily(["en", "da", "cs"], lambda code: made.append((name, code)) or name)

        return Frames(board=lazily("board"), controls=lazily("controls"), room=lazily("room"))

    demand = Demand()
    demand.make(frames())
    assert made == []  # no stream open: nothing made
    tv, phone = [("room", "da")], [("board", "en"), ("room", "da")]
    demand.add(tv)
    demand.add(phone)
    demand.make(frames())
    assert sorted(made) == [("board", "en"), ("room", "da")]  # once each, however many streams
    made.clear()
    demand.drop(phone)
    demand.make(frames())
    assert made == [("room", "da")]  # the TV's stream is still open
    made.clear()
    demand.drop(tv)
    demand.make(frames())
    assert made == [] and demand.now == frozenset()
