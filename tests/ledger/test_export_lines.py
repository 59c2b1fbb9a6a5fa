"""An export is read strictly (db/export_lines.py): one model per kind of line. A line
nested deeper than any export, a key given twice, a field no line of its kind has, a time
a report cannot show, a schema newer than this chouette: each refused naming the line, and
nothing restored. A fuzzer over real export lines may only ever get a clean refusal or a
restore whose export is the file it read."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chouette.errors import ChouetteError
from db.export_lines import MAX_DEPTH, read_line
from db.migrations import LATEST
from tests.dump import dump
from tests.examples import examples

pytestmark = pytest.mark.backends("sqlite")


def small_export(chouette, tmp_path) -> list[str]:
    chouette("new", "friday", "ann", "bob", "cat")
    chouette("double", "bob")
    chouette("take", "bob")
    chouette("end", "box")
    chouette("pay", "bob", "ann", "1.00", "--note", "cash")
    chouette("accept", "ann")
    export = tmp_path / "backup.jsonl"
    chouette("export", str(export))
    return export.read_text("utf-8").splitlines()


def restore(chouette, tmp_path, lines: list[str], name: str = "copy"):
    source = tmp_path / f"{name}.jsonl"
    source.write_text("\n".join(lines) + "\n", "utf-8")
    return source, chouette("--db", str(tmp_path / f"{name}.db"), "import", str(source), code=None)


def number_of(lines: list[str], kind: str) -> int:
    return 1 + next(i for i, t in enumerate(lines) if f'"kind": "{kind}"' in t)


@pytest.mark.parametrize(
    ("kind", "change", "said"),
    [
        ("payment", lambda t: t.replace('"cents": 100', '"cents": 100, "cents": 10000'),
         "'cents' is given twice in one object"),
        ("payment", lambda t: t[:-1] + ', "tip": 5}', "a payment line: 'tip' is no field of it"),
        ("payment", lambda t: t.replace('"note": "cash", ', ""),
         "a payment line: it has no note"),
        ("session", lambda t: t.replace('"players": [', '"players": [5, '),
         "a session line: 'players.0': input should be a valid dictionary or instance of player"),
        ("payment", lambda t: t.replace('"at": "2026', '"at": "0001'),
         "at is 0001-11-20T20:00:00+00:00: a time in an export is within the years 1970 to "
         "9998"),
        ("session", lambda t: t.replace('"created_at": "2026', '"created_at": "9999'),
         "created_at is 9999-11-20T20:00:00+00:00: a time in an export is within the years "
         "1970 to 9998"),
        ("payment", lambda t: t.replace('"at": "2026-11-20T20:00:00+00:00"', '"at": 5'),
         "at must be a time (ISO 8601 text), not 5"),
        ("chouette-ledger", lambda t: t.replace(f'"schema": {LATEST}', f'"schema": {LATEST + 1}'),
         f"the export was written by a newer chouette (schema {LATEST + 1}; this one knows "
         f"{LATEST}): upgrade chouette to restore it"),
        ("payment", lambda t: "[" * 100_000 + "]" * 100_000,
         f"it is nested more than {MAX_DEPTH} deep: no export line is"),
        ("payment", lambda t: t.replace('"note": "cash"', '"note": ' + "[" * 40 + "]" * 40),
         f"it is nested more than {MAX_DEPTH} deep: no export line is"),
        ("payment", lambda t: t.replace('"cents": 100', '"cents": NaN'),
         "it is not JSON (NaN is not a number a record can hold)"),
        ("payment", lambda t: t.replace('"kind": "payment"', '"kind": "refund"'),
         "unknown kind 'refund'"),
    ],
)  # fmt: skip
def test_each_hole_in_an_export_is_refused_naming_the_line(chouette, tmp_path, kind, change, said):
    lines = small_export(chouette, tmp_path)
    at = number_of(lines, kind)
    changed = [change(t) if i == at - 1 else t for i, t in enumerate(lines)]
    assert changed != lines
    _source, result = restore(chouette, tmp_path, changed)
    assert result.exit_code == 1, result.stdout
    assert result.stderr == f"Error: line {at}: {said}\n"
    assert "Traceback" not in result.stderr
    assert dump(f"sqlite:///{tmp_path / 'copy.db'}") in ({}, empty_ledger(chouette, tmp_path))


def empty_ledger(chouette, tmp_path):
    """What an empty ledger holds (a refused restore leaves the file it opened)."""
    empty = tmp_path / "empty.db"
    chouette("--db", str(empty), "migrate", code=None)
    return dump(f"sqlite:///{empty}")


def test_read_line_refuses_what_is_no_object():
    for text, said in (
        ("[1, 2]", "it is not a JSON object"),
        ('"text"', "it is not a JSON object"),
    ):
        with pytest.raises(ChouetteError, match=said):
            read_line(text, LATEST)


# ---------------------------------------------------------------- the fuzzer

JUNK = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(allow_nan=False),
    st.text(max_size=20), st.lists(st.integers(), max_size=3), st.dictionaries(
        st.text(max_size=5), st.integers(), max_size=2),
)  # fmt: skip


def mutate(lines: list[str], data: st.DataObject) -> list[str]:
    """One of: a value replaced, a key dropped or added, a line truncated, duplicated,
    dropped or swapped, garbage inserted."""
    lines = list(lines)
    i = data.draw(st.integers(0, len(lines) - 1), label="line")
    kinds = ["value", "drop-key", "add-key", "truncate", "twice", "drop-line", "swap",
             "garbage", "raw-key"]  # fmt: skip
    how = data.draw(st.sampled_from(kinds), label="how")
    item = json.loads(lines[i])
    if how == "value" and item:
        key = data.draw(st.sampled_from(sorted(item)), label="key")
        item[key] = data.draw(JUNK, label="junk")
        lines[i] = json.dumps(item)
    elif how == "drop-key" and item:
        item.pop(data.draw(st.sampled_from(sorted(item)), label="key"))
        lines[i] = json.dumps(item)
    elif how == "add-key":
        item[data.draw(st.text(max_size=8), label="new key")] = data.draw(JUNK, label="junk")
        lines[i] = json.dumps(item)
    elif how == "truncate":
        lines[i] = lines[i][: data.draw(st.integers(0, len(lines[i])), label="cut")]
    elif how == "twice":
        lines.insert(i, lines[i])
    elif how == "drop-line":
        del lines[i]
    elif how == "swap":
        j = data.draw(st.integers(0, len(lines) - 1), label="other")
        lines[i], lines[j] = lines[j], lines[i]
    elif how == "garbage":
        lines.insert(i, data.draw(st.text(max_size=30), label="garbage"))
    elif how == "raw-key":  # a key given twice, as JSON text can
        lines[i] = lines[i][:-1] + ', "kind": "payment"}'
    return lines


@pytest.fixture(scope="module")
def real_export(tmp_path_factory) -> list[str]:
    """A real export of a small evening, made once for the fuzzer."""
    return evening_export(tmp_path_factory.mktemp("export"))


def evening_export(folder: Path) -> list[str]:
    """The lines of a real export of a small evening, made in ``folder``."""
    from typer.testing import CliRunner

    from cli import app
    from tests.conftest import NOW

    env = {"CHOUETTE_DB": str(folder / "ledger.db"), "CHOUETTE_NOW": NOW, "LANGUAGE": "en"}
    runner = CliRunner()
    for args in (
        ["new", "friday", "ann", "bob", "cat"],
        ["double", "bob"],
        ["take", "bob"],
        ["end", "box"],
        ["pay", "bob", "ann", "1.00", "--note", "cash"],
        ["accept", "ann"],
        ["export", str(folder / "backup.jsonl")],
    ):
        assert runner.invoke(app, args, env=env).exit_code == 0, args
    return (folder / "backup.jsonl").read_text("utf-8").splitlines()


def test_an_export_without_a_sessions_night_restores_the_night_its_start_implies(
    chouette, tmp_path, real_export
):
    """An export made before club nights has no ``night``: the restore gives the session the
    night of its start's local date, as the migration did (the chain leaves the night out:
    it groups sessions and books nothing). Here that is the night it had: the very original
    comes back."""
    at = number_of(real_export, "session") - 1
    session = json.loads(real_export[at])
    del session["night"]
    changed = [*real_export[:at], json.dumps(session), *real_export[at + 1 :]]
    _source, result = restore(chouette, tmp_path, changed)
    assert result.exit_code == 0, result.stderr
    again = tmp_path / "again.jsonl"
    chouette("--db", str(tmp_path / "copy.db"), "export", str(again))
    assert again.read_text("utf-8").splitlines()[1:] == real_export[1:]


@pytest.mark.slow
@settings(
    max_examples=examples(60),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_a_mutated_export_is_refused_cleanly_or_restored_exactly(
    chouette, tmp_path, real_export, data
):
    changed = mutate(real_export, data)
    where = Path(tempfile.mkdtemp(dir=tmp_path))  # (Hypothesis seeds random: no names from it)
    _source, result = restore(chouette, where, changed)
    assert "Traceback" not in result.stderr
    if result.exit_code != 0:
        assert result.exit_code == 1 and result.stderr.startswith("Error: "), result.stderr
        assert len(result.stderr.splitlines()) == 1
        return
    again = where / "again.jsonl"
    chouette("--db", str(where / "copy.db"), "export", str(again))
    kept = [implied_night(t, real_export) for t in changed if t.strip()][1:]
    written = again.read_text("utf-8").splitlines()[1:]
    if not any('"kind": "chain"' in t for t in kept):  # an export without its chain (one
        written = [t for t in written if '"kind": "chain"' not in t]  # made before: chained now)
    # the same lines (the heading says when; lines swapped where order means nothing are
    # written back in the export's order)
    assert sorted(written) == sorted(kept)


def implied_night(text: str, original: list[str]) -> str:
    """A session line whose night was left out (or null), as the restore fills it in: the
    night of the session's start, which for the real export is its own night (see the test
    above). Any other line as it is."""
    try:
        item = json.loads(text)
    except ValueError:
        return text
    if not isinstance(item, dict) or item.get("kind") != "session" or item.get("night"):
        return text
    for line in original:
        session = json.loads(line)
        if session.get("kind") == "session" and {**session, "night": None} == {
            **item,
            "night": None,
        }:
            return line
    return text
