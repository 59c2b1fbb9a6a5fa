"""The first hour at the command line: --version, shell completion, and help that reads well
(an example in every command's help, and metavars in words, never Python types)."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from importlib.metadata import version
from typing import Any

import pytest

from tests.paths import ROOT


def test_version_prints_the_installed_distributions_version(chouette):
    assert chouette("--version").stdout == f"chouette {version('chouette')}\n"


def test_version_opens_no_ledger_and_imports_no_database_code(tmp_path):
    """``--version`` is as quick as ``--help``: no database layer, even with a --db that
    does not exist (nothing is created there either)."""
    missing = tmp_path / "nowhere" / "ledger.db"
    probe = (
        "import sys, cli\n"
        "try:\n"
        f"    cli.app(['--db', {str(missing)!r}, '--version'])\n"
        "except SystemExit as done:\n"
        "    assert done.code in (0, None), done.code\n"
        "loaded = [m for m in ('db', 'sqlalchemy', 'sqlmodel') if m in sys.modules]\n"
        "assert not loaded, loaded\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"chouette {version('chouette')}\n"
    assert not missing.parent.exists()


# ---------------------------------------------------------------- help in words


def commands() -> dict[str, Any]:
    """Every command of the app, by the words that name it (``take``, ``event new``; the
    app itself ``""``), as Click sees it: a group's commands too."""
    from typer.main import get_command

    from cli import app

    group = get_command(app)
    found: dict[str, Any] = {"": group}
    for name, command in group.commands.items():  # type: ignore[attr-defined]
        found[name] = command
        for sub, inner in getattr(command, "commands", {}).items():
            found[f"{name} {sub}"] = inner
    return found


def test_help_shows_no_python_types(chouette):
    for name in commands():
        text = chouette(*name.split(), "--help").stdout
        assert not re.search(r"<[^>]*>|\{[A-Z]|\b(list|tuple|dict|set)\[", text), (name, text)


def test_every_argument_and_option_has_a_metavar_in_words(chouette):
    for name, command in commands().items():
        text = chouette(*name.split(), "--help").stdout
        usage = text.splitlines()[0]
        for param in command.params:
            if param.param_type_name == "argument":
                assert param.metavar and re.fullmatch(r"[A-Z_|=-]+|box\|team", param.metavar)
                assert param.metavar in usage, (name, param.metavar, usage)
                assert re.search(rf"^  {re.escape(param.metavar)}", text, re.M), (name, text)
            elif not param.is_flag and not param.hidden:
                assert param.metavar, (name, param.opts)
                shown = f"{param.opts[0]} {param.metavar}"
                assert shown in text, (name, shown, text)


# ---------------------------------------------------------------- an example in every help


def examples_in(text: str) -> list[list[str]]:
    """The command lines of a help's ``Example:`` block, as the shell would split them."""
    block = re.search(r"^  Examples?:\n\n((?:      chouette .*\n)+)", text, re.M)
    assert block, text
    return [shlex.split(line) for line in block.group(1).splitlines()]


def test_every_command_shows_examples_verbatim_that_parse(chouette):
    """Each command's help has an Example block, printed as written (not re-wrapped), and
    each example is a command line chouette accepts: its command exists and its arguments
    and options parse (checked by Click itself, without running anything)."""
    found = commands()
    group = found.pop("")
    for name, command in found.items():
        if hasattr(command, "commands"):  # a group: its help lists its commands, each its own
            continue
        text = chouette(*name.split(), "--help").stdout
        lines = examples_in(text)
        assert any(all(w in words for w in name.split()) for words in lines), (name, lines)
        for words in lines:
            assert words[0] == "chouette"
            root = group.make_context("chouette", words[1:])  # the global options parse
            args = words[1:]
            while args[0] in ("--db", "--session"):
                args = args[2:]
            used, *rest = args
            if used in found and hasattr(found[used], "commands"):
                sub, *rest = rest
                used = f"{used} {sub}"
            assert used in found, (name, words)
            found[used].make_context(used, rest, parent=root).close()
            root.close()


