"""The screenshots in docs/screenshots/: the scoreboard and the scorekeeper's page mid-evening
at a phone's, a tablet's and a TV's size, taken in headless Chromium from a real
``chouette serve``. Regenerate them with

    .venv/bin/python -m tests.screenshots

tests/serve/test_serve_a11y.py takes the same pictures into a temporary folder (and checks that no
page is wider than its screen); a pixel that differs is no failure there: the PNGs in the
repository are what this command last made.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tests.procs import environment, script
from tests.serving import PIN, Server, serving

#: The screens: a phone, a tablet held upright, a 1080p TV.
SIZES = {"phone": (390, 844), "tablet": (820, 1180), "tv": (1920, 1080)}
#: The pages: the scoreboard and the scorekeeper's page (behind the PIN).
PAGES = {"scoreboard": "", "keeper": "keeper"}
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
FOLDER = Path(__file__).resolve().parent.parent / "docs" / "screenshots"

#: Mid-evening: two sessions of the night (thursday's short one, then friday), five games of
#: friday played, a payment, and a double to answer.
EVENING = [
    "new thursday ann bob cat --stake 2.00",
    "end box",
    "new friday ann bob cat dan eve --stake 5.00",
    "double bob cat",
    "take bob",
    "drop cat",
    "end box --gammon",
    "end team",
    "double dan --by member",
    "take dan",
    "end team",
    "end box",
    "double eve --by member",
    "take eve",
    "end team --gammon",
    "pay cat ann 20 --note cash",
    "double dan",
]


def environ(url: str, home: Path) -> dict[str, str]:
    """The environment of the evening's processes: the ledger at ``url``, the table's
    history in ``home`` (not the user's)."""
    return {**environment(url), "XDG_DATA_HOME": str(home)}


def play_evening(folder: Path) -> str:
    """A ledger in ``folder`` with :data:`EVENING` played (the first session started, the
    rest at ``chouette table``: two processes): its URL."""
    url = f"sqlite:///{folder / 'evening.db'}"
    first, *rest = EVENING
    for args, lines in ((first.split(), None), (["table"], "\n".join(rest) + "\n")):
        done = subprocess.run(
            [script(), *args],
            input=lines,
            capture_output=True,
            text=True,
            env=environ(url, folder),
            timeout=180,
            check=False,
        )
        if done.returncode != 0 or "Error" in done.stdout + done.stderr:
            raise AssertionError(f"the evening did not play: {done.stdout}\n{done.stderr}")
    return url


@contextmanager
def evening_served(folder: Path, *serve: str) -> Iterator[Server]:
    """``chouette serve`` (with ``serve``'s options) on the evening played in ``folder``."""
    url = f"sqlite:///{folder / 'evening.db'}"
    if not (folder / "evening.db").exists():
        play_evening(folder)
    with serving(url, serve=serve, env={"XDG_DATA_HOME": str(folder)}) as server:
        yield server


@contextmanager
def headless_chromium() -> Iterator[Any]:
    """Debian's Chromium, headless, driven by Playwright (a ``Browser``) for the block."""
    from playwright.sync_api import expect, sync_playwright

    from tests.chromium import chromium

    # a wait ends the moment its condition holds: a long bound costs nothing when the page
    # answers, and keeps a busy machine (a command run by the server on a loaded CI box)
    # from failing a wait that would have held a few seconds later
    expect.set_options(timeout=30_000)
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=chromium(), headless=True, args=FLAGS)
        try:
            yield browser
        finally:
            browser.close()


def shoot(browser: object, server: Server, folder: Path) -> dict[str, Path]:
    """Every page at every size into ``folder`` (``keeper-phone.png``, ...): the files. A
    page wider than its screen (a row or a panel that overflows) is refused."""
    from playwright.sync_api import Browser, expect

    assert isinstance(browser, Browser)
    made = {}
    for size, (width, height) in SIZES.items():
        context = browser.new_context(
            viewport={"width": width, "height": height},
            device_scale_factor=1,
            is_mobile=size == "phone",
            has_touch=size != "tv",
        )
        page = context.new_page()
        page.goto(server.url + "keeper")
        page.fill("#pin", PIN)
        page.get_by_role("button", name="Open").click()
        expect(page.locator("#controls .controls")).to_have_count(1)
        for name, path in PAGES.items():
            page.goto(server.url + path)
            expect(page.locator("#session")).to_have_text("friday")
            wide = page.evaluate("document.scrollingElement.scrollWidth")
            assert wide <= width, f"the {name} page is {wide}px wide on a {width}px {size}"
            made[f"{name}-{size}"] = folder / f"{name}-{size}.png"
            page.screenshot(path=str(made[f"{name}-{size}"]))
        context.close()
    return made


def main() -> None:
    """Make docs/screenshots/ anew."""
    FOLDER.mkdir(parents=True, exist_ok=True)
    with (
        tempfile.TemporaryDirectory(prefix="chouette-screenshots-") as work,
        evening_served(Path(work)) as server,
        headless_chromium() as browser,
    ):
        for path in shoot(browser, server, FOLDER).values():
            print(path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path)


if __name__ == "__main__":
    sys.exit(main())
