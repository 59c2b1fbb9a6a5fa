"""The tamper-evident record: each session's changes as a chain of SHA-256 links.

Every command that changes a session appends one **link**: its number in the session's chain
(``seq``), when, what was done (as ``undo`` and ``log`` say it), the digest of the session's
whole record as it then stood (``state``: the session, its games with their events and
imported results, its payments, fees and shared costs, imported files and acceptances, each
as ``chouette export`` writes it), the digest of the session's journal as it then stood
(``journal``: what ``undo`` takes back, entry by entry in order, :func:`journal_step`; a
link made before schema 18 has none), and the hash of all that with the previous link's
hash. Undo appends a link too: the chain only grows. The session's **fingerprint** is the
first :data:`FINGERPRINT` hex digits of its newest link's hash.

What it proves: a record that still has the fingerprint someone noted (or photographed) at
the table is the record they saw; any change since to a booking, payment, event, the line or
a link shows as a link whose hash does not fit, or a record whose digest is not its newest
link's, or a different fingerprint. What it does not: that the record was right when it was
written, nor who wrote it; someone who can write the ledger file can rebuild a whole chain
that fits, and only a fingerprint noted before (or an export kept elsewhere) shows it.

Pure: the standard library's hashlib and json only.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from chouette.words import Sayable, said

#: The hex digits of a link's hash that make a session's fingerprint.
FINGERPRINT = 10
#: The "previous hash" of a session's first link.
GENESIS = "0" * 64
#: What a session's record leaves out of its digest: which session is current is the
#: ledger's, not the session's; the session's name in each of its lines is said once, in
#: the session's own line; the night it belongs to groups sessions and books nothing (so a
#: session chained before nights were kept, schema 14, keeps its fingerprint).
VOLATILE = frozenset({"current", "session", "night"})


def canonical(value: Any) -> bytes:
    """``value`` as canonical JSON: keys sorted, no spaces, UTF-8 (the same bytes for the
    same value, however it was read)."""
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode("utf-8")


def item_digest(item: Mapping[str, Any]) -> str:
    """The digest of one item of a session's record (as ``chouette export`` writes it),
    without :data:`VOLATILE` keys."""
    return hashlib.sha256(
        canonical({k: v for k, v in item.items() if k not in VOLATILE})
    ).hexdigest()


def state_from(digests: Iterable[str]) -> str:
    """The digest of a session's record from its items' digests, in :func:`record_order`."""
    digest = hashlib.sha256()
    for item in digests:
        digest.update(item.encode("ascii") + b"\n")
    return digest.hexdigest()


def state_digest(items: Iterable[Mapping[str, Any]]) -> str:
    """The digest of a session's record: its items (as ``chouette export`` writes them, in
    :func:`record_order`): SHA-256 of their :func:`item_digest`, each on a line."""
    return state_from(item_digest(item) for item in items)


def record_order(items: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """A session's export items in the order their digest is taken: the session, its games
    by number, then its payments, charges (fees and shared costs), imported files and
    acceptances as given (the order they were booked), the files by their SHA-256."""
    items = list(items)
    sessions = [i for i in items if i.get("kind") == "session"]
    games = sorted((i for i in items if i.get("kind") == "game"), key=lambda i: i["number"])
    payments = [i for i in items if i.get("kind") == "payment"]
    charges = [i for i in items if i.get("kind") == "charge"]
    files = sorted((i for i in items if i.get("kind") == "source_file"), key=lambda i: i["sha256"])
    accepts = [i for i in items if i.get("kind") == "accept"]
    events = [i for i in items if i.get("kind") == "event"]
    return [*sessions, *games, *payments, *charges, *files, *accepts, *events]


@dataclass(frozen=True)
class Link:
    """One change of a session, chained: ``seq`` from 1, ``at`` (ISO 8601), ``what`` was
    done, the record's ``state`` digest after it, ``hash``, and the ``journal``'s digest
    after it (None: a link made before schema 18)."""

    seq: int
    at: str
    what: str
    state: str
    hash: str
    journal: str | None = None

    def to_dict(self) -> dict[str, Any]:
        found = {
            "seq": self.seq,
            "at": self.at,
            "what": self.what,
            "state": self.state,
            "hash": self.hash,
        }
        if self.journal is not None:
            found["journal"] = self.journal
        return found


def link_hash(
    previous: str, seq: int, at: str, what: str, state: str, journal: str | None = None
) -> str:
    """The hash of a link: SHA-256 of the canonical JSON of the previous link's hash and
    this link's fields (``journal`` among them where the link has one)."""
    body = {"previous": previous, "seq": seq, "at": at, "what": what, "state": state}
    if journal is not None:
        body["journal"] = journal
    return hashlib.sha256(canonical(body)).hexdigest()


def next_link(
    last: Link | Sequence[Link] | None,
    at: str,
    what: str,
    state: str,
    journal: str | None = None,
) -> Link:
    """The link that follows ``last`` (the newest link, or a whole chain; None or empty:
    the first)."""
    if not isinstance(last, Link):
        last = last[-1] if last else None
    previous = last.hash if last is not None else GENESIS
    seq = last.seq + 1 if last is not None else 1
    hashed = link_hash(previous, seq, at, what, state, journal)
    return Link(seq, at, what, state, hashed, journal)


