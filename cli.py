"""chouette: the command line. Parse -> open the ledger -> call the rules -> save -> print.

Commands that need no database never import it, so ``chouette --help`` stays quick. (No
``from __future__ import annotations`` here: Typer would evaluate every annotation string of
every command at start-up; the few names imported only for type checking are quoted.)

How a command opens the ledger, and what that loads (a command answers at once; see
tests/system/test_startup.py, which checks what each kind loads):

- A command that only reads (a report, ``status``, shell completion) opens it with
  ``with reading(ctx) as book:`` (``reads_for(opts)`` outside a command) and gets the
  reports' reads, :class:`db.reads.Reads`: on an SQLite ledger, plain :mod:`sqlite3`, no ORM.
- A command that writes uses ``with ledger(ctx, write=True) as book:`` (a
  :class:`db.Ledger`, the ORM), as before; so does a read that needs more than
  :class:`~db.reads.Reads` offers.
- Import ``db``, ``chouette.page`` and the like inside the command that uses them, never at
  the top of this file. Parameters are declared as usual: :class:`TextFirst` keeps Typer
  from loading pydantic for names, numbers and choices.
- A report whose rows grow with the ledger hands them over as they are read, inside the
  ``reading`` block: ``emit_rows`` (CSV written row by row; a table or Markdown laid out
  by tabulate, which holds them) and ``emit_json_stream``.
"""

import copy
import inspect
import json
import os
import re
import shlex
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import ExitStack, closing, contextmanager, suppress
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import Enum, StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, NamedTuple, NoReturn, cast, get_args

STARTED = time.time()  # when the command was given, before the imports below take their time

import typer  # noqa: E402
from typer.core import TyperCommand, TyperGroup  # noqa: E402

import typer_internals as inside  # noqa: E402  (what Typer has no public API for)
from chouette import rules as house  # noqa: E402
from chouette.errors import ChouetteError  # noqa: E402
from chouette.limits import LONGEST_LINE, NUMBERS  # noqa: E402
from chouette.line import normal_name  # noqa: E402
from chouette.money import parse_money  # noqa: E402
from chouette.names import match, resolve  # noqa: E402
from chouette.text import clipped, clipped_words, json_safe, shown, shown_lines  # noqa: E402
from chouette.words import Money, Number, joined, marked, said, said_in, said_n  # noqa: E402

if TYPE_CHECKING:
    from datetime import date

    from chouette.card import ClubPreset, Origin
    from chouette.costs import Charge
    from chouette.game import Event, Game
    from chouette.line import Line
    from chouette.nights import Debt
    from chouette.payments import Account
    from chouette.points import Kind
    from chouette.report import Rows
    from chouette.rules import HouseRules
    from chouette.session import SessionInfo
    from chouette.settlement import Settlement
    from chouette.words import Hearer, Said, Sayable, Words
    from db import Ledger
    from db.names import Run
    from db.reads import Reads
    from db.reviewing import Review
    from db.values import Played, Proposed
    from typer_internals import Context, HelpFormatter, Parameter


class TextFirst:
    """Typer's coercion of a parameter's value (through pydantic), put off until a value
    needs more than this: no value; a text for a ``str`` parameter, texts for a
    ``list[str]``, a flag for a ``bool``, plain digits for an ``int``, or one of the choices
    of an ``Enum`` — each what Typer would make of it anyway (its own validators hand these
    back as they are, or the choice found, or ``int(text)``). So a command given names,
    numbers and words — every report, every Tab of shell completion — starts without
    importing pydantic (some 50 ms); anything else, and every value Typer would refuse, goes
    Typer's way, with its message. A whole number outside the parameter's bounds
    (:func:`bounds`) is refused here, with the bounds, however many digits it has."""

    def __init__(self, build: Callable[[], Any], annotation: Any, info: Any) -> None:
        import typing

        self.build, self.info = build, info
        if type(None) in typing.get_args(annotation):  # X | None: as X
            rest = [a for a in typing.get_args(annotation) if a is not type(None)]
            annotation = rest[0] if len(rest) == 1 else annotation
        self.annotation = annotation
        self.texts = annotation == list[str]
        self.number = annotation is int
        self.least, self.most = getattr(info, "min", None), getattr(info, "max", None)
        self.choices = isinstance(annotation, type) and issubclass(annotation, Enum)

    def __call__(self) -> "TextFirst":
        return self

    def bounded(self, value: str, param: Any, ctx: Any) -> int:
        """Plain digits as a number within the parameter's bounds, or a usage error that
        names them (a number of more digits than any bound is not even read)."""
        least, most = self.least, self.most
        number = int(value) if len(value) <= 40 else None
        if (
            number is not None
            and (least is None or least <= number)
            and (most is None or number <= most)
        ):
            return number
        typed = clipped(value)
        if least is not None and most is not None:
            why = said(
                "{value} is outside chouette's limits: give a whole number from {least} to {most}",
                value=typed,
                least=Number(least),
                most=Number(most),
            )
        elif least is not None:
            why = said(
                "{value} is outside chouette's limits: give a whole number at least {least}",
                value=typed,
                least=Number(least),
            )
        else:
            assert most is not None
            why = said(
                "{value} is outside chouette's limits: give a whole number at most {most}",
                value=typed,
                most=Number(most),
            )
        raise typer.BadParameter(hearer().words(why), ctx=ctx, param=param)

    def coerce(self, value: Any, param: Any, ctx: Any) -> Any:
        if value is None:
            return () if param.multiple or param.nargs == -1 else None
        kind = self.annotation
        if (kind is str and isinstance(value, str)) or (kind is bool and isinstance(value, bool)):
            return value
        if (
            self.texts
            and isinstance(value, list | tuple)
            and all(isinstance(v, str) for v in value)
        ):
            return list(value)
        if self.number and isinstance(value, str) and WHOLE.fullmatch(value):
            return self.bounded(value, param, ctx)
        if self.choices and isinstance(value, str) and self.exact(ctx):
            for choice in kind:  # a choice as typed (else Typer's way finds it, or says why)
                if str(choice.value) == value:
                    return choice
        return self.build().coerce(value, param=param, ctx=ctx)

    def exact(self, ctx: Any) -> bool:
        """Whether a choice is matched as typed: case counts, and no token is normalised."""
        return bool(self.info.case_sensitive) and getattr(ctx, "token_normalize_func", None) is None


WHOLE = re.compile(r"-?[0-9]+")


def bounds(number: str) -> dict[str, int]:
    """``min`` and ``max`` of a whole-number parameter: its bounds in
    :data:`chouette.limits.NUMBERS` (every number a command takes has them)."""
    least, most = NUMBERS[number]
    return {"min": least, "max": most}


def text_first(params: Sequence[Any]) -> None:
    """Give each parameter a :class:`TextFirst` coercion (not where this Typer has none to
    put off, nor where the parameter has its own parser)."""
    for param in params:
        found = inside.coercion(param)
        if found is None or isinstance(found[0], TextFirst):
            continue
        build, annotation, info = found
        if getattr(info, "parser", None) is None:
            inside.put_off(param, TextFirst(build, annotation, info))


#: A period inside a command's summary while Click shortens it (the same width).
INNER_DOT = "\u2024"


class Worded:
    """Help in the reader's words (the terminal's language, or a page's): the usage line, a
    command's text, its arguments and options and the list of commands are said from the
    catalogue, keyed by the English as written (a command's docstring, an option's
    ``help``; docs/TRANSLATING.md says how they are extracted)."""

    help: str | None
    options_metavar: str | None

    def format_usage(self, ctx: "Context", formatter: "HelpFormatter") -> None:
        pieces = self.collect_usage_pieces(ctx)  # type: ignore[attr-defined]
        formatter.write_usage(ctx.command_path, " ".join(pieces), prefix=help_words("Usage: "))

    def format_help_text(self, ctx: "Context", formatter: "HelpFormatter") -> None:
        text = help_text(self.help)
        if text:
            formatter.write_paragraph()
            with formatter.indentation():
                formatter.write_text(text)

    def get_short_help_str(self, limit: int = 45) -> str:
        """The help's first paragraph in the reader's words, shortened to ``limit``. It is one
        sentence: a period inside it (Danish ``pr.``) does not end it, as Click would read."""
        worded = copy.copy(self)
        summary = summary_sentence(help_text(self.help))
        worded.help = summary[:-1].replace(".", INNER_DOT) + summary[-1:]
        short = TyperCommand.get_short_help_str(worded, limit)  # type: ignore[arg-type]
        return str(short).replace(INNER_DOT, ".")

    def format_options(self, ctx: "Context", formatter: "HelpFormatter") -> None:
        arguments, options = [], []
        for param in self.get_params(ctx):  # type: ignore[attr-defined]
            record = param.get_help_record(ctx)
            if record is None:
                continue
            words = option_help(param.help, record[1])
            if param.param_type_name == "argument":
                arguments.append((argument_words(param), words))
            else:
                options.append((record[0], words))
        for title, rows in ((marked("Arguments"), arguments), (marked("Options"), options)):
            if rows:
                with formatter.section(help_words(title)):
                    formatter.write_dl(rows)
        commands = getattr(self, "format_commands", None)
        if commands is not None:
            commands(ctx, formatter)


def help_words(text: str) -> str:
    """``text`` (English words of help) in the reader's words."""
    return hearer().words.gettext(text)


def help_text(text: str | None) -> str:
    """A command's help (its docstring as Typer keeps it) in the reader's words: each
    paragraph translated (:mod:`files.helps`), the examples' command lines as written."""
    if not text:
        return ""
    doc = inspect.cleandoc(text).partition("\f")[0]
    words = hearer().words
    if words.code == "en":
        return doc
    from files.helps import paragraph_key, paragraphs, translated

    shown = []
    for paragraph in paragraphs(doc):
        key = paragraph_key(paragraph)
        said_here = words.gettext(key) if translated(paragraph) else key
        shown.append(paragraph if said_here == key else said_here)
    return "\n\n".join(shown)


#: The words Typer and Click add to help themselves, for the catalogue.
HELP_WORDS = (
    marked("Show this message and exit."),
    marked("Install completion for the current shell."),
    marked("Show completion for the current shell, to copy it or customize the installation."),
    marked("env var"),
    marked("default"),
    marked("required"),
    marked("Commands"),
    marked("Usage: "),
)
#: Click's words in the brackets after an option's help (``[env var: …; default: …]``,
#: ``[1 to 10; required]``): each first or after ``; ``.
HELP_EXTRA = re.compile(r"(\[|; )(env var|default|required)(?=[:\]])")


def option_help(english: str | None, shown: str) -> str:
    """An option's help as Click shows it (its ``help``, the bounds of a number, ``[env var:
    …]`` and the like), in the reader's words."""
    if english and shown.startswith(english):
        shown = help_words(english) + shown[len(english) :]
    shown = HELP_EXTRA.sub(lambda m: m[1] + help_words(m[2]), shown)
    return RANGE.sub(
        lambda m: hearer().words(
            said("{least} to {most}", least=Number(int(m[1])), most=Number(int(m[2])))
        ),
        shown,
    )


class Commands(Worded, TyperGroup):
    """The app's commands; a command that meets data it cannot read says whether the ledger
    is damaged (and so not a bug of chouette's).

    Made by :func:`get_command_once`, each command is made from its function when it is
    first asked for (``pending``), not all fifty-odd as the program starts: a command, or a
    Tab, makes the one it runs (making them all was a quarter of a Tab's time)."""

    pending: dict[str, Any] = {}  # noqa: RUF012 (each group made lazily has its own)

    def list_commands(self, ctx: Any) -> list[str]:
        return [*self.pending, *(n for n in self.commands if n not in self.pending)]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        info = self.pending.get(cmd_name)
        if info is not None and cmd_name not in self.commands:
            self.commands[cmd_name] = inside.made(app, info)
        return super().get_command(ctx, cmd_name)

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        try:
            return super().resolve_command(ctx, args)
        except typer.TyperException:  # a usage error: no such command
            if all(name in self.commands for name in self.pending):
                raise
        for name in self.pending:  # a mistyped command: Typer suggests from those made
            self.get_command(ctx, name)
        return super().resolve_command(ctx, args)

    def get_params(self, ctx: Any) -> list[Any]:
        params = super().get_params(ctx)
        text_first(params)  # with Typer's completion options and --help, added later
        return params

    def get_help_option(self, ctx: Any) -> Any:
        return help_said(super().get_help_option(ctx))

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        """The commands, each with the first words of its help, in the reader's words."""
        found = [(name, self.get_command(ctx, name)) for name in self.list_commands(ctx)]
        shown = [(name, command) for name, command in found if command and not command.hidden]
        if shown:
            limit = formatter.width - 6 - max(len(name) for name, _ in shown)
            with formatter.section(help_words("Commands")):
                formatter.write_dl([(n, c.get_short_help_str(limit)) for n, c in shown])

    def make_context(self, *args: Any, **kwargs: Any) -> Any:
        with usage_clipped():
            return super().make_context(*args, **kwargs)

    def main(self, *args: Any, **kwargs: Any) -> Any:
        if os.environ.get("_CHOUETTE_COMPLETE", "").endswith("bash"):  # a Tab in bash
            quoted_bash()
        chosen = _chosen_language.set(_chosen_language.get())  # --lang: for this run only
        try:
            return super().main(*args, **kwargs)
        finally:
            _chosen_language.reset(chosen)

    def invoke(self, ctx: Any) -> Any:
        try:
            with usage_clipped():
                return super().invoke(ctx)
        except (ValueError, TypeError, KeyError, AttributeError):
            found = damage(ctx)
            if not found:
                raise  # a sound ledger: a bug, reported as one
            fail(
                said(
                    "the ledger is damaged ({problem}): `chouette check` lists the problems; "
                    "restore the ledger from a backup",
                    problem=found[0],
                )
                if len(found) == 1
                else said_n(
                    "the ledger is damaged ({problem}, and {n} more problem): `chouette check` "
                    "lists the problems; restore the ledger from a backup",
                    "the ledger is damaged ({problem}, and {n} more problems): `chouette "
                    "check` lists the problems; restore the ledger from a backup",
                    len(found) - 1,
                    problem=found[0],
                )
            )


#: The most a usage error's message may echo of what was typed, spaces and all.
USAGE_ECHO = 400


@contextmanager
def usage_clipped() -> Iterator[None]:
    """A usage error (an unknown command or option, a value Typer refuses) echoes no more
    than a clipped part of what was typed (:func:`chouette.text.clipped`)."""
    try:
        yield
    except typer.TyperException as err:
        message = getattr(err, "message", None)
        if isinstance(message, str):
            err.message = clipped(clipped_words(message), USAGE_ECHO)
        if hearer().words.code != "en" and hasattr(err, "format_message"):
            inside.shown_by(err, usage_shown(err))
        raise


#: Click's usage errors as Typer's Click writes them (English only), read back as sentences
#: in the reader's words; a message none of these reads is shown as Click wrote it.
CLICK_WORDS: "list[tuple[re.Pattern[str], Callable[[re.Match[str]], Sayable]]]" = [
    (
        re.compile(r"No such command '(.*)'\. Did you mean (.*)\?", re.S),
        lambda m: said(
            "No such command '{command}'. Did you mean {names}?", command=m[1], names=m[2]
        ),
    ),
    (
        re.compile(r"No such command '(.*)'\.", re.S),
        lambda m: said("No such command '{command}'.", command=m[1]),
    ),
    (
        re.compile(r"No such option: (\S+) \(Possible options: (.*)\)", re.S),
        lambda m: said(
            "No such option: {option} (Possible options: {options})", option=m[1], options=m[2]
        ),
    ),
    (
        re.compile(r"No such option: (.*)", re.S),
        lambda m: said("No such option: {option}", option=m[1]),
    ),
    (
        re.compile(r"Missing argument '(.*?)'\.(.*)", re.S),
        lambda m: (
            said("Missing argument '{argument}'.", argument=m[1])
            if not m[2]
            else joined([said("Missing argument '{argument}'.", argument=m[1]), m[2]], "")
        ),
    ),
    (
        re.compile(r"Missing option '(.*?)'\.(.*)", re.S),
        lambda m: (
            said("Missing option '{option}'.", option=m[1])
            if not m[2]
            else joined([said("Missing option '{option}'.", option=m[1]), m[2]], "")
        ),
    ),
    (
        re.compile(r"Invalid value for (.*?): (.*)", re.S),
        lambda m: said("Invalid value for {option}: {reason}", option=m[1], reason=m[2]),
    ),
    (
        re.compile(r"Got unexpected extra argument\(s\) \((.*)\)", re.S),
        lambda m: said("Got unexpected extra argument(s) ({arguments})", arguments=m[1]),
    ),
    (
        re.compile(r"Option '(.*)' requires an argument\.", re.S),
        lambda m: said("Option '{option}' requires an argument.", option=m[1]),
    ),
    (
        re.compile(r"Option '(.*)' does not take a value\.", re.S),
        lambda m: said("Option '{option}' does not take a value.", option=m[1]),
    ),
]


def usage_said(err: Exception) -> "Sayable":
    """A usage error's message (as Click formats it) in words: Click's own sentences read
    back (:data:`CLICK_WORDS`), a value chouette refused said as chouette said it."""
    format_message = getattr(err, "format_message", None)
    message = str(format_message() if format_message is not None else err)
    for pattern, words in CLICK_WORDS:
        found = pattern.fullmatch(message)
        if found:
            return words(found)
    return message


def usage_shown(err: Exception) -> "Callable[[Any], None]":
    """What shows ``err`` in the reader's words (:func:`show_usage_error`), as Click's
    ``show(file)`` is called."""

    def show(_file: Any = None) -> None:
        show_usage_error(err)

    return show


def show_usage_error(err: Exception) -> None:
    """A usage error as Click shows it (the usage line, where to find help, the error), in
    the reader's words, on standard error."""
    ctx = getattr(err, "ctx", None)
    if ctx is not None:
        say(ctx.get_usage(), err=True)
        if ctx.command.get_help_option(ctx) is not None:
            option = ctx.help_option_names[0]
            say(
                said("Try '{command} {option}' for help.", command=ctx.command_path, option=option),
                err=True,
            )
        say(err=True)
    say(said("Error: {message}", message=usage_said(err)), err=True)


def said_help(ctx: Any, param: Any, value: Any) -> None:
    """``--help``: the command's help, said to whoever hears the command (a terminal or a
    page), then done."""
    if value and not ctx.resilient_parsing:
        say(ctx.get_help())
        ctx.exit()


def help_said(option: Any) -> Any:
    """The help option of a command or the group, saying its help as :func:`said_help`."""
    if option is not None:
        option.callback = said_help
    return option


class Command(Worded, TyperCommand):
    """A command whose help names its arguments in words (``NAME``, ``MEMBER...``), as
    docs/INTERFACE.md does, never by their Python types; options name theirs by metavar;
    all of it in the reader's words (:class:`Worded`). Its text parameters take their
    values without pydantic (:class:`TextFirst`)."""

    def get_params(self, ctx: Any) -> list[Any]:
        params = super().get_params(ctx)
        text_first(params)  # with --help, added as it is asked for
        return params

    def get_help_option(self, ctx: Any) -> Any:
        return help_said(super().get_help_option(ctx))

    def collect_usage_pieces(self, ctx: "Context") -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if param.param_type_name == "argument":
                word = str(param.metavar or str(param.name).upper())
                word = word if param.required else f"[{word}]"
                pieces.append(f"{word}..." if param.nargs != 1 else word)
        return pieces


RANGE = re.compile(r"(-?\d+)<=x<=(-?\d+)")  # a number's bounds as Typer writes them


def argument_words(param: "Parameter") -> str:
    """``MEMBER...`` for an argument that takes several, ``NAME`` for one."""
    word = str(param.metavar or str(param.name).upper())
    return f"{word}..." if param.nargs != 1 else word


def damage(ctx: typer.Context) -> "list[Sayable]":
    """What is damaged in the ledger the options name, if it was opened at all."""
    from db import reading
    from db.engine import opened
    from db.integrity import damage as found

    url = ledger_url(options(ctx))
    return found(url) if opened(url) or reading.opened(url) else []


