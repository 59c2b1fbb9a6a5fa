"""The rules at their edges (issue 13) through the commands: records, standings, old ledgers."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.backends("sqlite", "postgres")


def test_inherit_everyone_dropping_is_a_clean_box_win_through_drop_all(chouette):
    chouette("new", "t", "B", "C", "M1", "M2", "--acting-captain", "inherit")
    chouette("double", "C", "M1", "M2")
    out = chouette("drop", "--all").stdout
    assert out.endswith("Next line: B | M1, M2, C\n")


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


def test_a_box_who_sat_out_rejoins_at_the_bottom(chouette):
    chouette("new", "t", "X", "B", "C", "M1")
    chouette("sit-out", "X")
    chouette("end", "box")
    assert chouette("sit-in", "X").stdout == "X sits in. Line: B | M1, C, X\n"