#: The kind of journal entry a restore leaves on top of what it restored: the journal
#: before it is not in the ledger (an export does not carry it), so the entry holds the
#: journal's digest as the restored chain's newest link gives it, and ``undo`` stops there.
RESTORED = "restored"


def entry_digest(kind: str, detail: str, at: str) -> str:
    """The digest of one journal entry: its kind, its detail as stored (JSON text) and its
    time (ISO 8601, UTC)."""
    return hashlib.sha256(canonical([kind, detail, at])).hexdigest()


def journal_step(previous: str, kind: str, detail: str, at: str) -> str:
    """The journal's digest once this entry follows a journal whose digest is ``previous``
    (the empty journal's is :data:`GENESIS`): SHA-256 of the two, or, for a restore's
    entry (:data:`RESTORED`), the digest it holds."""
    if kind == RESTORED:
        held = restored_digest(detail)
        if held is not None:
            return held
    return follow(previous, entry_digest(kind, detail, at))


def follow(previous: str, entry: str) -> str:
    """The journal's digest once an entry whose :func:`entry_digest` is ``entry`` follows a
    journal whose digest is ``previous``."""
    return hashlib.sha256(f"{previous}\n{entry}".encode("ascii", "replace")).hexdigest()


def restored_digest(detail: str) -> str | None:
    """The journal digest a restore's entry holds (:data:`GENESIS`: a chain restored
    without one; None: not such an entry's detail)."""
    try:
        found = json.loads(detail)
    except ValueError:
        return None
    if not isinstance(found, dict) or "journal" not in found:
        return None
    held = found["journal"]
    if held is None:
        return GENESIS
    return held if isinstance(held, str) else None


def journal_digest(entries: Iterable[tuple[str, str, str]]) -> str:
    """The digest of a session's journal: its entries (kind, detail as stored, time), the
    oldest first, each :func:`journal_step` on from :data:`GENESIS`."""
    found = GENESIS
    for kind, detail, at in entries:
        found = journal_step(found, kind, detail, at)
    return found


def event_head(name: str, terms: Mapping[str, Any], created_at: str) -> str:
    """Where the chain of an event's steps begins (schema 21): the digest of its name, its
    terms and when it began, so that terms changed afterwards show as an event whose chain
    does not begin where it was made to."""
    return hashlib.sha256(
        canonical({"event": name, "terms": terms, "created_at": created_at})
    ).hexdigest()


def event_step(previous: str, kind: str, detail: Mapping[str, Any], at: str) -> str:
    """The digest of an event's steps once this step follows those whose digest is
    ``previous`` (the first step follows :func:`event_head`): its kind, its detail as an
    export names it (sessions by level and table, charges by their place in the purse: the
    same in a restored ledger) and its time."""
    return follow(previous, hashlib.sha256(canonical([kind, detail, at])).hexdigest())


def fingerprint(chain: Sequence[Link]) -> str | None:
    """A session's fingerprint: the first :data:`FINGERPRINT` hex digits of its newest
    link's hash (None: not chained yet)."""
    return chain[-1].hash[:FINGERPRINT] if chain else None


def chain_problem(chain: Sequence[Link], state: str | None = None) -> Sayable | None:
    """The first thing that does not fit, or None: a link out of sequence or whose hash is
    not the hash of its fields and the one before; with ``state`` (the digest of the record
    as it is), a record that is not the one the newest link was made with."""
    previous = GENESIS
    for expected, link in enumerate(chain, start=1):
        if link.seq != expected:
            return said("link {expected} is numbered {seq}", expected=expected, seq=link.seq)
        if link.hash != link_hash(previous, link.seq, link.at, link.what, link.state, link.journal):
            return said(
                "link {seq} ({at}: {what}) does not fit the chain",
                seq=link.seq,
                at=link.at,
                what=link.what[:80],
            )
        previous = link.hash
    if state is not None and chain and chain[-1].state != state:
        last = chain[-1]
        return said(
            "the record is not the one its newest link ({seq}, {at}: {what}) was made with: a "
            "booking, payment, event or the line was changed outside chouette since",
            seq=last.seq,
            at=last.at,
            what=last.what[:80],
        )
    return None


def links_from(data: Iterable[Mapping[str, Any]]) -> list[Link]:
    """Links as an export writes them (``Link.to_dict``); a link that is not one raises
    ValueError."""
    found = []
    fields = {"seq", "at", "what", "state", "hash"}
    for item in data:
        if not isinstance(item, Mapping) or set(item) - {"journal"} != fields:
            raise ValueError(
                said("a link has seq, at, what, state and hash (and journal), and nothing else")
            )
        seq, at, what, state, hashed = (item[k] for k in ("seq", "at", "what", "state", "hash"))
        journal = item.get("journal")
        if not isinstance(seq, int) or isinstance(seq, bool):
            raise ValueError(said("a link's seq is a whole number"))
        if not all(isinstance(v, str) for v in (at, what, state, hashed)):
            raise ValueError(said("a link's at, what, state and hash are text"))
        if "journal" in item and not isinstance(journal, str):
            raise ValueError(said("a link's journal is text"))
        found.append(Link(seq, at, what, state, hashed, journal))
    return found
