"""Each session's chain in the ledger (:mod:`chouette.chain`): sealed as a command ends,
checked by ``check``, carried by ``export`` and checked again by ``restore`` and ``verify``
(:func:`db.transfer.read_export`, the one reader of an export).
"""

from __future__ import annotations

import itertools
from datetime import datetime

from sqlalchemy import Connection, text

from chouette.chain import (
    chain_problem,
    fingerprint,
    item_digest,
    next_link,
    state_digest,
    state_from,
)
from chouette.session import SessionInfo
from chouette.words import Sayable, said
from db.ledger import Ledger
from db.transfer import game_items, session_record

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


def chain_problems(book: Ledger, info: SessionInfo) -> list[Sayable]:
    """What ``check`` finds wrong with the session's chain: its first link that does not
    fit, or a record that is not its newest link's."""
    chain = book.chain(info)
    if not chain:  # (every session is chained from schema 16 on: db.migrations)
        return [
            said(
                "{session} has no chain: nothing proves its record (every session of a "
                "ledger is chained as it begins, or as its ledger moved to schema 16; its "
                "links were taken out of the ledger)",
                session=info.name,
            )
        ]
    problem = chain_problem(chain, state_digest(session_record(book, info)))
    if problem is None:
        return []
    return [said("{session}'s chain: {problem}", session=info.name, problem=problem)]


def chain_every_session(conn: Connection, now: datetime) -> None:
    """A first link for each session that has no chain: its record as it stands (the chain
    proves nothing about what was changed before). Run as a ledger is migrated, by the
    ledger's own writers, the schema being the newest."""
    from sqlmodel import Session

    unchained = conn.execute(
        text("SELECT id FROM session WHERE id NOT IN (SELECT session_id FROM chain)")
    ).all()
    if not unchained:
        return
    with Session(bind=conn) as session:
        book = Ledger(session, now)
        for (session_id,) in unchained:
            book.changed(session_id, "chained as its ledger moved to schema 16")
        seal(book)
        session.flush()