# ---------------------------------------------------------------- shell completion


def complete(*words: str, env: dict[str, str] | None = None) -> list[str]:
    """What bash completes after ``chouette WORDS`` (the last word is being typed), asked of
    the real console script as the script ``--show-completion bash`` installs does."""
    from tests.procs import script

    line = ["chouette", *words]
    done = subprocess.run(
        [script()],
        env={
            **os.environ,
            **(env or {}),
            "_CHOUETTE_COMPLETE": "complete_bash",
            "COMP_WORDS": " ".join(line),
            "COMP_CWORD": str(len(line) - 1),
        },
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0 and not done.stderr, done.stderr
    return done.stdout.split()


def test_shell_completion_can_be_installed(chouette):
    """Typed in bash, as a user installs it (Typer asks the process tree for the shell, so
    the console script runs under bash, never under whatever started the tests)."""
    from tests.procs import script as console_script

    done = subprocess.run(
        # "; exit" keeps bash there: a lone command would be exec'd in bash's place
        ["bash", "-c", f"{shlex.quote(console_script())} --show-completion; exit"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr
    script = done.stdout
    assert "_CHOUETTE_COMPLETE=complete_bash" in script and "complete " in script
    assert "--install-completion" in chouette("--help").stdout


@pytest.mark.slow  # asks the console script a dozen times, as a shell does
def test_shell_completion_completes_commands_and_players(chouette, tmp_path):
    assert complete("sit") == ["sit-out", "sit-in"]
    assert complete("take", "b") == []  # no ledger yet: nothing, and no error
    chouette("new", "friday", "ann", "bob", "bea", "cat")
    assert complete("take", "b") == ["bob", "bea"]
    assert complete("pay", "c") == ["cat"]
    assert complete("--session", "friday", "leave", "a") == ["ann"]
    assert complete("--session", "nope", "leave", "a") == []
    chouette("new", "saturday", "abe", "zed")
    assert complete("sit-out", "") == ["abe", "zed"]
    assert complete("--session", "friday", "sit-out", "a") == ["ann"]
    other = tmp_path / "other.db"
    assert complete("--db", str(other), "take", "") == []
    assert not other.exists()


def completed(chouette, *words: str) -> list[str]:
    """What bash completes after ``chouette WORDS``, as :func:`complete` but asked of the
    app in this process (bash hands the words over joined by spaces, as typed)."""
    from cli import app

    env = {
        "_CHOUETTE_COMPLETE": "complete_bash",
        "COMP_WORDS": " ".join(["chouette", *words]),
        "COMP_CWORD": str(len(words)),
    }
    result = chouette.runner.invoke(app, [], env=env, prog_name="chouette")
    assert result.exit_code == 0 and result.stderr == "", result.output
    return result.stdout.splitlines()


def test_bash_completes_a_name_with_a_space_as_one_word_and_sessions_where_they_go(chouette):
    chouette("new", "fri night", "ann", "Big Al", "cat")
    chouette("new", "sat", "dan", "eve")
    assert completed(chouette, "--session", r"fri\ night", "take", "B") == [r"Big\ Al"]
    assert completed(chouette, "--session", r"fri\ night", "take", "Big\\ ") == [r"Big\ Al"]
    assert completed(chouette, "--session", "fri") == [r"fri\ night"]
    assert completed(chouette, "new", "x", "--like", "'fri") == [r"fri\ night"]
    assert completed(chouette, "sessions", "--delete", "s") == ["sat"]
    assert completed(chouette, "help", "sit") == ["sit-out", "sit-in"]


def test_bash_completes_a_club_nights_name(chouette):
    chouette("new", "a", "ann", "bob", "--night", "club night 1")
    chouette("new", "b", "cat", "dan", "--night", "club night 2")
    chouette("new", "c", "eve", "fay", "--night", "2026-11-20")
    assert completed(chouette, "night", "club") == [r"club\ night\ 2", r"club\ night\ 1"]
    assert completed(chouette, "settle", "--night", "2026") == ["2026-11-20"]
    assert completed(chouette, "new", "d", "--night", "club\\ night\\ 1") == [r"club\ night\ 1"]


# ------------------------------------------------------------ asking for help


@pytest.mark.parametrize("args", [[], ["-h"], ["--help"], ["help"]])
def test_chouette_alone_or_asking_for_help_prints_the_help_and_exits_0(chouette, args):
    result = chouette(*args)
    assert result.stdout.startswith("Usage: chouette [OPTIONS] COMMAND [ARGS]...")
    assert "Commands:" in result.stdout and result.stderr == ""


@pytest.mark.parametrize("args", [["help", "take"], ["take", "-h"], ["take", "--help"]])
def test_help_for_one_command_is_that_commands_help(chouette, args):
    result = chouette(*args)
    assert result.stdout.startswith("Usage: chouette take [OPTIONS] [MEMBER]")


def test_help_for_a_command_that_does_not_exist_is_a_usage_error(chouette):
    result = chouette("help", "tkae", code=2)
    assert result.stderr == "Error: there is no command 'tkae': `chouette help` lists them\n"


@pytest.mark.parametrize(
    ("lang", "usage", "options"), [("da", "Brug:", "Tilvalg:"), ("cs", "Použití:", "Volby:")]
)
def test_help_is_framed_in_the_readers_language(chouette, monkeypatch, lang, usage, options):
    """The usage line, the sections and Click's own words are in the terminal's language
    (``CHOUETTE_LANG``, else the environment's), and so are the bounds of a number."""
    monkeypatch.setenv("CHOUETTE_LANG", lang)
    text = chouette("take", "--help").stdout
    assert text.startswith(f"{usage} chouette take [OPTIONS] [MEMBER]")
    assert f"\n{options}\n" in text and "\nOptions:\n" not in text
    assert "Usage:" not in text and "Show this message and exit." not in text
    monkeypatch.setenv("LANGUAGE", lang)
    monkeypatch.delenv("CHOUETTE_LANG")
    assert chouette("--help").stdout.startswith(f"{usage} chouette [OPTIONS] COMMAND")


def english_paragraphs(command: Any) -> list[str]:
    """The paragraphs of a command's help that are words (its examples' command lines, a
    ``\\b`` block, are the same in every language), each without its spaces (Click wraps
    them, breaking a word at its hyphen)."""
    import inspect

    from files.helps import paragraphs, translated

    doc = inspect.cleandoc(command.help or "").partition("\f")[0]
    return ["".join(p.split()) for p in paragraphs(doc) if translated(p) and p.strip()]


@pytest.mark.parametrize("lang", ["da", "cs"])
def test_every_commands_help_is_in_the_readers_words_but_its_examples(chouette, lang):
    """Issue 36: every paragraph of every command's help (its summary, its details, its
    examples' heading) is in the reader's language, and so are Click's words after an
    option's help (``[påkrævet]``, also after a number's bounds); only the example command
    lines are shown as written, and in English they all are."""
    left = {}
    for name, command in commands().items():  # a group's commands too (event new)
        args = name.split()
        told = "".join(chouette("--lang", lang, *args, "--help").stdout.split())
        english = "".join(chouette("--lang", "en", *args, "--help").stdout.split())
        paragraphs = english_paragraphs(command)
        assert all(p in english for p in paragraphs), name
        found = [p for p in paragraphs if p in told] + CLICK_EXTRA.findall(told)
        if found:
            left[name] = found
    assert not left, left


#: Click's own words in the brackets after an option's or argument's help, each first or
#: after ``;`` (``[1 to 1,000,000,000; required]``), as a help without its spaces has them.
CLICK_EXTRA = re.compile(r"[\[;](envvar|default|required)(?=[:\]])")
