"""The README and the help texts tell the truth about the commands."""

from __future__ import annotations

import re

import pytest

from cli import app
from files.gnubg import find_gnubg
from tests.paths import ROOT
from typer_internals import callback_of, commands_of, group_of

README = (ROOT / "README.md").read_text(encoding="utf-8")


def command_names() -> set[str]:
    """The commands and the groups of commands (``event``) a line starts with."""
    return set(commands_of(app))


def test_every_command_has_help(chouette):
    commands = []
    for name, info in commands_of(app).items():
        group = group_of(info)
        if group is None:
            commands.append(((name,), info))
            continue
        assert (group.info.help or "").strip(), name
        commands += [((name, sub), inner) for sub, inner in commands_of(group).items()]
    for words, info in commands:
        result = chouette(*words, "--help")
        assert "Usage: chouette " + " ".join(words) in result.stdout
        assert (callback_of(info).__doc__ or "").strip(), words


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


def test_the_readmes_danish_evening_is_real_output(chouette):
    """The Danish evening in the README is what the commands print in Danish (issue 36)."""
    block = README.split("## In Danish and Czech", 1)[1].split("```", 2)[1]
    assert "$ export LANG=da_DK.UTF-8\n" in block
    commands = re.findall(r"^\$ chouette (.+)$", block, flags=re.M)
    outputs = re.split(r"^\$ chouette .+\n", block, flags=re.M)[1:]
    assert len(commands) > 5
    for command, expected in zip(commands, outputs, strict=True):
        result = chouette("--lang", "da", *command.split())
        assert result.stdout == expected, command


@pytest.mark.slow
@pytest.mark.skipif(find_gnubg() is None, reason="gnubg is not installed")
def test_the_readmes_review_is_real_output(chouette):
    """The README's review (issue 38) is what the commands print with the real GNU
    Backgammon (the version it names is the one installed); a command shown without output
    is run all the same."""
    block = README.split("## The engine settles the argument", 1)[1].split("```", 2)[1]
    commands = re.findall(r"^\$ chouette (.+)$", block, flags=re.M)
    outputs = re.split(r"^\$ chouette .+\n", block, flags=re.M)[1:]
    assert commands[-1] == "review" and outputs[-1]
    for command, expected in zip(commands, outputs, strict=True):
        result = chouette(*command.split())
        if expected:
            engine = chouette.json("review")["engine"]
            assert result.stdout == expected.replace("GNU Backgammon 1.07.001", engine)


# ------------------------------------------------------------ the reference pages in docs/

PAGES = {
    name: (ROOT / "docs" / name).read_text(encoding="utf-8")
    for name in ("COMMANDS.md", "HOUSE-RULES.md")
}


def options() -> dict[str, set[str]]:
    """Every command's options by its name, each with the program's own (``--db``...)."""
    import typer

    group = typer.main.get_command(app)
    shared = {o for p in group.params for o in p.opts}
    found = {}
    for name, command in group.commands.items():  # type: ignore[attr-defined]
        found[name] = shared | {o for p in command.params for o in (*p.opts, *p.secondary_opts)}
        for inner in getattr(command, "commands", {}).values():  # a group's: any of them
            found[name] |= {o for p in inner.params for o in (*p.opts, *p.secondary_opts)}
    return found


def test_every_command_on_the_reference_pages_exists():
    for text in PAGES.values():
        used = set(re.findall(r"(?:^\s*|\$ |`|\| )chouette ([a-z][a-z-]+)", text, flags=re.M))
        assert used <= command_names(), used - command_names()


def test_every_option_the_commands_page_shows_is_its_commands():
    """In the page's synopses (``chouette take MEMBER | drop MEMBER``), each option is one of
    the command's own: a renamed or dropped option fails here."""
    known = options()
    shown = []
    for line in PAGES["COMMANDS.md"].splitlines():
        for chunk in re.split(r"\s{2,}", line.strip()):
            words = re.match(r"chouette ([a-z][a-z-]+)(.*)", chunk)
            if words is None:
                continue
            command, rest = words.groups()
            for part in rest.split(" | "):
                other = re.match(r"([a-z][a-z-]+)\b", part)  # `take ... | drop MEMBER`
                named = other.group(1) if other and other.group(1) in known else command
                shown += [(named, o) for o in re.findall(r"(--[a-z][a-z-]*)", part)]
    assert len(shown) > 50  # the synopses were read
    assert [(c, o) for c, o in shown if o not in known[c]] == []


def test_the_house_rules_page_names_every_option_of_new_and_no_other():
    import typer

    new = options()["new"]
    named = set(re.findall(r"(--[a-z][a-z-]*)", PAGES["HOUSE-RULES.md"]))
    everywhere = set().union(*options().values())
    assert named - everywhere == set()  # no option that no command has
    group = typer.main.get_command(app)
    shared = {o for p in group.params for o in p.opts} | {"--help", "--json"}
    house = {o for o in new - shared if o.startswith("--")}
    assert house - named == set()
