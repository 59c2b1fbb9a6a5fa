"""Text shown safely (chouette/text.py): nothing that drives a terminal, and JSON made safe
is the same JSON."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from chouette.text import json_safe, shown

LAWS = settings(max_examples=150, deadline=None)


HIDDEN = "\x00\x07\x1b\x7f\x85\x9b\u061c\u200e\u200f\u2028\u2029\u202a\u202e\u2066\u2069\ufeff"


@LAWS
@given(st.text())
def test_shown_text_holds_nothing_that_drives_a_terminal(text):
    assert not any(c in shown(text) for c in HIDDEN)
    assert "\n" not in shown(text)


@LAWS
@given(st.recursive(st.text(), lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner)))
def test_json_made_safe_is_the_same_json(value):
    safe = json_safe(json.dumps(value, ensure_ascii=False, indent=2))
    assert json.loads(safe) == value
    assert not any(c in safe for c in HIDDEN if c != "\x00")


def test_shown_keeps_plain_text_and_escapes_the_rest():
    assert shown("zoë 👩‍👩‍👧 Big Al") == "zoë 👩‍👩‍👧 Big Al"
    assert shown("\x1b[2J\u202eevil\x9b") == "\\x1b[2J\\u202eevil\\x9b"
