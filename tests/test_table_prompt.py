"""``chouette table`` at a real terminal: the console script in a pseudo-terminal, keys sent
as a person presses them (Tab, Ctrl-C, Ctrl-D), the screen read back."""

from __future__ import annotations

import contextlib
import os
import pty
import select
import signal
import time
from collections.abc import Iterator

import pytest

from tests.procs import script

PROMPT = b"chouette> "
CTRL_C, CTRL_D, TAB = b"\x03", b"\x04", b"\t"


class Terminal:
    """A program in a pseudo-terminal: keys in, what it writes out."""

    def __init__(self, *args: str) -> None:
        env = {**os.environ, "TERM": "xterm", "COLUMNS": "100", "LINES": "40"}
        env.pop("CHOUETTE_NOW", None)
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: the console script, the pty its controlling terminal
            os.execve(script(), [script(), *args], env)
        self.screen = b""

    def press(self, keys: bytes) -> None:
        if CTRL_C in keys:
            self.settle()
        os.write(self.fd, keys)

    def settle(self, quiet: float = 0.3) -> None:
        """Wait until the program has written nothing for ``quiet`` seconds: it waits for a
        key. (Python's readline misses a Ctrl-C that comes between drawing the prompt and
        waiting for keys until the next key: a person is never that quick, a test is.)"""
        while True:
            ready, _, _ = select.select([self.fd], [], [], quiet)
            if not ready:
                return
            try:
                self.screen += os.read(self.fd, 4096)
            except OSError:
                return

    def until(self, marker: bytes, timeout: float = 30) -> str:
        """What the program writes up to and including ``marker``."""
        end = time.monotonic() + timeout
        while marker not in self.screen:
            ready, _, _ = select.select([self.fd], [], [], max(0.0, end - time.monotonic()))
            if not ready:
                raise AssertionError(f"waited for {marker!r}; the screen: {self.screen!r}")
            try:
                chunk = os.read(self.fd, 4096)
            except OSError as gone:  # the program has ended
                raise AssertionError(
                    f"ended before {marker!r}; the screen: {self.screen!r}"
                ) from gone
            self.screen += chunk
        cut = self.screen.index(marker) + len(marker)
        seen, self.screen = self.screen[:cut], self.screen[cut:]
        return seen.decode("utf-8").replace("\r\n", "\n")

    def exit_code(self, timeout: float = 30) -> int:
        """Wait for the program to end (reading what it still writes)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                return os.waitstatus_to_exitcode(status)
            ready, _, _ = select.select([self.fd], [], [], 0.1)
            if ready:
                with contextlib.suppress(OSError):
                    self.screen += os.read(self.fd, 4096)
        raise AssertionError(f"still running; the screen: {self.screen!r}")

    def close(self) -> None:
        try:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
        os.close(self.fd)


@pytest.fixture
def table(chouette) -> Iterator[Terminal]:
    chouette("new", "friday", "ann", "bob", "cat")
    terminal = Terminal("table")
    terminal.until(PROMPT)
    yield terminal
    terminal.close()


def test_ctrl_c_clears_the_line_and_the_table_goes_on(table, chouette):
    table.press(b"double bo")
    table.until(b"double bo")
    table.press(CTRL_C)
    after = table.until(PROMPT)
    assert "leave the table" not in after  # a line was cleared: nothing else said
    table.press(b"double bob\r")
    assert "Game 1: the box, ann, doubles bob." in table.until(PROMPT)
    table.press(b"take bob")
    table.until(b"take bob")
    table.press(CTRL_C)  # changed his mind: nothing is booked
    table.until(PROMPT)
    table.press(b"status --json\r")
    assert '"pending": "bob"' in table.until(PROMPT)
    table.press(b"quit\r")
    assert table.exit_code() == 0
    assert chouette.json("status")["game"]["cubes"]["bob"]["pending"] == "bob"


def test_ctrl_c_on_an_empty_line_says_how_to_leave_and_a_second_one_leaves(table):
    table.press(CTRL_C)
    assert "(to leave the table: Ctrl-C again on an empty line, Ctrl-D, or quit)" in table.until(
        PROMPT
    )
    table.press(b"status\r")  # anything typed in between: the next Ctrl-C warns again
    table.until(PROMPT)
    table.press(CTRL_C)
    assert "to leave the table" in table.until(PROMPT)
    table.press(CTRL_C)
    assert table.exit_code() == 0


def test_ctrl_d_leaves_the_table(table):
    table.press(CTRL_D)
    assert table.exit_code() == 0


def test_tab_completes_commands_and_the_players_names(table):
    table.press(b"dou" + TAB)
    table.until(b"double ")
    table.press(b"c" + TAB)
    table.until(b"cat ")
    table.press(b"\r")
    assert "Game 1: the box, ann, doubles cat." in table.until(PROMPT)
    table.press(CTRL_D)
    assert table.exit_code() == 0
