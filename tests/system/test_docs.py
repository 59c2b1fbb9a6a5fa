"""The README and the help texts tell the truth about the commands."""

from __future__ import annotations

import re

from cli import app
from tests.paths import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")


def command_names() -> set[str]:
    return {c.name or c.callback.__name__ for c in app.registered_commands}


def test_every_command_has_help(chouette):
    for name in command_names():
        result = chouette(name, "--help")
        assert "Usage: chouette " + name in result.stdout
        info = next(c for c in app.registered_commands if (c.name or c.callback.__name__) == name)
        assert (info.callback.__doc__ or "").strip(), name


def test_every_command_in_the_readme_exists():
    used = set(re.findall(r"(?:^\s*|\$ |`|\| )chouette ([a-z][a-z-]+)", README, flags=re.M))
    assert {"new", "demo", "table", "settle"} <= used
    assert used <= command_names(), used - command_names()


def test_the_readme_session_is_real_output(chouette):
    """The terminal session in the README is what the commands print."""
    block = README.split("## An evening at the table", 1)[1].split("```", 2)[1]
    commands = re.findall(r"^\$ chouette (.+)$", block, flags=re.M)
    outputs = re.split(r"^\$ chouette .+\n", block, flags=re.M)[1:]
    for command, expected in zip(commands, outputs, strict=True):
        result = chouette(*command.split())
        assert result.stdout == expected, command
