"""Booking engine files: each engine game a head-to-head game of the chosen session.

The file is read as a stream (the readers in ``chouette.engines`` are generators) and
booked in batches of set-based inserts, so memory stays flat however large the file. The
whole file is one transaction: a bad game anywhere refuses the file and books nothing.
A file's SHA-256 is remembered, and each game's identity (the file's hash and the game's
index, or the source a neutral record names), so importing again books nothing twice; and
the session's numbers of the games it booked, so ``undo`` can take the import back whole.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from json.encoder import encode_basestring
from typing import Any, NamedTuple, cast

from sqlalchemy.exc import IntegrityError

from chouette.chain import canonical
from chouette.engines import EngineGame
from chouette.engines.binary import (
    bgblitz_names,
)
from chouette.engines.model import older_keys, played_key
from chouette.errors import ChouetteError, EngineFileError
from chouette.line import Line, check_name
from chouette.money import Cents
from chouette.points import pair_money
from chouette.session import SessionInfo
from chouette.stop import check_not_ended
from chouette.words import Said, Sayable, joined, said, said_n
from db.codec import iso, line_to_json
from db.ledger import Ledger
from db.values import KeylessGame, SourceFile, Won
from files import engine
from files.engine import Checked

_sha256 = hashlib.sha256


@dataclass
class ImportSummary:
    """What an import did: games booked or skipped, points per player, warnings."""

    file: str
    session: str
    format: str = ""
    booked: int = 0
    skipped: int = 0
    first_game: int | None = None  # the session's numbers of the games booked
    last_game: int | None = None
    earlier: SourceFile | None = None  # the file was imported before: nothing booked now
    points: dict[str, int] = field(default_factory=dict)
    cents: dict[str, Cents] = field(default_factory=dict)
    notes: list[Sayable] = field(default_factory=list)
    warnings: list[Sayable] = field(default_factory=list)


def import_file(
    book: Ledger,
    info: SessionInfo,
    checked: Checked,
    *,
    names: Mapping[str, str],
) -> ImportSummary:
    """Book every game of a file :func:`check_file` read into the session ``info``: not one
    with table stakes (an engine game moves no bank) or one that has ended as agreed."""
    if info.rules.table_stakes is not None:
        raise ChouetteError(
            said(
                "{session} plays table stakes: an engine game would move no bank, so it is not "
                "imported there (import it into another session)",
                session=info.name,
            )
        )
    live = book.live(info)
    check_not_ended(book.stop(info, live.number, in_progress=live.started), live.number)
    path = checked.path
    summary = ImportSummary(file=path.name, session=info.name, format=checked.format)
    summary.notes += checked.notes
    summary.warnings += checked.warnings
    summary.earlier = book.source_file(checked.sha256)
    if summary.earlier is not None:
        return summary
    if checked.format == "bgf":  # BGBlitz writes a space in a name as '_'
        names = bgblitz_names(checked.players, names, info.line.order)
    try:
        booked = _book_games(book, info, checked.sha256, checked.batches(), names, summary)
    except EngineFileError as err:
        raise EngineFileError(joined((path.name, err.said), ": ")) from None
    book.journal(
        info,
        "import",
        {
            "sha256": checked.sha256,
            "file": path.name,
            "first": summary.first_game,
            "last": summary.last_game,
        },
        digested=True,  # each game booked with its digest (_Writer)
    )
    book.remember_file(
        SourceFile(
            sha256=checked.sha256,
            name=path.name,
            format=summary.format,
            session_id=info.id,
            session=info.name,
            games=booked,
            imported_at=book.now,
            first_game=summary.first_game,
            last_game=summary.last_game,
        )
    )
    return summary


def _book_games(
    book: Ledger,
    info: SessionInfo,
    sha: str,
    batches: Iterable[list[EngineGame]],
    names: Mapping[str, str],
    summary: ImportSummary,
) -> int:
    player = _Players(names, set(info.line.order), info)
    seen = _Seen(book, sha)
    writer = _Writer(book, info, summary)
    mapped: Iterator[list[Mapped]] = (_mapped(batch, player, summary) for batch in batches)
    if book.any_game_without_key():
        legacy = _Legacy(book, summary)
        mapped = _rebatched(legacy.unbooked(item for batch in mapped for item in batch))
    hopeful = True  # no game of the file is booked already, till one is
    for batch in mapped:
        if not batch:
            continue
        if hopeful and not any(item.also for item in batch):
            # Most games of a file are new: each batch is booked as though none of its games
            # were in the ledger, and the ledger's unique index on a game's identity says
            # otherwise if one is. Then that batch is taken back, and this and every later
            # batch asks the ledger first. A batch that skips a game unasked (a source cited
            # twice, say) asks too: the ledger may hold that game from another file, which
            # the import's notes name. (A game read from gnubg or XG has a second identity,
            # the one an older chouette stored, which is not written now, so no index can
            # refuse it: asked.)
            fresh = seen.fresh(batch, ask=False)
            if not fresh.skipped:
                try:
                    with book.savepoint():
                        writer.write(fresh.games)
                except IntegrityError:
                    hopeful = False
                else:
                    seen.take(fresh, summary)
                    continue
        fresh = seen.fresh(batch)
        writer.write(fresh.games)
        seen.take(fresh, summary)
    for source, count in seen.elsewhere.items():
        found = book.source_file(source)
        if found is None:
            summary.notes.append(
                said_n(
                    "{n} game of this file was booked already from another file: the same "
                    "games, skipped",
                    "{n} games of this file were booked already from another file: the same "
                    "games, skipped",
                    count,
                    n=count,
                )
            )
            continue
        summary.notes.append(
            said_n(
                "{n} game of this file was booked already from {file} (imported into "
                "{session} on {day}): the same games, skipped",
                "{n} games of this file were booked already from {file} (imported into "
                "{session} on {day}): the same games, skipped",
                count,
                n=count,
                file=found.name,
                session=found.session,
                day=found.imported_at.astimezone().date().isoformat(),
            )
        )
    return summary.booked


class _Players:
    """The session's player for an engine's name (each name checked once, then kept in
    ``known``)."""

    def __init__(self, names: Mapping[str, str], seated: set[str], info: SessionInfo) -> None:
        self.names, self.seated, self.info = names, seated, info
        self.known: dict[str, str] = {}

    def __call__(self, name: str, game: EngineGame) -> str:
        found = self.known.get(name)
        if found is not None:
            return found
        mapped = self.names.get(name, name)
        try:
            mapped = check_name(mapped)
        except ChouetteError as err:
            raise EngineFileError(joined((_where(game), err.said), ": ")) from None
        if mapped not in self.seated:
            values = {"where": _where(game), "player": mapped, "session": self.info.name}
            if mapped == name:
                raise EngineFileError(
                    said(
                        "{where}: {player} is not seated in {session} (map it with --as "
                        "'{name}=PLAYER')",
                        name=name,
                        **values,
                    )
                )
            raise EngineFileError(said("{where}: {player} is not seated in {session}", **values))
        self.known[name] = mapped
        return mapped


def _mapped(batch: list[EngineGame], player: _Players, summary: ImportSummary) -> list[Mapped]:
    """A batch's games, each with its winner and loser as the session's players and its key
    the identity of what was played (where the file says what was)."""
    known = player.known  # (a name met before: no call, once a game)
    mapped: list[Mapped] = []
    add = mapped.append
    for game in batch:
        winner = known.get(game.winner) or player(game.winner, game)
        loser = known.get(game.loser) or player(game.loser, game)
        if winner == loser:
            raise EngineFileError(
                said(
                    "{where}: {player} would play against themselves",
                    where=_where(game),
                    player=winner,
                )
            )
        if game.warnings:
            summary.warnings += game.warnings
        played = game.played
        if played is None:
            add(Mapped(game, winner, loser))
            continue
        # the identity of what was played, the players as the session names them; the
        # reader's own key, and the identity an older chouette gave what was played, still
        # find a game it booked from this format
        seats = (winner, loser) if played.winner == 0 else (loser, winner)
        also = (game.key, *older_keys(played, seats))
        add(Mapped(game._replace(key=played_key(played, seats)), winner, loser, also))
    return mapped


def _rebatched(items: Iterable[Mapped]) -> Iterator[list[Mapped]]:
    """``items`` in batches of :data:`~files.engine.BATCH`."""
    size = engine.BATCH  # (as the file's games were kept: a test makes it small)
    batch: list[Mapped] = []
    for item in items:
        batch.append(item)
        if len(batch) >= size:
            yield batch
            batch = []
    yield batch


def _where(game: EngineGame) -> Said:
    """The game's place in the file, for messages: ``line 12``, or ``game 3`` in a binary
    file."""
    if game.line:
        return said("line {number}", number=game.line)
    return said("game {number}", number=game.position)


class Mapped(NamedTuple):
    """An engine game with its winner and loser as the session's players, its key the
    identity of what was played where the file says it (``also``: the identities an older
    chouette stored: the reader's own key, and what was played as it counted the rolls)."""

    game: EngineGame
    winner: str
    loser: str
    also: tuple[str | None, ...] = ()


class Fresh(NamedTuple):
    """A game to book, and the source it came from: this file and the game's index, or the
    file and index a neutral record cites."""

    game: EngineGame
    winner: str
    loser: str
    sha256: str
    source_index: int


class _Batch(NamedTuple):
    """What :meth:`_Seen.fresh` found in a batch: the games to book, how many it skips as
    booked already, the sources of other files it cites (each booked once per file) and the
    games it skips as booked from another file, by that file's SHA-256."""

    games: list[Fresh]
    skipped: int
    cited: set[tuple[str, int]]
    elsewhere: dict[str, int]


def _source(game: EngineGame, sha: str) -> tuple[str, int]:
    """Where a game came from: the source a neutral record names, else this file and index."""
    source = game.source
    if source is not None and source.sha256 and source.game_index is not None:
        return source.sha256.lower(), source.game_index
    return sha, game.position


class _Writer:
    """Books batches of fresh games through the ledger's writer of an import's games
    (:meth:`Ledger.book_won`): each game's row, its result and the chain's digest of it made
    here, once."""

    def __init__(self, book: Ledger, info: SessionInfo, summary: ImportSummary) -> None:
        self.book, self.info, self.summary = book, info, summary
        self.number = book.next_number(info)
        self.pairs: dict[tuple[str, str], _Pair] = {}
        #: results, ends and files' SHA-256 as canonical JSON writes them
        self.quoted: dict[str, str] = {}
        self.at = _quoted(iso(book.now))

    def write(self, fresh: list[Fresh]) -> None:
        if not fresh:
            return
        info, number, now, at = self.info, self.number, self.book.now, self.at
        pairs, quoted = self.pairs, self.quoted
        games: list[Won] = []
        add = games.append
        for game, winner, loser, sha, index in fresh:
            pair = pairs.get((winner, loser))
            if pair is None:
                pair = pairs[winner, loser] = self._pair(winner, loser)
            won = game.points
            cents = pair_money(won, pair.stake)
            w, lo = pair.winner, pair.loser
            played = "null" if game.played_at is None else json.dumps(game.played_at)
            detail = (
                f'{{"winner": {w}, "loser": {lo}, "points": {won}, "cube": {game.cube}, '
                f'"result": "{game.result}", "end": "{game.end}", "played_at": {played}, '
                f'"index": {game.position}}}'
            )
            # The chain's digest of the game as written: item_digest of the game as the
            # export writes it (db.transfer._game_item of this row: its detail and line
            # parsed, the session's name left out), its canonical JSON made here at once
            # (keys sorted, no spaces, not ASCII-escaped), not read back when the import ends.
            result = quoted.get(game.result) or quoted.setdefault(game.result, _quoted(game.result))
            end = quoted.get(game.end) or quoted.setdefault(game.end, _quoted(game.end))
            keyed = "" if game.key is None else f'"key":{_quoted(game.key)},'
            source = quoted.get(sha) or quoted.setdefault(sha, _quoted(sha))
            digest = _sha256(
                (
                    f'{{"bookings":[{{"cents":{cents},"player":{w},"points":{won}}},'
                    f'{{"cents":{-cents},"player":{lo},"points":{-won}}}],"detail":{{'
                    f'"cube":{game.cube},"end":{end},"index":{game.position},"loser":{lo},'
                    f'"played_at":{_quoted(game.played_at)},"points":{won},"result":{result},'
                    f'"winner":{w}}},'
                    f'"ended_at":{at},{keyed}'
                    f'"kind":"game","line":{pair.line_text},"number":{number},"over":true,'
                    f'"source":[{source},{index}],"started_at":{at},"type":"engine"}}'
                ).encode()
            ).hexdigest()
            add(
                Won(
                    number,
                    pair.stored,
                    winner,
                    loser,
                    won,
                    cents,
                    detail,
                    sha,
                    index,
                    game.key,
                    digest,
                )
            )  # positional: a keyword call costs twice as much, once a game
            number += 1
        moved = self.book.book_won(info.id, now, games)  # (refused: nothing of it counts)
        points, cents_of = self.summary.points, self.summary.cents
        for (winner, loser), (won, cents) in moved.items():
            # each player in the summary from the first game booked they play (in the
            # order the file first names them: the batch's pairs' order)
            points[winner] = points.get(winner, 0) + won
            points[loser] = points.get(loser, 0) - won
            cents_of[winner] = cents_of.get(winner, 0) + cents
            cents_of[loser] = cents_of.get(loser, 0) - cents
        if self.summary.first_game is None:
            self.summary.first_game = self.number
        self.summary.last_game = number - 1
        self.number = number
        self.summary.booked += len(fresh)

    def _pair(self, winner: str, loser: str) -> _Pair:
        """What the games ``winner`` won from ``loser`` share."""
        stored = line_to_json(Line((winner, loser)))
        return _Pair(
            stored,
            canonical(json.loads(stored)).decode(),  # as the export writes it
            _quoted(winner),
            _quoted(loser),
            self.info.pair_stake(winner, loser),
        )


class _Pair(NamedTuple):
    """What the games one player won from another share, for :class:`_Writer`: their line,
    as stored and as canonical JSON, the two names as canonical JSON, and the pair's stake."""

    stored: str
    line_text: str
    winner: str
    loser: str
    stake: Cents


def _quoted(text: str | None) -> str:
    """``text`` as canonical JSON writes it (:func:`chouette.chain.canonical`: not ASCII-
    escaped), by the JSON encoder's own function for a string (``json.dumps`` would make an
    encoder each time, several times slower: this runs a few times a game)."""
    return "null" if text is None else encode_basestring(text)


class _Seen:
    """Which games are booked already: the same game by its identity (its key: an earlier
    import of this session's games from another export, or of this file saved another way,
    or earlier in this file), or the same source (the file and index a neutral record cites,
    each source asked once, then only sources the ledger knows checked game by game)."""

    def __init__(self, book: Ledger, file_sha: str) -> None:
        self.book = book
        self.file_sha = file_sha
        self.in_ledger: dict[str, bool] = {}
        self.cited: set[tuple[str, int]] = set()
        #: The games skipped as booked already from another file, by that file's SHA-256.
        self.elsewhere: dict[str, int] = {}

    def fresh(self, batch: list[Mapped], *, ask: bool = True) -> _Batch:
        """The games of ``batch`` to book, each with its source, and what is skipped as
        booked already (:meth:`take` notes it once they are booked). Earlier batches of this
        file are in the ledger already, so one query per batch finds a game the file holds
        twice. ``ask=False``: not asking the ledger which of the games' identities it holds
        (the caller books the batch so that the ledger's index refuses it if one is)."""
        sha = self.file_sha
        if ask:
            keys = {m.game.key for m in batch}
            keys.update([key for m in batch for key in m.also])
            keys.discard(None)
            known = self.book.known_keys(cast("set[str]", keys))
        else:
            known = {}
        cited = any(m.game.source is not None for m in batch) or self._known(sha)
        sources = [_source(m.game, sha) for m in batch] if cited else []
        booked = self._booked(set(sources)) if cited else set()
        keep: list[Fresh] = []
        add = keep.append
        cited_now: set[tuple[str, int]] = set()
        elsewhere: dict[str, int] = {}
        for i, (game, winner, loser, also) in enumerate(batch):
            key = game.key
            if key is not None:
                found = key if key in known else next((k for k in also if k in known), None)
                if found is not None:
                    first = known[found]
                    if first is not None and first != sha:  # the same game from another file
                        elsewhere[first] = elsewhere.get(first, 0) + 1
                    continue
                known[key] = sha
            if not cited:  # (most games: this file and its index, once a game)
                add(Fresh(game, winner, loser, sha, game.position))
                continue
            source = sources[i]
            if source in booked:
                continue
            if source[0] != sha:  # a source a neutral record cites: once per file
                if source in self.cited or source in cited_now:
                    continue
                cited_now.add(source)
            add(Fresh(game, winner, loser, *source))
        return _Batch(keep, len(batch) - len(keep), cited_now, elsewhere)

    def take(self, fresh: _Batch, summary: ImportSummary) -> None:
        """A batch's fresh games are booked: what it skipped, and the sources it cited."""
        self.cited |= fresh.cited
        for source, count in fresh.elsewhere.items():
            self.elsewhere[source] = self.elsewhere.get(source, 0) + count
        summary.skipped += fresh.skipped

    def _known(self, source: str) -> bool:
        """Whether the ledger holds any game of ``source`` (asked once per source)."""
        if source not in self.in_ledger:
            self.in_ledger[source] = self.book.cites(source)
        return self.in_ledger[source]

    def _booked(self, keys: set[tuple[str, int]]) -> set[tuple[str, int]]:
        by_source: dict[str, list[int]] = {}
        for source, index in keys:
            by_source.setdefault(source, []).append(index)
        found: set[tuple[str, int]] = set()
        for source, indexes in by_source.items():
            if self._known(source):
                found |= {(source, i) for i in self.book.known_indexes(source, indexes)}
        return found


class _Legacy:
    """Games an older chouette booked before games had identities (their key is NULL): such
    a game is known only by its file, its index there and its result.

    Two exports of one session share their first games. A file imported now whose games
    match an older import's file game for game, in order from the first — the same index,
    players, points, cube, result, end and date — for as long as the shorter of the two
    files, and for two games or more, is the same session: those games are skipped. A game
    of the old file that a neutral record had cited (so the old import skipped it) holds its
    place by its players alone, as the old chouette trusted the citation. A lone matching
    game is booked, with a warning (undo takes the import back if it was the same game). No
    game is held back longer than the old file is long."""

    def __init__(self, book: Ledger, summary: ImportSummary) -> None:
        self.summary = summary
        files: dict[str, dict[int, tuple[Any, ...]]] = {}
        own: dict[str, set[int]] = {}  # the indexes the old file's own import booked
        sources: dict[str, SourceFile | None] = {}
        for old in book.games_without_key():
            if old.sha256 not in sources:
                sources[old.sha256] = book.source_file(old.sha256)
            facts = json.loads(old.detail or "{}")
            files.setdefault(old.sha256, {})[old.source_index] = tuple(facts.get(k) for k in _KEPT)
            if _booked_by(sources[old.sha256], old):
                own.setdefault(old.sha256, set()).add(old.source_index)
        # only an old file's games numbered 1, 2, … without a gap can be a session's first
        self.files: dict[str, dict[int, tuple[Any, ...] | frozenset[Any]]] = {
            sha: {
                index: kept if sha not in own or index in own[sha] else frozenset(kept[:2])
                for index, kept in games.items()
            }
            for sha, games in files.items()
            if set(games) == set(range(1, len(games) + 1))
        }
        self.names = {sha: found.name for sha in self.files if (found := sources.get(sha))}

    def unbooked(self, items: Iterator[Mapped]) -> Iterator[Mapped]:
        """``items`` without the games an old import booked already."""
        alive = set(self.files)
        held: list[Mapped] = []
        covered: tuple[int, str] = (0, "")  # the first games an old file matched, and which
        position = 0
        for item in items:
            game, winner, loser = item.game, item.winner, item.loser
            position = game.position
            if not alive and not held:
                yield item
                continue
            for sha in [sha for sha in alive if len(self.files[sha]) == position - 1]:
                alive.discard(sha)  # every game of that old file matched
                covered = max(covered, (position - 1, sha))
            kept = (winner, loser, game.points, game.cube, game.result, game.end, game.played_at)
            alive = {sha for sha in alive if _matches(self.files[sha].get(position), kept)}
            if alive:
                held.append(item)
                continue
            yield from self._release(held, covered)
            held = []
            yield item
        for sha in alive:  # this file ends inside an old one: all its games matched
            covered = max(covered, (position, sha))
        yield from self._release(held, covered)

    def _release(self, held: list[Mapped], covered: tuple[int, str]) -> Iterator[Mapped]:
        """The held games an old file does not cover; the others are counted as booked."""
        if not held:
            return
        count, sha = covered
        name = self.names.get(sha) or said("an earlier file")
        if count == 1:
            self.summary.warnings.append(
                said(
                    "game 1 is like game 1 of {file}, which an older chouette booked (before "
                    "games had identities): booked all the same; if it is the same game, undo "
                    "this import",
                    file=name,
                )
            )
            count = 0
        skipped = [item for item in held if item[0].position <= count]
        if skipped:
            self.summary.skipped += len(skipped)
            first, last = skipped[0][0].position, skipped[-1][0].position
            self.summary.notes.append(
                said(
                    "games {first}–{last} of this file were booked by an older chouette from "
                    "{file} (before games had identities): skipped",
                    first=first,
                    last=last,
                    file=name,
                )
            )
        yield from (item for item in held if item[0].position > count)


def _booked_by(source: SourceFile | None, old: KeylessGame) -> bool:
    """Whether ``old`` was booked by the import of its own file (``source``), not by a
    neutral record citing that file: it is among the games that import booked."""
    return (
        source is not None
        and source.session_id == old.session_id
        and source.first_game is not None
        and source.last_game is not None
        and source.first_game <= old.number <= source.last_game
    )


def _matches(slot: tuple[Any, ...] | frozenset[Any] | None, kept: tuple[Any, ...]) -> bool:
    """Whether a game read now is the old file's game at its index: the same result, or
    (a game a neutral record cited) the same two players. A resignation an older chouette
    booked as a single at its cube, under Jacoby, where it is now booked at its full value
    (gnubg scores a resignation in full), is the same game as it was booked then."""
    if isinstance(slot, frozenset):
        return slot == frozenset(kept[:2])
    if slot is None or slot == kept:
        return slot == kept
    winner, loser, _points, cube, result, end, played_at = kept
    return (
        end == "resign"
        and result in ("gammon", "backgammon")
        and slot == (winner, loser, cube, cube, "single", "resign", played_at)
    )


#: What an old import kept of a game, in a game row's detail (besides its index).
_KEPT = ("winner", "loser", "points", "cube", "result", "end", "played_at")
