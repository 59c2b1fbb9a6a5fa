"""Every number has bounds: each whole number a command takes, each amount of money, and
each number of the house rules, however they are read (chouette/limits.py states them).

The tests over the commands introspect the Typer app, so a new numeric option or argument
is checked the day it is added: it cannot be added without bounds.
"""

from __future__ import annotations

import dataclasses
import typing
from typing import Any

import pytest

from chouette.errors import ChouetteError
from chouette.limits import MAX_CUBE, NUMBERS
from chouette.rules import BOUNDS, HouseRules
from db.codec import rules_from_json
from tests.cli.test_echoes import INVOCATIONS, commands
from tests.dump import dump

#: serve's invocation: refused before it serves (its numbers are checked as it is read).
INVOCATIONS = {**INVOCATIONS, "serve": ["serve"]}
NOT_CHECKED = {"table", "demo"}  # take no number


def numbers() -> list[tuple[str, str, object]]:
    """Every whole-number parameter of every command: (command, its name, the parameter)."""
    found = []
    for name, command in sorted(commands().items()):
        for param in command.params:  # type: ignore[attr-defined]
            descriptor = getattr(param, "type_descriptor", None)
            annotation = getattr(descriptor, "annotation", None)
            kinds = set(typing.get_args(annotation)) or {annotation}
            if int in kinds:
                label = param.opts[0] if param.param_type_name == "option" else param.metavar
                found.append((name, label, param))
    return found


def amounts() -> list[tuple[str, str, object]]:
    """Every parameter that takes an amount of money (its metavar says so)."""
    return [
        (name, param.opts[0] if param.param_type_name == "option" else param.metavar, param)
        for name, command in sorted(commands().items())
        for param in command.params  # type: ignore[attr-defined]
        if param.metavar and "AMOUNT" in param.metavar
    ]


def given(command: str, param: Any, value: str) -> list[str]:
    """The command as typed, with ``value`` for ``param``."""
    args = list(INVOCATIONS[command])
    if param.param_type_name == "option":
        return [*args, param.opts[0], value]
    found = commands()[command]
    arguments = [p for p in found.params if p.param_type_name == "argument"]  # type: ignore[attr-defined]
    position = len(command.split()) + [p.name for p in arguments].index(param.name)
    if position < len(args):
        args[position] = value
    else:
        args.append(value)
    return args


def test_every_whole_number_a_command_takes_has_the_bounds_limits_states():
    found = numbers()
    assert found, "no numbers found: the introspection is broken"
    for command, label, param in found:
        assert param.min is not None and param.max is not None, (command, label)
        key = f"{command} {label}"
        stated = NUMBERS.get(label) or NUMBERS.get(key)
        assert stated == (param.min, param.max), (key, stated, param.min, param.max)


def cases() -> list[tuple[str, list[str], str]]:
    """Each whole-number parameter given one past each bound and a number 5,000 digits
    long: the exact refusal."""
    found = []
    for command, label, param in numbers():
        if command in NOT_CHECKED:
            continue
        hint = f"'{label}'"
        for text in (str(param.min - 1), str(param.max + 1), "9" * 5000):
            shown = text if len(text) <= 100 else f"{'9' * 75}…(5,000 characters)…{'9' * 25}"
            off = ", or off" if "|off" in (param.metavar or "") else ""  # a rule's, off too
            said = (
                f"Error: Invalid value for {hint}: {shown} is outside chouette's limits: give "
                f"a whole number from {param.min:,} to {param.max:,}{off}"
            )
            found.append((f"{command} {label} {text[:20]}", given(command, param, text), said))
    return found


@pytest.mark.parametrize(("what", "args", "said"), cases(), ids=[c[0] for c in cases()])
def test_a_number_past_its_bounds_is_refused_naming_them(chouette, ledger_url, what, args, said):
    chouette.begun(("new", "friday", "ann", "bob", "cat"), ("double", "bob"))
    before = dump(ledger_url)
    result = chouette(*args, code=2)
    assert result.stderr.splitlines()[-1] == said
    assert dump(ledger_url) == before


def test_the_issues_max_cube_is_refused(chouette):
    result = chouette("new", "friday", "ann", "bob", "--max-cube", "9223372036854775808", code=2)
    assert result.stderr.splitlines()[-1] == (
        "Error: Invalid value for '--max-cube': 9223372036854775808 is outside chouette's "
        "limits: give a whole number from 1 to 281,474,976,710,656, or off"
    )
    assert "friday" not in chouette("sessions", code=None).stdout


def test_a_number_at_its_bounds_is_read(chouette):
    done = chouette(
        "new", "friday", "ann", "bob", "cat", "--max-cube", str(MAX_CUBE), "--auto-doubles",
        "48", "--beaver-limit", "48", "--partner-from", "1000", "--split-at", "1000",
        "--partner-share", "100", "--roll", "--seed", str(2**63 - 1),
    )  # fmt: skip
    assert "max-cube 281474976710656" in done.stdout
    assert "Roll-off (seed 9223372036854775807)" in done.stdout


@pytest.mark.parametrize(("command", "label", "param"), amounts(), ids=lambda v: str(v)[:30])
def test_an_amount_past_the_limit_is_refused_for_every_money_parameter(
    chouette, ledger_url, command, label, param
):
    chouette("new", "friday", "ann", "bob", "cat")
    value = "10000000000000.01" if "=" not in param.metavar else "cat=10000000000000.01"
    before = dump(ledger_url)
    result = chouette(*given(command, param, value), code=2)  # outside its bounds: a usage error
    assert "is past the ledger's limit of 10,000,000,000,000.00" in result.stderr
    assert dump(ledger_url) == before


def int_fields() -> list[str]:
    hints = typing.get_type_hints(HouseRules)
    return [
        f.name
        for f in dataclasses.fields(HouseRules)
        if hints[f.name] in (int, int | None) and hints[f.name] is not bool
    ]


def test_every_whole_number_of_the_house_rules_has_bounds():
    assert set(int_fields()) == set(BOUNDS)


@pytest.mark.parametrize("name", sorted(BOUNDS))
def test_house_rules_read_from_json_are_refused_past_their_bounds(name):
    least, most = BOUNDS[name]
    option = name.replace("_", "-")
    for value in (most + 1, 2**63, 10**100):
        with pytest.raises(ChouetteError, match=rf"^{option} "):
            rules_from_json(f'{{"{option}": {value}}}')
    for value in (least - 1, -(10**5000)):
        with pytest.raises(ChouetteError, match=rf"^{option} "):
            HouseRules.from_dict({option: value})
    assert getattr(HouseRules.from_dict({option: most}), name) == most


def test_a_house_rule_past_its_bound_is_refused_with_the_bounds():
    with pytest.raises(ChouetteError) as refused:
        HouseRules.from_dict({"auto-doubles": 2**63})
    assert str(refused.value) == ("auto-doubles must be from 0 to 48, not 9223372036854775808")
    with pytest.raises(ChouetteError) as refused:
        HouseRules.from_dict({"split-at": 10**5000})
    assert (
        str(refused.value) == "split-at must be from 5 to 1,000, not a number some 5001 digits long"
    )