app = typer.Typer(
    name="chouette",
    cls=Commands,
    help="Keep score at a backgammon chouette: the line, every cube, beavers, settlement.",
    invoke_without_command=True,  # `chouette` alone prints the help (exit 0), see main()
    context_settings={"help_option_names": ["-h", "--help"]},
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


# ---------------------------------------------------------------- plumbing


@dataclass
class Options:
    """The global options, shared by every command of one process (the table mode's too)."""

    db: str | None
    session: str | None
    booked: bool = False
    issued: datetime | None = None


def data_home() -> Path:
    """chouette's folder for its data: ``$XDG_DATA_HOME/chouette`` (``~/.local/share/chouette``)
    on Linux and the BSDs; elsewhere the platform's own application folder (macOS:
    ``~/Library/Application Support/chouette``; Windows: ``%APPDATA%\\chouette``)."""
    if sys.platform in ("darwin", "win32"):
        return Path(typer.get_app_dir("chouette"))
    base = os.environ.get("XDG_DATA_HOME") or ""
    root = Path(base) if Path(base).is_absolute() else Path.home() / ".local" / "share"
    return root / "chouette"


def older_database() -> Path:
    """Where chouette kept its ledger before it followed the XDG data folder (on Linux,
    ``~/.config/chouette/chouette.db``): still used while a ledger is there and none is in
    :func:`data_home`."""
    return Path(typer.get_app_dir("chouette")) / "chouette.db"


def history_file() -> Path:
    """The table prompt's history, kept between evenings."""
    return data_home() / "table-history"


def local_zone() -> str:
    """The name of the reader's time zone now (``CET``), for a column of local times."""
    return clock().astimezone().tzname() or "local"


def default_database() -> Path:
    """The ledger used without ``--db`` or ``CHOUETTE_DB``."""
    new, old = data_home() / "chouette.db", older_database()
    return old if old != new and not new.exists() and old.exists() else new


def clock() -> datetime:
    """The time of this command (``CHOUETTE_NOW`` pins it, for tests and demos)."""
    pinned = os.environ.get("CHOUETTE_NOW")
    if pinned:
        return datetime.fromisoformat(pinned).astimezone(UTC)
    return datetime.now(UTC)


def issued(opts: Options) -> datetime:
    """When the user gave this command (the table mode stamps each line as it is typed)."""
    if opts.issued is not None:
        return opts.issued
    if os.environ.get("CHOUETTE_NOW"):
        return clock()
    return datetime.fromtimestamp(STARTED, UTC)


class Terminal:
    """The terminal as a :class:`~chouette.words.Hearer`: what a command says, in the words of
    the terminal's language (:func:`terminal_words`), on standard output and error."""

    def __init__(self, words: "Words | None" = None) -> None:
        self._words = words

    @property
    def words(self) -> "Words":
        return self._words if self._words is not None else terminal_words()

    def say(self, what: "Sayable", *, err: bool = False) -> None:
        typer.echo(shown_lines(self.words(what)), err=err)

    def table(
        self,
        headers: "Sequence[Sayable]",
        rows: "Iterable[Sequence[Any]]",
        *,
        tint: "Tint | None" = None,
    ) -> None:
        coloured = colour()
        text = laid_out(headers, rows, self.words, tint=(tint or money_tint) if coloured else None)
        self.write(text + "\n")

    def write(self, text: str) -> None:
        typer.echo(text, nl=False, color=True)  # (colours are added only where they show)

    @property
    def colour(self) -> bool:
        """Whether tables are coloured: on a terminal, unless NO_COLOR is set (no-color.org);
        FORCE_COLOR forces it, even into a pipe."""
        if os.environ.get("NO_COLOR"):
            return False
        return bool(os.environ.get("FORCE_COLOR")) or sys.stdout.isatty()


_heard: "ContextVar[Hearer | None]" = ContextVar("chouette_hearer", default=None)
_terminal = Terminal()


def hearer() -> "Hearer":
    """Who hears this command: the page that posted it (:func:`run_words`), or the terminal."""
    found = _heard.get()
    return _terminal if found is None else found


_chosen_language: "ContextVar[str | None]" = ContextVar("chouette_language", default=None)


def terminal_words() -> "Words":
    """The terminal's language: ``--lang``, else ``CHOUETTE_LANG`` if it names one chouette
    speaks, else the environment's (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``, as
    gettext reads them), else English. (A ``--lang`` chouette does not speak is refused where
    it is given, in these words: no language is chosen yet.)"""
    from chouette.words import check_language, from_environment
    from files.words import words

    code = _chosen_language.get() or os.environ.get("CHOUETTE_LANG")
    if code:
        try:
            return words(check_language(code))
        except ChouetteError:
            pass  # an unknown CHOUETTE_LANG: the environment's language
    return words(from_environment(os.environ))


def say(message: "Sayable" = "", *, err: bool = False, nl: bool = True) -> None:
    """Say something to a person, in their words: every character that could drive the
    terminal (an escape sequence, a bidirectional override) in a name, a note or a file name
    is shown escaped."""
    heard = hearer()
    if nl:
        heard.say(message, err=err)
    else:
        heard.write(shown_lines(heard.words(message)))


def note(message: "Sayable") -> None:
    """A note for the person at the terminal, on standard error: data stays on stdout."""
    from chouette.words import said

    say(said("Note: {message}", message=message), err=True)


def warn(message: "Sayable") -> None:
    """A warning, on standard error."""
    from chouette.words import said

    say(said("Warning: {message}", message=clipped_said(message)), err=True)


def fail(message: "Sayable", code: int = 1) -> NoReturn:
    """``Error: …`` on standard error (every word of what was typed that it echoes clipped,
    :func:`chouette.text.clipped_words`), and exit ``code``."""
    from chouette.words import said

    say(said("Error: {message}", message=clipped_said(message)), err=True)
    raise typer.Exit(code)


def clipped_said(message: "Sayable") -> "Sayable":
    """What a message echoes of what was typed, clipped (:func:`chouette.text.clipped_words`):
    its text, or each text it holds (a value of a sentence, a sentence's own values, the
    parts of sentences joined), so that a 10 kB path or name is never printed back whole."""
    from dataclasses import replace

    from chouette.words import Joined, Said

    if isinstance(message, str):
        return clipped_words(message)
    if isinstance(message, Said):
        values = tuple((name, _clipped_value(value)) for name, value in message.values)
        return replace(message, values=values)
    if isinstance(message, Joined):
        return replace(message, parts=tuple(_clipped_value(part) for part in message.parts))
    return message


def _clipped_value(value: Any) -> Any:
    """A value of a sentence as :func:`clipped_said` clips it (money and numbers as they are)."""
    from chouette.words import Joined, Said

    return clipped_said(value) if isinstance(value, str | Said | Joined) else value


def options(ctx: typer.Context) -> Options:
    obj = ctx.find_root().obj
    return obj if isinstance(obj, Options) else Options(None, None)


def ledger_url(opts: Options) -> str:
    """The SQLAlchemy URL of the ledger the options name."""
    from db import database_url

    return database_url(opts.db or str(default_database()))


@contextmanager
def ledger_for(opts: Options, *, write: bool = False, create: bool = False) -> "Iterator[Ledger]":
    """The ledger the options name, in one transaction (errors are the caller's to show).
    Only a command that starts a ledger (``create``) makes one where there is none."""
    from db import open_ledger
    from db.locks import lock_timeout_ms, say_waits

    lock_timeout_ms()  # CHOUETTE_LOCK_TIMEOUT is read, or refused, by every command
    say_waits(note)  # a command that waits for another writer says so
    with open_ledger(
        ledger_url(opts), write=write, now=clock(), clock=clock, create=create
    ) as book:
        yield book


@contextmanager
def ledger(ctx: typer.Context, *, write: bool, create: bool = False) -> "Iterator[Ledger]":
    """The ledger in one transaction; a refusal prints ``Error: …`` and exits 1."""
    try:
        with ledger_for(options(ctx), write=write, create=create) as book:
            yield book
    except ChouetteError as err:
        fail(err.said)


@contextmanager
def reads_for(opts: Options) -> "Iterator[Reads]":
    """The ledger the options name, for reading (errors are the caller's to show): on an
    SQLite ledger, without loading the ORM (:mod:`db.reading`)."""
    from db.locks import lock_timeout_ms
    from db.reading import open_reads

    lock_timeout_ms()  # CHOUETTE_LOCK_TIMEOUT is read, or refused, by every command
    with open_reads(ledger_url(opts), now=clock()) as book:
        yield book


@contextmanager
def reading(ctx: typer.Context) -> "Iterator[Reads]":
    """The ledger for a report, in one read transaction; a refusal prints ``Error: …`` and
    exits 1."""
    try:
        with reads_for(options(ctx)) as book:
            yield book
    except ChouetteError as err:
        fail(err.said)


def session_option(ctx: typer.Context) -> str | None:
    """The session ``--session`` names, as stored."""
    return session_named(options(ctx))


def session_named(opts: Options) -> str | None:
    """The session the options name, as stored (the one place ``--session`` is read)."""
    return None if opts.session is None else normal_name(opts.session)


def current(book: "Ledger | Reads", ctx: typer.Context, *, lock: bool = False) -> "SessionInfo":
    """The session named by ``--session`` (remembered as the current one, by a command that
    writes) or the current one."""
    name = session_option(ctx)
    info = book.session(name, lock=lock)
    if name is not None and lock:
        cast("Ledger", book).use(info.name)
    return info


def seated(opts: Options) -> list[str]:
    """The line of the session the options name; none when there is no such ledger or session
    (for completion, which never complains)."""
    from db.names import line_order

    return names_in(opts, lambda run: line_order(run, session_named(opts)))


def names_in(opts: Options, names: "Callable[[Run], Iterable[str]]") -> list[str]:
    """The ``names`` the ledger the options name holds (:mod:`db.names`; none if it cannot
    be read: completion never fails), on an SQLite ledger with nothing but ``sqlite3``
    loaded: a Tab answers at once."""
    from db.locks import lock_timeout_ms
    from db.reading import open_names

    try:
        lock_timeout_ms()
        with open_names(ledger_url(opts), now=clock()) as run:
            return list(names(run))
    except ChouetteError:
        return []


def complete_player(ctx: typer.Context, incomplete: str) -> list[str]:
    """Shell completion of a player's name: the players in the session's line whose names
    start with what was typed. Opens the ledger only when Tab is pressed (on SQLite without
    loading the ORM: a Tab answers at once)."""
    root = ctx.find_root().params
    found = seated(Options(root.get("db"), root.get("session")))
    return [p for p in found if p.startswith(incomplete)]


def complete_command(incomplete: str) -> list[str]:
    """Shell completion of a command's name (``chouette help COMMAND``)."""
    return [name for name in command_names() if name.startswith(incomplete)]


SHELL_SPECIAL = re.compile(r"""([\s'"`$&|;<>()*?!#~\[\]{}\\])""")


def shell_quoted(word: str) -> str:
    """A word as bash reads it back as one: ``Big\\ Al``."""
    return SHELL_SPECIAL.sub(r"\\\1", word)


def quoted_bash() -> None:
    """Bash's completions written as bash reads them back, one word each: a name with a
    space is ``Big\\ Al`` (Typer's bash script inserts what it is given as it is; zsh and
    fish quote what they insert themselves). The completions themselves stay the names, so
    what was typed (``Big\\ A``, which bash hands over as ``Big A``) still matches them."""
    inside.quote_bash(shell_quoted)  # in place of Typer's own


def completed(
    ctx: typer.Context, incomplete: str, names: "Callable[[Run], Iterable[str]]"
) -> list[str]:
    """The ``names`` the ledger holds that start with what was typed."""
    found = names_in(Options(ctx.find_root().params.get("db"), None), names)
    return [n for n in found if n.startswith(incomplete)]


def complete_session(ctx: typer.Context, incomplete: str) -> list[str]:
    """Shell completion of a session's name (``--session``, ``--like``, ``sessions
    --rename``): the ledger's sessions whose names start with what was typed."""
    from db.names import session_names

    return completed(ctx, incomplete, session_names)


def complete_night(ctx: typer.Context, incomplete: str) -> list[str]:
    """Shell completion of a club night's name (``night NAME``, ``settle --night``, ``new
    --night``): the ledger's nights that start with what was typed, the newest first."""
    from db.names import nights

    return completed(ctx, incomplete, lambda run: [n for n, _ in reversed(nights(run))])


class Format(StrEnum):
    table = "table"
    csv = "csv"
    markdown = "markdown"
    json = "json"


#: Colours for a row of a table: its headings (English), the row as given (text, money,
#: sentences) and as shown, to the row as shown in colour.
Tint = Callable[[Sequence[str], Sequence[Any], list[str]], list[str]]

MONEY_COLUMNS = ("money", "at the table", "balance")  # money won or lost, by its sign
GREEN, RED, DEFAULT = "\x1b[32m", "\x1b[31m", "\x1b[39m"
SIGNED_MONEY = re.compile(r"^([+-])\d[\d,]*\.\d\d$")


def colour() -> bool:
    """Whether tables are coloured: only for a terminal that colours them."""
    return bool(getattr(hearer(), "colour", False))


def paint(cell: str, sign: str) -> str:
    return f"{GREEN if sign == '+' else RED}{cell}{DEFAULT}"


def money_sign(cell: Any, text: str) -> str | None:
    """``+`` for money won, ``-`` for money lost, as a cell shows it (None: neither)."""
    from chouette.words import Money

    if isinstance(cell, Money):
        won = cell.sign and cell.cents > 0
        return "+" if won else "-" if cell.cents < 0 else None
    found = SIGNED_MONEY.match(text)
    return found.group(1) if found else None


def money_tint(headers: Sequence[str], row: Sequence[Any], shown: list[str]) -> list[str]:
    """Money won in green, lost in red: the money columns, and the sheet's money row."""
    money_row = bool(row) and str(row[0]) == "money"
    painted = []
    for i, (cell, text) in enumerate(zip(row, shown, strict=True)):
        sign = money_sign(cell, text) if money_row or headers[i] in MONEY_COLUMNS else None
        painted.append(paint(text, sign) if sign else text)
    return painted


def payer_tint(headers: Sequence[str], row: Sequence[Any], shown: list[str]) -> list[str]:
    """Who pays (lost) in red, who is paid (won) in green."""
    return [paint(shown[0], "-"), paint(shown[1], "+"), *shown[2:]]


def emit(rows: "Rows", fmt: Format = Format.table, tint: Tint = money_tint) -> None:
    """A report's rows as a table (coloured on a terminal), CSV or Markdown."""
    emit_rows(*rows, fmt, tint)


class Written:
    """A file-like door to whoever hears the command (:func:`hearer`), for writers that want
    a file (:mod:`csv`): what they write is handed on some 64 KB at a time."""

    def __init__(self) -> None:
        self.heard = hearer()
        self.kept: list[str] = []
        self.size = 0

    def write(self, text: str) -> int:
        self.kept.append(text)
        self.size += len(text)
        if self.size >= 1 << 16:
            self.flush()
        return len(text)

    def flush(self) -> None:
        if self.kept:
            self.heard.write("".join(self.kept))
            self.kept, self.size = [], 0


ECHO_LINES = 1000  # JSON items written at once


def emit_rows(
    headers: "Sequence[Sayable]",
    body: "Iterable[Sequence[Any]]",
    fmt: Format = Format.table,
    tint: Tint = money_tint,
) -> None:
    """Rows as a table for whoever hears the command (:meth:`Terminal.table`: tabulate's
    ``simple`` format, coloured on a terminal; a page lays out its own), Markdown (tabulate's
    ``github`` format) or CSV. A cell is text, :class:`~chouette.words.Money` or a sentence,
    written in the reader's words (CSV, for programs, in English, its headings as given).
    CSV is written row by row as the rows come; a table or Markdown is laid out by tabulate,
    which needs every row at once (a table of a whole ledger is read with a pager, and held
    in memory while it is laid out)."""
    if fmt is Format.csv:
        import csv

        from chouette.words import ENGLISH_WORDS

        written = Written()
        writer = csv.writer(written, lineterminator="\n")
        writer.writerow([shown(str(h)) for h in headers])
        writer.writerows(
            [shown(cell if type(cell) is str else ENGLISH_WORDS(cell)) for cell in row]
            for row in body
        )
        written.flush()
        return
    heard = hearer()
    if fmt is Format.table:
        heard.table(headers, body, tint=tint)
        return
    heard.write(laid_out(headers, body, heard.words, markdown=True) + "\n")


def laid_out(
    headers: "Sequence[Sayable]",
    body: "Iterable[Sequence[Any]]",
    words: "Words",
    *,
    markdown: bool = False,
    tint: Tint | None = None,
) -> str:
    """Rows laid out by tabulate in ``words``: its ``simple`` format (``tint`` colours each
    row) or its ``github`` format (``markdown``). Tabulate reads no numbers in the cells
    (``disable_numparse``): a column whose every filled cell is a number is aligned right
    (:func:`chouette.words.alignment`). A heading is English words, translated
    (:func:`chouette.words.heading`), or something said."""
    from tabulate import tabulate

    from chouette.words import alignment, heading

    heads = [shown(heading(words, h)) for h in headers]
    rows, plain = [], []
    for row in body:
        texts = [cell if type(cell) is str else words(cell) for cell in row]
        if not "".join(texts).isprintable():
            texts = [shown(text) for text in texts]
        if markdown:  # a | in a name would end its cell: written \\| as GFM says
            texts = [text.replace("|", "\\|") for text in texts]
        plain.append(texts)
        rows.append(tint([str(h) for h in headers], row, texts) if tint is not None else texts)
    if markdown:
        heads = [h.replace("|", "\\|") for h in heads]
    align = alignment(plain, words)
    return tabulate(
        rows,
        heads,
        tablefmt="github" if markdown else "simple",
        disable_numparse=True,
        colalign=align or None,
    )


def indented(value: Any, depth: int) -> str:
    """``json.dumps(value, indent=2, ensure_ascii=False)`` as if ``value`` sat ``depth``
    levels deep (its keys text): the same text, its flat objects and lists written by the C
    encoder (the one that indents is pure Python, and a report of a whole ledger writes
    thousands of them)."""
    if not isinstance(value, dict | list) or not value:
        return json.dumps(value, ensure_ascii=False)
    inner = "\n" + "  " * (depth + 1)
    close = "\n" + "  " * depth + ("}" if isinstance(value, dict) else "]")
    values = value.values() if isinstance(value, dict) else value
    if not any(isinstance(v, dict | list) for v in values):
        flat = json.dumps(value, ensure_ascii=False, separators=("," + inner, ": "))
        return flat[0] + inner + flat[1:-1] + close
    if isinstance(value, dict):
        items = [
            f"{json.dumps(k, ensure_ascii=False)}: {indented(v, depth + 1)}"
            for k, v in value.items()
        ]
        return "{" + inner + ("," + inner).join(items) + close
    return "[" + inner + ("," + inner).join(indented(v, depth + 1) for v in value) + close


class FileRuns:
    """The report's running balances (:class:`chouette.page.Runs`) between its first look at
    the games and its chart: a few thousand per player in memory, the rest in a temporary
    file, in blocks, so a club ledger's report holds a block per player, not the ledger."""

    BLOCK = 2048  # balances per player held in memory

    def __init__(self) -> None:
        from array import array

        self._array = array
        self.pending: dict[str, Any] = {}
        self.blocks: dict[str, list[tuple[int, int]]] = {}  # (offset, count) in the file
        self.file: Any = None

    def __enter__(self) -> "FileRuns":
        return self

    def __exit__(self, *_: object) -> None:
        if self.file is not None:
            self.file.close()

    def add(self, player: str, game: int, cents: int) -> None:
        kept = self.pending.get(player)
        if kept is None:
            kept = self.pending[player] = self._array("q")
        kept.append(game)
        kept.append(cents)
        if len(kept) >= 2 * self.BLOCK:
            if self.file is None:
                import tempfile

                self.file = tempfile.TemporaryFile()  # noqa: SIM115 (closed by __exit__)
            self.file.seek(0, 2)
            self.blocks.setdefault(player, []).append((self.file.tell(), len(kept)))
            kept.tofile(self.file)
            del kept[:]

    def series(self, player: str) -> "Iterator[tuple[int, int]]":
        for offset, count in self.blocks.get(player, []):
            block = self._array("q")
            self.file.seek(offset)
            block.fromfile(self.file, count)
            yield from zip(block[::2], block[1::2], strict=True)
        kept = self.pending.get(player, [])
        yield from zip(kept[::2], kept[1::2], strict=True)


def emit_json(data: Any) -> None:
    hearer().write(json_safe(json.dumps(data, indent=2, ensure_ascii=False)) + "\n")


def emit_json_stream(head: dict[str, Any], key: str, items: "Iterable[Any]") -> None:
    """``emit_json({**head, key: list(items)})``, written as the items come: the same text,
    a few items at a time (``key`` is the last one)."""
    text = json.dumps({**head, key: []}, indent=2, ensure_ascii=False)
    chunk = [json_safe(text[: -len("[]\n}")]) + "["]
    count = 0
    for item in items:
        chunk.append(("\n    " if count == 0 else ",\n    ") + json_safe(indented(item, 2)))
        count += 1
        if len(chunk) >= ECHO_LINES:
            hearer().write("".join(chunk))
            chunk = []
    chunk.append("]\n}\n" if count == 0 else "\n  ]\n}\n")
    hearer().write("".join(chunk))


def pick_format(as_json: bool, fmt: Format | None) -> Format:
    return Format.json if as_json else (fmt or Format.table)


JsonFlag = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]
FormatOption = Annotated[
    Format | None,
    typer.Option(
        "--format",
        metavar="table|csv|markdown|json",
        help="The output's format. csv and json are written as the rows are read; a table "
        "or markdown is laid out whole first, its rows held in memory (for a pager).",
    ),
]
AllFlag = Annotated[bool, typer.Option("--all", help="Every session in the database.")]
GameOption = Annotated[
    int | None,
    typer.Option(
        "--game",
        metavar="N",
        **bounds("--game"),
        help="The game this event is for: refused if another game is current "
        "(guards two terminals against each other).",
    ),
]
PositionOption = Annotated[
    str | None,
    typer.Option(
        "--position",
        metavar="ID",
        help="The board at this cube decision, from the doubler's side: a GNU Backgammon "
        "Position ID (4HPwATDgc/ABMA) or an XGID, kept for chouette review.",
    ),
]


def position_of(text: str | None) -> str | None:
    """A typed --position as its Position ID, checked (a usage error names what is wrong);
    None when not given."""
    if text is None:
        return None
    from chouette.errors import PositionError
    from chouette.position import parse_position

    try:
        return parse_position(text).id
    except PositionError as err:
        fail(err.said, 2)


def choose_language(value: str | None) -> None:
    """``--lang``: the language of what chouette says here, from now on."""
    if value is None:
        return
    from chouette.words import check_language

    try:
        _chosen_language.set(check_language(value))
    except ChouetteError as err:
        raise typer.BadParameter(hearer().words(err.said)) from None


def show_version(value: bool) -> None:
    """``--version``: the installed chouette's version, without opening any ledger."""
    if not value:
        return
    from importlib.metadata import PackageNotFoundError, version

    try:
        say(f"chouette {version('chouette')}")
    except PackageNotFoundError:
        say(said("chouette (not installed: run it from an install, pip install .)"))
    raise typer.Exit()


@app.callback()
def main(
    ctx: typer.Context,
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            envvar="CHOUETTE_DB",
            metavar="PATH|URL",
            help="The ledger: a file path (SQLite) or an SQLAlchemy URL. "
            "Default: chouette.db in your data directory.",
        ),
    ] = None,
    session: Annotated[
        str | None,
        typer.Option(
            "--session",
            metavar="NAME",
            help="The session to use (default: the last used).",
            autocompletion=complete_session,
        ),
    ] = None,
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            is_eager=True,
            expose_value=False,
            callback=show_version,
            help="Print chouette's version and exit.",
        ),
    ] = False,
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            metavar="en|da|cs",
            is_eager=True,
            expose_value=False,
            callback=choose_language,
            help="The language chouette speaks here (default: CHOUETTE_LANG, else your "
            "environment's: LANGUAGE, LC_ALL, LC_MESSAGES, LANG). JSON and CSV stay the same.",
        ),
    ] = None,
) -> None:
    """Keep score at a backgammon chouette: the line, every cube, beavers, settlement."""
    if ctx.invoked_subcommand is None and not ctx.resilient_parsing:
        say(ctx.get_help())  # `chouette` alone is a request for help, not a mistake
        raise typer.Exit()
    if isinstance(ctx.obj, Options):  # the table mode runs many commands in one process
        ctx.obj.db, ctx.obj.session = db or ctx.obj.db, session or ctx.obj.session
    else:
        ctx.obj = Options(db, session)


# ---------------------------------------------------------------- setting up

#: The house rules a session gets when none is given: each option's default is read here, so
#: the choices and defaults are declared once, in :mod:`chouette.rules`.
DEFAULT_RULES = house.HouseRules()


def one_of(choices: object) -> str:
    """A house-rule option's metavar, from its choices in :mod:`chouette.rules`: ``a|b|c``."""
    return "|".join(get_args(choices))


def money_option(text: str | None, what: "Sayable") -> int | None:
    """An amount given on the command line: exit 2 if it is not an amount of money or is
    past the ledger's limit (a value outside its bounds, as a number outside its own is:
    docs/INTERFACE.md, Numbers)."""
    if text is None:
        return None
    try:
        return parse_money(text)
    except ChouetteError as err:  # MoneyError, LimitError
        fail(said("{option}: {reason}", option=what, reason=err.said), 2)


def stake_option(text: str | None, option: "Sayable", what: "Sayable") -> int | None:
    """A stake given on the command line (``option``): an amount more than zero."""
    from chouette.money import check_stake

    cents = money_option(text, option)
    if cents is None:
        return None
    try:
        return check_stake(cents, what)
    except ChouetteError as err:
        fail(err.said)


#: The words that turn a house rule's optional number off (the card says ``off`` or ``none``).
OFF_WORDS = ("off", "none")


def off_or_number(number: str) -> Callable[[str], int | None]:
    """The parser of a house rule's optional number (``--max-cube N``): a whole number
    within its bounds (:data:`chouette.limits.NUMBERS`), or ``off``/``none``, the rule off
    (beside a preset that sets it); anything else is a usage error naming the bounds."""
    least, most = NUMBERS[number]

    def parse(text: str) -> int | None:
        if text.strip().casefold() in OFF_WORDS:
            return None
        if WHOLE.fullmatch(text) and len(text) <= 40 and least <= int(text) <= most:
            return int(text)
        why = (
            said(
                "{value} is outside chouette's limits: give a whole number from {least} to "
                "{most}, or off",
                value=clipped(text),
                least=Number(least),
                most=Number(most),
            )
            if WHOLE.fullmatch(text)
            else said(
                "{value} is not a number: give a whole number from {least} to {most}, or off",
                value=clipped(text),
                least=Number(least),
                most=Number(most),
            )
        )
        raise typer.BadParameter(hearer().words(why))

    return parse


