"""Each session's chain in the ledger (:mod:`chouette.chain`): sealed as a command ends,
checked by ``check``, carried by ``export`` and checked again by ``restore`` and ``verify``.
"""

from __future__ import annotations

import itertools
import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from chouette.chain import (
    Link,
    chain_problem,
    fingerprint,
    item_digest,
    links_from,
    next_link,
    record_order,
    state_digest,
    state_from,
)
from chouette.errors import ChouetteError
from chouette.session import SessionInfo
from chouette.words import Sayable
from db.ledger import Ledger
from db.transfer import HEADING, game_items, session_record

#: How many games a command digests at once (an import's memory stays flat).
DIGEST_CHUNK = 2000


def seal(book: Ledger) -> None:
    """Append a link to the chain of each session the command changed (its record as it
    now stands), once, as the command ends."""
    touched, book.touched = book.touched, {}
    games_from, book.games_from = book.games_from, {}
    for session_id, done in touched.items():
        info = book.session_by_id(session_id)
        if info is None:  # gone with the command (a split taken back, a session deleted)
            continue
        state = session_state(book, info, games_from.get(session_id))
        last = book.last_link(info)
        at = book.now.isoformat()
        book.add_links(info, [next_link(last, at, "; ".join(done)[:2000], state)])


def session_state(book: Ledger, info: SessionInfo, games_from: int | None) -> str:
    """The digest of the session's record (:func:`chouette.chain.state_digest` of
    :func:`db.transfer.session_record`), the games before ``games_from`` (all, for None)
    from the digests kept of them: a command digests the games it changed (an import, none:
    its games came with their digests), not the evening, and reads the kept digests as one
    stream. ``check`` digests everything again (:func:`chain_problems`)."""
    stale = book.undigested_games(info, games_from)
    for start in range(0, len(stale), DIGEST_CHUNK):  # a chunk at a time: memory stays flat
        part = dict(stale[start : start + DIGEST_CHUNK])
        numbers = sorted(part.values())
        changed = [
            g
            for g in book.stored_games(info, from_number=numbers[0], to_number=numbers[-1])
            if g.id in part
        ]
        book.keep_game_digests(
            {
                g.id: item_digest(item)
                for g, item in zip(changed, game_items(book, info, changed), strict=True)
            }
        )
    rest = session_record(book, info, games=False)
    return state_from(
        itertools.chain(
            [item_digest(rest[0])],
            (digest or "" for digest in book.kept_digests(info)),
            (item_digest(item) for item in rest[1:]),
        )
    )


def session_fingerprint(book: Ledger, info: SessionInfo) -> str | None:
    return fingerprint(book.chain(info))


def chain_problems(book: Ledger, info: SessionInfo) -> list[str]:
    """What ``check`` finds wrong with the session's chain: its first link that does not
    fit, or a record that is not its newest link's."""
    chain = book.chain(info)
    if not chain:
        return []
    problem = chain_problem(chain, state_digest(session_record(book, info)))
    return [] if problem is None else [f"{info.name}'s chain: {problem}"]


@dataclass(frozen=True)
class Verified:
    """An export's session as ``verify`` found it: its fingerprint (None: not chained), and
    what does not fit (None: it checks)."""

    session: str
    fingerprint: str | None
    problem: Sayable | None  # (``str()`` of it in JSON)
    line: int


def verify_lines(lines: Iterable[tuple[int, str]]) -> list[Verified]:
    """Check an export's chains offline: every session's links, and its record (the
    export's own lines for it) against its newest link. Raises ChouetteError for a file
    that is no export."""
    records: dict[str, list[dict[str, Any]]] = defaultdict(list)
    chains: dict[str, tuple[int, list[Link]]] = {}
    order: list[str] = []
    given: dict[str, int] = {}
    for number, text in lines:
        if not text.strip():
            continue
        try:
            item = json.loads(text)
        except (ValueError, RecursionError):
            raise ChouetteError(f"line {number} is not JSON: this is no chouette export") from None
        if not isinstance(item, dict):
            raise ChouetteError(f"line {number} is not a JSON object: no chouette export")
        kind = item.get("kind")
        if number == 1 and kind != HEADING:
            raise ChouetteError("its first line is not a chouette export's heading")
        if kind == "session":
            name = str(item.get("name"))
            order.append(name)
            given[name] = number
            records[name].append(item)
        elif kind in ("game", "payment", "charge", "source_file", "accept"):
            records[str(item.get("session"))].append(item)
        elif kind == "chain":
            try:
                chains[str(item.get("session"))] = (number, links_from(item.get("links", [])))
            except ValueError as err:
                raise ChouetteError(f"line {number}: {err}") from None
    found = []
    for name in order:
        number, chain = chains.get(name, (given[name], []))
        if not chain:
            found.append(Verified(name, None, None, given[name]))
            continue
        problem = chain_problem(chain, state_digest(record_order(records[name])))
        found.append(Verified(name, fingerprint(chain), problem, number))
    return found
