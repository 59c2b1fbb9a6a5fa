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
    table.press(b"dou" + TAB)  # double, double-extra: as far as they agree (and a bell)
    table.until(b"ble")
    table.press(b" c" + TAB)
    table.until(b"cat ")
    table.press(b"\r")
    assert "Game 1: the box, ann, doubles cat." in table.until(PROMPT)
    table.press(CTRL_D)
    assert table.exit_code() == 0


def test_the_prompt_names_the_session_and_the_game(chouette):
    chouette("new", "friday", "ann", "bob", "cat")
    terminal = Terminal("table")
    assert terminal.until(PROMPT).endswith("friday · game 1> ")
    terminal.press(b"end team\r")
    assert terminal.until(PROMPT).endswith("friday · game 2> ")
    terminal.press(CTRL_D)
    assert terminal.exit_code() == 0


def test_the_history_is_kept_for_the_next_evening(chouette, tmp_path):
    chouette("new", "friday", "ann", "bob", "cat")
    terminal = Terminal("table")
    terminal.until(PROMPT)
    terminal.press(b"standings\r")
    terminal.until(PROMPT)
    terminal.press(CTRL_D)
    assert terminal.exit_code() == 0
    history = tmp_path / "data" / "chouette" / "table-history"
    assert history.read_text().splitlines()[-1] == "standings"
    assert history.stat().st_mode & 0o777 == 0o600
    again = Terminal("table")
    again.until(PROMPT)
    again.press(b"\x1b[A")  # the up arrow: the last line of the last evening
    again.until(b"standings")
    again.press(b"\r")
    again.until(PROMPT)
    again.press(CTRL_D)
    assert again.exit_code() == 0


def test_tab_completes_a_name_with_a_space_as_one_word(chouette):
    chouette("new", "friday", "ann", "Big Al", "cat")
    terminal = Terminal("table")
    terminal.until(PROMPT)
    terminal.press(b"double B" + TAB)
    terminal.until(b"Big\\ Al ")
    terminal.press(b"\r")
    assert "doubles Big Al" in terminal.until(PROMPT)
    terminal.press(b"take 'Bi" + TAB)
    terminal.until(b"'Big Al' ")
    terminal.press(b"\r")
    assert "Big Al takes" in terminal.until(PROMPT)
    terminal.press(b"help si" + TAB)
    terminal.until(b"t-")  # sit-out, sit-in: as far as they agree
    terminal.press(CTRL_C)
    terminal.until(PROMPT)
    terminal.press(CTRL_D)
    assert terminal.exit_code() == 0


def test_tab_after_session_completes_the_sessions(chouette):
    chouette("new", "friday", "ann", "bob", "cat")
    chouette("new", "fri night", "dan", "eve")
    terminal = Terminal("--session", "friday", "table")
    terminal.until(PROMPT)
    terminal.press(b"--session fri\\ n" + TAB)
    terminal.until(b"fri\\ night ")
    terminal.press(b"status\r")
    assert "Session fri night" in terminal.until(PROMPT)
    terminal.press(CTRL_D)
    assert terminal.exit_code() == 0