@app.command(cls=Command)
def new(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(metavar="NAME", help="The session's name, e.g. friday.")],
    players: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="PLAYER",
            help="The line: box, captain, crew (with --like: instead of that session's).",
        ),
    ] = None,
    stake: Annotated[str, typer.Option(metavar="AMOUNT", help="Money per point.")] = "1.00",
    roll: Annotated[bool, typer.Option("--roll", help="Order the line by a roll-off.")] = False,
    roll_off: Annotated[
        house.RollOff,
        typer.Option(
            metavar=one_of(house.RollOff),
            help="The roll-off's dice: one each; two, summed, a double counting twice (3-3 is "
            "12; Colorado); or four, summed (St Albans).",
        ),
    ] = DEFAULT_RULES.roll_off,
    seed: Annotated[
        int | None,
        typer.Option(metavar="N", **bounds("new --seed"), help="Seed for a reproducible roll-off."),
    ] = None,
    player_stake: Annotated[
        list[str] | None,
        typer.Option(
            "--player-stake",
            metavar="NAME=AMOUNT",
            help="A player's own stake per point (repeatable).",
        ),
    ] = None,
    cubes: Annotated[
        house.CubeMode,
        typer.Option(metavar=one_of(house.CubeMode), help="A cube per member, or one team cube."),
    ] = DEFAULT_RULES.cubes,
    jacoby: Annotated[bool, typer.Option(help="Gammons count single on a centred cube.")] = True,
    jacoby_scope: Annotated[
        house.JacobyScope,
        typer.Option(
            metavar=one_of(house.JacobyScope),
            help="Jacoby per pair's cube, or lifted for every pair once any cube is turned.",
        ),
    ] = DEFAULT_RULES.jacoby_scope,
    beavers: Annotated[bool, typer.Option(help="Allow beavers.")] = True,
    raccoons: Annotated[
        bool | None, typer.Option(help="Allow raccoons (default: when beavers are on).")
    ] = None,
    beavers_by: Annotated[
        house.BeaversBy,
        typer.Option(metavar=one_of(house.BeaversBy), help="Which side may beaver."),
    ] = DEFAULT_RULES.beavers_by,
    beaver_limit: Annotated[
        int | None,
        typer.Option(
            metavar="N|off",
            **bounds("--beaver-limit"),
            parser=off_or_number("--beaver-limit"),
            help="Beavers and raccoons a pair may play on one double (no beavers at all: "
            "--no-beavers).",
        ),
    ] = None,
    auto_doubles: Annotated[
        int,
        typer.Option(
            metavar="N", **bounds("--auto-doubles"), help="Automatic doubles per game (0: none)."
        ),
    ] = 0,
    auto_past_limit: Annotated[
        house.AutoPastLimit,
        typer.Option(
            metavar=one_of(house.AutoPastLimit),
            help="A tie past the limit: ignored, the box's choice, or carried to the next game.",
        ),
    ] = DEFAULT_RULES.auto_past_limit,
    max_cube: Annotated[
        int | None,
        typer.Option(
            metavar="N|off",
            **bounds("--max-cube"),
            parser=off_or_number("--max-cube"),
            help="Highest cube value allowed.",
        ),
    ] = None,
    starting_cube: Annotated[
        int,
        typer.Option(
            metavar="N",
            **bounds("--starting-cube"),
            help="Every cube starts the game at N, centred (a power of two; a chouette "
            "tournament's level).",
        ),
    ] = 1,
    retention: Annotated[
        house.Retention,
        typer.Option(
            metavar=one_of(house.Retention),
            help="When the box keeps the box (won-not-loss: L.A.'s, won the game and lost no "
            "points; score-sign: the box if up, else the captain if up, else nobody moves).",
        ),
    ] = DEFAULT_RULES.retention,
    acting_captain: Annotated[
        house.ActingCaptain,
        typer.Option(
            metavar=one_of(house.ActingCaptain),
            help="What a captain who is out does to the rotation.",
        ),
    ] = DEFAULT_RULES.acting_captain,
    newcomer: Annotated[
        house.Newcomer, typer.Option(metavar=one_of(house.Newcomer), help="Where a newcomer sits.")
    ] = DEFAULT_RULES.newcomer,
    box_doubles: Annotated[
        house.BoxDoubles,
        typer.Option(
            metavar=one_of(house.BoxDoubles),
            help="Which members the box may double together.",
        ),
    ] = DEFAULT_RULES.box_doubles,
    box_takes: Annotated[
        house.BoxTakes,
        typer.Option(
            metavar=one_of(house.BoxTakes),
            help="What the box must take of several members' doubles (or drop them all).",
        ),
    ] = DEFAULT_RULES.box_takes,
    box_takes_scope: Annotated[
        house.Scope,
        typer.Option(
            metavar=one_of(house.Scope),
            help="Whose doubles --box-takes binds the box to: any two or more members' "
            "together, or all: every member still in, at once (L.A.).",
        ),
    ] = DEFAULT_RULES.box_takes_scope,
    mandatory_beaver: Annotated[
        bool,
        typer.Option(
            "--mandatory-beaver/--no-mandatory-beaver",
            help="The one member to take a box double given to several must beaver or drop.",
        ),
    ] = False,
    lone_taker_scope: Annotated[
        house.Scope,
        typer.Option(
            metavar=one_of(house.Scope),
            help="Which box doubles have a lone taker (--mandatory-beaver, --mandatory-extras): "
            "one given to two or more members, or all: to every member still in (ACT).",
        ),
    ] = DEFAULT_RULES.lone_taker_scope,
    partner_from: Annotated[
        int | None,
        typer.Option(
            metavar="N|off",
            **bounds("--partner-from"),
            parser=off_or_number("--partner-from"),
            help="Seated players from which the box takes a partner (off: never).",
        ),
    ] = None,
    partner_pick: Annotated[
        house.PartnerPick,
        typer.Option(
            metavar=one_of(house.PartnerPick),
            help="Who becomes partner: the member after the captain, the bottom of the line "
            "(never the box who just lost), or whom the box names (chouette partner).",
        ),
    ] = DEFAULT_RULES.partner_pick,
    partner_optional: Annotated[
        bool,
        typer.Option(
            "--partner-optional/--no-partner-optional",
            help="The box may play alone for its run (chouette partner --none; L.A., Colorado).",
        ),
    ] = False,
    partner_run: Annotated[
        bool,
        typer.Option(
            "--partner-run/--no-partner-run",
            help="A partnership lasts the box's run when players leave (Woolsey).",
        ),
    ] = False,
    buy_outs: Annotated[
        bool,
        typer.Option(
            "--buy-outs/--no-buy-outs",
            help="The box may buy its partner out of the live cubes (chouette buy-out; Chicago).",
        ),
    ] = False,
    partner_share: Annotated[
        int,
        typer.Option(
            metavar="PERCENT", **bounds("--partner-share"), help="Partner's % of the box side."
        ),
    ] = 50,
    extras: Annotated[
        bool, typer.Option(help="Allow extras: side bets on the board (chouette extra).")
    ] = False,
    mandatory_extras: Annotated[
        bool,
        typer.Option(
            "--mandatory-extras/--no-mandatory-extras",
            help="A lone taker takes every extra offered, or drops the box's double after all.",
        ),
    ] = False,
    extra_redoubles: Annotated[
        bool,
        typer.Option(
            "--extra-redoubles/--no-extra-redoubles",
            help="An extra's cube may be redoubled (chouette double-extra).",
        ),
    ] = False,
    resignations: Annotated[
        house.Resignations,
        typer.Option(
            metavar=one_of(house.Resignations),
            help="The box resigns the whole board, or to some members (chouette resign).",
        ),
    ] = DEFAULT_RULES.resignations,
    captain_resigns: Annotated[
        house.CaptainResigns,
        typer.Option(
            metavar=one_of(house.CaptainResigns),
            help="A captain who resigns resigns the board, or alone while another member "
            "takes over the captain's place (chouette captain-resigns; the Czech rules).",
        ),
    ] = DEFAULT_RULES.captain_resigns,
    deals: Annotated[bool, typer.Option(help="Allow deals (--no-deals: no settlements).")] = True,
    consultation: Annotated[
        house.Consultation,
        typer.Option(
            metavar=one_of(house.Consultation),
            help="Who may talk over the team's plays: recorded and printed only.",
        ),
    ] = DEFAULT_RULES.consultation,
    proxies: Annotated[
        bool, typer.Option(help="Let a player away name a proxy (chouette proxy).")
    ] = False,
    split_at: Annotated[
        int | None,
        typer.Option(
            metavar="N|off",
            **bounds("--split-at"),
            parser=off_or_number("--split-at"),
            help="Say when more than N play in the line (chouette split).",
        ),
    ] = None,
    rounds: Annotated[
        int | None,
        typer.Option(
            metavar="N|off",
            **bounds("--rounds"),
            parser=off_or_number("--rounds"),
            help="The session ends after game N (a fair stop).",
        ),
    ] = None,
    until: Annotated[
        str | None,
        typer.Option(
            metavar="HH:MM|off",
            help="The first game started at or after HH:MM (local time) is the last round.",
        ),
    ] = None,
    credit_rule: Annotated[
        house.CreditRule,
        typer.Option(
            metavar=one_of(house.CreditRule),
            help="A double or answer past the player's credit (chouette credit): warned of, "
            "or refused.",
        ),
    ] = DEFAULT_RULES.credit_rule,
    table_stakes: Annotated[
        int | None,
        typer.Option(
            metavar="POINTS|off",
            **bounds("--table-stakes"),
            parser=off_or_number("--table-stakes"),
            help="Each player's bank: nobody loses more (all in), an empty bank sits out, and "
            "who cannot cover the starting cube is kept out of box and captain (Florida; "
            "chouette bank).",
        ),
    ] = None,
    waiting: Annotated[
        bool,
        typer.Option("--waiting", help="Start with fewer than two players: the others join later."),
    ] = False,
    new_player: Annotated[
        list[str] | None,
        typer.Option(
            "--new-player",
            metavar="NAME",
            help="NAME only looks like a player the ledger has, and is someone else (repeatable).",
        ),
    ] = None,
    night: Annotated[
        str | None,
        typer.Option(
            "--night",
            metavar="NAME",
            help="The club night it belongs to (default: today's local date, YYYY-MM-DD).",
            autocompletion=complete_night,
        ),
    ] = None,
    preset: Annotated[
        str | None,
        typer.Option(
            "--rules",
            metavar="PRESET",
            help="Start from a club rule set (chouette rules --presets lists them); the house "
            "rules given beside it change it.",
            autocompletion=lambda incomplete: complete_preset(incomplete),
        ),
    ] = None,
    like: Annotated[
        str | None,
        typer.Option(
            "--like",
            metavar="SESSION",
            help="Start as SESSION: its players in its line's order now, its house rules and "
            "stakes; players, --rules and options given beside it change them.",
            autocompletion=complete_session,
        ),
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Start a session: the players in order are the line.

    The first player is the box, the second the captain, the rest the crew (or --roll for a
    roll-off). Every house rule is an option; they are stored with the session. --rules
    starts from a published club rule set or the club's own preset, and any house rule
    given beside it changes it (the rules card says which). A game needs two players: with
    one, say --waiting (the others join with chouette join). --like SESSION starts "same
    as last week": that session's players (its line now, in order), house rules and
    stakes, each changed by what is given beside it (the players named replace its own).

    Examples:

    \b
        chouette new friday ann bob cat dan --stake 5.00
        chouette new saturday ann bob cat --roll --cubes single --player-stake cat=2.00
        chouette new tuesday ann bob cat dan --rules la --no-jacoby
        chouette new friday-2 --like friday --stake 2.00
    """
    import random

    from chouette.line import check_new_session_name, check_night_name, new_line
    from chouette.line import roll_off as roll_the_dice

    source = None if like is None else session_like(ctx, like)
    players_given = bool(players)
    if not players:
        players = [] if source is None else list(source[0].line.order)
    if not players:
        fail(said("name the players: the line (box, captain, crew), or --like SESSION"), 2)
    if len(players) < 2 and not waiting:
        fail(
            said(
                "a game needs a box and a captain, and only {player} is named: name the "
                "others, or give --waiting if they will join later",
                player=shown(players[0]),
            ),
            2,
        )
    players, spelled = known_spellings(ctx, players, new_player or [])
    cents = stake_option(stake, "--stake", said("the stake"))
    assert cents is not None
    own = parse_player_stakes(player_stake or [])
    chosen = {
        "cubes": cubes,
        "jacoby": jacoby,
        "beavers": beavers,
        "raccoons": raccoons,
        "auto_doubles": auto_doubles,
        "max_cube": max_cube,
        "starting_cube": starting_cube,
        "retention": retention,
        "acting_captain": acting_captain,
        "newcomer": newcomer,
        "box_doubles": box_doubles,
        "mandatory_beaver": mandatory_beaver,
        "partner_from": partner_from,
        "partner_pick": partner_pick,
        "partner_share": partner_share,
        "extras": extras,
        "consultation": consultation,
        "proxies": proxies,
        "split_at": split_at,
        "jacoby_scope": jacoby_scope,
        "beavers_by": beavers_by,
        "beaver_limit": beaver_limit,
        "auto_past_limit": auto_past_limit,
        "box_takes": box_takes,
        "box_takes_scope": box_takes_scope,
        "lone_taker_scope": lone_taker_scope,
        "mandatory_extras": mandatory_extras,
        "extra_redoubles": extra_redoubles,
        "resignations": resignations,
        "captain_resigns": captain_resigns,
        "deals": deals,
        "roll_off": roll_off,
        "partner_optional": partner_optional,
        "partner_run": partner_run,
        "buy_outs": buy_outs,
        "table_stakes": table_stakes,
        "credit_rule": credit_rule,
        "rounds": rounds,
        "until": until_option(until),
    }
    given = {option: value for option, value in chosen.items() if not given_by_default(ctx, option)}
    if source is not None and given_by_default(ctx, "stake"):
        cents = source[0].stake
    if source is not None and preset is None:
        from chouette.card import origin_like

        try:
            rules, origin = origin_like(source[0].rules, source[1], given)
        except ChouetteError as err:
            fail(
                said(
                    "{reason} (with the rules of {session})",
                    reason=err.said,
                    session=source[0].name,
                )
            )
    else:
        rules, origin = starting_rules(ctx, preset, given)
    rolled: list[Sayable] = []
    try:
        order = players
        if roll:
            seed = random.SystemRandom().randrange(1 << 32) if seed is None else seed
            result = roll_the_dice(players, random.Random(seed), rules.roll_off)
            rolled.append(ROLL_OFF[rules.roll_off](seed))
            rolled += [joined(["  ", told], "") for told in result.told()]
            order = list(result.order)
        line = new_line(order, rules)
        name = check_new_session_name(name)
        night = None if night is None else check_night_name(night)
    except ChouetteError as err:
        fail(err.said)
    try:  # --player-stake BOB=2.00 is bob's stake
        own = {resolve(p, line.order, "is not in the line"): c for p, c in own.items()}
    except ChouetteError as err:
        fail(said("{option}: {reason}", option="--player-stake", reason=err.said))
    if source is not None:  # the players' own stakes there, unless given here
        kept = {match(p, line.order): c for p, c in source[0].player_stakes.items()}
        own = {p: c for p, c in kept.items() if p is not None and c != cents} | own
    with ledger(ctx, write=True, create=True) as book:
        from db.commands import check_spellings

        check_spellings(book, line.order, [normal_name(p) for p in new_player or []])
        info = book.create_session(name, line, cents, rules, own, origin=origin, night=night)
    options(ctx).session = info.name  # a table prompt follows its own new session
    told: list[Sayable] = []
    if source is not None:
        told.append(
            said("Like {session}: its house rules and stakes.", session=source[0].name)
            if players_given
            else said(
                "Like {session}: its players, house rules and stakes.", session=source[0].name
            )
        )
    told += rolled
    told.append(session_said(info.name, cents, rules))
    if night is not None:
        told.append(said("Night: {night}.", night=info.night))
    if origin.preset is not None:
        from chouette.card import overrides_text

        changed = overrides_text(origin.overrides)
        told.append(
            said(
                "Rules from the preset {preset}, changed: {changed}. The table accepts them "
                "with chouette accept PLAYER... (chouette rules shows the card).",
                preset=origin.preset,
                changed=changed,
            )
            if changed
            else said(
                "Rules from the preset {preset}. The table accepts them with chouette accept "
                "PLAYER... (chouette rules shows the card).",
                preset=origin.preset,
            )
        )
    told += [
        said("{player} plays at {stake} a point.", player=player, stake=Money(amount))
        for player, amount in own.items()
    ]
    told.append(said("Line: {line}", line=info.line.describe()))
    more = {
        "stake_cents": info.stake,
        "player_stakes": dict(info.player_stakes),
        "night": info.night,
        "rules": info.rules.to_dict(),
    }
    told += partner_said(None, info)
    tell_line(info, told, as_json, more=more)
    for text in spelled:  # a name written as the ledger writes that player
        note(text)
    from chouette.line import uncovered

    if (why := uncovered(info.line, info.rules.starting_cube)) is not None:  # banks too small
        warn(why)


def known_spellings(
    ctx: typer.Context, players: list[str], confirmed: Sequence[str]
) -> "tuple[list[str], list[Said]]":
    """The players of a new session as the ledger writes them (:func:`chouette.names.as_known`:
    ``ZOË`` is ``Zoë``), read before the ledger is opened to write (a refusal creates
    nothing), and what to say of each written otherwise. A name that only looks like a
    known player's is refused unless ``--new-player`` names it."""
    from chouette.line import new_line
    from chouette.names import as_known
    from chouette.rules import HouseRules
    from db.names import player_names

    typed = [normal_name(p) for p in players]
    others = {normal_name(n) for n in confirmed}
    stray = [n for n in others if n not in typed]
    if stray:
        fail(
            said("--new-player {player}: not one of the players named", player=shown(stray[0])),
            2,
        )
    known = names_in(options(ctx), player_names)
    found = []
    try:
        new_line(typed, HouseRules())  # named twice, or alike: said of the names as typed
        for name in typed:
            found.append(as_known(name, known, confirm=f"--new-player {name}", new=name in others))
    except ChouetteError as err:
        fail(err.said)
    return [k.name for k in found], [k.said for k in found if k.said is not None]


def until_option(text: str | None) -> str | None:
    """``--until HH:MM`` as the moment it names: the next HH:MM, local time (exit 2 if it is
    no time of day); ``--until off``: no stop at a time."""
    if text is None or text.strip().casefold() in OFF_WORDS:
        return None
    from chouette.stop import next_at, parse_clock

    try:
        hour, minute = parse_clock(text)
    except ChouetteError as err:
        fail(err.said, 2)
    return next_at(clock().astimezone(), hour, minute).isoformat()


def session_like(ctx: typer.Context, name: str) -> "tuple[SessionInfo, Origin]":
    """The session ``new --like`` names and where its rules came from, read before the
    ledger is opened to write (a refusal creates nothing)."""
    try:
        with reads_for(options(ctx)) as book:
            info = book.session(normal_name(name))
            return info, book.origin(info)
    except ChouetteError as err:
        fail(said("{option}: {reason}", option="--like", reason=err.said))


def given_by_default(ctx: typer.Context, option: str) -> bool:
    """Whether the command's ``option`` was left at its default (not typed, nor from the
    environment)."""
    return getattr(ctx.get_parameter_source(option), "name", "DEFAULT") == "DEFAULT"


def starting_rules(
    ctx: typer.Context, preset: str | None, given: dict[str, Any]
) -> "tuple[HouseRules, Origin]":
    """A new session's house rules and where they came from: the preset ``preset`` names (a
    published one, else the club's own; ``club:NAME`` only the club's), with the options
    ``given`` put over it; without a preset, chouette's defaults with them. Read before the
    ledger is opened to write, so that a refusal creates no ledger."""
    from chouette.card import origin_of
    from chouette.presets import PUBLISHED, preset_key, published
    from chouette.rules import HouseRules

    try:
        if preset is None:
            return origin_of(HouseRules(), given)
        wanted = preset.removeprefix("club:")
        found = None if preset.startswith("club:") else published(wanted)
        club = {preset_key(p.name): p for p in club_presets(ctx)}
        if found is not None:
            if preset_key(wanted) in club:
                note(
                    said(
                        "the club's own preset {preset} has the name of a published one, which "
                        "is used: --rules club:{wanted} for the club's",
                        preset=club[preset_key(wanted)].name,
                        wanted=wanted,
                    )
                )
            return origin_of(HouseRules(), given, preset=found)
        saved = club.get(preset_key(wanted))
        if saved is None:
            names = ", ".join([p.name for p in PUBLISHED] + [p.name for p in club.values()])
            fail(
                said(
                    "--rules: there is no preset called {wanted} (presets: {names}; chouette "
                    "rules --presets lists them)",
                    wanted=wanted,
                    names=names,
                ),
                2,
            )
        return origin_of(
            HouseRules(),
            given,
            club=(saved.name, saved.rules, saved.saved_at, saved.saved_from),
        )
    except ChouetteError as err:
        fail(
            said("{reason} (with the preset {preset})", reason=err.said, preset=preset)
            if preset
            else err.said
        )


def club_presets(ctx: typer.Context) -> "list[ClubPreset]":
    """The club's own presets in the ledger (none when there is no ledger yet, or one that
    predates them)."""
    try:
        with reads_for(options(ctx)) as book:
            return book.club_presets()
    except ChouetteError:
        return []


def complete_preset(incomplete: str) -> list[str]:
    """The published presets' names (shell completion of --rules)."""
    from chouette.presets import PUBLISHED

    return [p.name for p in PUBLISHED if p.name.startswith(incomplete.casefold())]


@app.command(cls=Command)
def rules(
    ctx: typer.Context,
    presets: Annotated[
        bool, typer.Option("--presets", help="List the presets: published and the club's own.")
    ] = False,
    preset: Annotated[
        str | None,
        typer.Option(
            "--preset",
            metavar="NAME",
            help="One preset: its source, the words behind each option, its rules in words.",
            autocompletion=lambda incomplete: complete_preset(incomplete),
        ),
    ] = None,
    save: Annotated[
        str | None,
        typer.Option(
            "--save",
            metavar="NAME",
            help="Keep the session's rules as the club's own preset NAME (chouette new "
            "--rules NAME).",
        ),
    ] = None,
    replace: Annotated[
        bool, typer.Option("--replace", help="With --save: save over the club's preset NAME.")
    ] = False,
    forget: Annotated[
        str | None,
        typer.Option("--forget", metavar="NAME", help="Forget the club's own preset NAME."),
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """The session's rules card: every house rule in words, the stakes, the preset they came
    from and what was changed, who accepted them and when.

    --presets lists the club rule sets a session can start from (chouette new ...
    --rules PRESET), each citing its source; --preset NAME shows one. --save NAME keeps
    the session's rules as the club's own preset, for the next evening (a published
    preset's name is refused); --forget NAME forgets one.

    Examples:

    \b
        chouette rules
        chouette rules --presets
        chouette rules --preset la
        chouette rules --save tuesday
    """
    from chouette import card as cards

    if sum(map(bool, (presets, preset is not None, save is not None, forget is not None))) > 1:
        fail(said("one of --presets, --preset, --save and --forget at a time"), 2)
    if replace and save is None:
        fail(said("--replace goes with --save NAME"), 2)
    if save is not None or forget is not None:
        change_presets(ctx, save, forget, replace=replace, as_json=as_json)
        return
    if presets or preset is not None:  # the published ones need no ledger
        club = club_presets(ctx)
        if presets:
            emit_presets(club, as_json)
        else:
            assert preset is not None
            emit_preset(preset, club, as_json)
        return
    with reading(ctx) as book:
        card = book.card(current(book, ctx))
    if as_json:
        emit_json(cards.card_json(card))
    else:
        import shutil

        width = shutil.get_terminal_size().columns if sys.stdout.isatty() else None
        say("\n".join(cards.card_text(card, datetime.astimezone, width, hearer().words)))


def emit_presets(club: "list[ClubPreset]", as_json: bool) -> None:
    """``rules --presets``: the published presets, then the club's own."""
    from chouette import card as cards
    from chouette.presets import PUBLISHED, published

    if as_json:
        emit_json(
            {
                "presets": [cards.preset_json(p) for p in PUBLISHED]
                + [cards.club_preset_json(p) for p in club]
            }
        )
        return
    rows: list[list[Any]] = [
        [
            p.name,
            p.title,
            said("{source} (partly read)", source=p.source.cite())
            if p.source.partly_read
            else p.source.cite(),
            ", ".join(c.name for c in p.ours) or "-",
        ]
        for p in PUBLISHED
    ]
    for p in club:
        shadowed = published(p.name) is not None
        rows.append(
            [
                f"club:{p.name}" if shadowed else p.name,
                said(
                    "the club's own, saved {when} from {session}",
                    when=cards.when_text(p.saved_at, datetime.astimezone),
                    session=p.saved_from,
                ),
                "-",
                "-",
            ]
        )
    headings = [marked("preset"), marked("rules"), marked("source"), marked("chouette's choices")]
    emit((headings, rows))


def emit_preset(name: str, club: "list[ClubPreset]", as_json: bool) -> None:
    """``rules --preset NAME``: one preset, published or the club's own."""
    from chouette import card as cards
    from chouette.presets import preset_key, published

    found = None if name.startswith("club:") else published(name)
    if found is not None:
        if as_json:
            emit_json(cards.preset_json(found))
        else:
            say(joined(cards.preset_lines(found, hearer().words), "\n"))
        return
    saved = {preset_key(p.name): p for p in club}.get(preset_key(name.removeprefix("club:")))
    if saved is None:  # a preset's name is a usage error, as new --rules has it
        fail(
            said(
                "there is no preset called {wanted} (chouette rules --presets lists them)",
                wanted=name.removeprefix("club:"),
            ),
            2,
        )
    if as_json:
        emit_json(cards.club_preset_json(saved))
    else:
        lines = cards.club_preset_lines(saved, datetime.astimezone, hearer().words)
        say(joined(lines, "\n"))


def change_presets(
    ctx: typer.Context, save: str | None, forget: str | None, *, replace: bool, as_json: bool
) -> None:
    """``rules --save NAME`` and ``rules --forget NAME``: the club's own presets."""
    from chouette.card import club_preset_json
    from db.commands import forget_preset, save_preset

    with ledger(ctx, write=True) as book:
        if save is not None:
            info = current(book, ctx)
            kept = save_preset(book, info, save, replace=replace)
        else:
            assert forget is not None
            try:
                kept = forget_preset(book, forget)
            except ChouetteError as err:  # an unknown preset's name: a usage error, as --rules
                fail(err.said, 2)
    if as_json:
        emit_json({**club_preset_json(kept), "forgotten": forget is not None})
    elif forget is not None:
        say(
            said(
                "The club's preset {preset} is forgotten (the sessions started from it keep "
                "their rules).",
                preset=kept.name,
            )
        )
    else:
        say(
            said(
                "The rules of {session} are the club's preset {preset}: chouette new NAME "
                "PLAYER... --rules {quoted}",
                session=kept.saved_from,
                preset=kept.name,
                quoted=shlex.quote(kept.name),
            )
        )


PlayersArg = Annotated[
    list[str] | None,
    typer.Argument(
        metavar="PLAYER", help="The players who accept.", autocompletion=complete_player
    ),
]


@app.command(cls=Command)
def accept(
    ctx: typer.Context,
    players: PlayersArg = None,
    all: Annotated[
        bool, typer.Option("--all", help="Every seated player who has not accepted yet.")
    ] = False,
    as_json: JsonFlag = False,
) -> None:
    """The players named accept the session's rules, as chouette rules shows them.

    Recorded in the session's journal: who accepted which rules (and stake) when; undo
    takes it back. The rules card, the sheet and the HTML report list who accepted and who
    has not yet. (A member's answer to the box's resignation is chouette resign --accept.)

    Examples:

    \b
        chouette accept ann bob cat
        chouette accept --all
    """
    from chouette.card import accepted_text
    from db.commands import accept_rules

    if all and players:
        fail(said("name the players who accept or use --all, not both"), 2)
    if not all and not players:
        fail(said("name the players who accept the rules, or use --all for everyone seated"), 2)
    with ledger(ctx, write=True) as book:
        info = current(book, ctx, lock=True)
        names = list(players or [])
        if all:
            names = book.card(info).waiting
            if not names:
                fail(
                    said(
                        "everyone seated in {session} has accepted its rules already",
                        session=info.name,
                    )
                )
        names = accept_rules(book, info, names)
        card = book.card(info)
    if as_json:
        emit_json(
            {
                "session": info.name,
                "accepted": names,
                "at": book.now.isoformat(),
                "not_accepted": card.waiting,
            }
        )
        return
    say(said("{accepted} of {session}.", accepted=accepted_text(names), session=info.name))
    if card.waiting:
        say(said("Not yet accepted: {players}.", players=", ".join(card.waiting)))
    else:
        say(said("Everyone seated has accepted the rules."))


def say_notes(info: "SessionInfo") -> None:
    """What the scorer says of the line: a split due under --split-at, a player away who
    cannot follow the captain from the seat the rotation gave them."""
    from chouette.line import line_notes

    for text in line_notes(info.line, info.rules):
        note(said("{news}.", news=text))


def parse_player_stakes(items: Sequence[str]) -> dict[str, int]:
    from chouette.line import check_name

    stakes = {}
    for item in items:
        name, sep, amount = item.rpartition("=")
        if not sep or not name:
            fail(said("--player-stake {item}: write NAME=AMOUNT", item=repr(item)), 2)
        try:
            name = check_name(name)
        except ChouetteError as err:
            fail(said("{option}: {reason}", option=f"--player-stake {item!r}", reason=err.said), 2)
        cents = stake_option(
            amount, f"--player-stake {item!r}", said("{player}'s stake", player=name)
        )
        assert cents is not None
        stakes[name] = cents
    return stakes


def session_said(name: str, cents: int, rules: "HouseRules") -> "Said":
    """``Session friday: stake 5.00 a point; standard rules.``"""
    from chouette.card import summary

    return said(
        "Session {session}: stake {stake} a point; {rules}.",
        session=name,
        stake=Money(cents),
        rules=summary(rules),
    )


#: What a roll-off says first, by its dice (``new --roll``).
ROLL_OFF: "dict[str, Callable[[int], Said]]" = {
    "one-die": lambda seed: said("Roll-off (seed {seed}):", seed=seed),
    "two-dice": lambda seed: said("Roll-off (seed {seed}, two dice):", seed=seed),
    "four-dice": lambda seed: said("Roll-off (seed {seed}, four dice):", seed=seed),
}


def format_cents(cents: int) -> str:
    from chouette.money import format_money

    return format_money(cents)


def change_seat(ctx: typer.Context, name: str, act: str, as_json: bool) -> None:
    """``name`` leaves, sits out or sits in (:func:`db.commands.change_seat`)."""
    from db.commands import change_seat as changed

    with ledger(ctx, write=True) as book:
        info = current(book, ctx, lock=True)
        before = info.line
        name = resolve(normal_name(name), info.line.order, "is not in the line")
        info = changed(book, info, act, name)
    tell_line(info, [line_said(SEATS[act](name), info), *partner_said(before, info)], as_json)


#: What a change of seat says (``db.commands.SEAT_CHANGES``, in words).
SEATS: "dict[str, Callable[[str], Said]]" = {
    "leave": lambda name: said("{player} leaves", player=name),
    "sit-out": lambda name: said("{player} sits out", player=name),
    "sit-in": lambda name: said("{player} sits in", player=name),
}


def line_said(what: "Sayable", info: "SessionInfo") -> "Said":
    """``cat sits out. Line: ann | bob, dan``."""
    return said("{what}. Line: {line}", what=what, line=info.line.describe())


def partner_said(
    before: "Line | None", info: "SessionInfo", cause: "Sayable | None" = None
) -> "list[Sayable]":
    """A partnership that begins or ends with a change of the line, with its reason
    (``before``: the line before it; None: the session has just begun)."""
    from chouette.line import Line, partner_news

    return [
        said("{news}.", news=text)
        for text in partner_news(before or Line(()), info.line, info.rules, cause)
    ]


def tell_line(
    info: "SessionInfo",
    told: "Sequence[Sayable]",
    as_json: bool,
    *,
    notes: bool = True,
    more: "Mapping[str, Any] | None" = None,
) -> None:
    """What a command that changed the line said: in words, or with --json beside the line
    it leaves (:func:`chouette.report.line_json`) and ``more``; the scorer's notes on stderr
    either way."""
    from chouette.report import line_json

    if as_json:
        emit_json({**line_json(info.name, told, info.line), **(more or {})})
    else:
        for text in told:
            say(text)
    if notes:
        say_notes(info)


@app.command(cls=Command)
def join(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(metavar="NAME", help="The newcomer.")],
    stake: Annotated[
        str | None, typer.Option(metavar="AMOUNT", help="Their own stake per point.")
    ] = None,
    credit: Annotated[
        str | None,
        typer.Option(
            metavar="AMOUNT", help="How far below zero their balance may go (chouette credit)."
        ),
    ] = None,
    new_player: Annotated[
        bool,
        typer.Option(
            "--new-player",
            help="NAME only looks like a player the ledger has, and is someone else.",
        ),
    ] = False,
    as_json: JsonFlag = False,
) -> None:
    """A player joins the line.

    At the bottom, or in front of the last loser (--newcomer before-loser); between games.

    Examples:

    \b
        chouette join eve
        chouette join fred --stake 2.00
    """
    from chouette.line import check_new_name
    from chouette.report import joined_text

    try:
        name = check_new_name(name)
    except ChouetteError as err:
        fail(err.said)
    cents = stake_option(stake, "--stake", said("{player}'s stake", player=name))
    limit = credit_option(credit, name)
    from db.commands import join as joined

    with ledger(ctx, write=True) as book:
        seated = current(book, ctx, lock=True)
        info, spelled = joined(book, seated, name, cents, limit, new=new_player)
    name = match(name, info.line.order) or name  # as the ledger writes them (BOB: bob)
    joins = joined_text(name, info.player_stakes.get(name))
    if limit is not None:
        joins = said("{joins}, with a credit of {credit}", joins=joins, credit=Money(limit))
    tell_line(info, [line_said(joins, info), *partner_said(seated.line, info)], as_json)
    if spelled is not None:  # a name written as the ledger writes that player
        note(spelled)


@app.command(cls=Command)
def leave(
    ctx: typer.Context,
    name: Annotated[
        str, typer.Argument(metavar="NAME", help="Who leaves.", autocompletion=complete_player)
    ],
    as_json: JsonFlag = False,
) -> None:
    """A player leaves the line; their balance stays.

    Example:

    \b
        chouette leave dan
    """
    change_seat(ctx, name, "leave", as_json)


@app.command(cls=Command, name="sit-out")
def sit_out(
    ctx: typer.Context,
    name: Annotated[
        str, typer.Argument(metavar="NAME", help="Who sits out.", autocompletion=complete_player)
    ],
    as_json: JsonFlag = False,
) -> None:
    """A player sits out, keeping their place.

    Example:

    \b
        chouette sit-out cat
    """
    change_seat(ctx, name, "sit-out", as_json)


@app.command(cls=Command, name="sit-in")
def sit_in(
    ctx: typer.Context,
    name: Annotated[
        str, typer.Argument(metavar="NAME", help="Who sits in.", autocompletion=complete_player)
    ],
    as_json: JsonFlag = False,
) -> None:
    """A player who sat out plays again, from their place.

    A place ahead of the captain would hand them the box, the partnership or the captaincy,
    which change hands only by rotation: they rejoin where a newcomer sits instead. With no
    game played since they sat out, nothing was handed on: the line is as it was.

    Example:

    \b
        chouette sit-in cat
    """
    change_seat(ctx, name, "sit-in", as_json)


class WonBy(StrEnum):
    """Who the table declares the winner of a deal at 0 with the captain."""

    box = "box"
    captain = "captain"


class Follows(StrEnum):
    captain = "captain"


@app.command(cls=Command)
def partner(
    ctx: typer.Context,
    name: Annotated[
        str | None,
        typer.Argument(metavar="NAME", help="The box's partner.", autocompletion=complete_player),
    ] = None,
    none: Annotated[bool, typer.Option("--none", help="The box plays alone.")] = False,
    as_json: JsonFlag = False,
) -> None:
    """The box names its partner, or plays alone, for its run; between games.

    Under the house rule --partner-pick box the box names its partner (any seated member
    of the crew); under --partner-optional, or --partner-pick box, --none has the box play
    alone until the box changes hands.

    Examples:

    \b
        chouette partner cat
        chouette partner --none
    """
    from chouette.line import choose_partner

    if (name is None) == (not none):
        fail(said("give NAME, or --none for the box to play alone (not both)"), 2)

    def plan(info: "SessionInfo") -> "LinePlan":
        before, rules = info.line, info.rules
        chosen = None if name is None else resolve(normal_name(name), before.order,
                                                    "is not in the line")  # fmt: skip
        box = before.box
        if box is None:
            told = (
                said("the box plays alone")
                if chosen is None
                else said("{partner} is the box's partner", partner=chosen)
            )
        else:
            told = (
                said("{box} plays alone", box=box)
                if chosen is None
                else said("{partner} is {box}'s partner", partner=chosen, box=box)
            )
        act = ["partner", *([chosen] if chosen else [])]
        return told, lambda line: choose_partner(line, chosen, rules), act

    change_the_line(ctx, plan, as_json, named=True)


def credit_option(text: str | None, name: str) -> int | None:
    """A credit given on the command line: an amount, 0 or more."""
    cents = money_option(text, said("{player}'s credit", player=name))
    if cents is not None and cents < 0:
        fail(
            said(
                "{player}'s credit: a credit is 0 or more, not {amount}",
                player=name,
                amount=Money(cents),
            )
        )
    return cents


@app.command(cls=Command)
def credit(
    ctx: typer.Context,
    name: Annotated[
        str, typer.Argument(metavar="NAME", help="Whose credit.", autocompletion=complete_player)
    ],
    amount: Annotated[
        str, typer.Argument(metavar="AMOUNT", help="How far below zero their balance may go.")
    ],
    as_json: JsonFlag = False,
) -> None:
    """Set how far below zero a player's balance may go (0: no limit); between games.

    A double or an answer that would let the game take its player past their credit (their
    balance less the most the game can take from them, cube by cube: chouette status shows
    it) is warned of, or refused under the house rule --credit-rule refuse. Also at join
    (chouette join NAME --credit AMOUNT).

    Example:

    \b
        chouette credit dan 50.00
    """
    from chouette.line import set_credit

    cents = credit_option(amount, name)
    assert cents is not None

    def plan(info: "SessionInfo") -> "LinePlan":
        known = [*info.line.order, *(p for p, _ in info.line.credits)]
        who = resolve(normal_name(name), known, "is not in the line")
        told = (
            said("{player} has no credit", player=who)
            if cents == 0
            else said("{player}'s credit is {credit}", player=who, credit=Money(cents))
        )
        act = ["credit", who, str(cents)]
        return told, lambda line: set_credit(line, who, cents, info.rules), act

    change_the_line(ctx, plan, as_json)


@app.command(cls=Command)
def bank(
    ctx: typer.Context,
    name: Annotated[
        str,
        typer.Argument(metavar="NAME", help="Whose bank.", autocompletion=complete_player),
    ],
    points: Annotated[
        int,
        typer.Argument(metavar="POINTS", **bounds("bank POINTS"), help="Their bank anew."),
    ],
    as_json: JsonFlag = False,
) -> None:
    """Set a player's bank anew: a re-entry, or another buy-in; between games.

    Under the house rule --table-stakes (the Florida Chouette Challenge) every player starts
    with that bank of points and loses no more than it holds (all in); a player whose bank
    is empty sits out until it is set anew, and plays again from the bottom of the line.

    Example:

    \b
        chouette bank dan 50
    """
    from chouette.line import set_bank

    def plan(info: "SessionInfo") -> "LinePlan":
        known = [*info.line.order, *(p for p, _ in info.line.banks)]
        who = resolve(normal_name(name), known, "has not played in this session")
        act = ["bank", who, str(points)]
        return (
            said("{player}'s bank is {points}", player=who, points=points),
            lambda line: set_bank(line, who, points, info.rules),
            act,
        )

    change_the_line(ctx, plan, as_json)


#: What a change of the line between games is: what the scorer says of it, the change, and
#: how a correction of an earlier game makes it again (the journal's ``act``).
LinePlan = tuple["Sayable", "Callable[[Line], Line]", list[str]]


def change_the_line(
    ctx: typer.Context,
    plan: "Callable[[SessionInfo], LinePlan]",
    as_json: bool,
    *,
    named: bool = False,
) -> None:
    """A change of the line between games, as one transaction (:func:`db.commands.change_line`),
    planned on the session as it stands; then the line as it is now, a partnership it began
    or ended (``named``: the box named its partner, as said: only who stops being one), and
    any notes."""
    from chouette.line import partner_ended
    from db.commands import change_line

    with ledger(ctx, write=True) as book:
        info = current(book, ctx, lock=True)
        before = info.line
        told, change, act = plan(info)
        info = change_line(book, info, change, told, act=act)
    said_now: list[Sayable] = [line_said(told, info)]
    if named:
        ended = partner_ended(before, info.line, info.rules)
        if ended is not None:
            said_now.append(said("{news}.", news=ended))
    else:
        said_now += partner_said(before, info)
    tell_line(info, said_now, as_json)


@app.command(cls=Command)
def proxy(
    ctx: typer.Context,
    member: Annotated[
        str,
        typer.Argument(metavar="MEMBER", help="The player away.", autocompletion=complete_player),
    ],
    by: Annotated[
        str | None, typer.Option("--by", metavar="NAME", help="Who decides for them.")
    ] = None,
    follows: Annotated[
        Follows | None,
        typer.Option("--follows", metavar="captain", help="Their cube follows the captain's."),
    ] = None,
    withdraw: Annotated[
        bool, typer.Option("--withdraw", help="They are back: the proxy ends.")
    ] = False,
    as_json: JsonFlag = False,
) -> None:
    """A player away from the table plays by proxy, from the next game until withdrawn.

    With --by NAME, NAME decides for them and the scorer notes it; with --follows captain,
    their cube follows the captain's (doubled with it, answered as the captain answers).
    Between games, under the house rule --proxies.

    Examples:

    \b
        chouette proxy dan --by ann
        chouette proxy cat --follows captain
        chouette proxy cat --withdraw
    """
    from chouette.line import FOLLOWS, Line, away_text, name_proxy, withdraw_proxy
    from db.commands import change_line as changed

    if [by is not None, follows is not None, withdraw].count(True) != 1:
        fail(said("give one of --by NAME, --follows captain or --withdraw"), 2)
    with ledger(ctx, write=True) as book:
        info = current(book, ctx, lock=True)
        rules, seated = info.rules, info.line.order
        name = resolve(normal_name(member), seated, "is not in the line")
        deputy = FOLLOWS if by is None else match(normal_name(by), seated) or normal_name(by)
        told = (
            said("{player} is back", player=name)
            if withdraw
            else said("{player} is away: {how}", player=name, how=away_text(name, deputy))
        )

        def change(line: Line) -> Line:
            if withdraw:
                return withdraw_proxy(line, name)
            return name_proxy(line, name, deputy, rules)

        act = ["withdraw", name] if withdraw else ["proxy", name, *([deputy] if by else [])]
        info = changed(book, info, change, str(told), act=act)
    tell_line(info, [line_said(told, info)], as_json, notes=False)


@app.command(cls=Command)
def split(
    ctx: typer.Context,
    name: Annotated[
        str, typer.Argument(metavar="NEW_SESSION", help="The new table's session, e.g. friday-2.")
    ],
    as_json: JsonFlag = False,
) -> None:
    """Split the table in two between games: the bottom of the line forms a new session.

    The bottom half of the players (rounded down: the first table keeps the odd one) moves
    to NEW_SESSION in its order, with the same stake and house rules and their own stakes;
    balances stay where they were earned. Undo at either table takes the split back while
    nothing has happened at either since.

    Examples:

    \b
        chouette split friday-2
        chouette --session friday-2 status
    """
    from db.commands import split as split_table

    with ledger(ctx, write=True) as book:
        info = current(book, ctx, lock=True)
        first, new = split_table(book, info, name)
    from chouette.card import summary

    told = [
        said(
            "Split {session}: {players} form {new} (stake {stake} a point; {rules}).",
            session=first.name,
            players=", ".join(new.line.order),
            new=new.name,
            stake=Money(new.stake),
            rules=summary(new.rules),
        ),
        said("{session}: {line}", session=first.name, line=first.line.describe()),
        *partner_said(info.line, first),
        said("{session}: {line}", session=new.name, line=new.line.describe()),
        *partner_said(None, new),
        said(
            "Balances stay where they were earned; play the new table with --session {session}.",
            session=new.name,
        ),
    ]
    if as_json:
        from chouette.report import line_json, line_keys

        table = {"session": new.name, **line_keys(new.line)}
        emit_json({**line_json(first.name, told, first.line), "new_table": table})
        return
    for text in told:
        say(text)


@app.command(cls=Command)
def sessions(
    ctx: typer.Context,
    as_json: JsonFlag = False,
    rename: Annotated[
        tuple[str, str] | None,
        typer.Option(
            "--rename",
            metavar="OLD NEW",
            help="Call session OLD by the name NEW.",
            autocompletion=complete_session,
        ),
    ] = None,
    delete: Annotated[
        str | None,
        typer.Option(
            "--delete",
            metavar="NAME",
            help="Delete a session with nothing booked (no game, no payment).",
            autocompletion=complete_session,
        ),
    ] = None,
) -> None:
    """List the sessions (* marks the current one); rename or delete one.

    A rename is noted in the session's journal (undo takes it back). Only a session with
    nothing booked can be deleted: bookings are the ledger's record (undo them first).

    Examples:

    \b
        chouette sessions
        chouette --session friday status
        chouette sessions --rename friday "friday 21 nov"
        chouette sessions --delete test
    """
    from chouette.report import sessions_json, sessions_rows

    if rename is not None and delete is not None:
        fail(said("--rename or --delete, not both"), 2)
    if rename is not None or delete is not None:
        from db.commands import delete_session, rename_session

        with ledger(ctx, write=True) as book:
            if rename is not None:
                renamed = rename_session(book, *rename)
                told = said(
                    "Session {old} is now called {new}.",
                    old=normal_name(rename[0]),
                    new=renamed.name,
                )
            else:
                gone = delete_session(book, delete or "")
                told = said("Session {session} is deleted.", session=gone.name)
        if as_json:
            emit_json({"ok": True, "message": str(told)})
        else:
            say(told)
        return
    with reading(ctx) as book:
        found = book.sessions()
    if as_json:
        emit_json(sessions_json(found))
    elif not found:
        say(said("No sessions yet: start one with `chouette new NAME PLAYER...`."))
    else:
        emit(sessions_rows(found, datetime.astimezone))


@app.command(cls=Command)
def where(ctx: typer.Context, as_json: JsonFlag = False) -> None:
    """Where chouette keeps things: the ledger, the session and the settings in use.

    The ledger (and what chose it: --db, CHOUETTE_DB or the default), whether it exists,
    the session commands use, and the environment variables chouette reads.

    Examples:

    \b
        chouette where
        chouette --db club.db where --json
    """
    from db.engine import where as shown_ledger

    opts = options(ctx)
    source = (
        "CHOUETTE_DB"
        if opts.db is not None and opts.db == os.environ.get("CHOUETTE_DB")
        else "--db"
        if opts.db is not None
        else "default"
    )
    url = ledger_url(opts)
    place = shown_ledger(url)
    file = Path(place) if url.startswith("sqlite") else None
    exists = file.exists() if file is not None else None
    named = session_named(opts)
    session, why = named, None  # why: what chose the session, or why there is none
    if exists is False:
        why = said("no ledger yet: `chouette new NAME PLAYER...` starts one")
    else:
        try:
            with ledger_for(opts) as book:
                session = book.current_name() if named is None else book.session(named).name
            why = said("the one used last") if named is None else said("from --session")
        except ChouetteError as err:
            why = (
                err.said if named is None else said("from --session, but {reason}", reason=err.said)
            )
    settings = {
        name: shown_setting(name, os.environ[name]) for name in ENVIRONMENT if os.environ.get(name)
    }
    if as_json:
        emit_json(
            {
                "ledger": place,
                "ledger_from": source,
                "exists": exists,
                "session": session,
                "session_from": None if session is None else "--session" if named else "last",
                "data_home": str(data_home()),
                "history": str(history_file()),
                "environment": settings,
            }
        )
        return
    whence = said("default") if source == "default" else source
    if exists is None:
        say(said("Ledger:   {place}, from {source}", place=place, source=whence))
    elif exists:
        say(said("Ledger:   {place} (exists), from {source}", place=place, source=whence))
    else:
        say(said("Ledger:   {place} (not created yet), from {source}", place=place, source=whence))
    chosen = session or said("(none)")
    say(
        said("Session:  {session} ({why})", session=chosen, why=why)
        if why
        else said("Session:  {session}", session=chosen)
    )
    say(said("Data:     {folder}", folder=str(data_home())))
    say(said("History:  {file} (the table prompt's)", file=str(history_file())))
    given = ", ".join(f"{name}={value}" for name, value in settings.items())
    read = ", ".join(ENVIRONMENT)
    say(
        said("Settings: {settings} (the environment)", settings=given)
        if given
        else said("Settings: none (it reads {names})", names=read)
    )


#: The environment variables chouette reads (``where`` lists those set; a PIN is never shown).
ENVIRONMENT = (
    "CHOUETTE_DB",
    "CHOUETTE_PIN",
    "CHOUETTE_NOW",
    "CHOUETTE_LOCK_TIMEOUT",
    "NO_COLOR",
    "FORCE_COLOR",
)


def shown_setting(name: str, value: str) -> str:
    """An environment variable's value as ``where`` shows it: a PIN as ``set``, a ledger's
    URL without its password (as the messages name the ledger)."""
    from db.urls import shown_url

    if name == "CHOUETTE_PIN":
        return "set"
    return shown_url(value) if name == "CHOUETTE_DB" else value


# ---------------------------------------------------------------- playing a game


Who = Callable[[str], str]  # the player a typed name means (BOB is bob)


def play(
    ctx: typer.Context,
    make: "Callable[[Game | None, Who], Sequence[Event]]",
    expect: int | None,
    as_json: bool = False,
    usage: "Callable[[SessionInfo], str | None] | None" = None,
) -> None:
    """Apply one command's events to the current game, as one transaction. ``make`` builds
    them, with the players' names as typed turned into their names in the session.
    ``usage`` finds a command typed wrong for the session's rules (a usage error, exit 2)."""
    from db.commands import play as played_now

    with ledger(ctx, write=True) as book:
        info = current(book, ctx, lock=True)
        mistake = usage(info) if usage is not None else None
        if mistake is not None:
            fail(mistake, 2)
        live = book.live(info)  # the game is read once, for the events and for playing them

        def who(typed: str) -> str:
            return resolve(
                normal_name(typed), info.line.order, said("{player} is not playing this game")
            )

        try:
            events = make(live.game, who)
        except ChouetteError as err:
            fail(err.said)
        before = live.game
        played = played_now(book, info, events, expect, issued(options(ctx)), live=live)
    options(ctx).booked = played.outcome is not None
    report_played(played, before, as_json)


def report_played(played: "Played", before: "Game | None", as_json: bool) -> None:
    from chouette.report import booked_rows, describe_events, played_json

    for notice in played.notices:
        note(notice)
    if as_json:
        number, outcome = played.number, played.outcome
        emit_json(played_json(played.session.name, number, before, played.game, outcome))
        return
    for text in describe_events(played.number, before, played.game):
        say(text)
    if played.outcome is not None:
        from chouette.report import why_lines

        emit(booked_rows(played.outcome))
        say(said("Next line: {line}", line=played.outcome.next_line.describe()))
        for text in why_lines(played.outcome.why):
            say(text)


def one(event: "Event") -> "Callable[[Game | None, Who], Sequence[Event]]":
    return lambda _game, _who: [event]


@app.command(cls=Command, name="auto-double")
def auto_double(
    ctx: typer.Context,
    box_chooses: Annotated[
        bool,
        typer.Option(
            "--box-chooses",
            help="Past the limit, the box chooses to play it (--auto-past-limit box-choice).",
        ),
    ] = False,
    game: GameOption = None,
    as_json: JsonFlag = False,
) -> None:
    """A tied opening roll: every cube doubles.

    The cubes stay centred. Past the automatic-double limit the roll changes nothing, unless
    the house rule --auto-past-limit says otherwise: box-choice doubles the cubes if the box
    chooses it (--box-chooses); carry-over carries the double over to the next game, where
    the box accepts or declines it (chouette carry).

    Examples:

    \b
        chouette auto-double
        chouette auto-double --box-chooses
    """
    from chouette.game import AutoDouble

    play(ctx, one(AutoDouble(box_chose=box_chooses)), game, as_json)


class CarryAnswer(StrEnum):
    accept = "accept"
    decline = "decline"


@app.command(cls=Command)
def carry(
    ctx: typer.Context,
    answer: Annotated[
        CarryAnswer,
        typer.Argument(metavar="ANSWER", help="The box's answer: accept or decline."),
    ],
    game: GameOption = None,
    as_json: JsonFlag = False,
) -> None:
    """The box accepts or declines the automatic doubles carried over.

    Under --auto-past-limit carry-over, a tie past the limit carries an automatic double over
    to the next game (several may build up). The box answers them before anything else in
    that game: accepted, every cube starts doubled that many times, centred; declined, they
    are gone.

    Examples:

    \b
        chouette carry accept
        chouette carry decline
    """
    from chouette.game import Carry

    play(ctx, one(Carry(answer == CarryAnswer.accept)), game, as_json)


class By(StrEnum):
    box = "box"
    member = "member"
    team = "team"


@app.command(cls=Command)
def double(
    ctx: typer.Context,
    members: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="MEMBER", help="Whose cubes are turned.", autocompletion=complete_player
        ),
    ] = None,
    by: Annotated[
        By, typer.Option("--by", metavar="box|member|team", help="Who doubles.")
    ] = By.box,
    position: PositionOption = None,
    game: GameOption = None,
    as_json: JsonFlag = False,
) -> None:
    """The box doubles MEMBERS (or --by member / team).

    Without --by, the box doubles the members named. With --by member, that one member
    doubles the box on their own cube. With --by team (single-cube play), the captain turns
    the team's one cube. --position keeps the board for chouette review (the answers to the
    double share it).

    Examples:

    \b
        chouette double bob cat
        chouette double dan --by member
        chouette double --by team
        chouette double bob --position 4HPwATDgc/ABMA
    """
    from chouette.game import Double

    board = position_of(position)

    def unnamed(info: "SessionInfo") -> str | None:
        """The box doubles the members it names, but in single-cube play (a usage error)."""
        if by is By.box and not members and info.rules.cubes != "single":
            return "name the members the box doubles (chouette double bob cat)"
        return None

    play(
        ctx,
        lambda _game, who: [Double(by.value, tuple(who(m) for m in members or ()), board)],
        game,
        as_json,
        usage=unnamed,
    )


