"""One grammar: the scorekeeper's page posts a command as the CLI's own words (``line``, what
one types at the ``chouette table`` prompt) to ``POST /keeper/act``, and the CLI runs it on the
server's ledger: the page, the prompt and scripts share one parser. Commands that read or write
files, name another ledger or hold the server are refused there, with nothing written."""

from __future__ import annotations

import ast
import json
import sys
from datetime import datetime

import pytest

from chouette.errors import ChouetteError
from chouette.words import ENGLISH_WORDS
from cli import run_words
from files.words import words
from tests.dump import dump
from tests.paths import ROOT
from tests.serving import Keeper, serving, typed
from web.heard import Heard
from web.table import command_words

NOW = datetime.fromisoformat("2026-11-20T20:00:00+00:00")

# ---------------------------------------------------------------- the words, pure


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("pay mette søren 20 --note 'the cash'", ["pay", "mette", "søren", "20", "--note",
                                                  "the cash"]),
        ("--session friday double bob cat", ["--session", "friday", "double", "bob", "cat"]),
        ("new saturday ann bob cat --stake 5", ["new", "saturday", "ann", "bob", "cat",
                                                "--stake", "5"]),
        ("drop --game 2 -- --db=x --all", ["drop", "--game", "2", "--", "--db=x", "--all"]),
    ],
)  # fmt: skip
def test_a_command_line_is_split_as_the_table_splits_it(line, words):
    assert command_words(line) == words


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("import may.mat", "import reads or writes files or holds the server"),
        ("export club.jsonl", "export reads or writes files or holds the server"),
        ("--session friday report --html x.html", "report reads or writes files"),
        ("serve", "serve reads or writes files or holds the server"),
        ("table", "table reads or writes files"),
        ("migrate", "migrate reads or writes files"),
        ("record games.jsonl", "record reads or writes files"),
        ("where", "where tells of the server's computer and its settings"),
        ("--session friday where --json", "where tells of the server's computer"),
        ("-- where", "where tells of the server's computer"),
        ("--session=x -- import f", "import reads or writes files"),
        ("--db other.db status", "--db is not for the page"),
        ("status --db=other.db", "--db is not for the page"),
        ("sheet --install-completion", "--install-completion is not for the page"),
        ("pay ann 'bob 1", "No closing quotation"),
        ("   ", "type a command"),
        ("x" * 10_001, "a line of 10,001 characters"),
    ],
)
def test_what_the_page_does_not_run_is_refused_naming_why(line, message):
    with pytest.raises(ChouetteError, match=message):
        command_words(line)


# ---------------------------------------------------------------- the CLI in the server


def test_the_cli_runs_in_the_server_saying_values_to_the_page_not_to_a_stream(
    chouette, ledger_url, capsys
):
    """A line run for the page says what it does to the page's :class:`web.heard.Heard`, as
    values the page renders in its own words; nothing reaches the server's standard streams,
    a usage error and a command's help included."""
    chouette("new", "friday", "ann", "bob")
    capsys.readouterr()
    streams = (sys.stdin, sys.stdout, sys.stderr)
    heard = Heard(ENGLISH_WORDS)
    assert run_words(["--db", ledger_url, "status"], heard) == 0
    assert heard.lines(ENGLISH_WORDS)[0].startswith("Session friday: game 1")
    heard = Heard(ENGLISH_WORDS)
    assert run_words(["--db", ledger_url, "deal", "bob", "two"], heard) == 2
    assert heard.lines(ENGLISH_WORDS)[0].startswith("Error: Invalid value for 'POINTS'")
    heard = Heard(ENGLISH_WORDS)
    assert run_words(["--db", ledger_url, "take", "--help"], heard) == 0
    assert heard.lines(ENGLISH_WORDS)[0].startswith("Usage: chouette take")
    assert (sys.stdin, sys.stdout, sys.stderr) == streams
    assert capsys.readouterr() == ("", "")


def test_a_games_refusal_run_for_a_page_is_heard_in_each_readers_words(chouette, ledger_url):
    """The refusal a page's line meets is a value: the Danish page, the Czech phone and the
    English terminal each read it in their own words, from the one command run."""
    chouette("new", "friday", "ann", "bob", "cat")
    chouette("double", "bob")
    heard = Heard(words("da"))
    assert run_words(["--db", ledger_url, "raccoon", "bob"], heard) == 1
    assert heard.lines(words("da")) == ["Fejl: bob kan ikke raccoone: kun en beaver kan raccoones"]
    assert heard.lines(words("cs")) == ["Chyba: bob nemůže dát mývala: mývala lze dát jen na bobra"]
    assert heard.lines(ENGLISH_WORDS) == [
        "Error: bob cannot raccoon: only a beaver can be raccooned"
    ]


