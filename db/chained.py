"""Each session's chain in the ledger (:mod:`chouette.chain`): sealed as a command ends,
checked by ``check``, carried by ``export`` and checked again by ``restore`` and ``verify``
(:func:`db.transfer.read_export`, the one reader of an export).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from datetime import datetime

from sqlalchemy import Connection, text

from chouette.chain import (
    GENESIS,
    RESTORED,
    Link,
    chain_problem,
    fingerprint,
    item_digest,
    journal_step,
    next_link,
    state_from,
)
from chouette.session import SessionInfo
from chouette.words import Sayable, said, said_n
from db.events import chain_unchained
from db.journal import journal_afresh
from db.ledger import Ledger
from db.transfer import game_items, session_record

#: How many games a command digests at once (an import's memory stays flat).
DIGEST_CHUNK = 2000


def seal(book: Ledger) -> None:
    """Append a link to the chain of each session the command changed (its record and its
    journal as they now stand), once, as the command ends."""
    touched, book.touched = book.touched, {}
    games_from, book.games_from = book.games_from, {}
    digested, book.digested_from = book.digested_from, {}
    journaled, book.journaled = book.journaled, {}
    forgotten, book.forgotten = book.forgotten, set()
    for session_id, done in touched.items():
        info = book.session_by_id(session_id)
        if info is None:  # gone with the command (a split taken back, a session deleted)
            continue
        last = book.last_link(info)
        state = session_state(
            book, info, last, games_from.get(session_id), digested.get(session_id)
        )
        journal = journal_state(
            book, info, last, journaled.get(session_id, []), session_id in forgotten
        )
        at = book.now.isoformat()
        book.add_links(info, [next_link(last, at, "; ".join(done)[:2000], state, journal)])


def session_state(
    book: Ledger,
    info: SessionInfo,
    last: Link | None,
    games_from: int | None,
    digested_from: int | None = None,
) -> str:
    """The digest of the session's record (:func:`chouette.chain.state_digest` of
    :func:`db.transfer.session_record`). A command digests the games it changed (from
    ``games_from`` on; an import, none: its games came with their digests, kept from
    ``digested_from`` on) and the session's other lines, not the evening: the games before
    it from the digests kept of them, read as one stream, but only once the digests kept
    give the newest link's state (:func:`kept_fits`); else every game is digested afresh,
    and kept. ``check`` digests everything again (:func:`chain_problems`)."""
    before = None
    if last is None or not kept_fits(book, info, last.state, digested_from):
        # nothing kept is trusted but what this command kept (an import's games): every
        # other game afresh
        before = digested_from if digested_from is not None else book.next_number(info)
    stale = book.undigested_games(info, games_from, before)
    for start in range(0, len(stale), DIGEST_CHUNK):  # a chunk at a time: memory stays flat
        part = dict(stale[start : start + DIGEST_CHUNK])
        numbers = sorted(part.values())
        changed = [
            g
            for g in book.stored_games(info, from_number=numbers[0], to_number=numbers[-1])
            if g.id in part
        ]
        book.keep_game_digests(
            info,
            {
                g.number: item_digest(item)
                for g, item in zip(changed, game_items(book, info, changed), strict=True)
            },
        )
    record = session_record(book, info, games=False)
    head, rest = item_digest(record[0]), [item_digest(item) for item in record[1:]]
    book.keep_record(info, head, rest, book.next_number(info) - 1)
    return state_from(
        itertools.chain([head], (digest or "" for digest in book.kept_digests(info)), rest)
    )


def kept_fits(book: Ledger, info: SessionInfo, state: str, digested_from: int | None) -> bool:
    """Whether the digests kept of the session's record (those the newest link was made
    with: not a game's this command kept as it booked it, from ``digested_from`` on) give
    ``state``, its newest link's: then each is what it was taken of (SHA-256), and the seal
    may use them. A kept digest damaged, or none kept (a ledger restored or migrated), and
    the seal digests the session afresh."""
    kept = iter(book.kept_record(info))
    rest: list[str] = []
    for number, digest in kept:
        if number == 0:
            head = digest
            break
        rest.append(digest)
    else:
        return False  # none kept of the session's own line: nothing kept to use

    def lines() -> Iterator[str]:
        yield head
        for number, digest in kept:  # (every row read: a cursor left open is not closed)
            if digested_from is None or number < digested_from:
                yield digest
        yield from rest

    try:
        return state_from(lines()) == state
    except UnicodeEncodeError:  # a damaged digest, not hex
        for _ in kept:  # (read to the end: the cursor closes)
            pass
        return False


def journal_state(
    book: Ledger, info: SessionInfo, last: Link | None, added: Sequence[int], taken: bool
) -> str:
    """The digest of the session's journal as the command leaves it
    (:func:`chouette.chain.journal_digest`): its newest link's, stepped on by each entry the
    command wrote (``added``). Where the command took an entry back (``taken``: ``undo``,
    which first made sure the journal was its newest link's,
    :func:`db.journal.refuse_unfit_journal`), or the newest link holds none (made before
    schema 18), the whole journal afresh."""
    if taken or last is None or last.journal is None:
        return journal_afresh(book, info)
    found = last.journal
    for _, kind, detail, at in book.journal_entries(info, added) if added else []:
        found = journal_step(found, kind, detail, at)
    return found


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
    record = [item_digest(item) for item in session_record(book, info)]
    problem = chain_problem(chain, state_from(record))
    problems: list[Sayable] = []
    if problem is not None:
        problems.append(said("{session}'s chain: {problem}", session=info.name, problem=problem))
    problems += kept_problems(book, info, record)
    return problems + journal_chain_problems(book, info, chain[-1])


def kept_problems(book: Ledger, info: SessionInfo, record: Sequence[str]) -> list[Sayable]:
    """The digests kept of the session's record that are not what they are of (``record``:
    each line's digest, afresh, in :func:`chouette.chain.record_order`): damaged. The seal
    never uses them so (:func:`kept_fits`), but they are named."""
    games = book.next_number(info) - 1
    head, played, rest = record[0], record[1 : 1 + games], record[1 + games :]
    wrong: list[int] = []
    beside = False
    for number, kept in book.kept_record(info):
        if number > 0:
            if number > len(played) or played[number - 1] != kept:
                wrong.append(number)
        elif kept != (head if number == 0 else _at(rest, len(rest) + number)):
            beside = True
    problems: list[Sayable] = [
        said(
            "{session}'s digest kept of game {number} is not the game's (damaged): the "
            "next command that changes the session digests it afresh",
            session=info.name,
            number=number,
        )
        for number in wrong[:5]
    ]
    if len(wrong) > 5:
        problems.append(
            said_n(
                "… and of {n} more game of {session}",
                "… and of {n} more games of {session}",
                len(wrong) - 5,
                session=info.name,
            )
        )
    if beside:
        problems.append(
            said(
                "{session}'s digests kept of its record besides its games are not the "
                "record's (damaged): the next command that changes the session digests "
                "it afresh",
                session=info.name,
            )
        )
    return problems


def _at(items: Sequence[str], index: int) -> str | None:
    return items[index] if 0 <= index < len(items) else None


def journal_chain_problems(book: Ledger, info: SessionInfo, newest: Link) -> list[Sayable]:
    """What ``check`` finds wrong with the session's journal against its chain: a journal
    that is not the one its newest link was made with (an entry changed, taken out, moved
    or added: ``undo`` would take back what the journal says), a digest kept of it that is
    a restore's mark where no restore leaves one."""
    entries = book.journal_entries(info)
    problems: list[Sayable] = []
    found, marks = GENESIS, []
    for position, (action_id, kind, detail, at) in enumerate(entries):
        found = journal_step(found, kind, detail, at)
        if kind == RESTORED:
            marks.append((position, action_id))
    if newest.journal is not None and newest.journal != found:
        problems.append(
            said(
                "{session}'s journal is not the one its newest link ({seq}, {at}) was "
                "made with: an entry was changed, taken out, moved or added outside "
                "chouette since, and undo would take back what the journal says",
                session=info.name,
                seq=newest.seq,
                at=newest.at,
            )
        )
    for position, action_id in marks:
        if marks[-1][1] != action_id or any(e[1] != "accept" for e in entries[:position]):
            problems.append(
                said(
                    "{session}'s journal holds a restore's mark (entry {entry}) where no "
                    "restore leaves one: undo stops at it",
                    session=info.name,
                    entry=action_id,
                )
            )
    return problems


def chain_every_session(conn: Connection, now: datetime) -> None:
    """A first link for each session that has no chain: its record as it stands (the chain
    proves nothing about what was changed before); and a chain for the steps of each event
    that has none, its purse sealed (schema 21). Run as a ledger is migrated, by the
    ledger's own writers, the schema being the newest."""
    from sqlmodel import Session

    unchained = conn.execute(
        text("SELECT id FROM session WHERE id NOT IN (SELECT session_id FROM chain)")
    ).all()
    events = conn.execute(text("SELECT count(*) FROM tournament")).scalar_one()
    if not unchained and not events:
        return
    with Session(bind=conn) as session:
        book = Ledger(session, now)
        for (session_id,) in unchained:
            book.changed(session_id, "chained as its ledger moved to schema 16")
        chain_unchained(book)  # (schema 21: each event's steps, its purse sealed)
        seal(book)
        session.flush()