#: An answer given with no member named, by its act.
UNNAMED_ANSWER = {
    "take": said("name the member whose cube you take, or use --all"),
    "drop": said("name the member whose cube you drop, or use --all"),
    "beaver": said("name the member whose cube you beaver, or use --all"),
    "raccoon": said("name the member whose cube you raccoon, or use --all"),
}
#: ``--all`` with no double to answer, by the act.
NO_DOUBLE = {
    "take": said("there is no pending double to take"),
    "drop": said("there is no pending double to drop"),
}


def answer(
    ctx: typer.Context,
    act: str,
    member: str | None,
    every: bool,
    game: int | None,
    as_json: bool,
    position: str | None = None,
) -> None:
    from dataclasses import replace

    from chouette.game import Answer, answer_all

    if every and member is not None:
        fail(said("name a member or use --all, not both"), 2)
    if not every and member is None:
        fail(UNNAMED_ANSWER[act], 2)
    board = position_of(position)

    def make(live: "Game | None", who: Who) -> "Sequence[Event]":
        if every:
            if live is None:
                raise ChouetteError(NO_DOUBLE[act])
            found = answer_all(live, act)  # type: ignore[arg-type]
            return [replace(e, position=board) if isinstance(e, Answer) else e for e in found]
        return [Answer(act, who(member or ""), board)]  # type: ignore[arg-type]

    play(ctx, make, game, as_json)


MemberArg = Annotated[
    str | None,
    typer.Argument(
        metavar="MEMBER",
        help="The member whose cube is answered.",
        autocompletion=complete_player,
    ),
]
EveryFlag = Annotated[
    bool, typer.Option("--all", help="Answer every pending double (one side's at a time).")
]


