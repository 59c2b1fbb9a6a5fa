"""What chouette takes from Typer's insides, where Typer offers no public way to do it.

``cli.py`` uses Typer through its public API: ``typer.Typer``, ``typer.Option`` and
``typer.Argument``, ``typer.Context``, the groups and commands of ``typer.core`` (``cls=``)
and ``typer.main.get_command``. Five needs have no public API in Typer 0.29, each for the
reason said where it is met below; every touch of Typer's private modules (``typer._click``,
its own copy of Click, ``typer._completion_classes``) and of its objects' undocumented
attributes is in this file and nowhere else. pyproject.toml pins Typer below its next minor
release; ``tests/cli/test_typer_internals.py`` fails, naming what changed, when a Typer
changes anything this file uses: raise the pin only once it passes.

1. Commands made one at a time (:func:`commands_of`, :func:`group_alone`, :func:`made`).
   ``typer.main.get_command`` makes every command of an app at once; chouette makes only
   the one a command line or a Tab asks for (making all fifty-odd was a quarter of a Tab,
   and costs a one-shot command some 20 ms).
2. Coercion put off (:func:`coercion`, :func:`put_off`). Typer 0.29 coerces every value
   through pydantic, whose import is most of a Tab and a third of ``status --json``;
   ``cli.TextFirst`` coerces plain names, numbers and choices itself and hands the rest to
   Typer's own coercion, built only then.
3. Bash's completions quoted (:func:`quote_bash`): Typer's bash script inserts a
   completion as it is given, so ``Big Al`` must be given as ``Big\\ Al``; only a
   completion class of one's own can say so, and Typer keeps Click's registry of them
   private.
4. The table prompt's completions (:func:`completions`): ``chouette table`` completes as
   the shell does, from Click's completion of the same command, which only Typer's private
   completion classes reach.
5. Usage errors in the reader's language (:func:`shown_by`): Typer's main shows a usage
   error by its ``show``, in English words Typer's Click writes itself; chouette shows it
   in the reader's words instead (its message read back by ``cli.usage_said``).

And one for the tests alone (:func:`run_tests_through`): ``typer.testing.CliRunner`` makes
an app's Click command anew for every command a test runs; the tests hand it chouette's,
made once, as the program makes it once a process (nine tenths of a test command's time).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import typer

if TYPE_CHECKING:  # the types of Typer's own Click, which Typer exports no name for (its
    # typer.Context is a subclass of this Context: a method Click calls takes Click's)
    from typer._click import Context as Context
    from typer._click import HelpFormatter as HelpFormatter
    from typer._click import Parameter as Parameter


# ---------------------------------------------------------------- 1. commands one at a time


def commands_of(app: typer.Typer) -> dict[str, Any]:
    """The app's commands by name, each as registered (a ``typer.models.CommandInfo``; a
    group of commands added with ``add_typer`` and a name, ``chouette event``, a
    ``typer.models.TyperInfo``), none made; in the app's order, the groups last."""
    from typer.main import get_command_name

    found: dict[str, Any] = {
        info.name or get_command_name(info.callback.__name__): info
        for info in app.registered_commands
        if info.callback is not None
    }
    found.update((str(group.name), group) for group in app.registered_groups)
    return found


def group_of(info: Any) -> typer.Typer | None:
    """The sub-app of a registered group of commands (``chouette event``); None for a
    command."""
    found: typer.Typer | None = getattr(info, "typer_instance", None)
    return found


def callback_of(info: Any) -> Callable[..., Any]:
    """A registered command's function."""
    function: Callable[..., Any] = info.callback
    return function


def group_alone(app: typer.Typer) -> Any:
    """The app's Click group with its own options, as ``typer.main.get_command`` makes it,
    but none of its commands made."""
    from typer.main import get_command

    infos, groups = app.registered_commands, app.registered_groups
    app.registered_commands, app.registered_groups = [], []  # Typer would make them here
    try:
        return get_command(app)
    finally:
        app.registered_commands, app.registered_groups = infos, groups


def made(app: typer.Typer, info: Any) -> Any:
    """One command of the app (or one group of them, with its commands), made from its
    registration as ``typer.main.get_command`` would make it."""
    from typer.main import get_command_from_info, get_group_from_info
    from typer.models import TyperInfo

    if isinstance(info, TyperInfo):
        return get_group_from_info(
            info,
            pretty_exceptions_short=app.pretty_exceptions_short,
            suggest_commands=app.suggest_commands,
            rich_markup_mode=app.rich_markup_mode,
        )
    return get_command_from_info(
        info,
        pretty_exceptions_short=app.pretty_exceptions_short,
        rich_markup_mode=app.rich_markup_mode,
    )


# ---------------------------------------------------------------- 2. coercion put off


def coercion(param: Any) -> tuple[Callable[[], Any], Any, Any] | None:
    """A parameter's coercion as Typer makes it when first asked (a callable that builds
    it), its annotation and its ``typer.models.ParameterInfo``; None where Typer has none
    to put off."""
    build = getattr(param, "get_runtime_param", None)
    descriptor = getattr(param, "type_descriptor", None)
    info = getattr(descriptor, "parameter_info", None)
    if build is None or info is None:
        return None
    return build, getattr(descriptor, "annotation", None), info


def put_off(param: Any, build: Callable[[], Any]) -> None:
    """The parameter's coercion built by ``build`` instead, when Typer asks for it."""
    param.get_runtime_param = build


# ---------------------------------------------------------------- 3. bash's quoting


def quote_bash(quoted: Callable[[str], str]) -> None:
    """Bash's completions written as ``quoted`` says, in place of Typer's own (in this
    process, from now on)."""
    from typer._click.shell_completion import add_completion_class
    from typer._completion_classes import BashComplete

    class QuotedBash(BashComplete):
        def format_completion(self, item: Any) -> str:
            return quoted(str(item.value))

    add_completion_class(QuotedBash, "bash")


# ---------------------------------------------------------------- 4. the table's completions


def completions(command: Any, args: list[str], incomplete: str) -> list[tuple[str, str]]:
    """What Click's completion offers for the word ``incomplete`` after ``args`` of the
    command line (the program's name left out): each value and its kind (``plain``,
    ``file``, ``dir``)."""
    from typer._completion_classes import BashComplete

    shell = BashComplete(command, {}, "chouette", "_CHOUETTE_COMPLETE")
    return [(str(item.value), str(item.type)) for item in shell.get_completions(args, incomplete)]


# ---------------------------------------------------------------- 5. usage errors shown


def shown_by(err: Exception, show: Callable[[Any], None]) -> None:
    """A usage error that Typer's main shows (by calling its ``show(file)``) shown by
    ``show`` instead: Typer's own Click writes its usage errors in English only, with no
    catalogue to hook (Click's ``gettext`` calls are gone from it), so chouette says them
    in the reader's words itself (``cli.usage_said``)."""
    err.show = show  # type: ignore[attr-defined]


# ---------------------------------------------------------------- the tests' runner


def run_tests_through(
    command_for: Callable[[typer.Typer], Any],
) -> Callable[[typer.Typer], Any]:
    """``typer.testing.CliRunner`` runs the Click command ``command_for(app)`` gives, not one
    made anew from the app (for the tests: tests/conftest.py); returns what made it before."""
    import typer.testing

    testing: Any = typer.testing
    before: Callable[[typer.Typer], Any] = testing._get_command
    testing._get_command = command_for  # CliRunner.invoke looks it up by this name
    return before
