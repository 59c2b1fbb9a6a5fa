"""The same mistake, the same exit code, in every command: a missing or malformed argument
is a usage error (2), an action the rules or the ledger refuse is 1, and neither writes
anything (docs/INTERFACE.md, "Exit codes")."""

from __future__ import annotations

from tests.dump import dump

#: Commands whose required part Click cannot see (one of two options, or a name or --all).
MISSING = [
    ("accept",),
    ("partner",),
    ("proxy", "bob"),
    ("double",),  # the box doubles the members it names (but in single-cube play)
    ("take",),
    ("drop",),
    ("fee", "5", "--note", "room"),
    ("fee", "5", "--to", "ann"),
    ("expense", "ann", "5"),
    ("amend", "1", "--note", "why"),
    ("sessions", "--rename", "fri"),
    ("help", "nosuch"),
]

MALFORMED = [
    ("pay", "ann", "bob", "xyz"),
    ("credit", "ann", "abc"),
    ("deal", "bob", "x"),
    ("game", "0"),
    ("game", "abc"),
    ("end", "middle"),
    ("end", "box", "--gammon", "--backgammon"),
    ("log", "--limit", "0"),
    ("status", "--format", "csv"),
    ("stats", "--since", "2026-13-01"),
    ("new", "x", "ann", "bob", "--stake", "abc"),
    ("new", "x", "ann", "bob", "--stake", "10000000000000.01"),  # past the ledger's limit
    ("pay", "ann", "bob", "20000000000000", "--advance"),
    ("new", "x", "ann", "bob", "--rules", "nosuch"),
    ("new", "x", "ann"),  # one player, without --waiting
    ("rules", "--preset", "nosuch"),  # a preset's name, as new --rules
    ("rules", "--forget", "nosuch"),
    ("settle", "--night", "--all"),
    ("report", "--html", "x.html", "--lang", "xx"),
    ("carry", "maybe"),
]

REFUSED = [
    ("pay", "ann", "zed", "5"),
    ("pay", "ann", "bob", "0"),
    ("new", "fri", "ann", "bob"),  # there is one
    ("new", "x", "ann", "bob", "--stake", "-1"),
    ("join", "ann"),
    ("leave", "zed"),
    ("sit-out", "zed"),
    ("credit", "zed", "5"),
    ("bank", "ann", "3"),  # no table stakes
    ("take", "bob"),  # nothing pending
    ("beaver", "cat"),
    ("extra", "bob", "cat"),  # extras off
    ("game", "99"),
    ("stats", "zed"),
    ("night", "zed"),
    ("settle", "zed"),
    ("--session", "nosuch", "status"),
    ("sessions", "--delete", "fri"),  # a game is booked
    ("sessions", "--rename", "fri", "fri"),
    ("record", "no-such-file.json"),
    ("import", "no-such-file.mat"),
]


def test_every_command_gives_the_same_mistake_the_same_exit_code(chouette, ledger_url):
    from typer.main import get_command

    from cli import app

    chouette("new", "fri", "ann", "bob", "cat")
    chouette("end", "box")  # a game booked
    before = dump(ledger_url)
    commands = get_command(app).commands  # type: ignore[attr-defined]
    required = [(n,) for n, c in commands.items() if any(p.required for p in c.params)]
    wrong = []
    for args, code in [
        *((a, 2) for a in [*required, *MISSING, *MALFORMED]),
        *((a, 1) for a in REFUSED),
    ]:
        said = chouette(*args, code=None)
        if said.exit_code != code or not said.stderr or said.stdout:
            wrong.append((args, said.exit_code, said.stdout, said.stderr))
    assert wrong == []
    assert dump(ledger_url) == before  # nothing written by any of them
