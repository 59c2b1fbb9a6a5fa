"""The tamper-evident chain, as rules (chouette/chain.py): a link's hash covers its fields
and the link before; any change to a link or to the record shows; the fingerprint is the
newest link's."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chouette.chain import (
    FINGERPRINT,
    GENESIS,
    Link,
    chain_problem,
    fingerprint,
    link_hash,
    links_from,
    next_link,
    record_order,
    state_digest,
)

WHATS = st.text(min_size=1, max_size=30)
STATES = st.text(alphabet="0123456789abcdef", min_size=64, max_size=64)


def chain_of(steps: list[tuple[str, str]]) -> list[Link]:
    chain: list[Link] = []
    for i, (what, state) in enumerate(steps):
        chain.append(next_link(chain, f"2026-11-24T21:{i % 60:02d}:00+00:00", what, state))
    return chain


def test_a_link_hashes_its_fields_and_the_link_before():
    first = next_link([], "2026-11-24T21:00:00+00:00", "the session friday began", "a" * 64)
    assert first.seq == 1
    assert first.hash == link_hash(GENESIS, 1, first.at, first.what, first.state)
    second = next_link([first], "2026-11-24T21:05:00+00:00", "game 1: double", "b" * 64)
    assert second.hash == link_hash(first.hash, 2, second.at, second.what, "b" * 64)
    assert fingerprint([first, second]) == second.hash[:FINGERPRINT] and fingerprint([]) is None


@given(st.lists(st.tuples(WHATS, STATES), min_size=1, max_size=12))
def test_a_chain_as_made_checks_and_its_record_is_its_newest_links(steps):
    chain = chain_of(steps)
    assert chain_problem(chain) is None
    assert chain_problem(chain, steps[-1][1]) is None


@given(
    st.lists(st.tuples(WHATS, STATES), min_size=1, max_size=12),
    st.data(),
)
def test_any_change_to_any_link_is_found_and_named(steps, data):
    chain = chain_of(steps)
    i = data.draw(st.integers(0, len(chain) - 1))
    field = data.draw(st.sampled_from(["at", "what", "state", "hash"]))
    old = getattr(chain[i], field)
    new = data.draw(st.text(min_size=1, max_size=70).filter(lambda t: t != old))
    changed = [*chain[:i], replace(chain[i], **{field: new}), *chain[i + 1 :]]
    problem = chain_problem(changed)
    assert problem is not None and str(problem).startswith(f"link {i + 1} ")


def test_a_record_that_is_not_the_newest_links_is_found():
    chain = chain_of([("the session friday began", "a" * 64), ("bob paid ann 2.00", "b" * 64)])
    problem = chain_problem(chain, "c" * 64)
    assert problem is not None
    assert str(problem).startswith("the record is not the one its newest link (2, 2026-11-24T21:01")
    dropped = chain[:1] + chain[2:]  # a link taken out: the next is out of sequence
    assert str(chain_problem([*dropped, replace(chain[1], seq=3)])) == "link 2 is numbered 3"


def test_the_records_digest_is_of_its_items_whatever_their_key_order_or_current_flag():
    items = [
        {"kind": "session", "name": "friday", "current": True, "stake_cents": 100},
        {"kind": "payment", "session": "friday", "cents": 200},
        {"kind": "game", "number": 2, "session": "friday"},
        {"kind": "game", "number": 1, "session": "friday"},
    ]
    same = [
        {"stake_cents": 100, "name": "friday", "kind": "session", "current": False},
        {"kind": "game", "session": "friday", "number": 1},
        {"kind": "game", "session": "friday", "number": 2},
        {"cents": 200, "session": "friday", "kind": "payment"},
    ]
    assert state_digest(record_order(items)) == state_digest(record_order(same))
    changed = [*same[:3], {**same[3], "cents": 201}]
    assert state_digest(record_order(changed)) != state_digest(record_order(same))


@pytest.mark.parametrize(
    "given_links",
    [
        [{"seq": 1, "at": "x", "what": "y", "state": "z"}],
        [{"seq": "1", "at": "x", "what": "y", "state": "z", "hash": "h"}],
        [{"seq": 1, "at": 5, "what": "y", "state": "z", "hash": "h"}],
        ["a link"],
    ],
)
def test_a_link_read_from_an_export_is_held_to_its_shape(given_links):
    with pytest.raises(ValueError):
        links_from(given_links)