@app.command(cls=Command)
def take(
    ctx: typer.Context,
    member: MemberArg = None,
    all: EveryFlag = False,
    position: PositionOption = None,
    game: GameOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Take the pending double, beaver or raccoon.

    Who answers follows from who doubled; MEMBER names the pair (--all: every pending double,
    when they all wait on one side: the box, or the members).

    Examples:

    \b
        chouette take bob
        chouette take --all
    """
    answer(ctx, "take", member, all, game, as_json, position)


@app.command(cls=Command)
def drop(
    ctx: typer.Context,
    member: MemberArg = None,
    all: EveryFlag = False,
    position: PositionOption = None,
    game: GameOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Refuse the pending double: the refuser pays.

    The refuser pays the cube's value before the double and that pair is over.

    Examples:

    \b
        chouette drop cat
        chouette drop --all
    """
    answer(ctx, "drop", member, all, game, as_json, position)


@app.command(cls=Command)
def beaver(
    ctx: typer.Context,
    member: Annotated[
        str, typer.Argument(metavar="MEMBER", help="The pair.", autocompletion=complete_player)
    ],
    position: PositionOption = None,
    game: GameOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Take a double and turn the cube straight back.

    The beaverer keeps the cube; the doubler may take, drop or raccoon.

    Example:

    \b
        chouette beaver bob
    """
    answer(ctx, "beaver", member, False, game, as_json, position)


@app.command(cls=Command)
def raccoon(
    ctx: typer.Context,
    member: Annotated[
        str, typer.Argument(metavar="MEMBER", help="The pair.", autocompletion=complete_player)
    ],
    position: PositionOption = None,
    game: GameOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Answer a beaver by turning the cube again.

    Example:

    \b
        chouette raccoon bob
    """
    answer(ctx, "raccoon", member, False, game, as_json, position)


@app.command(cls=Command, context_settings={"ignore_unknown_options": True})
def deal(
    ctx: typer.Context,
    member: Annotated[
        str,
        typer.Argument(
            metavar="MEMBER",
            help="The member who settles with the box.",
            autocompletion=complete_player,
        ),
    ],
    points: Annotated[
        int,
        typer.Argument(
            metavar="POINTS",
            **bounds("deal POINTS"),
            help="Points to the member (negative: to the box).",
        ),
    ],
    won_by: Annotated[
        WonBy | None,
        typer.Option(
            "--won-by",
            metavar="box|captain",
            help="Who won a deal at 0 with the captain, as the table declares it.",
        ),
    ] = None,
    game: GameOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Box and MEMBER settle their pair at POINTS.

    Positive POINTS go to the member, negative to the box; that pair is over. Under the
    captain rule a deal at 0 with the captain is no win for the box, so the captain takes
    the box; a club that declares a winner says it with --won-by box (the box stays) or
    --won-by captain.

    Examples:

    \b
        chouette deal bob 1
        chouette deal cat -2
        chouette deal bob 0 --won-by box
    """
    from chouette.game import Deal
    from chouette.limits import check_points

    try:
        check_points(points, f"deal {member}")
    except ChouetteError as err:
        fail(err.said)
    declared = None if won_by is None else won_by.value
    play(ctx, lambda _game, who: [Deal(who(member), points, declared)], game, as_json)


@app.command(cls=Command)
def extra(
    ctx: typer.Context,
    team_side: Annotated[
        str,
        typer.Argument(
            metavar="TEAM_SIDE",
            help="The member betting on the team.",
            autocompletion=complete_player,
        ),
    ],
    box_side: Annotated[
        str,
        typer.Argument(
            metavar="BOX_SIDE",
            help="Who bets on the box: a teammate, the box's partner or box.",
            autocompletion=complete_player,
        ),
    ],
    points: Annotated[
        int,
        typer.Option(
            metavar="N",
            **bounds("extra --points"),
            help="Its worth: N × 1, 2 or 3 by the board's level.",
        ),
    ] = 2,
    premium: Annotated[
        int | None,
        typer.Option(
            metavar="P",
            **bounds("extra --premium"),
            help="What BOX_SIDE pays TEAM_SIDE for it (default: half of N).",
        ),
    ] = None,
    game: GameOption = None,
    as_json: JsonFlag = False,
) -> None:
    """An extra: a side bet on the board between a member and a teammate or the box.

    At the board's end the side that lost pays N × 1, 2 or 3 by the board's level, and
    BOX_SIDE pays TEAM_SIDE the premium for the extra; if the board never ends (every pair
    over before it) the extra is void. At the lower of the two players' stakes.

    Examples:

    \b
        chouette extra bob cat
        chouette extra dan box --points 1 --premium 0
    """
    from chouette.game import Extra

    paid = points // 2 if premium is None else premium

    def make(_game: "Game | None", who: Who) -> "Sequence[Event]":
        box = "box" if normal_name(box_side).casefold() == "box" else who(box_side)
        return [Extra(who(team_side), box, points, paid)]

    play(ctx, make, game, as_json)


TeamSideArg = Annotated[
    str,
    typer.Argument(
        metavar="TEAM_SIDE", help="The member who took the extra.", autocompletion=complete_player
    ),
]
BoxSideArg = Annotated[
    str,
    typer.Argument(
        metavar="BOX_SIDE",
        help="Who gave it: a teammate, the box's partner or box.",
        autocompletion=complete_player,
    ),
]


def extra_event(
    ctx: typer.Context, act: str, team_side: str, box_side: str, game: int | None, as_json: bool
) -> None:
    from chouette.game import ExtraAnswer, ExtraDouble

    def make(_game: "Game | None", who: Who) -> "Sequence[Event]":
        box = "box" if normal_name(box_side).casefold() == "box" else who(box_side)
        if act == "double":
            return [ExtraDouble(who(team_side), box)]
        return [ExtraAnswer("take" if act == "take" else "drop", who(team_side), box)]

    play(ctx, make, game, as_json)


@app.command(cls=Command, name="double-extra")
def double_extra(
    ctx: typer.Context,
    team_side: TeamSideArg,
    box_side: BoxSideArg,
    game: GameOption = None,
    as_json: JsonFlag = False,
) -> None:
    """The holder of an extra's cube redoubles it (house rule --extra-redoubles).

    The extra between TEAM_SIDE and BOX_SIDE (the last one given between them): its cube is
    held by TEAM_SIDE, who took the extra, until a redouble is taken. The other side
    answers with take-extra or drop-extra.

    Example:

    \b
        chouette double-extra bob cat
    """
    extra_event(ctx, "double", team_side, box_side, game, as_json)


@app.command(cls=Command, name="take-extra")
def take_extra(
    ctx: typer.Context,
    team_side: TeamSideArg,
    box_side: BoxSideArg,
    game: GameOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Take the redouble of an extra: it is worth twice as much, and the taker holds its cube.

    Example:

    \b
        chouette take-extra bob cat
    """
    extra_event(ctx, "take", team_side, box_side, game, as_json)


@app.command(cls=Command, name="drop-extra")
def drop_extra(
    ctx: typer.Context,
    team_side: TeamSideArg,
    box_side: BoxSideArg,
    game: GameOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Drop the redouble of an extra: the dropper pays its worth before the double.

    The extra is settled there and then (its premium stands), whatever the board does.

    Example:

    \b
        chouette drop-extra bob cat
    """
    extra_event(ctx, "drop", team_side, box_side, game, as_json)


@app.command(cls=Command)
def resign(
    ctx: typer.Context,
    members: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="MEMBER",
            help="The members it is offered to (none: every member still in); with --accept "
            "or --refuse, the members who answer.",
            autocompletion=complete_player,
        ),
    ] = None,
    gammon: Annotated[bool, typer.Option("--gammon", help="Resigns a gammon.")] = False,
    backgammon: Annotated[bool, typer.Option("--backgammon", help="Resigns a backgammon.")] = False,
    accept: Annotated[
        bool, typer.Option("--accept", help="MEMBER... accept the box's resignation.")
    ] = False,
    refuse: Annotated[
        bool, typer.Option("--refuse", help="MEMBER... refuse it and play on.")
    ] = False,
    all: Annotated[
        bool,
        typer.Option(
            "--all", help="With --accept or --refuse: every member the resignation waits on."
        ),
    ] = False,
    game: GameOption = None,
    as_json: JsonFlag = False,
) -> None:
    """The box offers to resign to some members (house rule --resignations per-member), and
    each answers.

    The box offers: chouette resign [MEMBER...] [--gammon|--backgammon]. Each member
    answers with chouette resign --accept MEMBER (their pair is paid as the board's end at
    that level would pay it, a centred cube a single under Jacoby) or chouette resign
    --refuse MEMBER (they play on, the board going on for them); --all answers for everyone
    asked. Offered to every member still in and accepted by them all, it ends the board as
    `end team --resigned` would.

    Examples:

    \b
        chouette resign --gammon
        chouette resign bob cat
        chouette resign --accept bob
        chouette resign --refuse --all
    """
    from chouette.game import Resign, ResignAnswer

    if gammon and backgammon:
        fail(said("--gammon or --backgammon, not both"), 2)
    if accept and refuse:
        fail(said("--accept or --refuse, not both"), 2)
    if accept or refuse:
        verb = "--accept" if accept else "--refuse"
        if gammon or backgammon:
            fail(
                said(
                    "{option} answers the resignation offered, at its level: leave out "
                    "--gammon and --backgammon",
                    option=verb,
                ),
                2,
            )
        if all and members:
            fail(said("name the members who answer or use --all, not both"), 2)
        if not all and not members:
            fail(
                said("name the members who answer, or use --all to accept for everyone asked")
                if accept
                else said("name the members who answer, or use --all to refuse for everyone asked"),
                2,
            )

        def answers(live: "Game | None", who: Who) -> "Sequence[Event]":
            if not all:
                return [ResignAnswer(accept, who(m)) for m in members or ()]
            waiting = [] if live is None else list(live.resigning)
            if not waiting:
                raise ChouetteError(
                    said("there is no resignation to accept")
                    if accept
                    else said("there is no resignation to refuse")
                )
            return [ResignAnswer(accept, m) for m in waiting]

        play(ctx, answers, game, as_json)
        return
    if all:
        fail(said("--all answers for everyone asked, with --accept or --refuse; the box offers to "
             "every member still in when it names none"), 2)  # fmt: skip
    kind: Kind = "backgammon" if backgammon else "gammon" if gammon else "single"
    play(
        ctx, lambda _game, who: [Resign(kind, tuple(who(m) for m in members or ()))], game, as_json
    )


@app.command(cls=Command, name="captain-resigns")
def captain_resigns_cmd(
    ctx: typer.Context,
    successor: Annotated[
        str,
        typer.Argument(
            metavar="MEMBER",
            help="The member who takes over the captain's place.",
            autocompletion=complete_player,
        ),
    ],
    gammon: Annotated[bool, typer.Option("--gammon", help="Resigns a gammon.")] = False,
    backgammon: Annotated[bool, typer.Option("--backgammon", help="Resigns a backgammon.")] = False,
    as_json: JsonFlag = False,
    game: GameOption = None,
) -> None:
    """The captain resigns their own game; MEMBER takes over the captain's place.

    Under the house rule --captain-resigns takeover (the Czech rules): the captain's pair
    is paid as a resignation at the level given (a single unless --gammon or --backgammon;
    Jacoby applies to a centred cube) and the captain goes to the bottom of the line; MEMBER
    plays the board on, and their result is the captain's for the rotation.

    Example:

    \b
        chouette captain-resigns cat --gammon
    """
    from chouette.game import CaptainResign

    if gammon and backgammon:
        fail(said("--gammon or --backgammon, not both"), 2)
    kind: Kind = "backgammon" if backgammon else "gammon" if gammon else "single"
    play(ctx, lambda _game, who: [CaptainResign(kind, who(successor))], game, as_json)


@app.command(cls=Command, name="buy-out")
def buy_out(ctx: typer.Context, as_json: JsonFlag = False, game: GameOption = None) -> None:
    """The box buys its partner out of the live cubes (the Chicago buy-out).

    Under the house rule --buy-outs: the box wants to double and the partner refuses, so
    the box pays the partner their share (--partner-share) of every live cube's value and
    plays those cubes alone; the partner keeps their share of the pairs already over.

    Example:

    \b
        chouette buy-out
    """
    from chouette.game import BuyOut

    play(ctx, one(BuyOut()), game, as_json)


class Side(StrEnum):
    box = "box"
    team = "team"


@app.command(cls=Command)
def end(
    ctx: typer.Context,
    winner: Annotated[
        Side, typer.Argument(metavar="box|team", help="Who won the board: box or team.")
    ],
    gammon: Annotated[bool, typer.Option("--gammon", help="Won a gammon.")] = False,
    backgammon: Annotated[bool, typer.Option("--backgammon", help="Won a backgammon.")] = False,
    resigned: Annotated[
        bool, typer.Option("--resigned", help="By an accepted resignation.")
    ] = False,
    as_json: JsonFlag = False,
    game: GameOption = None,
) -> None:
    """The board ends: pairs are paid, the line rotates.

    Every live pair is paid cube × 1, 2 or 3 (a centred cube pays a single under Jacoby).

    Examples:

    \b
        chouette end box --gammon
        chouette end team --resigned
    """
    from chouette.game import End

    if gammon and backgammon:
        fail(said("--gammon or --backgammon, not both"), 2)
    kind: Kind = "backgammon" if backgammon else "gammon" if gammon else "single"
    play(ctx, one(End(winner.value, kind, resigned)), game, as_json)


@app.command(cls=Command)
def undo(ctx: typer.Context, as_json: JsonFlag = False) -> None:
    """Take back the last thing done in the session, whatever it was.

    A command's events (a game's end included), a record of games, an import (the file
    can then be imported again, into the right session), a payment, a fee or a shared
    cost, a join, leave, sit-out or sit-in, a proxy, or a split (at either table, while
    nothing has happened at either since). `chouette log` lists what undo would take back,
    newest first.

    Example:

    \b
        chouette undo
    """
    from chouette.line import LINE_UNDONE
    from chouette.report import undone_text
    from db.commands import undo as take_back

    with ledger(ctx, write=True) as book:
        info = current(book, ctx, lock=True)
        undone = take_back(book, info)
        now = book.session_by_id(info.id)
    if as_json:
        emit_json({"session": info.name, "undone": undone.what, "text": str(undone_text(undone))})
        return
    say(said("Undone: {undone}.", undone=undone_text(undone)))
    if now is not None:
        for text in partner_said(info.line, now, LINE_UNDONE):
            say(text)


def cube_values(items: Sequence[str]) -> dict[str, int]:
    """``--cube bob=4`` as ``{"bob": 4}`` (a usage error, exit 2, for anything else)."""
    from chouette.amend import parse_cubes

    try:
        return parse_cubes(items)
    except ChouetteError as err:
        fail(said("{option}: {reason}", option="--cube", reason=err.said), 2)


class Level(StrEnum):
    single = "single"
    gammon = "gammon"
    backgammon = "backgammon"


@app.command(cls=Command)
def amend(
    ctx: typer.Context,
    number: Annotated[
        int, typer.Argument(metavar="N", **bounds("amend N"), help="The game to correct.")
    ],
    level: Annotated[
        Level,
        typer.Argument(
            metavar="LEVEL", help="How the board was won: single, gammon or backgammon."
        ),
    ] = Level.single,
    result: Annotated[
        Side | None,
        typer.Option("--result", metavar="box|team", help="Who won the board (required)."),
    ] = None,
    resigned: Annotated[
        bool, typer.Option("--resigned", help="By an accepted resignation.")
    ] = False,
    note_text: Annotated[
        str | None,
        typer.Option("--note", metavar="TEXT", help="Why: it stays on the record (required)."),
    ] = None,
    cube: Annotated[
        list[str] | None,
        typer.Option(
            "--cube",
            metavar="MEMBER=VALUE",
            help="A member's cube as the table agrees it was at the end (repeat for more).",
        ),
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Correct a past game: its result, or a member's cube the table agrees was misrecorded.

    The board's end of game N becomes the one given (--result), and each --cube member's
    cube the value given (a cube the board's end settled: 1 is centred); every later game
    keeps its events and is played again on the line the correction leaves (the rotation
    and partnerships may change, and with them what later games booked). If a later event
    no longer fits, nothing changes and the message names the first game that breaks. The
    correction is a journal entry of its own (log lists it, undo takes it back) and the
    game keeps its trail: the sheet, the report and game N show when, what was, what is
    and the note.

    Examples:

    \b
        chouette amend 4 --result team gammon --note "it was a gammon: ann and bob agree"
        chouette amend 7 --result box --resigned --note "misrecorded winner"
        chouette amend 5 --cube bob=4 --note "bob's redouble was not entered"
    """
    from chouette.game import End
    from chouette.report import booked_rows
    from db.amending import amend as correct

    fixes = cube_values(cube or [])
    if result is None and not fixes:
        fail(said("say who won the board (--result box|team) or whose cube it was (--cube)"), 2)
    if result is None and (level is not Level.single or resigned):
        fail(said("a level or --resigned goes with --result box|team"), 2)
    if note_text is None:
        fail(said("say why the game is amended: --note TEXT (it stays on the record)"), 2)
    end = None if result is None else End(result.value, level.value, resigned)
    with ledger(ctx, write=True) as book:
        info = current(book, ctx, lock=True)
        done = correct(book, info, number, end, note_text, fixes)
    options(ctx).booked = True
    outcome = done.outcome
    if as_json:
        from chouette.record import event_to_json

        emit_json(
            {
                "session": info.name,
                "game": number,
                "was": event_to_json(done.was),
                "is": event_to_json(done.now),
                "note": done.note,
                "cubes": [{"member": m, "was": a, "is": b} for m, a, b in done.correction.cubes],
                "points": dict(outcome.points),
                "cents": dict(outcome.cents),
                "games": [r.number for r in done.games],
                "moved_cents": done.moved,
                "line": list(done.session.line.order),
                "why": [str(reason) for reason in outcome.why],
            }
        )
        return
    head, rest = done.said()
    say(head)
    emit(booked_rows(outcome))
    for text in rest:
        say(text)


@app.command(cls=Command)
def log(
    ctx: typer.Context,
    as_json: JsonFlag = False,
    limit: Annotated[
        int | None,
        typer.Option(
            "--limit", metavar="N", **bounds("log --limit"), help="Only the last N things done."
        ),
    ] = None,
) -> None:
    """What undo would take back, newest first.

    Every command that changed the session (events, records, imports, payments, fees and
    shared costs, changes of the line), with when it was done.

    Examples:

    \b
        chouette log
        chouette log --limit 5 --json
    """
    from chouette.report import log_json, log_rows
    from db.commands import log as done
    from db.commands import undoable

    with ledger(ctx, write=False) as book:
        info = current(book, ctx)
        found = done(book, info, limit)
        older = not found and undoable(book, info, book.live(info))
    if as_json:
        emit_json(log_json(info.name, found))
    elif older:  # a session played before chouette kept a journal
        say(
            said(
                "Nothing in {session}'s journal: what was done there came before chouette kept "
                "one. undo takes it back as an older chouette did: the last event, or the games "
                "of the last file imported.",
                session=info.name,
            )
        )
    elif not found:
        say(said("Nothing done in {session} yet that undo could take back.", session=info.name))
    else:
        emit(log_rows(found, datetime.astimezone, local_zone()))


# ---------------------------------------------------------------- reports


@app.command(cls=Command)
def status(ctx: typer.Context, as_json: JsonFlag = False) -> None:
    """The line, the roles and every member's cube.

    Examples:

    \b
        chouette status
        chouette status --json
    """
    from chouette.exposure import exposure
    from chouette.report import Status, status_json, status_text
    from chouette.words import joined

    with reading(ctx) as book:
        info = current(book, ctx)
        live = book.live(info)
        balances = (
            {p: cents for p, (_pts, cents) in book.totals(info).items()}
            if info.line.credits
            else {}
        )
        stop = book.stop(info, live.number, clock(), in_progress=live.game is not None)
    from chouette.line import line_notes

    game = live.game
    notes = line_notes(info.line, info.rules) if game is None else []
    state = Status(
        info.name,
        info.line,
        live.number,
        game,
        info.stake,
        info.rules.summary(),
        notes,
        carry=live.carry,
        at_risk=None if game is None else exposure(game, info.stakes(game.players)),
        balances=balances,
        stop=stop,
    )
    if as_json:
        emit_json(status_json(state))
        return
    heading, cubes = status_text(state)
    say(joined(heading, "\n"))
    if cubes is not None:
        emit(cubes)
    for text in notes:
        note(said("{news}.", news=text))


def scope(book: "Ledger | Reads", ctx: typer.Context, every: bool) -> "SessionInfo | None":
    return None if every else current(book, ctx)


class SheetFormat(StrEnum):
    """A report's formats, a spreadsheet among them (:func:`xlsx_too`)."""

    table = "table"
    csv = "csv"
    markdown = "markdown"
    json = "json"
    xlsx = "xlsx"


SheetFormatOption = Annotated[
    SheetFormat | None,
    typer.Option(
        "--format",
        metavar="table|csv|markdown|json|xlsx",
        help="The output's format; xlsx writes a spreadsheet to --output FILE (one sheet a "
        "table; pip install '.[xlsx]').",
    ),
]
OutputOption = Annotated[
    Path | None,
    typer.Option("--output", metavar="FILE", help="The spreadsheet --format xlsx writes."),
]


def xlsx_too(name: str) -> "Callable[[Callable[..., None]], Callable[..., None]]":
    """A report that also writes its tables as a spreadsheet: ``--format xlsx --output
    FILE`` (:class:`files.sheets.Workbook` hears the command as a terminal would, each table
    a sheet). The command's own ``--format`` (if it has one) takes the other formats."""
    import functools

    def wrap(command: "Callable[..., None]") -> "Callable[..., None]":
        signature = inspect.signature(command)
        own = "fmt" in signature.parameters
        kept = [p for p in signature.parameters.values() if p.name != "fmt"]
        added = [
            inspect.Parameter("fmt", inspect.Parameter.KEYWORD_ONLY, default=None,
                              annotation=SheetFormatOption),
            inspect.Parameter("output", inspect.Parameter.KEYWORD_ONLY, default=None,
                              annotation=OutputOption),
        ]  # fmt: skip

        @functools.wraps(command)
        def run(*args: Any, fmt: SheetFormat | None = None, output: Path | None = None,
                **kwargs: Any) -> None:  # fmt: skip
            if fmt is not SheetFormat.xlsx:
                if output is not None:
                    fail(said("--output is the spreadsheet's: give it with --format xlsx"), 2)
                if own:
                    kwargs["fmt"] = None if fmt is None else Format(fmt.value)
                elif fmt not in (None, SheetFormat.table):
                    fail(said("{command} writes a table or --format xlsx", command=name), 2)
                command(*args, **kwargs)
                return
            if output is None:
                fail(said("--format xlsx writes a file: give it with --output FILE"), 2)
            if kwargs.get("as_json"):
                fail(said("--json or --format xlsx, not both"), 2)
            refuse_ledger_file(kwargs["ctx"], output)
            write_workbook(name, output, lambda: command(*args, **kwargs))

        run.__signature__ = signature.replace(parameters=kept + added)  # type: ignore[attr-defined]
        return run

    return wrap


def write_workbook(name: str, output: Path, report: "Callable[[], None]") -> None:
    """What ``report`` lays out as tables, written to ``output`` as a spreadsheet."""
    from files.sheets import Workbook

    book = Workbook(hearer(), name)
    token = _heard.set(book)
    try:
        report()
    finally:
        _heard.reset(token)
    try:
        sheets = book.saved(output)
    except ChouetteError as err:
        fail(err.said)
    say(
        said_n(
            "Written to {file}: {n} sheet.",
            "Written to {file}: {n} sheets.",
            sheets,
            file=str(output),
        )
    )


@app.command(cls=Command)
@xlsx_too("standings")
def standings(
    ctx: typer.Context, as_json: JsonFlag = False, fmt: FormatOption = None, all: AllFlag = False
) -> None:
    """Points and money per player.

    For the session, or with --all for the club's running ledger. Where fees and shared
    costs (`chouette fee`, `chouette expense`) or payments (`chouette pay`) were booked, the
    table shows the money won at the table, the fees and costs, the payments and the
    balance they leave (CSV keeps its columns: the balance is the money).

    Examples:

    \b
        chouette standings
        chouette standings --all --format csv
    """
    from chouette.report import standings as rank
    from chouette.report import standings_json, standings_rows

    fmt = pick_format(as_json, fmt)
    with reading(ctx) as book:
        info = scope(book, ctx, all)
        payments, costs = book.paid(info), book.costs(info)
        table = rank(book.players(info), book.totals(info), payments, costs)
    name = None if info is None else info.name
    if fmt is Format.json:
        emit_json(standings_json(name, table, costs=bool(costs)))
    elif fmt in (Format.table, Format.markdown):
        emit(standings_rows(table, payments, costs), fmt)
    else:  # CSV keeps its columns: the balance is the money
        emit(standings_rows(table), fmt)


@app.command(cls=Command)
@xlsx_too("sheet")
def sheet(
    ctx: typer.Context, as_json: JsonFlag = False, fmt: FormatOption = None, all: AllFlag = False
) -> None:
    """The score sheet: a row per game, running totals.

    Examples:

    \b
        chouette sheet
        chouette sheet --all --format markdown
    """
    from chouette.card import acceptance_json, acceptance_lines
    from chouette.report import (
        Seen,
        extras_notes,
        sheet_csv_table,
        sheet_game_json,
        sheet_table,
        why_notes,
    )

    fmt = pick_format(as_json, fmt)
    seen = Seen()
    with reading(ctx) as book:  # the games stream from the ledger to the output
        info = scope(book, ctx, all)
        name = None if info is None else info.name
        card = None if info is None else book.card(info)
        reasons = {} if info is None or fmt is Format.csv else book.reasons(info)
        everyone = book.sheet_players(info, book.players(info))
        lines = seen.tap(book.sheet(info))
        if fmt is Format.json:
            games = (
                sheet_game_json(line, everyone, name)
                | (
                    {"why": [str(r) for r in reasons.get(line.number, ())]}
                    if info is not None
                    else {}
                )
                for line in lines
            )
            head: dict[str, Any] = {"session": name, "players": everyone}
            head |= fingerprint_json(fingerprints(book, info), info)
            if card is not None:
                head["accepted"] = [acceptance_json(a) for a in card.accepted]
                head["not_accepted"] = card.waiting
            emit_json_stream(head, "games", games)
            return
        if info is not None and fmt is not Format.csv:
            say(session_said(info.name, info.stake, info.rules))
        table = sheet_csv_table if fmt is Format.csv else sheet_table
        emit_rows(*table(everyone, lines, sessions=info is None), fmt)
        prints = fingerprints(book, info)
    if fmt is not Format.csv and seen.engine:
        say(said("* an imported engine game: the winner is in the box column, the loser next."))
    if fmt is not Format.csv:
        for text in extras_notes(seen.extras, sessions=info is None):
            say(text)
        for text in why_notes(reasons):
            say(text)
        if card is not None and card.acceptances:  # (a session that keeps no card: as before)
            for text in acceptance_lines(card, datetime.astimezone):
                say(text)
        say_fingerprints(prints)


def fingerprints(book: "Reads | Ledger", info: "SessionInfo | None") -> dict[str, str | None]:
    """The fingerprint of the session, or of every session (``info`` None)."""
    reads = cast("Reads", getattr(book, "reads", book))  # a Ledger reads through its Reads
    sessions = [info] if info is not None else reads.all_sessions()
    return {s.name: reads.fingerprint(s) for s in sessions}


def fingerprint_json(
    prints: Mapping[str, str | None], info: "SessionInfo | None"
) -> dict[str, Any]:
    """``fingerprint`` (one session) or ``fingerprints`` (every session) for ``--json``."""
    if info is not None:
        return {"fingerprint": prints.get(info.name)}
    return {"fingerprints": dict(prints)}


def say_fingerprints(prints: Mapping[str, str | None]) -> None:
    """The sessions' fingerprints, after a report: what a player notes (or photographs) to
    prove later that the record has not changed (`chouette check`; `chouette verify` for an
    export)."""
    shown = {name: fp for name, fp in prints.items() if fp is not None}
    if len(shown) == 1:
        ((name, fp),) = shown.items()
        say(said("Fingerprint of {session}: {fingerprint}", session=name, fingerprint=fp))
    elif shown:
        listed = ", ".join(f"{name} {fp}" for name, fp in shown.items())
        say(said("Fingerprints: {fingerprints}", fingerprints=listed))


class OptionalValues(Command):
    """A command whose options named in :attr:`optional` may be given without a value
    (``settle --night``): then their value is empty text (``--night=NAME`` for a name that
    starts with ``-``)."""

    optional: tuple[str, ...] = ("--night",)

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        words: list[str] = []
        for i, word in enumerate(args):
            words.append(word)
            if word == "--":
                words += args[i + 1 :]
                break
            after = args[i + 1] if i + 1 < len(args) else None
            if word in self.optional and (after is None or after.startswith("-")):
                words.append("")
        return list(super().parse_args(ctx, words))


class PayCurrency(StrEnum):
    """The currencies a payment code is made for (:mod:`chouette.payments`)."""

    EUR = "EUR"
    CZK = "CZK"
    SEK = "SEK"
    DKK = "DKK"


@app.command(cls=OptionalValues)
def settle(
    ctx: typer.Context,
    player: Annotated[
        str | None,
        typer.Argument(
            metavar="PLAYER",
            help="Settle this player alone, now (a player leaving early).",
            autocompletion=complete_player,
        ),
    ] = None,
    as_json: JsonFlag = False,
    fmt: FormatOption = None,
    all: AllFlag = False,
    night: Annotated[
        str | None,
        typer.Option(
            "--night",
            metavar="[NAME]",
            help="Settle a whole club night, every table of it (default: the current "
            "session's night).",
            autocompletion=complete_night,
        ),
    ] = None,
    message: Annotated[
        bool,
        typer.Option("--message", help="A short text for the club's group chat."),
    ] = False,
    qr: Annotated[
        str | None,
        typer.Option(
            "--qr",
            metavar="DIR",
            help="A payment code for each payment, as FROM-TO.png in DIR (- draws them here).",
        ),
    ] = None,
    currency: Annotated[
        PayCurrency,
        typer.Option(
            "--currency",
            metavar="EUR|CZK|SEK|DKK",
            help="The currency paid in: it chooses the payment code.",
        ),
    ] = PayCurrency.EUR,
) -> None:
    """Who pays whom, in the fewest payments.

    The fewest are proven for up to 24 players with a balance (beyond, at most one payment
    fewer than there are balances, and a note says so). --night settles every table of a
    club night at once: each player's balances over its tables summed, so a player at two
    tables pays or is paid once; what is still open from earlier nights for its players
    follows (`chouette owed`). --message writes the settlement as a short text for the
    club's group chat: the session or night, who pays whom, and the fingerprints.
    --qr DIR writes a code a bank app scans for each payment, from the payee's account
    (`chouette account`): EUR an EPC (GiroCode) SEPA transfer, CZK a QR Platba (SPAYD), SEK
    Swish; a payee with only a phone number (MobilePay) gets the number and amount written
    out, and one without an account is said to have none. --qr - draws them here. An
    amount a code cannot carry (EPC: 999,999,999.99 EUR; SPAYD: 9,999,999.99 CZK; Swish:
    1.00 to 999,999,999,999.99 SEK) gets no code: that payment is refused, by name, the
    others are written, and the command exits 1.
    With PLAYER, only the payments that settle that player now, as when someone leaves
    early: what they owe goes to those owed the most first (or those who owe the most pay
    them first); book them with chouette pay.

    Examples:

    \b
        chouette settle
        chouette settle dan
        chouette settle --all --json
        chouette settle --night
        chouette settle --night 2026-11-20 --message
        chouette settle --night --qr codes --currency CZK
    """
    if night is not None and all:
        fail(said("--night or --all, not both"), 2)
    if player is not None and night is not None:
        fail(said("PLAYER or --night, not both"), 2)
    if message and fmt not in (None, Format.table, Format.json):
        fail(said("--message is a text: not with --format csv or markdown"), 2)
    if qr is not None and (message or fmt not in (None, Format.table)):
        fail(said("--qr draws payment codes: not with --message or --format"), 2)
    with reading(ctx) as book:
        what = to_settle(book, ctx, all, night, player)
        accounts = book.accounts() if qr is not None else {}
    say_settlement(what, pick_format(as_json, fmt), message)
    if qr is not None:
        say_codes(what, accounts, currency.value, qr, as_json)


def say_codes(
    what: "ToSettle", accounts: "Mapping[str, Account]", currency: str, qr: str, as_json: bool
) -> None:
    """`settle --qr`: each payment's code, written as a PNG into the folder ``qr`` or drawn
    here (``-``), and each payment said with how it is paid."""
    from chouette.payments import CURRENCIES, payment_code, remittance
    from files.codes import drawn, write_codes

    (money,) = [c for c in CURRENCIES if c == currency]

    if what.night is not None:
        text = remittance(", ".join(what.prints), what.night)
    elif what.info is not None:
        text = remittance(what.info.name, what.info.night)
    else:
        text = remittance(", ".join(what.prints), "")
    codes = [
        payment_code(p.payer, p.payee, p.cents, accounts.get(p.payee), money, text)
        for p in what.found.payments
    ]
    try:
        written = [] if qr == "-" else write_codes(Path(qr), codes)
    except ChouetteError as err:
        fail(err.said)
    refused = [code for code in codes if code.kind == "refused"]
    for code in codes:
        if code.kind == "refused":  # an amount its code cannot carry: no file, an error
            say(said("Error: {message}", message=code.said), err=True)
        elif not as_json:
            say(code.said)
            if code.drawn and qr == "-":
                say(drawn(code.payload))
    if written and not as_json:
        say(
            said_n(
                "{n} payment code written to {folder} (FROM-TO.png).",
                "{n} payment codes written to {folder} (FROM-TO.png).",
                len(written),
                folder=qr,
            )
        )
    if refused:
        raise typer.Exit(1)


class ToSettle(NamedTuple):
    """What `settle` settles: a session, every session (``info`` None) or a ``night`` (its
    tables' balances summed), its payments, fingerprints, the message's heading, and for a
    night the debts still open from earlier nights (``carried``); ``player``: one player
    settled alone (a player leaving early)."""

    found: "Settlement"
    prints: dict[str, str | None]
    heading: "Sayable"
    info: "SessionInfo | None" = None
    night: str | None = None
    carried: "Sequence[Debt]" = ()
    player: str | None = None


def to_settle(
    book: "Reads", ctx: typer.Context, every: bool, night: str | None, player: str | None = None
) -> ToSettle:
    """What `settle` settles (``night``: a night's name, empty for the session's;
    ``player``: that player alone, now)."""
    from chouette.nights import settle_night
    from chouette.settlement import Settlement, leaving, settlement

    if night is None:
        info = scope(book, ctx, every)
        balances = {p: c for p, (_, c) in book.totals(info).items()}
        if player is None:
            heading = (
                said("Every session")
                if info is None
                else said("{session} (night {night})", session=info.name, night=info.night)
            )
            return ToSettle(settlement(balances), fingerprints(book, info), heading, info)
        known = [*book.players(info), *(info.line.order if info is not None else ())]
        who = resolve(normal_name(player), known, "has played in no session here")
        paying = leaving(balances, who)
        found = Settlement(paying, len(paying), True)
        heading = (
            said("Every session: {player} leaving", player=who)
            if info is None
            else said(
                "{session} (night {night}): {player} leaving",
                session=info.name,
                night=info.night,
                player=who,
            )
        )
        return ToSettle(found, fingerprints(book, info), heading, info, player=who)
    name, sessions = book.night(night or current(book, ctx).night)
    found = settle_night({p: c for p, (_, c) in book.totals(s).items()} for s in sessions)
    prints = {s.name: book.fingerprint(s) for s in sessions}
    heading = said("Night {night} ({sessions})", night=name, sessions=", ".join(prints))
    return ToSettle(found, prints, heading, None, name, carried_debts(book, name, sessions))


def say_settlement(what: ToSettle, fmt: Format, message: bool) -> None:
    """`settle`'s output: the payments in ``fmt``, or the group chat's ``message``."""
    from chouette.nights import debt_json, debt_rows
    from chouette.nights import message as chat
    from chouette.report import settle_json, settle_rows

    payments, carried = what.found.payments, what.carried
    text = chat(what.heading, payments, what.prints, carried) if message else []
    if fmt is Format.json:
        keys = fingerprint_json(what.prints, what.info)
        if what.night is not None:
            keys |= {"night": what.night, "carried": [debt_json(d, today()) for d in carried]}
        chat_json = {"message": "\n".join(map(str, text))} if text else {}
        emit_json(settle_json(payments) | keys | chat_json)
        return
    for line in text:
        say(line)
    if message:
        return
    if not payments and fmt is Format.table:
        say(
            said("Everyone is square: no payments.")
            if what.player is None
            else said("{player} is square: no payments.", player=what.player)
        )
    else:
        emit(settle_rows(payments), fmt, payer_tint)
    if fmt is Format.csv:
        return
    bound = what.found.note()
    if bound is not None:
        note(said("{news}.", news=bound))
    if carried:
        say(said("Still open from earlier nights (chouette owed):"))
        emit(debt_rows(carried, today()), fmt, payer_tint)
    say_fingerprints(what.prints)


def today() -> "date":
    """The reader's local date now (the clock :func:`clock` reads)."""
    return clock().astimezone().date()


def carried_debts(book: "Reads", night: str, sessions: "Sequence[SessionInfo]") -> "list[Debt]":
    """What is still open from nights before ``night`` for its players (``chouette owed``)."""
    from chouette.nights import earlier, owed

    nights = book.night_balances(datetime.astimezone)
    players = {p for info in sessions for p in book.players(info)}
    return earlier(owed(nights)[0], nights, night, players)


@app.command(cls=Command)
def owed(
    ctx: typer.Context,
    player: Annotated[
        str | None,
        typer.Argument(
            metavar="PLAYER",
            help="Only what this player owes or is owed.",
            autocompletion=complete_player,
        ),
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """What is still owed between players, across every night, and since when.

    Every player's balance over every session (games, fees and costs, and every payment
    booked, in any session) settled in the fewest payments, as `settle --all` does; each
    debt dated by the night the payer's debt arose, oldest first (what a player wins on a
    later night pays off their oldest debt first, so one payment may be listed under two
    nights), with its age in days. A debt is paid with `chouette pay` in the session it
    arose in (--session), or in any session with --advance.

    Examples:

    \b
        chouette owed
        chouette owed bob --json
    """
    from chouette.nights import debt_json, debt_rows, debts_of
    from chouette.nights import owed as still_owed

    with reading(ctx) as book:
        nights = book.night_balances(datetime.astimezone)
        if player is not None:
            known = book.players(None)
            player = resolve(normal_name(player), known, "has played in no session")
        debts, found = still_owed(nights)
    mine, when = debts_of(debts, player), today()
    if as_json:
        emit_json({"player": player, "debts": [debt_json(d, when) for d in mine]})
        return
    if not mine:
        say(
            said("{player} is square: nothing is owed.", player=player)
            if player
            else said("Everyone is square: nothing is owed.")
        )
    else:
        emit(debt_rows(mine, when), Format.table, payer_tint)
    bound = found.note()
    if bound is not None:
        note(said("{news}.", news=bound))


@app.command(cls=Command, name="night")
@xlsx_too("night")
def night_command(
    ctx: typer.Context,
    name: Annotated[
        str | None,
        typer.Argument(
            metavar="NAME",
            help="The night (default: the current session's).",
            autocompletion=complete_night,
        ),
    ] = None,
    listing: Annotated[bool, typer.Option("--list", help="List the nights instead.")] = False,
    as_json: JsonFlag = False,
) -> None:
    """Every table of a club night, and the night's totals per player.

    A night is the local date its sessions began (YYYY-MM-DD), or the name given with
    `chouette new … --night NAME`; a table split off keeps its night. For each session: its
    line, the games played and the standings; then each player's money over the night's
    tables (in money only: points at tables of different stakes do not add up). --list
    lists the nights, oldest first.

    Examples:

    \b
        chouette night
        chouette night 2026-11-20 --json
        chouette night --list
    """
    from chouette.nights import (
        night_heading,
        night_json,
        nights_json,
        nights_rows,
        table_heading,
        totals_rows,
    )
    from chouette.report import standings_rows

    if listing and name is not None:
        fail(said("NAME or --list, not both"), 2)
    with reading(ctx) as book:
        if listing:
            nights, found = book.nights(), book.sessions()
        else:
            night, tables = book.night_tables(current(book, ctx).night if name is None else name)
    if listing:
        if as_json:
            emit_json(nights_json(nights, found))
        else:
            emit(nights_rows(nights, found, datetime.astimezone, local_zone()))
        return
    if as_json:
        emit_json(night_json(night, tables))
        return
    say(night_heading(night, tables))
    for table in tables:
        say()
        say(table_heading(table))
        emit(standings_rows(table.standings, table.paid, table.costs))
    say()
    say(said("The night's totals, in money (points at different stakes do not add up):"))
    emit(totals_rows(tables))
    say_fingerprints({t.session: t.fingerprint for t in tables})


@app.command(cls=Command, name="ledger")
@xlsx_too("ledger")
def ledger_command(
    ctx: typer.Context, as_json: JsonFlag = False, fmt: FormatOption = None, all: AllFlag = False
) -> None:
    """Every booking in the ledger.

    Examples:

    \b
        chouette ledger
        chouette ledger --all --format csv
    """
    from chouette.report import entry_json, entry_rows, ledger_headers

    fmt = pick_format(as_json, fmt)
    with reading(ctx) as book:  # one query, its rows streamed to the output
        info = scope(book, ctx, all)
        entries = book.entries(info)
        zone = local_zone()
        if fmt is Format.json:
            head = {"session": None if info is None else info.name}
            emit_json_stream(head, "bookings", map(entry_json, entries))
        else:
            rows = entry_rows(entries, datetime.astimezone, zone)
            emit_rows(ledger_headers(zone), rows, fmt)


DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def since_option(text: str | None) -> "date | None":
    """``--since``'s date (YYYY-MM-DD), or a usage error naming what was typed."""
    if text is None:
        return None
    from datetime import date

    try:
        if not DAY.fullmatch(text):
            raise ValueError
        return date.fromisoformat(text)
    except ValueError:
        fail(
            said(
                "--since: {value} is not a date: write it YYYY-MM-DD (2026-11-20)",
                value=repr(clipped(text)),
            ),
            2,
        )


@app.command(cls=Command)
def stats(
    ctx: typer.Context,
    player: Annotated[
        str | None,
        typer.Argument(
            metavar="PLAYER",
            help="One player's stats (none: every player's, and who beats whom).",
            autocompletion=complete_player,
        ),
    ] = None,
    since: Annotated[
        str | None,
        typer.Option(metavar="DATE", help="Only the games of nights from DATE (YYYY-MM-DD) on."),
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """The club's memory: who won what, in which role, and who beats whom.

    Over every session in the ledger: sessions and games played, money won and lost at the
    table (payments, fees and costs aside) as box, partner, captain, crew or one-on-one (an
    engine game), per game, the biggest night, and each player's money against every
    opponent. A night is the local date a game ended (before 06:00: the day before).

    Examples:

    \b
        chouette stats
        chouette stats ann --since 2026-11-01
        chouette stats --json
    """
    from chouette.stats import (
        club_stats,
        head_to_head_rows,
        opponents_rows,
        players_rows,
        roles_rows,
        stats_json,
        summary_text,
    )
    from chouette.words import joined

    day = since_option(since)
    with reading(ctx) as book:
        shares = {s.name: s.rules.partner_share for s in book.all_sessions()}
        found = club_stats(book.sheet(None), shares=shares, local=datetime.astimezone, since=day)
    name = None
    if player is not None:
        unknown = (
            said("{player} has played no game in the ledger since {day}", day=day)
            if day
            else said("{player} has played no game in the ledger")
        )
        try:
            name = resolve(normal_name(player), [s.name for s in found], unknown)
        except ChouetteError as err:
            fail(err.said)
        found = [s for s in found if s.name == name]
    if as_json:
        emit_json(stats_json(found, player=name, since=day))
    elif not found:
        say(
            said("No games played yet.")
            if day is None
            else said("No games played since {day}.", day=day)
        )
    elif name is None:
        emit(players_rows(found))
        say()
        say(said("Who beats whom:"))
        emit(head_to_head_rows(found))
    else:
        say(joined(summary_text(found[0]), "\n"))
        emit(roles_rows(found[0]))
        say()
        say(said("Head to head:"))
        emit(opponents_rows(found[0]))


@app.command(cls=Command, name="game")
def game_command(
    ctx: typer.Context,
    number: Annotated[
        int,
        typer.Argument(metavar="N", **bounds("game N"), help="The game's number in the session."),
    ],
    as_json: JsonFlag = False,
) -> None:
    """One game: seats, events and bookings.

    With --json: the game as a chouette game record.

    Examples:

    \b
        chouette game 1
        chouette game 1 --json
    """
    from chouette.record import to_record
    from chouette.report import game_text
    from chouette.words import joined

    with reading(ctx) as book:
        info = current(book, ctx)
        view = book.game(info, number)
    if as_json:
        if view.game is not None:
            why = [str(reason) for reason in view.why]
            emit_json({**to_record(view.game, info.name), "why": why})
        else:
            emit_json({"session": info.name, "game": number, **(view.detail or {}), "why": []})
        return
    heading, rows = game_text(
        info.name,
        number,
        over=view.over,
        game=view.game,
        detail=view.detail,
        line_after=view.line_after,
        bookings=view.bookings,
        why=view.why,
    )
    say(joined(heading, "\n"))
    emit(rows)


@app.command(cls=Command)
def position(
    ctx: typer.Context,
    number: Annotated[
        int,
        typer.Argument(metavar="N", **bounds("position N"), help="The game's number."),
    ],
    step: Annotated[
        int,
        typer.Argument(
            metavar="STEP",
            **bounds("position STEP"),
            help="The cube decision's step, as chouette game N lists the events.",
        ),
    ],
    board: Annotated[
        str,
        typer.Argument(
            metavar="ID",
            help="The board, from the doubler's side: a GNU Backgammon Position ID or an XGID.",
        ),
    ],
    as_json: JsonFlag = False,
) -> None:
    """Give the board of a cube decision already booked, for chouette review.

    The position belongs to the double and all its answers (they are made at one board): the
    step named gets it, and any of them given another board gets this one. Nothing else
    changes. A journal entry of its own: undo takes it back.

    Examples:

    \b
        chouette game 3
        chouette position 3 2 4HPwATDgc/ABMA
        chouette position 3 2 XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10
    """
    from chouette.words import said_n
    from db.positions import place

    found = position_of(board)
    assert found is not None
    with ledger(ctx, write=True) as book:
        info = current(book, ctx, lock=True)
        try:
            placed = place(book, info, number, step, found)
        except ChouetteError as err:
            fail(err.said)
    if as_json:
        emit_json(
            {
                "session": info.name,
                "game": placed.number,
                "step": placed.step,
                "position": placed.position,
                "steps": list(placed.steps),
            }
        )
        return
    say(
        said_n(
            "Game {number}: the position {position} is the board of step {steps}.",
            "Game {number}: the position {position} is the board of steps {steps}.",
            len(placed.steps),
            number=str(placed.number),
            position=placed.position,
            steps=", ".join(str(s) for s in placed.steps),
        )
    )


PliesOption = Annotated[
    int,
    typer.Option(
        "--plies",
        metavar="N",
        **bounds("review --plies"),
        help="How far GNU Backgammon looks ahead: 0 to 3 plies (2: its world-class level).",
    ),
]


@app.command(cls=Command)
def review(
    ctx: typer.Context,
    game: Annotated[
        int | None,
        typer.Option("--game", metavar="N", **bounds("--game"), help="Game N only."),
    ] = None,
    player: Annotated[
        str | None,
        typer.Option(
            "--player",
            metavar="NAME",
            help="Only the decisions NAME made.",
            autocompletion=complete_player,
        ),
    ] = None,
    plies: PliesOption = 2,
    as_json: JsonFlag = False,
) -> None:
    """Each cube decision made at a board, reviewed by GNU Backgammon, pair by pair.

    Every double, take, drop, beaver and raccoon given a position (--position, or chouette
    position afterwards) is scored for its pair's cube: its value, centred or owned, the
    session's Jacoby and beavers. For each: the proper action, the equities of no double,
    double/take and double/pass, and the error of the action taken, per 1-cube (EMG), in
    points (x the cube) and in money (x the pair's stake, to the nearest cent); then each
    player's decisions, errors and their cost. GNU Backgammon (gnubg) is run as its own
    program; its evaluations are kept in the ledger, so a review run again asks it nothing.
    Only the terminal and each player's own phone show a review.

    Examples:

    \b
        chouette review
        chouette review --game 3 --player bob
        chouette review --plies 3 --json
    """
    tell_review(reviewed_now(ctx, game, player, plies), as_json)


def reviewed_now(ctx: typer.Context, game: int | None, player: str | None, plies: int) -> "Review":
    """The session's decisions reviewed: read, the engine asked about the boards the ledger
    does not keep (outside any transaction), its answers kept, and all scored."""
    from db.reviewing import ask, gather, keep, scored
    from files.gnubg import evaluate

    with ledger(ctx, write=False) as book:
        info = current(book, ctx)
        try:
            gathered = gather(book, info, number=game, player=player, plies=plies)
        except ChouetteError as err:
            fail(err.said)
    try:
        answers, engine = ask(
            gathered, lambda boards, beavers, depth: evaluate(boards, beavers=beavers, plies=depth)
        )
    except ChouetteError as err:
        fail(err.said)
    if answers:
        with ledger(ctx, write=True) as book:
            keep(book, gathered, answers, engine)
    return scored(gathered, answers, engine)


def tell_review(done: "Review", as_json: bool) -> None:
    """``chouette review``'s words: a row per decision, then each player's summary."""
    from chouette.review import review_json
    from chouette.words import said_n

    if as_json:
        emit_json(review_json(done.session.name, done.plies, done.engine, done.items, done.players))
        return
    if done.playing is not None:
        from db.reviewing import in_progress

        note(in_progress(done.playing))
    if not done.items:
        say(
            said(
                "No cube decision of {session} has a position to review: give one with "
                "--position, or afterwards with chouette position N STEP ID.",
                session=done.session.name,
            )
        )
        return
    say(
        said_n(
            "{session}: {n} cube decision reviewed by {engine} at {plies} plies.",
            "{session}: {n} cube decisions reviewed by {engine} at {plies} plies.",
            len(done.items),
            session=done.session.name,
            engine=done.engine or "GNU Backgammon",
            plies=str(done.plies),
        )
    )
    from chouette.review import review_rows, summary_rows

    hearer().table(*review_rows(done.items))
    for number, item in done.items:
        if item.decision.unscored is not None:
            note(
                said(
                    "game {number}, step {step} ({player}, {member}'s cube): {why}",
                    number=str(number),
                    step=str(item.decision.step),
                    player=item.decision.player,
                    member=item.decision.member,
                    why=item.decision.unscored,
                )
            )
    say("")
    hearer().table(*summary_rows(done.players))


LangOption = Annotated[
    str | None,
    typer.Option(
        "--lang",
        metavar="LANG",
        help="The language of the page: en (English), da (Danish) or cs (Czech).",
    ),
]


def language_option(value: str | None) -> str | None:
    """``--lang``'s language by its code, or a usage error naming the ones there are."""
    if value is None:
        return None
    from chouette.words import check_language

    try:
        return check_language(value)
    except ChouetteError as err:
        fail(said("{option}: {reason}", option="--lang", reason=err.said), 2)


@app.command(cls=Command)
def report(
    ctx: typer.Context,
    html: Annotated[
        Path,
        typer.Option(
            "--html",
            dir_okay=False,
            metavar="FILE",
            help="Write the page to this file (one self-contained HTML file).",
        ),
    ],
    all: AllFlag = False,
    currency: Annotated[
        str | None,
        typer.Option(
            "--currency",
            envvar="CHOUETTE_CURRENCY",
            metavar="CODE",
            help="Label the amounts with this currency (EUR, $, CHF); default: none.",
        ),
    ] = None,
    force: Annotated[
        bool,
        typer.Option("--force", help="Write over FILE even if it is not an earlier report."),
    ] = False,
    lang: LangOption = None,
    review: Annotated[
        bool,
        typer.Option(
            "--review",
            help="Add the session's cube decisions reviewed by GNU Backgammon (chouette "
            "review): each player's errors, for everyone who reads the page.",
        ),
    ] = False,
) -> None:
    """One HTML page to print or share.

    The score sheet, standings, who pays whom, the stats (chouette stats over the page's
    games), the house rules and a chart of every player's running balance, in one
    self-contained file; dated with the evening's day and hours in your local time. The
    ledger keeps no currency: --currency labels the amounts.
    --review adds each cube decision given a position, as chouette review scores it: a
    review is each player's own otherwise (the terminal, their phone), so only when asked.
    In English, Danish or Czech: --lang, else your environment's language (LANG).

    Examples:

    \b
        chouette report --html friday.html --currency EUR
        chouette report --html club.html --all
        chouette report --html fredag.html --lang da --currency kr
    """
    from chouette.page import check_currency, report_parts
    from chouette.report import standings as rank
    from chouette.settlement import settlement
    from chouette.stats import club_stats
    from chouette.words import from_environment
    from files.gnubg import DEFAULT_PLIES
    from files.words import translation

    try:
        currency = None if currency is None else check_currency(currency)
    except ChouetteError as err:
        fail(said("{option}: {reason}", option="--currency", reason=err.said), 2)
    code = language_option(lang) or from_environment(os.environ)
    refuse_ledger_file(ctx, html)
    if not force:
        refuse_overwrite(html, is_report_file, "chouette report")
    if review and all:
        fail(said("--review covers one session: leave --all out"), 2)
    reviewed = reviewed_now(ctx, None, None, DEFAULT_PLIES).items if review else None
    with reading(ctx) as book, FileRuns() as runs:  # the page is written as the games come
        info = scope(book, ctx, all)
        players = book.players(info)
        totals = book.totals(info)
        found = settlement({p: c for p, (_, c) in totals.items()})
        page = report_parts(
            session=None if info is None else info.name,
            stake=None if info is None else info.stake,
            rules=None if info is None else info.rules,
            players=players,
            games=book.games_over(info),
            lines=lambda: book.sheet(info),
            standings=rank(players, totals, book.paid(info), book.costs(info)),
            payments=found.payments,
            generated_at=clock(),
            player_stakes=None if info is None else info.player_stakes,
            started_at=None if info is None else info.created_at,
            local=datetime.astimezone,  # the reader's local time, as the system keeps it
            currency=currency,
            settlement_note=found.note(),
            runs=runs,
            card=None if info is None else book.card(info),
            tr=translation(code),
            lang=code,
            fingerprints=fingerprints(book, info),
            ended=None if info is None else book.ended(info, clock()),
            stats=club_stats(
                book.sheet(info),
                shares={s.name: s.rules.partner_share for s in book.all_sessions()},
                local=datetime.astimezone,
            ),
            review=reviewed,
        )
        write_file(html, page, private=False)
    say(
        said("Report for every session written to {file}", file=str(html))
        if info is None
        else said("Report for {session} written to {file}", session=info.name, file=str(html))
    )


@app.command(cls=Command)
def pay(
    ctx: typer.Context,
    payer: Annotated[
        str, typer.Argument(metavar="FROM", help="Who pays.", autocompletion=complete_player)
    ],
    payee: Annotated[
        str, typer.Argument(metavar="TO", help="Who is paid.", autocompletion=complete_player)
    ],
    amount: Annotated[str, typer.Argument(metavar="AMOUNT", help="How much, e.g. 12.50.")],
    note: Annotated[str, typer.Option(metavar="TEXT", help="What it was for.")] = "",
    advance: Annotated[
        bool,
        typer.Option(
            "--advance",
            help="Meant to be more than FROM owes TO (a loan, a credit, a balance taken over).",
        ),
    ] = False,
    as_json: JsonFlag = False,
) -> None:
    """Book a payment between two players.

    Paid debts disappear from settle. A payment of more than FROM owes TO (the smaller of
    what FROM owes and what TO is owed) is refused, naming the balances it would leave,
    unless --advance says it is meant: a loan, a credit, or a player leaving early whose
    balance another takes over (`chouette pay cat dan 12.50 --advance --note "takes over
    dan's balance"`).

    Examples:

    \b
        chouette pay bob ann 30.00
        chouette pay cat dan 12.50 --advance --note "takes over dan's balance"
    """
    from db.commands import pay as paid

    cents = money_option(amount, "AMOUNT")
    assert cents is not None
    with ledger(ctx, write=True) as book:
        info = current(book, ctx, lock=True)
        known = book.players(info)
        unknown = said(
            "{player} has not played in {session} (book a payment in the session they played "
            "in, with --session)",
            session=info.name,
        )
        payer, payee = (resolve(normal_name(p), known, unknown) for p in (payer, payee))
        against = paid(book, info, payer, payee, cents, note, advance=advance)
    if against.over:
        warn(against.warning())
    if as_json:
        emit_json(
            {
                "session": info.name,
                "payer": payer,
                "payee": payee,
                "cents": cents,
                "note": note,
                "advance_cents": against.over,
            }
        )
        return
    say_paid(payer, payee, cents, info.name)


def say_paid(payer: str, payee: str, cents: int, session: str) -> None:
    """A payment booked, said."""
    say(
        said(
            "{payer} paid {payee} {amount} ({session}).",
            payer=payer,
            payee=payee,
            amount=Money(cents),
            session=session,
        )
    )


@app.command(cls=Command)
def proposals(
    ctx: typer.Context,
    every: Annotated[
        bool, typer.Option("--all", help="Every proposal, answered ones too, with its answer.")
    ] = False,
    as_json: JsonFlag = False,
) -> None:
    """The lines players proposed from their phones, waiting for the keeper.

    A player proposes, from their phone (chouette serve, /me), a line about themselves: a
    take, drop or beaver of a double that waits on them, or a payment they made to whom the
    settlement says. Each waits here, numbered, with who proposed it and when, until the
    keeper approves it (chouette approve N: it runs then, as the command would) or refuses
    it (chouette refuse N). --all lists the answered ones too.

    Examples:

    \b
        chouette proposals
        chouette proposals --all --json
    """
    with ledger(ctx, write=False) as book:
        found = book.proposals(state=None if every else "waiting")
        names = {p.session_id: book.session_by_id(p.session_id) for p in found}
    sessions = {number: "" if info is None else info.name for number, info in names.items()}
    if as_json:
        emit_json({"proposals": [proposal_json(p, sessions[p.session_id]) for p in found]})
        return
    if not found:
        say(said("No proposals wait for the keeper."))
        return
    emit_proposals(found, sessions)


def proposal_json(proposed: "Proposed", session: str) -> dict[str, Any]:
    """A proposal as ``proposals --json`` gives it (the words in English)."""
    p = proposed.proposal
    return {
        "number": proposed.id,
        "session": session,
        "player": p.player,
        "act": p.act,
        "member": p.member or None,
        "game": p.game or None,
        "payee": p.payee or None,
        "cents": p.cents if p.act == "pay" else None,
        "line": shlex.join(p.words()),
        "text": str(p.told()),
        "proposed_at": proposed.proposed_at.isoformat(),
        "state": proposed.state,
        "reason": str(proposed.reason) if proposed.reason else None,
        "decided_at": None if proposed.decided_at is None else proposed.decided_at.isoformat(),
    }


def emit_proposals(found: "Sequence[Proposed]", sessions: "Mapping[int, str]") -> None:
    """Proposals as ``proposals`` lists them, in the reader's time."""
    from chouette.report import local_time, time_heading

    zone = local_zone()
    states = {
        "waiting": said_in("proposal", "waiting"),
        "approved": said_in("proposal", "approved"),
        "refused": said_in("proposal", "refused"),
    }
    rows = [
        [
            str(p.id),
            sessions[p.session_id],
            p.proposal.player,
            p.proposal.told(),
            local_time(p.proposed_at, datetime.astimezone, zone),
            states.get(p.state, p.state),
            p.reason,
        ]
        for p in found
    ]
    headers = [
        "#",
        marked("session"),
        marked("proposed by"),
        marked("proposal"),
        time_heading(zone),
        marked("state"),
        marked("reason"),
    ]
    emit_rows(headers, rows, Format.table)


@app.command(cls=Command)
def approve(
    ctx: typer.Context,
    number: Annotated[
        int,
        typer.Argument(
            metavar="N", **bounds("approve N"), help="The proposal's number (chouette proposals)."
        ),
    ],
    as_json: JsonFlag = False,
) -> None:
    """Approve a player's proposal: its line runs now, as the command would.

    Checked again against the game and the balances as they stand: a double answered
    meanwhile, another game, a payment no longer owed, and nothing is written; the proposal
    is refused with the reason, which the player's phone shows. A proposal is approved or
    refused once.

    Example:

    \b
        chouette approve 3
    """
    from dataclasses import replace

    from db.commands import NoLongerValid, approve_proposal, refuse_proposal

    opts = options(ctx)
    try:
        with ledger_for(opts, write=True) as book:
            done = approve_proposal(book, number)
    except NoLongerValid as err:
        with ledger(ctx, write=True) as book:
            refuse_proposal(book, err.number, err.reason)
        fail(err.said)
    except ChouetteError as err:
        fail(err.said)
    p = done.proposed.proposal
    if done.played is not None:
        opts.booked = done.played.outcome is not None
        if not as_json:
            say(said("Proposal {number} approved: {proposal}.", number=number, proposal=p.told()))
        report_played(done.played, done.before, as_json)
        return
    if done.against is not None and done.against.over:
        warn(done.against.warning())
    if as_json:
        emit_json(proposal_json(replace(done.proposed, state="approved"), done.session))
        return
    say(said("Proposal {number} approved: {proposal}.", number=number, proposal=p.told()))
    say_paid(p.player, p.payee, p.cents, done.session)


@app.command(cls=Command)
def refuse(
    ctx: typer.Context,
    number: Annotated[
        int,
        typer.Argument(
            metavar="N", **bounds("refuse N"), help="The proposal's number (chouette proposals)."
        ),
    ],
    why: Annotated[
        str, typer.Option("--why", metavar="TEXT", help="Why: the player's phone shows it.")
    ] = "",
    as_json: JsonFlag = False,
) -> None:
    """Refuse a player's proposal: nothing is played or booked, and the phone shows why.

    Example:

    \b
        chouette refuse 3 --why "the double was dropped at the table"
    """
    from chouette.text import check_note
    from db.commands import refuse_proposal

    try:
        reason = check_note(why)
    except ChouetteError as err:
        fail(said("{option}: {reason}", option="--why", reason=err.said), 2)
    with ledger(ctx, write=True) as book:
        told = said("refused by the keeper: {why}", why=reason) if reason else ""
        done = refuse_proposal(book, number, told)
        session = book.session_by_id(done.session_id)
    if as_json:
        emit_json(proposal_json(done, "" if session is None else session.name))
        return
    say(
        said(
            "Proposal {number} refused: {proposal} ({reason}).",
            number=number,
            proposal=done.proposal.told(),
            reason=done.reason,
        )
    )


class Sharers(NamedTuple):
    """Who may share a fee or a cost in a session: ``everyone`` (seated now, sitting out,
    or gone with anything booked), and the ``known`` names a command may give (also one
    who joined and left without playing)."""

    session: str
    everyone: list[str]
    known: list[str]

    def named(self, typed: "Sequence[str]") -> list[str]:
        unknown = said(
            "{player} has not played in {session} (name a player of the session, or --session)",
            session=self.session,
        )
        return [resolve(normal_name(p), self.known, unknown) for p in typed]


def book_charge(ctx: typer.Context, make: "Callable[[Sharers], Charge]") -> None:
    """Book a fee or a shared cost ``make`` makes from the session's :class:`Sharers`, and
    say it (``--json``: as INTERFACE.md says)."""
    from db.commands import charge

    as_json = bool(ctx.params.get("as_json"))
    with ledger(ctx, write=True) as book:
        info = current(book, ctx, lock=True)
        everyone = book.players(info)
        known = everyone + sorted(book.player_names(info) - set(everyone))
        made = charge(book, info, make(Sharers(info.name, everyone, known)))
    if as_json:
        emit_json(charge_json(info.name, made))
        return
    say_charge(info.name, made)


def say_charge(session: str, made: "Charge") -> None:
    """A fee or a shared cost booked in ``session``, said (and the cents left over)."""
    told = made.told()
    say(
        said("Fee in {session}: {charge}.", session=session, charge=told)
        if made.kind == "fee"
        else said("Shared cost in {session}: {charge}.", session=session, charge=told)
    )
    remainder = made.remainder()
    if remainder is not None:
        say(said("{news}.", news=remainder))


def book_night_charge(
    ctx: typer.Context,
    night: str,
    creditor: str,
    make: "Callable[[str, Sequence[tuple[str, Sequence[str]]]], list[tuple[str, Charge]]]",
) -> None:
    """Book a fee or a shared cost for a whole night (``night``: its name, empty for the
    current session's), each table's part at that table, and say each (``--json``: one
    object per table, as a session's fee says it)."""
    from db.commands import known_player, night_charges

    as_json = bool(ctx.params.get("as_json"))
    with ledger(ctx, write=True) as book:
        try:
            who = known_player(book, creditor)
            name, booked = night_charges(
                book, night or current(book, ctx).night, lambda t: make(who, t), who
            )
        except ChouetteError as err:
            fail(err.said)
    if as_json:
        emit_json({"night": name, "charges": [charge_json(info.name, c) for info, c in booked]})
        return
    for info, made in booked:
        say_charge(info.name, made)


def charge_json(session: str, made: "Charge") -> dict[str, Any]:
    """A fee or a shared cost as ``fee --json`` and ``expense --json`` write it."""
    return {
        "session": session,
        "kind": made.kind,
        "to": made.to,
        "cents": made.cents,
        "note": str(made.note),
        "shares": [{"player": p, "cents": c} for p, c in made.shares],
        "moves": made.moves(),
        "left_over": list(made.left_over),
    }


def players_argument(help: str) -> Any:
    """Players named after a command's other arguments (none: the default its help says)."""
    return typer.Argument(
        metavar="PLAYER", help=help, autocompletion=complete_player, show_default=False
    )


NoteOption = Annotated[
    str | None, typer.Option("--note", metavar="TEXT", help="What it is for (required).")
]


def required_note(note: str | None, what: str) -> str:
    if note is None:
        fail(NOTE_REQUIRED[what], 2)
    return note


#: A fee or a cost given with no note.
NOTE_REQUIRED = {
    "the fee": said("say what the fee is for: --note TEXT (it stays on the record)"),
    "the cost": said("say what the cost is for: --note TEXT (it stays on the record)"),
}


NightCharge = Annotated[
    str | None,
    typer.Option(
        "--night",
        metavar="[NAME]",
        help="Every player of a club night's tables, each once at their first table "
        "(default: the current session's night).",
        autocompletion=complete_night,
    ),
]


@app.command(cls=OptionalValues)
def fee(
    ctx: typer.Context,
    amount: Annotated[
        str, typer.Argument(metavar="AMOUNT", help="What each player pays, e.g. 5.00.")
    ],
    players: Annotated[
        list[str] | None,
        players_argument(
            help="Who pays it (default: every player of the session but the organiser)."
        ),
    ] = None,
    to: Annotated[
        str | None,
        typer.Option(
            "--to",
            metavar="PLAYER",
            help="The organiser, who is owed it (required).",
            autocompletion=complete_player,
        ),
    ] = None,
    note: NoteOption = None,
    night: NightCharge = None,
    as_json: JsonFlag = False,
) -> None:
    """Charge a table fee or room hire: each player named owes the organiser AMOUNT.

    Without players, every player of the session (seated now, sitting out, or gone with
    anything booked) but the organiser pays it; the organiser named among them is left
    out. Booked in the ledger (standings show fees and costs apart), undone by undo.
    --night charges every player of the night's tables once, at the first table they
    played at; the organiser need not play at any (undo takes back each table's part at
    that table).

    Examples:

    \b
        chouette fee 5.00 --to ann --note "table fee"
        chouette fee 20 bob cat --to ann --note "room hire"
        chouette fee 3 --to ann --night --note "room hire"
    """
    from chouette.costs import fee as charged
    from chouette.costs import night_fee

    cents = money_option(amount, "AMOUNT")
    assert cents is not None
    if to is None:
        fail(said("say who is owed the fee: --to PLAYER (the organiser)"), 2)
    what = required_note(note, "the fee")
    if night is not None:
        if players:
            fail(said("PLAYER or --night, not both"), 2)
        book_night_charge(ctx, night, to, lambda who, tables: night_fee(cents, tables, who, what))
        return

    def make(sharers: Sharers) -> "Charge":
        (organiser,) = sharers.named([to])
        named = sharers.named(players or [])
        return charged(cents, named or sharers.everyone, organiser, what, named=bool(named))

    book_charge(ctx, make)


@app.command(cls=OptionalValues)
def expense(
    ctx: typer.Context,
    payer: Annotated[
        str,
        typer.Argument(metavar="PAYER", help="Who paid it.", autocompletion=complete_player),
    ],
    amount: Annotated[str, typer.Argument(metavar="AMOUNT", help="What it cost, e.g. 30.00.")],
    more: Annotated[
        list[str] | None, players_argument(help="More players sharing it, after --among.")
    ] = None,
    among: Annotated[
        list[str] | None,
        typer.Option(
            "--among",
            metavar="PLAYER",
            help="Who shares it (default: every player of the session, the payer included).",
            autocompletion=complete_player,
            show_default=False,
        ),
    ] = None,
    note: NoteOption = None,
    night: NightCharge = None,
    as_json: JsonFlag = False,
) -> None:
    """Share a cost someone paid: each sharer owes PAYER their part of AMOUNT.

    Split to the cent: the cents left over go one each to the first sharers as written,
    and the command says who. The payer may share it or not. Booked in the ledger
    (standings show fees and costs apart), undone by undo. --night shares it among every
    player of the night's tables, each share booked at the first table its player played
    at (undo takes back each table's part at that table).

    Examples:

    \b
        chouette expense ann 30.00 --note pizza
        chouette expense ann 10 --among ann bob cat --note "taxi"
        chouette expense ann 60 --night --note pizza
    """
    from chouette.costs import expense as shared
    from chouette.costs import night_expense

    cents = money_option(amount, "AMOUNT")
    assert cents is not None
    if more and not among:
        fail(said("name who shares it after --among (chouette expense ann 10 --among bob cat)"), 2)
    what = required_note(note, "the cost")
    if night is not None:
        if among or more:
            fail(said("--among or --night, not both"), 2)
        book_night_charge(
            ctx, night, payer, lambda who, tables: night_expense(who, cents, tables, what)
        )
        return

    def make(sharers: Sharers) -> "Charge":
        (who,) = sharers.named([payer])
        named = sharers.named([*(among or []), *(more or [])])
        return shared(who, cents, named or sharers.everyone, what)

    book_charge(ctx, make)


# ---------------------------------------------------------------- accounts


@app.command(cls=Command)
def account(
    ctx: typer.Context,
    player: Annotated[
        str | None,
        typer.Argument(metavar="PLAYER", help="Whose account.", autocompletion=complete_player),
    ] = None,
    iban: Annotated[
        str | None,
        typer.Option(
            "--iban", metavar="IBAN", help="The account's IBAN (its checksum is checked)."
        ),
    ] = None,
    holder: Annotated[
        str | None,
        typer.Option(
            "--name", metavar="NAME", help="The account holder's name (default: the player's)."
        ),
    ] = None,
    phone: Annotated[
        str | None,
        typer.Option("--phone", metavar="NUMBER", help="A phone number to be paid by (MobilePay)."),
    ] = None,
    swish: Annotated[
        str | None, typer.Option("--swish", metavar="NUMBER", help="A Swish number.")
    ] = None,
    every: Annotated[
        bool, typer.Option("--list", help="Every player's account (at this terminal only).")
    ] = False,
    as_json: JsonFlag = False,
) -> None:
    """Where a player is paid: an IBAN, the holder's name, a phone or Swish number.

    Kept for the whole club, and used by settle --qr for the payment codes. An IBAN is
    checked by its check digits and its country's format: a wrong one is refused and nothing
    is written. An option given empty ("") clears it; the others are kept. Without options,
    the player's account is shown. An account number is shown here, at the terminal, and
    never on the shared scoreboard, the report, settle's table or settle --message; the
    page refuses this command.

    Examples:

    \b
        chouette account ann --iban "DE89 3704 0044 0532 0130 00" --name "Ann Smith"
        chouette account bob --phone "+45 12 34 56 78"
        chouette account --list
    """
    from db.commands import save_account

    if every == (player is not None):
        fail(said("name a player, or --list for every account"), 2)
    changes = {"iban": iban, "holder": holder, "phone": phone, "swish": swish}
    if every or all(v is None for v in changes.values()):
        with reading(ctx) as book:
            found = book.accounts()
            if player is not None:  # inside: a refusal is said as every refusal is
                known = resolve(normal_name(player), list(found), said("{player} has no account"))
                found = {known: found[known]}
        emit_accounts(list(found.values()), as_json)
        return
    assert player is not None
    with ledger(ctx, write=True) as book:
        saved = save_account(book, player, **changes)
    emit_accounts([saved], as_json, said("Account of {player} saved.", player=saved.player))


def emit_accounts(accounts: "Sequence[Account]", as_json: bool, done: "Said | None" = None) -> None:
    """Accounts as ``account`` shows them (at the keeper's terminal only)."""
    if as_json:
        emit_json(
            {
                "accounts": [
                    {
                        "player": a.player,
                        "holder": a.holder,
                        "iban": a.iban,
                        "phone": a.phone,
                        "swish": a.swish,
                    }
                    for a in accounts
                ]
            }
        )
        return
    if done is not None:
        say(done)
    if not accounts:
        say(said("No accounts yet: chouette account PLAYER --iban IBAN keeps one."))
        return
    headers = [marked("player"), marked("holder"), marked("IBAN"), marked("phone"), "Swish"]
    emit_rows(
        headers,
        [[a.player, a.holder, a.grouped(), a.phone, a.swish] for a in accounts],
        Format.table,
    )


# ---------------------------------------------------------------- records


@app.command(cls=Command)
def record(
    ctx: typer.Context,
    source: Annotated[
        str, typer.Argument(metavar="FILE|-", help="A file of records, or - for standard input.")
    ],
    as_json: JsonFlag = False,
) -> None:
    """Book chouette game records, all or nothing.

    One record, a JSON array of them, or JSON Lines; FILE or - for standard input (UTF-8, at
    most 64 MiB), read and checked whole before the ledger is locked.

    Examples:

    \b
        chouette record games.jsonl
        chouette --session saturday record -
    """
    from chouette.record import RECORD, parse_record, read_records
    from chouette.report import booked_json
    from chouette.words import said
    from db.commands import record as recorded
    from files.whole import read_input

    label = "standard input" if source == "-" else source
    try:  # read and checked whole before the ledger is opened: no lock held meanwhile
        records = read_records(
            read_input(source, said("records")), RECORD if source == "-" else source
        )
        parsed = [(parse_record(data, where), where) for where, data in records]
    except ChouetteError as err:
        fail(err.said)
    if not parsed:
        fail(
            said("standard input holds no records to book")
            if source == "-"
            else said("{file} holds no records to book", file=label)
        )
    with ledger(ctx, write=True) as book:
        booked = recorded(book, parsed, session_option(ctx))
        if booked:
            book.use(booked[-1].session.name)
    if as_json:
        shapes = [booked_json(p.session.name, p.number, p.outcome) for p in booked if p.outcome]
        emit_json(shapes[0] if len(shapes) == 1 else shapes)
        return
    for played in booked:
        for notice in played.notices:
            note(notice)
        assert played.outcome is not None
        say(
            said(
                "Booked game {number} of {session}; next line: {line}",
                number=played.number,
                session=played.session.name,
                line=played.outcome.next_line.describe(),
            )
        )


# ---------------------------------------------------------------- engine files


def parse_names(items: Sequence[str]) -> dict[str, str]:
    names = {}
    for item in items:
        engine, sep, player = item.rpartition("=")
        if not sep or not engine or not player:
            fail(said("--as {item}: write ENGINE_NAME=PLAYER", item=repr(item)), 2)
        names[normal_name(engine)] = normal_name(player)
    return names


@app.command(cls=Command, name="import")
def import_command(
    ctx: typer.Context,
    files: Annotated[
        list[Path],
        typer.Argument(metavar="FILE", help=".mat, .sgf, .xg, .bgf, .jsonl or .csv files."),
    ],
    names: Annotated[
        list[str] | None,
        typer.Option(
            "--as",
            metavar="ENGINE_NAME=PLAYER",
            help="Who an engine's player is in the session (repeatable).",
        ),
    ] = None,
    match_as_money: Annotated[
        bool, typer.Option("--match-as-money", help="Book a match file's games as money games.")
    ] = False,
    as_json: JsonFlag = False,
) -> None:
    """Book engine games: .mat, .sgf, .xg, .bgf, .jsonl, .csv.

    Each engine game becomes a head-to-head game of the session. Each file is all or
    nothing; a file imported before books nothing the second time. An export of chouette
    itself is restored into an empty database. eXtreme Gammon .xg and BGBlitz .bgf files
    need the gammonview library: the xg extra (pip install '.[xg]' in chouette's clone).

    Examples:

    \b
        chouette import friday.mat
        chouette import match.sgf --as 'Ann Smith=ann' --match-as-money
    """
    from db.bulk import few_collections

    # the database libraries load (the first time): objects that live as long as the
    # process, so no collection walks them, then or after (a sixth of a .mat file's import)
    with few_collections(freeze="db.imports" not in sys.modules):
        from db.imports import import_file
        from files.engine import check_file

    mapping = parse_names(names or [])
    if len(files) == 1 and is_export_file(files[0]):
        restore_export(ctx, files[0])
        return
    with reading(ctx) as book:  # the house rules the files are read with
        info = current(book, ctx)
        rules = info.rules
        try:  # --as 'Ann Smith=ANN' is the seated ann (a name seated nowhere is left to refuse)
            mapping = {e: match(p, info.line.order) or p for e, p in mapping.items()}
        except ChouetteError as err:
            fail(said("{option}: {reason}", option="--as", reason=err.said))
    summaries = []
    with ExitStack() as kept, few_collections():
        checked = []
        for path in files:  # read and check every file before the ledger is locked
            with progress_bar(path) as update:
                try:
                    read = check_file(path, rules, match_as_money=match_as_money, progress=update)
                except ChouetteError as err:
                    fail(err.said)
            checked.append(kept.enter_context(read))
        with ledger(ctx, write=True) as book:
            info = current(book, ctx, lock=True)
            for item in checked:
                try:
                    summaries.append(import_file(book, info, item, names=mapping))
                except ChouetteError as err:
                    fail(err.said)
    if as_json:
        emit_json([import_json(summary) for summary in summaries])
        return
    for summary in summaries:
        report_import(summary)


def import_json(summary: Any) -> dict[str, Any]:
    """What an import did, for ``--json``."""
    earlier = summary.earlier
    return {
        "file": summary.file,
        "session": summary.session,
        "format": summary.format,
        "booked": summary.booked,
        "already_in_ledger": summary.skipped,
        "games": None if summary.first_game is None else [summary.first_game, summary.last_game],
        "imported_before": None
        if earlier is None
        else {
            "file": earlier.name,
            "session": earlier.session,
            "at": earlier.imported_at.isoformat(),
        },
        "points": summary.points,
        "cents": summary.cents,
        "notes": [str(n) for n in summary.notes],
        "warnings": [str(w) for w in summary.warnings],
    }


def is_export_file(path: Path) -> bool:
    """Whether ``path`` is a regular file that starts like chouette's own export (its first
    line that is not blank; anything else, a device or a pipe included, is left to the
    engine readers to refuse)."""
    import stat

    from chouette.engines.text import MAX_LINE
    from db.transfer import is_export

    try:
        if not stat.S_ISREG(path.stat().st_mode):
            return False
        with path.open(encoding="utf-8-sig") as handle:
            for _ in range(100):  # its first line, blank lines before it aside (as restored)
                line = handle.readline(MAX_LINE)
                if line.strip() or not line:
                    return is_export(line)
            return False
    except (OSError, UnicodeError):
        return False


def restore_export(ctx: typer.Context, path: Path) -> None:
    from db.transfer import restore
    from files.whole import export_lines

    with ledger(ctx, write=True, create=True) as book, closing(export_lines(path)) as lines:
        counts = restore(book, lines)
    sessions = said_n("{n} session", "{n} sessions", counts["sessions"], n=counts["sessions"])
    games = said_n("{n} game", "{n} games", counts["games"], n=counts["games"])
    payments = said_n("{n} payment", "{n} payments", counts["payments"], n=counts["payments"])
    charges = counts["charges"]
    if charges:
        costs = said_n("{n} fee or shared cost", "{n} fees and shared costs", charges, n=charges)
        told = said(
            "Restored {sessions}, {games}, {costs} and {payments} from {file}.",
            sessions=sessions,
            games=games,
            costs=costs,
            payments=payments,
            file=path.name,
        )
    else:
        told = said(
            "Restored {sessions}, {games} and {payments} from {file}.",
            sessions=sessions,
            games=games,
            payments=payments,
            file=path.name,
        )
    say(told)


@app.command(cls=Command)
def verify(
    path: Annotated[
        Path,
        typer.Argument(metavar="FILE", dir_okay=False, help="An export (chouette export)."),
    ],
    as_json: JsonFlag = False,
) -> None:
    """Check an export offline as a restore reads it, and print each session's fingerprint.

    Needs no ledger: the file is read as `chouette import` restores it (every line by its
    kind's fields, every game replayed, each session's games, payments, fees, imported
    files and acceptances checked), into a throwaway ledger, and what a restore refuses is
    refused here with the same reason. Every session's chain must fit link by link, and its
    record must be the one its newest link was made with; a session with no chain is a
    problem (only an export from before chouette chained records, schema 11, has none). A
    fingerprint someone noted at the table that matches proves the record has not changed
    since. It does not prove the record was right when it was written, nor who wrote it:
    someone who rebuilds a whole chain makes an export that checks, with another
    fingerprint. Exit 1 if a session does not check.

    Example:

    \b
        chouette verify backup.jsonl
    """
    from chouette.words import said
    from db import verify_export as verified
    from files.whole import Unreadable, export_lines

    try:
        with closing(export_lines(path)) as lines:  # (the file closed when a line is refused)
            found = verified(lines, clock())
    except Unreadable as err:  # (its message names the file)
        fail(err.said)
    except ChouetteError as err:
        fail(said("{path}: {reason}", path=str(path), reason=err.said))
    if as_json:
        emit_json(
            {
                "file": str(path),
                "ok": all(v.problem is None for v in found),
                "sessions": [
                    {
                        "session": v.session,
                        "fingerprint": v.fingerprint,
                        "problem": None if v.problem is None else str(v.problem),
                    }
                    for v in found
                ],
            }
        )
    else:
        for v in found:
            if v.problem is not None:
                say(
                    said(
                        "{session}: DOES NOT CHECK (line {line}): {problem}",
                        session=v.session,
                        line=v.line,
                        problem=v.problem,
                    )
                )
            elif v.fingerprint is None:
                say(
                    said(
                        "{session}: no chain (nothing is booked in it: a session of a ledger "
                        "older than chouette's chains, unchanged since)",
                        session=v.session,
                    )
                )
            else:
                say(
                    said(
                        "{session}: fingerprint {fingerprint}, the chain checks",
                        session=v.session,
                        fingerprint=v.fingerprint,
                    )
                )
    bad = [v for v in found if v.problem is not None]
    if bad:
        fail(
            said_n(
                "{n} session in {file} does not check",
                "{n} sessions in {file} do not check",
                len(bad),
                n=len(bad),
                file=path.name,
            )
        )


@app.command(cls=Command)
def export(
    ctx: typer.Context,
    target: Annotated[
        str, typer.Argument(metavar="FILE|-", help="File to write, or - for standard output.")
    ] = "-",
    force: Annotated[
        bool,
        typer.Option("--force", help="Write over FILE even if it is not an earlier export."),
    ] = False,
) -> None:
    """Write the whole ledger as JSON Lines.

    A backup, or a move to another database: `chouette import FILE` of the export into an
    empty database (SQLite or PostgreSQL) rebuilds it with identical standings and sheets.
    FILE is written whole or not at all (never over the ledger itself, and over another
    file only if it is an earlier export, or with --force).

    Examples:

    \b
        chouette export club.jsonl
        chouette --db club-copy.db import club.jsonl
    """
    from db.transfer import export as rows

    if target != "-":
        refuse_ledger_file(ctx, Path(target))
        if not force:
            refuse_overwrite(Path(target), is_export_file, "chouette export")
    with ledger(ctx, write=False) as book:
        lines = [json_safe(json.dumps(row, ensure_ascii=False)) for row in rows(book)]
    text = "\n".join(lines) + "\n"
    if target == "-":
        hearer().write(text)
        return
    write_file(Path(target), text, private=True)
    say(
        said_n(
            "Exported {n} line to {file}.",
            "Exported {n} lines to {file}.",
            len(lines) - 1,
            n=len(lines) - 1,
            file=str(target),
        )
    )


def refuse_ledger_file(ctx: typer.Context, target: Path) -> None:
    """An export or a report is never written over the ledger's own files."""
    from db.urls import ledger_files
    from files.whole import refuse_ledger

    try:
        refuse_ledger(target, ledger_files(ledger_url(options(ctx))))
    except ChouetteError as err:
        fail(err.said)


def is_report_file(path: Path) -> bool:
    """Whether ``path`` is a page ``chouette report`` wrote (it names chouette its generator)."""
    try:
        with path.open("rb") as handle:
            return b'<meta name="generator" content="chouette">' in handle.read(4096)
    except OSError:
        return False


def refuse_overwrite(target: Path, ours: Callable[[Path], bool], what: str) -> None:
    """A file is written over only if ``what`` wrote it before (``ours`` says), or with
    --force: nothing else a user keeps is lost to a typo."""
    try:
        regular = target.is_file()  # (a device, /dev/stdout say, is written to as it was)
    except (OSError, ValueError):
        regular = False  # a name no file can have: the write says so
    if regular and not ours(target):
        fail(
            said(
                "{file} exists and is not a file {program} wrote: nothing was written (give "
                "--force to write over it)",
                file=str(target),
                program=what,
            )
        )


def write_file(target: Path, text: str | Iterable[str], *, private: bool) -> None:
    """``text`` (or its pieces, as they are made) into ``target`` whole, or an error saying
    why and that nothing changed."""
    from files.whole import reason, write_whole

    data = text.encode("utf-8") if isinstance(text, str) else (t.encode("utf-8") for t in text)
    try:
        write_whole(target, data, private=private)
    except OSError as err:
        fail(
            said(
                "cannot write {file}: {reason}; {file} is as it was",
                file=str(target),
                reason=reason(err),
            )
            if os.path.lexists(target)
            else said(
                "cannot write {file}: {reason}; nothing was written",
                file=str(target),
                reason=reason(err),
            )
        )


@app.command(cls=Command)
def migrate(ctx: typer.Context, as_json: JsonFlag = False) -> None:
    """Bring a ledger written by an older chouette up to date.

    Reports never change the ledger, so they refuse an older one; any command that writes
    migrates it first, and this one does only that (a new ledger where there is none).

    Example:

    \b
        chouette migrate
    """
    from db.migrations import LATEST

    with ledger(ctx, write=True, create=True):
        pass
    if as_json:
        emit_json({"schema": LATEST})
    else:
        say(said("The ledger is up to date (schema {schema}).", schema=LATEST))


@app.command(cls=Command)
def check(ctx: typer.Context, as_json: JsonFlag = False) -> None:
    """Verify the ledger and list every problem.

    The file itself (SQLite's integrity and foreign-key checks, every stored value
    readable); the schema as chouette makes it (a trigger, view, table, column or index
    planted, dropped or changed is named); bookings sum to zero and equal what replaying the
    stored events gives; the line is consistent. Exit code 1 if anything is wrong.

    Example:

    \b
        chouette check
    """
    from db.audit import check as audit

    with ledger(ctx, write=False) as book:
        found = audit(book)
    if as_json:
        emit_json(
            {
                "ok": not found.problems,
                "problems": [str(problem) for problem in found.problems],
                "notes": [str(note) for note in found.notes],
                "sessions": found.sessions,
                "games": found.games,
                "bookings": found.bookings,
            }
        )
        if found.problems:
            raise typer.Exit(1)
        return
    for note in found.notes:
        say(said("Note: {note}", note=note))
    if found.problems:
        for problem in found.problems:
            say(said("Problem: {problem}", problem=problem), err=True)
        fail(
            said_n(
                "{n} problem in the ledger",
                "{n} problems in the ledger",
                len(found.problems),
                n=len(found.problems),
            )
        )
    say(
        said(
            "The ledger is consistent: {sessions}, {games}, {bookings}.",
            sessions=said_n("{n} session", "{n} sessions", found.sessions, n=found.sessions),
            games=said_n("{n} game", "{n} games", found.games, n=found.games),
            bookings=said_n("{n} booking", "{n} bookings", found.bookings, n=found.bookings),
        )
    )


@contextmanager
def progress_bar(path: Path) -> Iterator[Callable[[int], None] | None]:
    """A progress bar on a terminal for a big file; nothing in a pipe."""
    try:
        size = path.stat().st_size
    except OSError:
        size = 0
    if not sys.stderr.isatty() or size < (4 << 20):
        yield None
        return
    with typer.progressbar(length=size, label=path.name, file=sys.stderr) as bar:
        seen = 0

        def update(done: int) -> None:
            nonlocal seen
            bar.update(done - seen)
            seen = done

        yield update


def report_import(summary: Any) -> None:
    from chouette.report import already_imported_text, imported_rows, imported_text

    if summary.earlier is not None:
        earlier = summary.earlier
        say(
            already_imported_text(
                summary.file, earlier.games, earlier.session, earlier.imported_at.astimezone()
            )
        )
        return
    say(imported_text(summary.file, summary.booked, summary.session, summary.skipped))
    if summary.points:
        emit(imported_rows(summary.points, summary.cents))
    for text in summary.notes:
        note(text)
    for warning in summary.warnings[:20]:
        warn(warning)
    if len(summary.warnings) > 20:
        say(said("… and {n} more warnings.", n=len(summary.warnings) - 20), err=True)


# ---------------------------------------------------------------- a tournament


event_app = typer.Typer(
    name="event",
    cls=Commands,
    help="A chouette tournament: banks, levels with a rising starting cube, tables drawn at "
    "random, re-entries into a prize pool, payouts.",
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)
app.add_typer(event_app, name="event")

EventOption = Annotated[
    str | None,
    typer.Option(
        "--event",
        metavar="NAME",
        help="The event (default: the one used last).",
        autocompletion=lambda ctx, incomplete: complete_event(ctx, incomplete),
    ),
]
SeedOption = Annotated[
    int | None,
    typer.Option(
        metavar="N",
        **bounds("new --seed"),
        help="Seed of the draw (default: a random one, printed): the same seed redraws the "
        "same tables.",
    ),
]


def complete_event(ctx: typer.Context, incomplete: str) -> list[str]:
    """Shell completion of an event's name."""
    try:
        with ledger_for(options(ctx)) as book:
            names = [t.name for t in book.tournaments()]
    except ChouetteError:
        return []
    return [n for n in names if n.startswith(incomplete)]


def a_seed(given: int | None) -> int:
    """The seed given, or a random one (said with the draw, so it can be checked)."""
    import random

    return random.SystemRandom().randrange(1 << 32) if given is None else given


@contextmanager
def event_ledger(
    ctx: typer.Context, name: str | None, *, write: bool = True
) -> "Iterator[tuple[Ledger, Any]]":
    """The ledger in one transaction, and the event ``name`` names (or the one used last);
    a refusal prints ``Error: …`` and exits 1."""
    from db.events import find

    try:
        with ledger_for(options(ctx), write=write) as book:
            yield book, find(book, name)
    except ChouetteError as err:
        fail(err.said)


@event_app.command(cls=Command, name="new")
def event_new(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(metavar="NAME", help="The event's name, e.g. fcc.")],
    bank: Annotated[
        int,
        typer.Option(
            "--bank", metavar="N", **bounds("event new --bank"), help="Each entry's bank of points."
        ),
    ],
    levels: Annotated[
        str,
        typer.Option(
            "--levels",
            metavar="CUBES",
            help="Each level's starting cube, rising: 1,2,4,8,16,32,64 (past the last, the last).",
        ),
    ],
    minutes: Annotated[
        int | None,
        typer.Option(
            metavar="M", **bounds("event new --minutes"), help="How long a level lasts (the clock)."
        ),
    ] = None,
    table_size: Annotated[
        str, typer.Option("--table-size", metavar="FEWEST-MOST", help="Players at a table.")
    ] = "3-5",
    entry: Annotated[
        str,
        typer.Option("--entry", metavar="AMOUNT", help="Each entry's money into the prize pool."),
    ] = "0",
    reentries_until: Annotated[
        int | None,
        typer.Option(
            "--reentries-until",
            metavar="LEVEL",
            **bounds("event new --reentries-until"),
            help="Entries and re-entries until this level (default: entries at level 1 only, "
            "no re-entries).",
        ),
    ] = None,
    payout: Annotated[
        str,
        typer.Option(
            "--payout",
            metavar="PERCENTS",
            help="Per cent of the pool by place, e.g. 50,25,15,10 (default: 100, the winner "
            "takes all).",
        ),
    ] = "100",
    ties: Annotated[
        Literal["split", "roll"],
        typer.Option(
            "--ties",
            metavar="split|roll",
            help="Players level at the end (same bank, out at the same level): share their "
            "places' money, or roll off for the places.",
        ),
    ] = "split",
    organiser: Annotated[
        str,
        typer.Option("--organiser", metavar="NAME", help="Who holds the pool and pays it out."),
    ] = "organiser",
    preset: Annotated[
        str | None,
        typer.Option(
            "--rules",
            metavar="PRESET",
            help="The tables' house rules: a club rule set (chouette rules --presets), e.g. "
            "florida-challenge; table stakes of the bank.",
            autocompletion=lambda incomplete: complete_preset(incomplete),
        ),
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Start a chouette tournament: its terms, its rules card, its purse.

    Each entry (chouette event enter) pays --entry into the prize pool, held by the
    organiser, and gets a bank of --bank points (chips, not money). Each level's tables are
    drawn at random (chouette event draw) and play table stakes from the banks with every
    cube starting at the level's cube; chouette event next closes a level, carries the
    banks, puts out who has none and draws the next; chouette event end ranks by bank and
    pays the pool by --payout. The purse is a session of the event's name: each entry a
    fee owed to the organiser, each payout a prize the organiser owes (settle pays them).

    Examples:

    \b
        chouette event new fcc --bank 50 --levels 1,2,4,8,16,32,64 --reentries-until 4
        chouette event new fcc --bank 50 --levels 1,2,4 --minutes 45 --entry 20 --payout 60,40
        chouette event new cup --bank 13 --levels 1,2,4,8 --table-size 4-5 --rules cnb
    """
    from chouette.event import EventRules, parse_levels, parse_payout, parse_table_size
    from chouette.line import check_name
    from db.events import create

    cents = money_option(entry, "--entry")
    assert cents is not None
    try:
        shape = (parse_levels(levels), parse_payout(payout), parse_table_size(table_size))
    except ChouetteError as err:
        fail(err.said, 2)
    given = {"table_stakes": bank}
    house_rules, origin = starting_rules(ctx, preset, given)
    try:
        terms = EventRules(
            bank=bank,
            levels=shape[0],
            organiser=check_name(organiser),
            house=house_rules,
            minutes=minutes,
            table_size=shape[2],
            entry=cents,
            reentries_until=reentries_until,
            payout=shape[1],
            ties=ties,
            preset=preset,
        )
    except ChouetteError as err:
        fail(err.said)
    try:
        with ledger_for(options(ctx), write=True, create=True) as book:
            info = create(book, name, terms, origin)
    except ChouetteError as err:
        fail(err.said)
    if as_json:
        emit_json({"event": info.name, "terms": terms.to_dict()})
        return
    from chouette.words import said

    say(
        said(
            "Event {event}: its purse is the session {purse}.",
            event=info.name,
            purse=info.purse.name,
        )
    )
    say_event_card(terms)
    say(
        said(
            "The players enter with chouette event enter PLAYER... and accept the card with "
            "chouette event accept PLAYER... (chouette event rules shows it)."
        )
    )


def say_event_card(terms: Any) -> None:
    """The event's terms, a line each (``event new``, ``event rules``)."""
    from chouette.event import card_lines
    from chouette.words import said

    for topic, text in card_lines(terms):
        say(said("{topic}: {text}", topic=said(topic), text=text))


@event_app.command(cls=Command, name="rules")
def event_rules(ctx: typer.Context, event: EventOption = None, as_json: JsonFlag = False) -> None:
    """The event's rules card: its terms, its tables' house rules, who accepted them.

    Example:

    \b
        chouette event rules
    """
    from chouette.card import card_text, rule_lines
    from chouette.event import card_lines
    from chouette.words import said
    from db.events import state_of

    with event_ledger(ctx, event, write=False) as (book, info):
        state, _ = state_of(book, info)
        card = book.card(info.purse)
    if as_json:
        emit_json(
            {
                "event": info.name,
                "terms": info.rules.to_dict(),
                "card": {topic: str(text) for topic, text in card_lines(info.rules)},
                "house_rules": dict(rule_lines(card.rules)),
                "accepted": sorted(state.accepted),
                "not_accepted": [p for p in state.entered if p not in state.accepted],
            }
        )
        return
    say(said("The event {event}:", event=info.name))
    say_event_card(info.rules)
    say(said("Its tables' house rules (each level's starting cube apart):"))
    say("\n".join(card_text(card, datetime.astimezone, words=hearer().words)[1:]))
    waiting = [p for p in state.entered if p not in state.accepted]
    if state.accepted:
        say(said("Accepted by: {players}.", players=", ".join(sorted(state.accepted))))
    if waiting:
        say(said("Not yet accepted: {players}.", players=", ".join(waiting)))


@event_app.command(cls=Command, name="accept")
def event_accept(
    ctx: typer.Context,
    players: Annotated[
        list[str] | None, typer.Argument(metavar="PLAYER", help="The players who accept.")
    ] = None,
    all: Annotated[
        bool, typer.Option("--all", help="Every entrant who has not accepted yet.")
    ] = False,
    event: EventOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Entrants accept the event's rules card, as chouette event rules shows it.

    Example:

    \b
        chouette event accept ann bob cat
    """
    from chouette.words import said
    from db.events import accept, state_of

    if all == bool(players):
        fail(said("name the players who accept the event's rules, or --all (not both)"), 2)
    with event_ledger(ctx, event) as (book, info):
        names = list(players or [])
        if all:
            state, _ = state_of(book, info)
            names = [p for p in state.entered if p not in state.accepted]
            if not names:
                fail(said("every entrant has accepted the rules of {event}", event=info.name))
        names = accept(book, info, names)
    if as_json:
        emit_json({"event": info.name, "accepted": names})
        return
    say(said("{players} accept the rules of {event}.", players=", ".join(names), event=info.name))


@event_app.command(cls=Command, name="enter")
def event_enter(
    ctx: typer.Context,
    players: Annotated[list[str], typer.Argument(metavar="PLAYER", help="Who enters.")],
    event: EventOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Players enter the event: each pays the entry into the prize pool and gets a bank.

    Entries close after the re-entries' last level (--reentries-until; else after level 1).
    During a drawn level a late entry sits at the table with the fewest players, between
    its games, if one has room (else the next draw seats them).

    Example:

    \b
        chouette event enter ann bob cat dan eve fay gus hal
    """
    from chouette.words import Money, said, said_n
    from db.events import enter, table_name

    with event_ledger(ctx, event) as (book, info):
        after = enter(book, info, players)
    names = list(after.entered[-len(players) :])
    if as_json:
        emit_json(
            {
                "event": info.name,
                "entered": names,
                "pool_cents": after.pool,
                "tables": {
                    p: table_name(info.name, after.level, t)
                    for p in names
                    if (t := after.table_of(p)) is not None
                },
            }
        )
        return
    say(
        said_n(
            "{players} enters {event} with a bank of {bank}; the pool is {pool}.",
            "{players} enter {event}, each with a bank of {bank}; the pool is {pool}.",
            len(names),
            players=", ".join(names),
            event=info.name,
            bank=info.rules.bank,
            pool=Money(after.pool),
        )
    )
    for name in names:
        table = after.table_of(name)
        if table is not None:
            say(
                said(
                    "{player} sits at {table}.",
                    player=name,
                    table=table_name(info.name, after.level, table),
                )
            )
        elif after.drawn is not None:
            say(said("{player} waits for the next draw: every table is full.", player=name))


@event_app.command(cls=Command, name="reenter")
def event_reenter(
    ctx: typer.Context,
    player: Annotated[str, typer.Argument(metavar="PLAYER", help="Whose bank is gone.")],
    event: EventOption = None,
    as_json: JsonFlag = False,
) -> None:
    """A player whose bank is gone enters again: another entry into the pool, a fresh bank.

    At their table (between its games) they play on with the fresh bank; a player out comes
    back in at the table with the fewest players. Refused, with the reason, past the level
    --reentries-until names, or for a player who still has a bank.

    Example:

    \b
        chouette event reenter dan
    """
    from chouette.words import Money, said
    from db.events import reenter, table_name

    with event_ledger(ctx, event) as (book, info):
        after, name = reenter(book, info, player)
    table = after.table_of(name)
    where = None if table is None else table_name(info.name, after.level, table)
    if as_json:
        emit_json(
            {
                "event": info.name,
                "player": name,
                "entries": after.entries[name],
                "bank": info.rules.bank,
                "table": where,
                "pool_cents": after.pool,
            }
        )
        return
    if where is None:
        say(
            said(
                "{player} re-enters {event} with a fresh bank of {bank}, for the next draw; "
                "the pool is {pool}.",
                player=name,
                event=info.name,
                bank=info.rules.bank,
                pool=Money(after.pool),
            )
        )
    else:
        say(
            said(
                "{player} re-enters {event} with a fresh bank of {bank} at {table}; the pool "
                "is {pool}.",
                player=name,
                event=info.name,
                bank=info.rules.bank,
                table=where,
                pool=Money(after.pool),
            )
        )


def say_draw(info: Any, state: Any, book: "Ledger", as_json: bool) -> dict[str, Any]:
    """The level's tables as drawn, said (unless ``as_json``), and as JSON."""
    from chouette.event import last_two, misfit
    from chouette.words import said, said_n
    from db.events import table_name

    made = state.drawn
    level = state.level
    tables = [
        {"table": table_name(info.name, level, n), "seats": list(seats)}
        for n, seats in enumerate(made.tables, start=1)
    ]
    shown = {
        "level": level,
        "cube": state.cube,
        "seed": made.seed,
        "repeats": made.repeats,
        "fewest_proven": made.exact,
        "tables": tables,
    }
    if as_json:
        return shown
    say(
        said(
            "Level {level} of {event} (starting cube {cube}), drawn with seed {seed}.",
            level=level,
            event=info.name,
            cube=state.cube,
            seed=made.seed,
        )
    )
    repeats = said_n(
        "{n} pairing repeated from the earlier levels",
        "{n} pairings repeated from the earlier levels",
        made.repeats,
    )
    note = misfit([len(seats) for seats in made.tables], *info.rules.table_size)
    if note is not None:
        say(note)
    final = last_two(made)
    if final is not None:
        say(final)
    if made.exact:
        say(said("{repeats}: the fewest possible.", repeats=repeats))
    else:
        say(said("{repeats}: the fewest a search found (not proven the fewest).", repeats=repeats))
    rows = []
    for number in range(1, len(made.tables) + 1):
        name = table_name(info.name, level, number)
        rows.append([name, book.session(name).line.describe()])
    hearer().table([said("table"), said("line (banks)")], rows)
    return shown


@event_app.command(cls=Command, name="draw")
def event_draw(
    ctx: typer.Context,
    seed: SeedOption = None,
    event: EventOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Draw the tables of the level in play: random, within the table size, as few pairings
    repeated from the earlier levels as the numbers allow.

    Journalled with its seed: the same seed draws the same tables (chouette check draws
    every level again and compares). Each table is a session of the event (NAME-L1-T1),
    playing table stakes from the banks with every cube starting at the level's cube.

    Example:

    \b
        chouette event draw --seed 2024
    """
    from db.events import draw

    with event_ledger(ctx, event) as (book, info):
        after = draw(book, info, a_seed(seed))
        shown = say_draw(info, after, book, as_json)
    if as_json:
        emit_json({"event": info.name, **shown})


@event_app.command(cls=Command, name="next")
def event_next(
    ctx: typer.Context,
    seed: SeedOption = None,
    event: EventOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Close the level in play and draw the next.

    Every game of the level must be booked, none in progress. Each bank is carried to the
    next level (chouette check proves they add up to those carried in), a player whose bank
    is gone is out, the starting cube rises, and the next level's tables are drawn (--seed
    as for chouette event draw).

    Example:

    \b
        chouette event next
    """
    from chouette.words import said
    from db.events import next_level

    with event_ledger(ctx, event) as (book, info):
        closed, after = next_level(book, info, a_seed(seed))
        if not as_json:
            out = [p for p, at in closed.out.items() if at == closed.level - 1]
            say(
                said(
                    "Level {level} of {event} is closed: {total} points carried.",
                    level=closed.level - 1,
                    event=info.name,
                    total=sum(closed.banks[p] for p in closed.players_in),
                )
            )
            if out:
                say(said("Out: {players}.", players=", ".join(out)))
        shown = say_draw(info, after, book, as_json)
    if as_json:
        emit_json(
            {
                "event": info.name,
                "closed": closed.level - 1,
                "out": [p for p, at in closed.out.items() if at == closed.level - 1],
                "banks": {p: closed.banks[p] for p in closed.players_in},
                **shown,
            }
        )


def clock_said(standing: Any) -> Any:
    """The level's clock in words, or None without one."""
    from chouette.words import said

    if standing.ends is None:
        return None
    ends = standing.ends.astimezone().strftime("%H:%M")
    minutes, seconds = divmod(standing.left or 0, 60)
    return said(
        "ends at {time} ({minutes}:{seconds} left)",
        time=ends,
        minutes=minutes,
        seconds=f"{seconds:02d}",
    )


@event_app.command(cls=Command, name="standings")
def event_standings(
    ctx: typer.Context, event: EventOption = None, as_json: JsonFlag = False
) -> None:
    """The event as it stands: the level, its starting cube and clock, the pool, and each
    player's bank (live from their table), table and whether out.

    Example:

    \b
        chouette event standings
    """
    from chouette.words import Money, said
    from db.events import standings

    with event_ledger(ctx, event, write=False) as (book, info):
        shown = standings(book, info)
    if as_json:
        emit_json(shown.to_json())
        return
    clock = clock_said(shown)
    if shown.state.ended:
        say(
            said(
                "{event} has ended after level {level}; the pool was {pool}.",
                event=info.name,
                level=shown.level,
                pool=Money(shown.pool),
            )
        )
    elif clock is None:
        say(
            said(
                "{event}: level {level}, starting cube {cube}; the pool is {pool}.",
                event=info.name,
                level=shown.level,
                cube=shown.cube,
                pool=Money(shown.pool),
            )
        )
    else:
        say(
            said(
                "{event}: level {level}, starting cube {cube}, {clock}; the pool is {pool}.",
                event=info.name,
                level=shown.level,
                cube=shown.cube,
                clock=clock,
                pool=Money(shown.pool),
            )
        )
    rows = [
        [p.name, str(p.bank), p.table or "-", str(p.entries), str(p.out_at or "-")]
        for p in shown.players
    ]
    hearer().table(
        [said("player"), said("bank"), said("table"), said("entries"), said("out at level")],
        rows,
    )
    for undone in shown.undone:
        say(said("Taken back: {draw}.", draw=undone.said(info.name)))


@event_app.command(cls=Command, name="end")
def event_end(
    ctx: typer.Context,
    seed: SeedOption = None,
    event: EventOption = None,
    as_json: JsonFlag = False,
) -> None:
    """End the event: the level in play closes, the players are ranked by bank (ties by the
    event's --ties) and the pool is paid out by --payout, to the cent.

    Each payout is booked in the event's purse as a prize the organiser owes: chouette
    --session NAME settle says who pays whom. --seed rolls off ties under --ties roll.

    Example:

    \b
        chouette event end
    """
    from chouette.event import ordinal
    from chouette.words import Money, said
    from db.events import end

    with event_ledger(ctx, event) as (book, info):
        after = end(book, info, a_seed(seed))
    places = after.final or ()
    if as_json:
        emit_json(
            {
                "event": info.name,
                "pool_cents": after.pool,
                "places": [
                    {
                        "place": p.place,
                        "name": p.name,
                        "bank": p.bank,
                        "out_at": p.out_at,
                        "cents": p.cents,
                    }
                    for p in places
                ],
                "payouts": [{"name": p.name, "cents": p.cents} for p in places if p.cents],
            }
        )
        return
    say(
        said(
            "{event} has ended: the pool of {pool} is paid out.",
            event=info.name,
            pool=Money(after.pool),
        )
    )
    rows = [
        [
            ordinal(p.place),
            p.name,
            str(p.bank),
            "-" if p.out_at is None else str(p.out_at),
            Money(p.cents),
        ]
        for p in places
    ]
    hearer().table(
        [said("place"), said("player"), said("bank"), said("out at level"), said("payout")],
        rows,
    )
    say(
        said(
            "Booked in {purse}: {organiser} owes each payout (chouette --session {purse} settle).",
            purse=info.purse.name,
            organiser=info.rules.organiser,
        )
    )


@event_app.command(cls=Command, name="undo")
def event_undo(ctx: typer.Context, event: EventOption = None, as_json: JsonFlag = False) -> None:
    """Take back the last step of the event: an entry, a re-entry, a draw, a level closed
    (and the next drawn), the end, an acceptance; with none, the event itself.

    Refused when something was done at one of its tables since (undo that there first).

    Example:

    \b
        chouette event undo
    """
    from chouette.words import said
    from db.events import UNDONE, undo

    with event_ledger(ctx, event) as (book, info):
        steps = [s for s in book.steps(info.id) if s.kind != UNDONE]  # (draws taken back stay)
        kind = steps[-1].kind if steps else "event"  # (no step left: the event itself)
        what = undo(book, info)
    if as_json:
        emit_json({"event": info.name, "undone": kind})
        return
    say(said("Undone in {event}: {what}.", event=info.name, what=what))


# ---------------------------------------------------------------- the table mode


def command_names() -> list[str]:
    """Every command of the app, for completion at the table's prompt."""
    return [*inside.commands_of(app), "help", "quit"]


def get_command_once() -> Any:
    """The app's Click command, made once for this process: the group and its options now,
    each command when it is first asked for (:class:`Commands`)."""
    global _command
    with _making:
        if _command is not None:
            return _command
        group = cast(Commands, inside.group_alone(app))
        group.pending = inside.commands_of(app)
        _command = group
    return _command


def dispatch(words: Sequence[str], opts: Options, *, at_table: bool = False) -> int:
    """Run one command line in this process, as ``chouette WORDS`` would (exit code back).
    At the table (``at_table``) a mistake in the words says so in one line, without the
    shell's usage text, and a command that cannot run there is refused."""
    command = get_command_once()
    opts.issued = clock()  # this line was given now, not when the process started
    if at_table:
        why = not_at_table(words)
        if why is not None:
            say(said("Error: {message}", message=why), err=True)
            return 2
    try:
        code = command.main(args=list(words), prog_name="chouette", standalone_mode=False, obj=opts)
    except typer.Exit as done:
        return done.exit_code
    except typer.Abort:
        return 1
    except typer.TyperException as err:  # a usage error
        show = getattr(err, "show", None)
        if at_table:
            message = usage_said(err)
            named = command_words(words)[0]
            known = named in command_names() and named not in ("help", "quit")
            say(
                said(
                    "Error: {message} (help {command} explains it)", message=message, command=named
                )
                if known
                else said("Error: {message} (help lists the commands)", message=message),
                err=True,
            )
        elif show is not None:
            show()
        else:
            say(said("Error: {message}", message=str(err)), err=True)
        return 2
    return code if isinstance(code, int) else 0


_command: Any = None
_making = threading.Lock()  # (serve's threads may ask at once)

#: Commands the table's prompt refuses, and why.
NOT_AT_TABLE = {
    "table": said("table runs at a shell's prompt: this is the table already"),
    "serve": said("serve runs at a shell's prompt, until Ctrl-C: start it in another terminal"),
    "demo": said("demo runs at a shell's prompt (it plays in a throw-away ledger of its own)"),
}


def not_at_table(words: Sequence[str]) -> "Said | None":
    """Why the table's prompt cannot run this line (a command that runs until Ctrl-C or
    holds a prompt of its own, or one that would read the prompt as its input), or None."""
    command, rest = command_words(words)
    if command in NOT_AT_TABLE:
        return NOT_AT_TABLE[command]
    shell = [w for w in words[: len(words) - len(rest)] if w.split("=")[0] in SHELL_ONLY]
    if shell:
        return said(
            "{option} sets up a shell's Tab: run it at a shell's prompt",
            option=shell[0].split("=")[0],
        )
    if command == "record" and "-" in rest:
        return said(
            "record - reads standard input, which is the table's prompt here: give it a file "
            "of records (or pipe them to chouette record - at a shell's prompt)"
        )
    return None


def valued_options() -> set[str]:
    """The global options that take a value (``--db FILE``, ``--session NAME``)."""
    group = get_command_once()
    root = typer.Context(group, info_name="chouette")
    return {
        name
        for param in group.get_params(root)
        if param.param_type_name == "option" and not getattr(param, "is_flag", False)
        for name in (*param.opts, *param.secondary_opts)
    }


def command_words(words: Sequence[str]) -> tuple[str, list[str]]:
    """The command a line names, past the global options (``--session friday serve``,
    ``--db=club.db table``), and the words after it; ``""`` when it names none."""
    valued = valued_options()
    at = 0
    while at < len(words):
        word = words[at]
        if word == "--":
            at += 1
            break
        if not word.startswith("-") or word == "-":
            break
        at += 2 if word in valued else 1  # an option and its value (--db=x: one word)
    return (words[at], list(words[at + 1 :])) if at < len(words) else ("", [])


LEAVING = said("(to leave the table: Ctrl-C again on an empty line, Ctrl-D, or quit)")


def nothing_typed() -> str:
    """What is on the line when Ctrl-C is pressed, where that cannot be known."""
    return ""


def prompt_text(opts: Options) -> str:
    """The table's prompt: its session and game (``friday · game 3> ``)."""
    try:
        with reads_for(opts) as book:
            info = book.session(session_named(opts))
            number = book.live(info).number
    except ChouetteError:
        return "chouette> "
    return hearer().words(
        said("{session} · game {number}> ", session=shown(info.name), number=number)
    )


def table_help(words: Sequence[str], opts: Options) -> None:
    """``help`` at the table: its commands in a list; ``help COMMAND``: that command's help,
    as it is typed here (without the ``chouette`` before it)."""
    import shutil

    group = get_command_once()
    # (with the app's -h: Click keeps the first help option it makes a command, -h or not)
    root = typer.Context(group, info_name="chouette", obj=opts, **group.context_settings)
    if words:
        found = group.get_command(root, words[0]) if isinstance(group, Commands) else None
        if found is None or words[0] in NOT_AT_TABLE:
            typed = repr(shown(clipped(words[0])))
            say(
                said(
                    "Error: there is no command {command} at the table (help lists them)",
                    command=typed,
                ),
                err=True,
            )
            return
        text = found.get_help(typer.Context(found, info_name=words[0], parent=root))
        usage = help_words("Usage: ")
        text = text.replace(f"{usage}chouette {words[0]}", f"{usage}{words[0]}", 1)
        say(text.replace("\n      chouette ", "\n      "))  # its examples as typed here
        return
    say(said("The table's commands (help COMMAND explains one; Tab completes):"))
    rows = [
        (name, summary_sentence(help_text(summary_of(info))))
        for name, info in inside.commands_of(app).items()
        if name not in (*NOT_AT_TABLE, "help")
    ]
    rows.append(("quit", hearer().words(said("Leave the table (or Ctrl-D)."))))
    columns = max(shutil.get_terminal_size().columns, 60)
    listing = typer.Context(group, terminal_width=columns).make_formatter()
    with listing.indentation():  # Click's list of commands, as in --help, the screen wide
        listing.write_dl(rows, col_max=columns)
    say(listing.getvalue().rstrip("\n"))


def summary_of(info: Any) -> str:
    """A registered command's help as written: its function's docstring, or a group's
    (``chouette event``) own help."""
    group = inside.group_of(info)
    if group is not None:
        return str(group.info.help or "")
    return inside.callback_of(info).__doc__ or ""


def summary_sentence(doc: str) -> str:
    """A command's summary: its help's first paragraph (one sentence, which may run over
    more than one line, and whose abbreviations, Danish ``pr.``, do not end it), on one
    line."""
    return " ".join(re.split(r"\n\s*\n", doc.strip(), maxsplit=1)[0].split())


def table_loop(
    opts: Options,
    read: Callable[[str], str],
    typed: Callable[[], str] = nothing_typed,
    *,
    prompt: Callable[[], str] = lambda: "",
    kept: Callable[[], None] = lambda: None,
) -> list[int]:
    """The prompt of ``chouette table``: live commands without the ``chouette`` prefix. The
    numbers of the lines that failed come back (a script piped in fails with them).

    Ctrl-C clears the line being typed (``typed`` tells what it held); on an empty line it
    says how to leave, and a second Ctrl-C in a row leaves, as Ctrl-D and ``quit`` do.
    ``prompt`` makes the prompt (the session and its game); ``kept`` keeps the history."""
    prefix = [*(["--db", opts.db] if opts.db else [])]
    warned = False  # the last key was a Ctrl-C on an empty line
    failed: list[int] = []
    number = 0
    while True:
        try:
            text = read(prompt())
        except EOFError:
            say()
            return failed
        except KeyboardInterrupt:
            say()
            if typed().strip():
                warned = False
                continue
            if warned:
                return failed
            say(LEAVING)
            warned = True
            continue
        warned = False
        number += 1
        kept()
        if len(text) > LONGEST_LINE:  # no command is that long: refused unread, in a moment
            say(
                said(
                    "Error: a line of {length} characters, longer than any command ({most} at "
                    "most): not read ({line})",
                    length=Number(len(text)),
                    most=Number(LONGEST_LINE),
                    line=clipped(text),
                ),
                err=True,
            )
            failed.append(number)
            continue
        try:
            words = shlex.split(text)
        except ValueError as err:
            say(said("Error: {message}", message=str(err)), err=True)
            failed.append(number)
            continue
        if not words:
            continue
        if words[0] in ("quit", "exit"):
            return failed
        asked = asks_for_help(words)
        if asked is not None:
            table_help(asked, opts)
            continue
        if not command_words(words)[0]:  # options alone (--session sat): that session's status
            words = [*words, "status"]
        opts.booked, was = False, opts.session
        if dispatch([*prefix, *words], opts, at_table=True) != 0:
            failed.append(number)
            opts.session = was  # a line that failed moves the table to no other session
        if opts.booked:  # the game's table said the next line: only what else there is to say
            table_notes(opts)


def asks_for_help(words: Sequence[str]) -> list[str] | None:
    """What a line asks help for at the table (``help take``, ``take -h``, ``--session
    friday take bob --help``: ``["take"]``; ``help``: ``[]``), or None: it asks for none."""
    if words[0] == "help":
        return list(words[1:])
    command, rest = command_words(words)
    options = rest[: rest.index("--")] if "--" in rest else rest  # (after --: names)
    given = [*words[: len(words) - len(rest)], *options]
    if "-h" in given or "--help" in given:
        return [command] if command else []
    return None


def table_notes(opts: Options) -> None:
    """The notes on the line after a game (a split due, a seat a player away cannot take)."""
    from chouette.line import line_notes

    try:
        with reads_for(opts) as book:
            info = book.session(session_named(opts))
    except ChouetteError:
        return
    for text in line_notes(info.line, info.rules):
        note(said("{news}.", news=text))


def keep_history(readline: Any) -> Callable[[], None]:
    """The table's history from earlier evenings (:func:`history_file`), and what keeps each
    new line there (a killed terminal loses none)."""
    path = history_file()
    readline.set_history_length(1000)
    with suppress(OSError):
        readline.read_history_file(str(path))

    def keep() -> None:
        with suppress(OSError):
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            readline.write_history_file(str(path))
            path.chmod(0o600)

    return keep


def shell_word(line: str) -> tuple[int, str | None]:
    """Where the word being typed at the end of ``line`` starts, as a shell splits words
    (a quoted or backslashed space is inside a word), and the quote still open in it."""
    start, quote, i = 0, None, 0
    while i < len(line):
        ch = line[i]
        if quote is not None:
            if ch == quote:
                quote = None
            elif ch == "\\" and quote == '"':
                i += 1
        elif ch == "\\":
            i += 1
        elif ch in "'\"":
            quote = ch
        elif ch == " ":
            start = i + 1
        i += 1
    return start, quote


#: Options of the shell's that mean nothing at the table's prompt.
SHELL_ONLY = ("--install-completion", "--show-completion")


def table_choices(opts: Options, done: Sequence[str], incomplete: str) -> list[str]:
    """What the word being typed (``incomplete``) may be after ``done`` at the table, as
    the shell's Tab completes it (Click's own completion, over the same commands): a
    command first (the table's: not those it refuses, and quit), then what that command
    takes there (a player, a session after --session or --like, a command after help, an
    option's choices); the files here where nothing else fits, as bash has it. The table's
    session, unless the line names another."""
    chosen = [*(["--db", opts.db] if opts.db else [])]
    chosen += ["--session", opts.session] if opts.session else []
    found = [
        value
        for value, kind in inside.completions(get_command_once(), [*chosen, *done], incomplete)
        if value not in SHELL_ONLY and kind == "plain"
    ]
    awaited = bool(done) and done[-1] in valued_options()  # --session's NAME, say
    if not command_words(done)[0] and not awaited and not incomplete.startswith("-"):
        found = [n for n in found if n not in NOT_AT_TABLE]
        return found + (["quit"] if "quit".startswith(incomplete) else [])
    return found or ([] if incomplete.startswith("-") else paths(incomplete))


def paths(typed: str) -> list[str]:
    """The files and folders whose names begin with ``typed`` (a folder ends in ``/``)."""
    folder, slash, start = typed.rpartition("/")
    where = Path(os.path.expanduser(folder + slash or "."))
    try:
        entries = sorted(where.iterdir())
    except OSError:
        return []
    return [
        f"{folder}{slash}{entry.name}" + ("/" if entry.is_dir() else "")
        for entry in entries
        if entry.name.startswith(start)
        and (start or not entry.name.startswith("."))  # hidden files when asked for
    ]


def completer(opts: Options) -> Callable[[str, int], str | None]:
    """Tab completion at the table, as the shell's (:func:`table_choices`); a name with a
    space completes as one word (``Big\\ Al``, or inside the quote typed: ``'Big Al'``)."""
    import readline

    found: list[str] = []

    def complete(_text: str, state: int) -> str | None:
        if state == 0:
            line, begin = readline.get_line_buffer(), readline.get_begidx()
            start, quote = shell_word(line[: readline.get_endidx()])
            try:
                done = shlex.split(line[:start])
            except ValueError:
                done = line[:start].split()
            typed = line[start : readline.get_endidx()]
            try:
                meant = shlex.split(typed + (quote or ""))[0] if typed else ""
            except ValueError:
                meant = typed
            found[:] = []
            for word in table_choices(opts, done, meant):
                if not word.startswith(meant):
                    continue
                written = f"{quote}{word}{quote}" if quote else shell_quoted(word)
                if written.startswith(line[start:begin]):
                    found.append(written[begin - start :])
        if state >= len(found):
            return None
        return found[state] + ("" if found[state].endswith("/") else " ")  # a folder: go on

    return complete


@app.command(cls=Command)
def table(ctx: typer.Context) -> None:
    """Run the evening at one prompt.

    Live commands without the `chouette` prefix, the session and game in the prompt, Tab
    completion of commands and names, the history of earlier evenings (chouette where
    names its file); each command is still its own transaction. help lists the table's
    commands. Ctrl-C clears the line; Ctrl-D, quit, or a second Ctrl-C on an empty line
    leaves. Piped in, the lines are a script: no prompt, and exit 1 if any line failed.

    Examples:

    \b
        chouette table
        chouette --session friday table
    """
    opts = options(ctx)
    with ledger(ctx, write=True) as book:
        info = current(book, ctx, lock=True)
    opts.session = info.name  # this table's session, until `new` or --session at its prompt
    interactive = sys.stdin.isatty()
    typed, kept = nothing_typed, (lambda: None)
    if interactive:
        say(
            said(
                "Table mode for {session}: type commands (help, quit); Tab completes.",
                session=info.name,
            )
        )
        try:
            import readline

            readline.set_completer(completer(opts))
            readline.set_completer_delims(" ")
            readline.parse_and_bind("tab: complete")
            typed = readline.get_line_buffer
            kept = keep_history(readline)
        except ImportError:
            pass
        dispatch(["status"], opts)
    failed = table_loop(
        opts,
        input,
        typed,
        prompt=(lambda: prompt_text(opts)) if interactive else (lambda: ""),
        kept=kept,
    )
    if failed and not interactive:  # a script: its caller learns that a line failed
        fail(
            said("1 line of the script failed (line {line})", line=failed[0])
            if len(failed) == 1
            else said_n(
                "{n} line of the script failed (lines {lines})",
                "{n} lines of the script failed (lines {lines})",
                len(failed),
                n=len(failed),
                lines=", ".join(map(str, failed)),
            )
        )


SERVE_NEEDS = {"uvicorn", "starlette", "jinja2", "segno", "anyio"}


@app.command(cls=Command)
def serve(
    ctx: typer.Context,
    host: Annotated[
        str,
        typer.Option(metavar="HOST", help="Address to listen on: 0.0.0.0 lets the club's wifi in."),
    ] = "127.0.0.1",
    port: Annotated[
        int, typer.Option(metavar="PORT", **bounds("serve --port"), help="Port (0: any free one).")
    ] = 8000,
    pin: Annotated[
        str | None,
        typer.Option(
            metavar="PIN", envvar="CHOUETTE_PIN", help="The scorekeeper's PIN (default: random)."
        ),
    ] = None,
    certfile: Annotated[
        Path | None,
        typer.Option(
            metavar="FILE",
            help="Serve HTTPS with this certificate (PEM; its key in it or --keyfile).",
        ),
    ] = None,
    keyfile: Annotated[
        Path | None,
        typer.Option(metavar="FILE", help="The certificate's private key (PEM, unencrypted)."),
    ] = None,
    lang: LangOption = None,
    private: Annotated[
        bool,
        typer.Option(
            "--private",
            help="Points only on the scoreboard; money only on each player's own phone.",
        ),
    ] = False,
    room: Annotated[
        bool,
        typer.Option(
            "--room",
            help="The scoreboard shows every table of the night side by side, with the "
            "night's totals; the scorekeeper picks the table the page runs.",
        ),
    ] = False,
    event: Annotated[
        bool,
        typer.Option(
            "--event",
            help="A chouette tournament (the event used last): every table of its level "
            "side by side with each player's bank, the level, its starting cube and a "
            "countdown; each phone its player's bank and table; the scorekeeper's page runs "
            "the draw, the next level, a re-entry and the end.",
        ),
    ] = False,
    currency: Annotated[
        PayCurrency,
        typer.Option(
            "--currency",
            metavar="EUR|CZK|SEK|DKK",
            help="The currency the players pay in: it chooses the payment code each phone shows.",
        ),
    ] = PayCurrency.EUR,
) -> None:
    """Serve a live scoreboard and a scorekeeper's page in the browser.

    The scoreboard (for a TV and the players' phones) updates by itself within a second of
    any change, from any terminal; the scorekeeper's page, behind the PIN printed at start,
    has the cubes, the board's end, undo, the line's changes, a payment, an extra, a proxy,
    a split, a new session and a command line, the devices signed in (each can be signed
    out) and each player's code for their phone. It serves the current session (or
    --session's); the scorekeeper's page can switch to any other. --private keeps money off
    the shared pages: points only on the scoreboard, each player's money on their own phone.
    --room shows every table of the night (the sessions started that day) side by side on
    the scoreboard, with the night's totals; the scorekeeper's page runs the table it picks.
    --event serves a chouette tournament (the event used last: chouette event standings
    --event NAME makes NAME the one): every table of the level with each player's bank, the
    level, its starting cube and a countdown to its end on the scoreboard; each player's
    phone (their code is the event's, whatever their table) shows their bank, their table,
    the event's card and the review of their decisions at their table; the scorekeeper's
    page draws, closes a level, re-enters and ends it.
    Under the PIN it prints a one-time sign-in link (and its QR code) that signs the
    scorekeeper's phone in without the PIN, once, within 30 minutes; a restart prints a new
    one. A restart with the same PIN keeps the devices signed in. Plain HTTP unless --certfile
    is given. The pages speak English, Danish or Czech, as each browser asks, or --lang for
    every page. Needs the serve extra (pip install '.[serve]' in chouette's clone).

    Each player's phone proposes their own answer to a double that waits on them, and the
    payments they made (it shows the payment code for what they pay, in --currency, from
    the payee's account): each waits for the keeper (the keeper's page, or chouette
    proposals, approve, refuse).

    Examples:

    \b
        chouette serve --host 0.0.0.0
        chouette --session friday serve --port 8080 --pin 2468
        chouette serve --host 0.0.0.0 --certfile club.pem --keyfile club-key.pem
        chouette serve --host 0.0.0.0 --lang da
        chouette serve --host 0.0.0.0 --event
    """
    code = language_option(lang)
    if room and event:
        fail(said("--room or --event, not both (--event shows the event's tables)"), 2)
    try:
        from web.serve import run as serve_table
    except ImportError as err:
        if err.name not in SERVE_NEEDS:
            raise
        fail(
            said(
                "`chouette serve` needs the serve extra ({module} is missing): in chouette's "
                "clone, with the pip that installed chouette, pip install '.[serve]'",
                module=err.name,
            )
        )
    try:
        serve_table(
            ledger_url(options(ctx)),
            session_option(ctx),
            host=host,
            port=port,
            pin=pin,
            clock=clock,
            say=say,
            certfile=certfile,
            keyfile=keyfile,
            lang=code,
            private=private,
            room=room,
            event="" if event else None,
            commands=run_words,
            currency=currency.value,
        )
    except ChouetteError as err:
        fail(err.said)


def run_words(words: Sequence[str], heard: "Hearer") -> int:
    """A command line in the CLI's own words, run as at the ``chouette table`` prompt, for
    ``heard`` (a page of ``chouette serve``: what the command says is handed to it as values,
    for it to render in its reader's words; this is handed to the server, so that the server
    imports nothing of the command line)."""
    token = _heard.set(heard)
    try:
        return dispatch(words, Options(None, None), at_table=True)
    finally:
        _heard.reset(token)


# ---------------------------------------------------------------- the demo

DEMO = [
    "new friday ann bob cat dan --stake 5.00",
    "double bob cat",
    "drop cat",
    "beaver bob",
    "take bob",
    "end box --gammon",
    "join eve",
    "double dan --by member",
    "take dan",
    "end team",
    "double bob eve",
    "take --all",
    "double eve --by member",
    "take eve",
    "end box --gammon",
    "double ann dan",
    "take ann",
    "drop dan",
    "deal bob 1",
    "end team --backgammon",
    "sheet",
    "standings",
    "settle",
]


@app.command(cls=Command)
def demo(ctx: typer.Context) -> None:
    """Play a demo evening in a throw-away database.

    Example:

    \b
        chouette demo
    """
    import tempfile

    with tempfile.TemporaryDirectory(prefix="chouette-demo-") as folder:
        opts = Options(str(Path(folder) / "demo.db"), None)
        say(said("A demo evening in a throw-away database (your own ledger is untouched)."))
        for text in DEMO:
            say(f"\n$ chouette {text}")  # a command line, as typed
            if dispatch(["--db", str(opts.db), *shlex.split(text)], opts) != 0:
                fail(said("the demo stopped at `{command}`", command=text))
        from db.engine import dispose_all

        dispose_all()


@app.command(cls=Command, name="help")
def help_command(
    ctx: typer.Context,
    command: Annotated[
        str | None,
        typer.Argument(
            metavar="COMMAND", help="The command to explain.", autocompletion=complete_command
        ),
    ] = None,
) -> None:
    """Print the help of chouette, or of one command (as COMMAND --help does).

    Examples:

    \b
        chouette help
        chouette help take
    """
    root = ctx.find_root()
    if command is None:
        say(root.get_help())
        return
    found = root.command.get_command(root, command) if isinstance(root.command, Commands) else None
    if found is None:
        fail(
            said(
                "there is no command {command}: `chouette help` lists them",
                command=repr(shown(clipped(command))),
            ),
            2,
        )
    say(found.get_help(typer.Context(found, info_name=command, parent=root)))


# ---------------------------------------------------------------- the entry point


def run() -> None:
    """The console entry point: no traceback ever reaches a user."""
    try:
        get_command_once()()
    except Exception as err:  # a bug: say so plainly, without a traceback
        say(
            said(
                "Error: unexpected internal error ({kind}: {error}). Nothing was written. "
                "Please report this.",
                kind=type(err).__name__,
                error=str(err),
            ),
            err=True,
        )
        raise SystemExit(1) from None


if __name__ == "__main__":
    run()
