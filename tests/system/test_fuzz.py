"""Bad input: random JSON and mutated game records, into the parser and through the CLI.

The pure functions refuse anything they cannot book with a ChouetteError and nothing else;
through ``chouette record`` a refusal is exit code 1 with an ``Error: …`` line on stderr
and a ledger unchanged to the last row, and anything booked sums to zero.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chouette.errors import ChouetteError
from chouette.line import new_line
from chouette.outcome import settle_game
from chouette.record import RECORD_KEYS, parse_record, play_record, to_record
from chouette.rules import HouseRules
from db import open_ledger
from tests.dump import Snapshots
from tests.examples import examples
from tests.invariants import check_ledger, players
from tests.strategies import games, house_rules

PLAYERS = ["ann", "bob", "cat", "dan"]
ACTS = ["auto-double", "double", "take", "drop", "beaver", "raccoon", "deal", "end", "dance"]
KEYS = [*sorted(RECORD_KEYS), "act", "by", "members", "member", "points", "winner", "kind"]
KEYS += ["resigned", "game", ""]
WORDS = [*PLAYERS, *ACTS, "box", "team", "member", "single", "gammon", "backgammon", "friday"]
WORDS += ["", " ", "zed", "'; DROP TABLE booking; --", "\x00", "\t", "\u202e", "x" * 81, "zoë"]

scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(-3, 3)
    | st.floats()
    | st.sampled_from(WORDS)
    | st.text(max_size=12)
)
json_values = st.recursive(
    scalars,
    lambda kids: (
        st.lists(kids, max_size=5)
        | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=6), kids, max_size=6)
    ),
    max_leaves=30,
)
names = st.sampled_from(PLAYERS) | st.sampled_from(WORDS) | scalars
events = st.fixed_dictionaries(
    {"act": st.sampled_from(ACTS) | scalars},
    optional={
        "by": st.sampled_from(["box", "member", "team"]) | scalars,
        "members": st.lists(names, max_size=4) | json_values,
        "member": names,
        "points": st.integers(-4, 4) | scalars,
    },
)
results = st.fixed_dictionaries(
    {},
    optional={
        "winner": st.sampled_from(["box", "team"]) | scalars,
        "kind": st.sampled_from(["single", "gammon", "backgammon"]) | scalars,
        "resigned": st.booleans() | scalars,
    },
)
records_like = st.fixed_dictionaries(
    {},
    optional={
        "session": st.just("friday") | scalars,
        "line": st.permutations(PLAYERS).map(list) | st.lists(names, max_size=5),
        "box": names,
        "captain": names,
        "crew": st.lists(names, max_size=3),
        "events": st.lists(events, max_size=8) | json_values,
        "result": results | json_values,
    },
)


def paths(value: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON value: dict keys and list indexes, depth first."""
    found = [at]
    if isinstance(value, dict):
        for key, item in value.items():
            found += paths(item, (*at, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found += paths(item, (*at, i))
    return found


def mutate(draw: st.DrawFn, value: Any) -> Any:
    """One random change somewhere in a JSON value: a new value, a key or item removed,
    added or duplicated, two items swapped, a name changed."""
    value = json.loads(json.dumps(value))
    where = draw(st.sampled_from(paths(value)))
    if not where:
        return draw(json_values) if draw(st.booleans()) else [value, value]
    parent = value
    for step in where[:-1]:
        parent = parent[step]
    last = where[-1]
    how = draw(st.sampled_from(["replace", "remove", "add", "copy", "swap", "rename"]))
    if how == "replace":
        parent[last] = draw(json_values)
    elif how == "remove":
        del parent[last]
    elif how == "add" and isinstance(parent, dict):
        parent[draw(st.sampled_from(KEYS))] = draw(json_values | names)
    elif how == "add":
        parent.insert(last, draw(json_values | events))
    elif how == "copy" and isinstance(parent, list):
        parent.insert(last, json.loads(json.dumps(parent[last])))
    elif how == "swap" and isinstance(parent, list) and len(parent) > 1:
        other = draw(st.integers(0, len(parent) - 1))
        parent[last], parent[other] = parent[other], parent[last]
    else:
        parent[last] = draw(names)
    return value


@st.composite
def mutated(draw: st.DrawFn, record: dict[str, Any]) -> Any:
    for _ in range(draw(st.integers(1, 3))):
        record = mutate(draw, record)
    return record


def book_or_refuse(data: Any, line_names: list[str], rules: HouseRules) -> str:
    """Parse and play ``data`` as the pure functions do: booked, or refused with a
    ChouetteError (anything else fails the test)."""
    try:
        record = parse_record(data)
        game, _ = play_record(record, new_line(line_names, rules), rules)
    except ChouetteError as err:
        assert str(err), "a refusal without a message"
        return "refused"
    assert game.over
    outcome = settle_game(game, dict.fromkeys(players(game), 250))
    assert sum(outcome.points.values()) == 0 and sum(outcome.cents.values()) == 0
    return "booked"


TALLY: Counter[str] = Counter()  # inputs fuzzed, by test and outcome


@pytest.fixture(autouse=True, scope="module")
def tally() -> Iterator[None]:
    """Print how many inputs were fuzzed (shown with ``pytest -s``)."""
    yield
    print(f"\ninputs fuzzed: {sum(TALLY.values())} {dict(sorted(TALLY.items()))}")


@settings(max_examples=examples(1000), deadline=None)
@given(data=json_values | records_like, rules=house_rules())
def test_random_json_is_parsed_and_played_or_refused_with_a_chouette_error(data, rules):
    TALLY["random json: " + book_or_refuse(data, PLAYERS, rules)] += 1


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(played=games(max_events=12), data=st.data())
def test_a_mutated_record_is_played_or_refused_with_a_chouette_error(played, data):
    line, rules, game, _ = played
    record = data.draw(mutated(to_record(game, "friday")))
    TALLY["mutated record: " + book_or_refuse(record, list(line.order), rules)] += 1


# ---------------------------------------------------------------- through the CLI


@st.composite
def inputs(draw: st.DrawFn, record: dict[str, Any]) -> str:
    """What ``chouette record -`` is fed: the record, mutated or not, alone, in an array or
    in JSON Lines with others, or its text cut, spliced or garbled."""
    shape = draw(st.sampled_from(["one", "array", "lines", "text"]))
    bad = draw(mutated(record))
    if shape == "one":
        return json.dumps(draw(st.sampled_from([record, bad])), ensure_ascii=draw(st.booleans()))
    if shape == "array":
        return json.dumps(draw(st.permutations([record, bad])))
    if shape == "lines":
        return "\n".join(json.dumps(r) for r in draw(st.permutations([record, bad, "x"]))[:2])
    text = json.dumps(record)
    cut = draw(st.integers(0, len(text)))
    return draw(
        st.sampled_from(
            [
                text[:cut],
                text[:cut] + draw(st.text(max_size=5)) + text[cut:],
                text[:cut] + text[cut + 3 :],
                "\ufeff" + text,
                draw(st.text(max_size=40)),
            ]
        )
    )


BOTH = pytest.mark.backends("sqlite", "postgres")


@BOTH
def test_record_through_the_cli_books_or_refuses_cleanly_and_writes_nothing_on_refusal(
    chouette, ledger_url
):
    rules = HouseRules(auto_doubles=1)
    chouette("new", "friday", *PLAYERS, "--auto-doubles", "1", "--stake", "2.50")
    snapshot = Snapshots(ledger_url)
    from cli import app

    @settings(
        max_examples=examples(80),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(data=st.data())
    def attempt(data: st.DataObject) -> None:
        with open_ledger(ledger_url, write=False, now=datetime.now(UTC)) as book:
            line = book.session("friday").line
        _, _, game, _ = data.draw(games(max_events=10, rules=rules, line=line))
        text = data.draw(inputs(to_record(game, "friday")))
        before = snapshot()
        result = chouette.runner.invoke(app, ["record", "-"], input=text)
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        assert result.exit_code in (0, 1), (result.exit_code, result.stderr)
        if result.exit_code == 1:
            assert result.stderr.startswith("Error: "), result.stderr
            assert snapshot() == before
            TALLY["cli: refused"] += 1
        else:
            assert result.stderr == ""
            assert snapshot() != before or not text.strip()  # (empty input: nothing to book)
            TALLY["cli: booked"] += 1

    try:
        attempt()
    finally:
        snapshot.close()
    check_ledger(ledger_url)  # every game booked sums to zero and replays to its bookings


@BOTH
def test_numbers_too_large_for_the_ledger_are_refused_with_a_message(chouette, ledger_url):
    """Found by fuzzing: a deal of 10^20 points overflowed SQLite's 64-bit integers (an
    internal error) and PostgreSQL's (a bare "integer out of range")."""
    chouette("new", "friday", "ann", "bob", "cat")
    from tests.dump import dump

    before = dump(ledger_url)
    deals = [{"act": "deal", "member": "bob", "points": 10**20}]
    huge = {"events": [*deals, {"act": "deal", "member": "cat", "points": 1}]}
    result = chouette("record", "-", input=json.dumps(huge), code=1)
    assert result.stderr == (
        "Error: record, event 1: deal: 100000000000000000000 points is past the ledger's "
        "limit of 1,000,000,000,000,000 points\n"
    )
    result = chouette("new", "big", "ann", "bob", "--stake", "90000000000000000000.00", code=2)
    assert result.stderr == (
        "Error: --stake: '90000000000000000000.00' is past the ledger's limit of "
        "10,000,000,000,000.00\n"
    )
    assert dump(ledger_url) == before


@BOTH
def test_a_session_name_with_a_nul_is_no_session_on_either_database(chouette):
    """Found by fuzzing: PostgreSQL refuses NUL in text, so asking it for such a session
    was a "database error" there and "no session" on SQLite. A record's session is now
    read as a session's name is, before the ledger is opened."""
    chouette("new", "friday", "ann", "bob")
    result = chouette("record", "-", input='{"session": "fri\\u0000day"}', code=1)
    assert result.stderr == (
        "Error: record: session: 'fri\\x00day' cannot be a session's name: it has control "
        "characters or is not valid text\n"
    )


def test_deeply_nested_json_is_refused_with_a_message(chouette):
    chouette("new", "friday", "ann", "bob")
    result = chouette("record", "-", input="[" * 100_000, code=1)
    assert result.stderr.startswith("Error: ")


def test_a_result_kind_that_is_a_list_is_refused_with_a_message():
    with pytest.raises(ChouetteError, match="'kind' must be single, gammon or backgammon"):
        parse_record({"result": {"winner": "box", "kind": ["gammon"]}})
