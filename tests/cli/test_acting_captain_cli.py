"""House rule ``acting-captain inherit`` through the commands: everyone dropping the box's
double is a clean box win, through ``drop --all`` and through a record."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.backends("sqlite", "postgres")


def test_inherit_everyone_dropping_is_a_clean_box_win_through_drop_all(chouette):
    chouette("new", "t", "B", "C", "M1", "M2", "--acting-captain", "inherit")
    chouette("double", "C", "M1", "M2")
    out = chouette("drop", "--all").stdout
    assert out.endswith(
        "Next line: B | M1, M2, C\n"
        "Why:\n"
        "  box stays: captain rule, C lost to the box (-1)\n"
        "  B keeps the box; C, the captain, goes to the bottom of the line\n"
    )


def test_inherit_everyone_dropping_is_a_clean_box_win_through_a_record(chouette):
    chouette("new", "t", "B", "C", "M1", "--acting-captain", "inherit", "--cubes", "single")
    record = {
        "events": [
            {"act": "double", "by": "box"},
            {"act": "drop", "member": "C"},
            {"act": "drop", "member": "M1"},
        ]
    }
    out = chouette("record", "-", input=json.dumps(record)).stdout
    assert out == "Booked game 1 of t; next line: B | M1, C\n"