def test_no_module_of_the_server_replaces_the_standard_streams():
    """The server never catches what the command line prints: no module of ``web/`` puts
    anything in place of ``sys.stdin``, ``sys.stdout`` or ``sys.stderr`` (its own log
    writes to the terminal, as any program's)."""
    replacing = []
    for path in sorted((ROOT / "web").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets = node.targets if isinstance(node, ast.Assign) else []
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "setattr":
                targets = node.args[:1]
            if any(isinstance(t, ast.Name) and t.id == "sys" for t in targets) or any(
                isinstance(t, ast.Attribute)
                and t.attr in ("stdin", "stdout", "stderr")
                and getattr(t.value, "id", None) == "sys"
                for t in targets
            ):
                replacing.append(f"{path.name}:{node.lineno}")
    assert replacing == []


def test_the_pages_session_holds_whatever_words_the_line_holds(chouette, ledger_url):
    """Issue 34: ``--note --session`` in a typed line (the note's text) dropped the page's
    session, and the line ran in the current one. The page's session is given first, so only
    a ``--session`` the CLI reads as one, before the command, takes its place."""
    from web.table import Table

    chouette("new", "friday", "ann", "bob")
    chouette("end", "box")
    chouette("new", "saturday", "cat", "dan")  # the current session now
    served = Table(ledger_url, None, lambda: NOW, commands=run_words)
    ok, said = served.run_line("pay bob ann 1 --note --session", "friday")
    assert ok and said == ["bob paid ann 1.00 (friday)."], said
    paid = chouette.json("--session", "friday", "standings")["players"]
    assert {p["name"]: p["paid_cents"] for p in paid} == {"ann": -100, "bob": 100}
    ok, said = served.run_line("--session saturday pay dan cat 1 --advance", "friday")
    assert ok and "dan paid cat 1.00 (saturday)." in said, said  # the line's own, named
    ok, said = served.run_line("status", "-x")  # a session whose name reads as an option
    assert not ok and said == ["Error: there is no session called -x (sessions: friday, saturday)"]


# ---------------------------------------------------------------- a real server


@pytest.mark.slow  # a real server process, and the CLI's for each line
def test_an_evening_from_the_command_line_of_the_page(ledger_url):
    typed(ledger_url, "new", "thursday", "dan", "eve")  # the club's ledger, last week's
    with serving(ledger_url) as server:
        keeper = Keeper(server)

        def run(line: str, session: str = "") -> tuple[int, dict[str, object]]:
            return keeper.post({"line": line, "session": session})

        status, answer = run("new friday ann bob cat --stake 5")
        assert (status, answer["ok"]) == (200, True), answer
        assert "Session friday: stake 5.00 a point" in str(answer["message"])
        for line in ("double bob", "take bob", "end box"):
            status, answer = run(line, "friday")
            assert (status, answer["ok"]) == (200, True), (line, answer)
        assert answer["said"] == str(answer["message"]).splitlines()
        assert "Game 1 is over." in answer["said"]  # type: ignore[operator]
        standings = json.loads(typed(ledger_url, "standings", "--json"))
        assert {p["name"]: p["cents"] for p in standings["players"]} == {
            "ann": 1500,
            "bob": -1000,
            "cat": -500,
        }
        # a refusal is the CLI's own, with nothing written
        before = dump(ledger_url)
        status, answer = run("pay bob ann 20.01 --note cash", "friday")
        assert (status, answer["ok"]) == (400, False)
        assert str(answer["message"]).startswith("Error: bob owes ann 10.00")
        status, answer = run("import /etc/passwd", "friday")
        assert (status, answer["ok"]) == (400, False)
        assert answer["message"] == (
            "Error: import reads or writes files or holds the server: run it at a terminal"
        )
        assert dump(ledger_url) == before
        # the page's forms: the line in pieces, in the form's order (a payment, a new session)
        status, answer = keeper.post(
            [("session", "friday"), ("line", "pay"), ("word", "bob"), ("word", "ann"),
             ("word", "4,50"), ("--note", "the cash"), ("line", "")]
        )  # fmt: skip
        assert (status, answer["said"]) == (200, ["bob paid ann 4.50 (friday)."])
        status, answer = keeper.post(
            [("session", "friday"), ("line", "new"), ("word", "saturday"),
             ("line", "ann bob cat dan"), ("--stake", ""), ("--rules", "")]
        )  # fmt: skip
        assert status == 200 and "Line: ann | bob, cat, dan" in answer["said"], answer
        # the house rules' own commands run there too: a partner named, a buy-out
        status, answer = run(
            "new sunday ann bob cat dan eve fay --partner-from 6 --partner-pick box --buy-outs"
        )
        assert status == 200, answer
        for line, said in (("partner dan", "dan is ann's partner"), ("buy-out", "buys its")):
            status, answer = run(line, "sunday")
            assert status == 200 and said in str(answer["message"]), (line, answer)
        before = dump(ledger_url)
        # the page's keeper only: without the PIN, nothing runs
        stranger = Keeper(server, cookie="")
        status, _ = stranger.post({"line": "undo", "session": "friday"})
        assert status == 401
        assert dump(ledger_url) == before


def test_a_table_handed_no_commands_changes_nothing(chouette, ledger_url):
    """The server imports nothing of the command line: what runs the CLI's words is handed
    to it (``chouette serve`` hands its own); without it, the pages change nothing."""
    from datetime import datetime

    from chouette.errors import ChouetteError
    from web.table import Table

    chouette("new", "friday", "ann", "bob", "cat")
    before = chouette("export").stdout
    with pytest.raises(ChouetteError, match="runs no commands"):
        Table(ledger_url, None, datetime.now).run_line("double bob", "friday")
    assert chouette("export").stdout == before
