"""What typer_internals.py takes from Typer's insides is still there, and does what it did.

Typer has no public API for four things chouette needs (typer_internals.py says which and
why); pyproject.toml pins Typer below its next minor release. Before the pin is raised,
these tests run with the new Typer: each that fails names what changed and where it is
used, so that typer_internals.py (and nothing else) is adapted to it. The rest of the
program touches no private part of Typer (the last test).
"""

from __future__ import annotations

import ast
import inspect
import re
import tomllib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Annotated, Any

import pytest
import typer
import typer.main

import cli
import typer_internals as inside
from tests.paths import ROOT


@contextmanager
def uses(what: str) -> Iterator[None]:
    """A failure inside said as a change in Typer that typer_internals.py must follow."""
    try:
        yield
    except (AttributeError, TypeError, KeyError, ImportError, AssertionError) as err:
        pytest.fail(
            f"Typer {typer.__version__} changed {what}, which typer_internals.py uses "
            f"({type(err).__name__}: {err}). Adapt typer_internals.py to it before raising "
            "the pin on typer in pyproject.toml.",
            pytrace=False,
        )


def small_app() -> typer.Typer:
    """A Typer app of the shape chouette's is: a callback with an option, two commands."""
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)

    @app.callback()
    def main(db: Annotated[str | None, typer.Option("--db")] = None) -> None:
        """The app."""

    @app.command(name="take")
    def take_it(
        member: Annotated[str, typer.Argument()],
        game: Annotated[int | None, typer.Option(min=1, max=9)] = None,
    ) -> None:
        """Take."""
        typer.echo(f"{member} {game}")

    @app.command()
    def sit_out() -> None:
        """Sit out."""

    group = typer.Typer(help="Events.")

    @group.command(name="next")
    def next_level() -> None:
        """Next."""

    app.add_typer(group, name="event")
    return app


def test_typer_is_pinned_below_its_next_minor_release():
    spec = next(
        d
        for d in tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
        if d.startswith("typer")
    )
    found = re.fullmatch(r"typer>=(\d+)\.(\d+)(?:\.\d+)?,<(\d+)\.(\d+)", spec.replace(" ", ""))
    assert found, f"typer's requirement {spec!r} has no upper bound"
    low, high = (int(found[1]), int(found[2])), (int(found[3]), int(found[4]))
    assert high == (low[0], low[1] + 1), f"{spec}: pinned below the release after {low}"
    installed = tuple(int(n) for n in typer.__version__.split(".")[:2])
    assert low <= installed < high


def test_an_apps_commands_are_listed_and_made_one_at_a_time_as_typer_makes_them():
    app = small_app()
    with uses("how an app keeps its commands (Typer.registered_commands, CommandInfo)"):
        infos = inside.commands_of(app)
        assert list(infos) == ["take", "sit-out", "event"]
        assert inside.callback_of(infos["take"]).__doc__ == "Take."
    with uses("how typer.main.get_command makes an app's group"):
        group = inside.group_alone(app)
        assert group.commands == {}
        assert [p.name for p in group.params] == ["db"]
        assert len(app.registered_commands) == 2  # the app is left as it was
        assert len(app.registered_groups) == 1
    eager = typer.main.get_command(app)
    with uses("typer.main.get_command_from_info"):
        take = inside.made(app, infos["take"])
        expected = eager.commands["take"]  # type: ignore[attr-defined]
        assert type(take) is type(expected)
        assert (take.name, take.help) == (expected.name, expected.help)
        assert [p.name for p in take.params] == [p.name for p in expected.params]
    with uses("typer.main.get_group_from_info (a group of commands, add_typer)"):
        event = inside.made(app, infos["event"])
        expected = eager.commands["event"]  # type: ignore[attr-defined]
        assert type(event) is type(expected) and event.help == "Events."
        assert list(event.commands) == list(expected.commands) == ["next"]


