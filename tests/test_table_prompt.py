"""``chouette table`` at a real terminal: the console script in a pseudo-terminal, keys sent
as a person presses them (Tab, Ctrl-C, Ctrl-D), the screen read back."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.terminal import CTRL_C, CTRL_D, PROMPT, TAB, Terminal

pytestmark = pytest.mark.slow  # the console script in a pseudo-terminal


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
