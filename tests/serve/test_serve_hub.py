"""The hub that watches the ledger for every page (``web.hub``), with a ledger stand-in: it
reads the board only when the marker moves, tells the pages only when what they show
changes, says when the ledger cannot be read and recovers, and ends every stream on close."""

from __future__ import annotations

import asyncio

from chouette.errors import ChouetteError
from web.hub import Frames, Hub
from web.table import Snapshot


class Ledger:
    """A ledger stand-in: ``marker`` and ``shown`` are what the next reads find."""

    def __init__(self) -> None:
        self.marker: tuple[object, ...] = (1,)
        self.shown = "game 1"
        self.broken: str | None = None
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