def test_a_parameters_coercion_can_be_put_off_and_built_when_asked():
    app = small_app()
    take = typer.main.get_command(app).commands["take"]  # type: ignore[attr-defined]
    built: list[str] = []
    with uses("how a parameter holds its coercion (get_runtime_param, type_descriptor)"):
        for param in take.params:
            found = inside.coercion(param)
            assert found is not None, param.name
            build, annotation, info = found
            assert annotation is (int if param.name == "game" else str), annotation
            assert (info.min, info.max, info.parser, info.case_sensitive) == (
                (1, 9, None, True) if param.name == "game" else (None, None, None, True)
            )

            def later(build: Callable[[], Any] = build, name: str = param.name) -> Any:
                built.append(name)
                return build()

            inside.put_off(param, later)
    with uses("when a parameter asks for its coercion (process_value)"):
        ctx = take.make_context("take", ["bob", "--game", "3"])
        assert ctx.params == {"member": "bob", "game": 3}
        assert sorted(built) == ["game", "member"]


def test_bashs_completions_can_be_written_as_chouette_says():
    with uses("how a completion class is registered (typer._click.shell_completion)"):
        from typer._click.shell_completion import get_completion_class

        before = get_completion_class("bash")
        try:
            inside.quote_bash(lambda value: f"<{value}>")
            quoted = get_completion_class("bash")
            assert quoted is not None and quoted is not before
            shell = quoted(typer.main.get_command(small_app()), {}, "app", "_APP_COMPLETE")
            items = shell.get_completions([], "s")
            assert [shell.format_completion(item) for item in items] == ["<sit-out>"]
        finally:
            if before is not None:
                from typer._click.shell_completion import add_completion_class

                add_completion_class(before, "bash")


def test_the_table_completes_from_clicks_completion():
    with uses("Click's completion as Typer's BashComplete reaches it"):
        command = typer.main.get_command(small_app())
        assert inside.completions(command, [], "t") == [("take", "plain")]
        assert inside.completions(command, ["--db"], "") == []
        assert ("--game", "plain") in inside.completions(command, ["take", "bob"], "--")


def test_the_tests_runner_runs_the_command_it_is_handed():
    from typer.testing import CliRunner

    app = small_app()
    made = typer.main.get_command(app)
    asked: list[typer.Typer] = []

    def once(asked_for: typer.Typer) -> Any:
        asked.append(asked_for)
        return made

    with uses("how typer.testing.CliRunner makes the command it runs (_get_command)"):
        before = inside.run_tests_through(once)
        try:
            result = CliRunner().invoke(app, ["take", "bob", "--game", "2"])
        finally:
            inside.run_tests_through(before)
        assert asked == [app]
        assert result.output == "bob 2\n"


def test_the_types_typer_names_nowhere_else_are_there():
    with uses("the names of its own Click (typer._click: Context, HelpFormatter, Parameter)"):
        import typer._click as click

        assert issubclass(typer.Context, click.Context)
        assert inspect.isclass(click.HelpFormatter) and inspect.isclass(click.Parameter)
        assert issubclass(typer.core.TyperArgument, click.Parameter)


#: Every module of the clone but typer_internals.py (and these tests of it).
MODULES = [
    ROOT / "cli.py",
    *[
        p
        for room in ("chouette", "db", "files", "web", "bench")
        for p in (ROOT / room).rglob("*.py")
    ],
    *[
        p
        for p in (ROOT / "tests").rglob("*.py")
        if p.name != "test_typer_internals.py" and not {"corpus", "engine-samples"} & set(p.parts)
    ],
]


def dotted(node: ast.expr) -> str:
    """``typer.testing._get_command`` as written (an attribute of names), else ``""``."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = dotted(node.value)
        return f"{inner}.{node.attr}" if inner else ""
    return ""


def test_nothing_but_typer_internals_touches_typers_private_parts():
    """No module of the program, its tests or its benchmark imports a private module of
    Typer, or one of its private names, or an undocumented attribute typer_internals.py
    reaches."""
    reached = {"registered_commands", "get_runtime_param", "type_descriptor"}
    found = []
    for path in MODULES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.Attribute) and node.attr in reached:
                names = [node.attr]
            elif isinstance(node, ast.Attribute) and dotted(node).startswith("typer."):
                names = [dotted(node)]
            private = [
                n
                for n in names
                if (n.startswith("typer.") and any(p.startswith("_") for p in n.split(".")))
                or n in reached
                or n in ("typer.main.get_command_from_info", "typer.main.get_command_name")
            ]
            found += [f"{path.relative_to(ROOT)}:{node.lineno}: {n}" for n in private]
    assert found == []
    assert cli.inside is inside
