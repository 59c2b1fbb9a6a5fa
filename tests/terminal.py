"""A program in a pseudo-terminal, as a person at a terminal runs it: keys in, what it
writes out (for ``chouette table`` and for what chouette prints on a terminal only)."""

from __future__ import annotations

import contextlib
import os
import pty
import select
import signal
import time

from tests.procs import script

PROMPT = b"> "  # the table's prompt ends so: ``friday · game 1> ``
CTRL_C, CTRL_D, TAB = b"\x03", b"\x04", b"\t"


class Terminal:
    """A program in a pseudo-terminal: keys in, what it writes out."""

    def __init__(self, *args: str, env: dict[str, str] | None = None) -> None:
        given = env or {}
        env = {**os.environ, "TERM": "xterm", "COLUMNS": "100", "LINES": "40", **given}
        for unset in ("CHOUETTE_NOW", "NO_COLOR", "FORCE_COLOR"):  # unless given
            if unset not in given:
                env.pop(unset, None)
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: the console script, the pty its controlling terminal
            # Ctrl-C interrupts, as at a terminal, even where the tests run in the background
            # (a shell's background job inherits SIGINT ignored, and Python keeps it so)
            signal.signal(signal.SIGINT, signal.SIG_DFL)
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

    def output(self) -> str:
        """Everything the program writes until it ends (it must succeed)."""
        assert self.exit_code() == 0, self.screen
        return self.screen.decode("utf-8").replace("\r\n", "\n")

    def close(self) -> None:
        try:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
        os.close(self.fd)
