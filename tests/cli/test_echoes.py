"""What a message echoes of what was typed: never more than a clipped part of it.

One helper, :func:`chouette.text.clipped`, keeps an echo short (its start and end, with
how long it was); the CLI's errors clip any overlong word no source clipped. The test over
every command's every parameter introspects the Typer app, so that a new command or
option is covered the day it is added (it needs a line in :data:`INVOCATIONS` first).
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chouette.text import ECHO_LIMIT, clipped, clipped_words

LONG = "x" * 10_000  # a 10 KB name, amount, path or word
MOST = 1_000  # the most an error may print, whatever was typed

#: Each command as it is typed with ordinary values; a parameter under test is given
#: :data:`LONG` in its place (an argument) or added (an option).
INVOCATIONS: dict[str, list[str]] = {
    "accept": ["accept", "bob"],
    "account": ["account", "bob"],
    "amend": ["amend", "1", "--result", "team", "--note", "a gammon"],
    "approve": ["approve", "1"],
    "captain-resigns": ["captain-resigns", "cat"],
    "auto-double": ["auto-double"],
    "bank": ["bank", "bob", "5"],
    "beaver": ["beaver", "bob"],
    "buy-out": ["buy-out"],
    "carry": ["carry", "accept"],
    "check": ["check"],
    "credit": ["credit", "bob", "5"],
    "deal": ["deal", "bob", "1"],
    "double": ["double", "bob"],
    "double-extra": ["double-extra", "bob", "box"],
    "drop": ["drop", "bob"],
    "drop-extra": ["drop-extra", "bob", "box"],
    "end": ["end", "box"],
    "expense": ["expense", "ann", "3.00", "--note", "pizza"],
    "export": ["export", "out.jsonl"],
    "extra": ["extra", "bob", "box"],
    "fee": ["fee", "2.00", "--to", "ann", "--note", "table"],
    "game": ["game", "1"],
    "help": ["help", "take"],
    "import": ["import", "match.mat"],
    "join": ["join", "eve"],
    "leave": ["leave", "cat"],
    "ledger": ["ledger"],
    "log": ["log"],
    "migrate": ["migrate"],
    "new": ["new", "saturday", "ann", "bob"],
    "night": ["night"],
    "owed": ["owed"],
    "partner": ["partner", "cat"],
    "pay": ["pay", "ann", "bob", "1.00", "--advance"],
    "position": ["position", "1", "1", "4HPwATDgc/ABMA"],
    "proposals": ["proposals"],
    "proxy": ["proxy", "cat", "--by", "ann"],
    "raccoon": ["raccoon", "bob"],
    "record": ["record", "games.jsonl"],
    "report": ["report", "--html", "page.html"],
    "resign": ["resign"],
    "review": ["review"],
    "rules": ["rules"],
    "sessions": ["sessions"],
    "refuse": ["refuse", "1", "--why", "no"],
    "settle": ["settle"],
    "sheet": ["sheet"],
    "sit-in": ["sit-in", "cat"],
    "sit-out": ["sit-out", "cat"],
    "split": ["split", "saturday"],
    "standings": ["standings"],
    "stats": ["stats"],
    "status": ["status"],
    "take": ["take", "bob"],
    "take-extra": ["take-extra", "bob", "box"],
    "undo": ["undo"],
    "verify": ["verify", "backup.jsonl"],
    "where": ["where"],
    "event accept": ["event", "accept", "ann"],
    "event draw": ["event", "draw", "--seed", "1"],
    "event end": ["event", "end"],
    "event enter": ["event", "enter", "ann"],
    "event new": ["event", "new", "cup", "--bank", "50", "--levels", "1,2"],
    "event next": ["event", "next"],
    "event reenter": ["event", "reenter", "ann"],
    "event rules": ["event", "rules"],
    "event standings": ["event", "standings"],
    "event undo": ["event", "undo"],
}
#: Commands that do not end by themselves (a server, a prompt, a demo evening): their
#: parameters are checked where they are tested (serve's by its own tests).
LONG_RUNNING = {"serve", "table", "demo"}


def commands() -> dict[str, object]:
    """Every command by the words that name it (``take``, ``event new``): a group's commands
    in its place (the group itself takes nothing of its own)."""
    import typer.main

    from cli import app

    group = typer.main.get_command(app)
    found: dict[str, object] = {}
    for name, command in group.commands.items():  # type: ignore[attr-defined]
        inner = getattr(command, "commands", None)
        if inner is None:
            found[name] = command
        else:
            found.update((f"{name} {sub}", made) for sub, made in inner.items())
    return found


def cases() -> list[tuple[str, list[str]]]:
    """Every command with each of its parameters given :data:`LONG` in turn."""
    found = []
    for name, command in sorted(commands().items()):
        if name in LONG_RUNNING:
            continue
        base = INVOCATIONS[name]
        position = len(name.split())
        for param in command.params:  # type: ignore[attr-defined]
            if param.param_type_name == "argument":
                args = list(base)
                if position < len(args):
                    args[position] = LONG
                else:
                    args.append(LONG)
                found.append((f"{name} {param.name.upper()}", args))
                position += 1
            elif not param.is_flag and param.expose_value:
                values = [LONG] * (param.nargs if param.nargs > 1 else 1)
                found.append((f"{name} {param.opts[0]}", [*base, param.opts[0], *values]))
    found.append(("--session", ["--session", LONG, "standings"]))
    found.append(("--db", ["--db", f"/tmp/{LONG}/ledger.db", "standings"]))
    found.append(("COMMAND", [LONG]))
    found.append(("an option that is none", ["status", f"--{LONG}"]))
    return found


def test_every_command_is_in_the_table_of_invocations():
    assert set(commands()) - LONG_RUNNING == set(INVOCATIONS)


@pytest.mark.parametrize(("what", "args"), cases(), ids=[c[0] for c in cases()])
def test_an_error_echoes_a_10kb_value_clipped(chouette, tmp_path, monkeypatch, what, args):
    monkeypatch.chdir(tmp_path)
    chouette.begun(("new", "friday", "ann", "bob", "cat"), ("double", "bob"))
    result = chouette(*args, code=None)
    assert result.exit_code in (0, 1, 2), (what, result.exit_code, result.exception)
    assert len(result.stderr) <= MOST, (what, result.stderr[:300])
    if result.exit_code != 0:
        assert result.stderr.count("x") < 2 * ECHO_LIMIT + 20, result.stderr[:300]
        assert len(result.stdout) <= MOST, (what, result.stdout[:300])
        assert "Traceback" not in result.stderr


def test_a_1mb_line_at_the_table_is_not_printed_back(chouette):
    chouette("new", "friday", "ann", "bob", "cat")
    word = "y" * 1_000_000
    script = "\n".join(
        [word, f"pay {word} bob 1", f"help {word}", f"double bob --by {word}", f"take {word}"]
    )
    result = chouette("table", input=script + "\n", code=1)
    lines = result.stderr.splitlines()
    assert len(lines) == 6, lines  # five refusals and the script's end
    assert all(len(line) < 300 for line in lines), [line[:200] for line in lines]
    assert lines[1] == (
        "Error: a line of 1,000,010 characters, longer than any command (10,000 at most): not "
        f"read (pay {'y' * 71}…(1,000,010 characters)…{'y' * 19} bob 1)"
    )


@pytest.mark.parametrize(
    ("text", "echo"),
    [
        ("bob", "bob"),
        ("b" * ECHO_LIMIT, "b" * ECHO_LIMIT),
        ("b" * 10_000, "b" * 75 + "…(10,000 characters)…" + "b" * 25),
        ("a" * 80 + "z" * 9_920, "a" * 75 + "…(10,000 characters)…" + "z" * 25),
    ],
)
def test_clipped_keeps_a_short_text_and_the_ends_of_a_long_one(text, echo):
    assert clipped(text) == echo


@given(st.text(min_size=ECHO_LIMIT + 1, max_size=5_000), st.integers(4, 400))
def test_a_clipped_text_is_never_much_longer_than_its_limit(text, limit):
    echo = clipped(text, limit)
    assert len(echo) <= limit + len("…(5,000 characters)…")
    assert echo.startswith(text[:1])
    assert echo.endswith(text[-1:])


def test_clipped_words_clips_each_long_word_and_keeps_the_rest():
    message = f"cannot read {'p' * 500}: the name is too long"
    assert clipped_words(message) == (
        f"cannot read {'p' * 75}…(501 characters)…{'p' * 24}: the name is too long"
    )
    assert clipped_words("a short message") == "a short message"
