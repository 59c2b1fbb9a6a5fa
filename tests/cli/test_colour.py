"""Money won in green and lost in red, on a terminal only: never with NO_COLOR, never into a
pipe or a file, never in CSV, Markdown or JSON (FORCE_COLOR colours a pipe's table too)."""

from __future__ import annotations

import pytest

from tests.terminal import Terminal

GREEN, RED, DEFAULT = "\x1b[32m", "\x1b[31m", "\x1b[39m"


@pytest.fixture
def evening(chouette) -> None:
    chouette("new", "friday", "ann", "bob", "cat", "--stake", "5.00")
    chouette("double", "bob")
    chouette("take", "bob")
    chouette("end", "box")  # ann +15.00, bob -10.00, cat -5.00


def on_a_terminal(*args: str, env: dict[str, str] | None = None) -> str:
    terminal = Terminal(*args, env=env)
    try:
        return terminal.output()
    finally:
        terminal.close()


@pytest.mark.slow  # the console script in a pseudo-terminal
def test_a_terminal_shows_money_won_in_green_and_lost_in_red(evening):
    standings = on_a_terminal("standings")
    assert f"ann             +3   {GREEN}+15.00{DEFAULT}\n" in standings
    assert f"{RED}-10.00{DEFAULT}" in standings and f"{RED}-5.00{DEFAULT}" in standings
    assert standings.count("\x1b[") == 6  # the money column only: names and points stay plain
    settle = on_a_terminal("settle")
    assert f"{RED}bob{DEFAULT}     {GREEN}ann{DEFAULT}      10.00" in settle
    sheet = on_a_terminal("sheet").splitlines()
    money = next(i for i, line in enumerate(sheet) if line.startswith("money"))
    assert f"{GREEN}+15.00{DEFAULT}" in sheet[money]
    assert all("\x1b" not in line for i, line in enumerate(sheet) if i != money)
    assert f"{GREEN}+15.00{DEFAULT}" in on_a_terminal("ledger")


@pytest.mark.slow  # the console script in a pseudo-terminal
def test_the_booked_game_is_coloured_on_a_terminal(chouette):
    chouette("new", "friday", "ann", "bob")
    booked = on_a_terminal("end", "team", "--gammon")  # a centred cube: Jacoby, a single
    assert f"ann             -1    {RED}-1.00{DEFAULT}\n" in booked
    assert f"bob             +1    {GREEN}+1.00{DEFAULT}\n" in booked


@pytest.mark.slow  # the console script in a pseudo-terminal
def test_no_color_keeps_a_terminal_plain(evening):
    for report in ("standings", "settle", "sheet", "ledger"):
        assert "\x1b" not in on_a_terminal(report, env={"NO_COLOR": "1"}), report
    assert "\x1b" not in on_a_terminal("standings", env={"NO_COLOR": "1", "FORCE_COLOR": "1"})


@pytest.mark.parametrize("fmt", ["csv", "markdown", "json"])
def test_csv_markdown_and_json_are_never_coloured(evening, chouette, fmt):
    from cli import app

    for report in ("standings", "settle", "sheet", "ledger"):
        forced = chouette.runner.invoke(app, [report, "--format", fmt], env={"FORCE_COLOR": "1"})
        assert forced.exit_code == 0 and "\x1b" not in forced.stdout, (report, fmt)


@pytest.mark.slow  # the console script in a pseudo-terminal
def test_csv_and_markdown_are_plain_on_a_terminal_too(evening):
    for fmt in ("csv", "markdown"):
        assert "\x1b" not in on_a_terminal("standings", "--format", fmt), fmt


def test_a_pipe_is_plain_unless_colour_is_forced(evening, chouette):
    assert "\x1b" not in chouette("standings").stdout  # CliRunner: not a terminal
    from cli import app

    forced = chouette.runner.invoke(app, ["standings"], env={"FORCE_COLOR": "1"})
    assert f"{GREEN}+15.00{DEFAULT}" in forced.stdout
