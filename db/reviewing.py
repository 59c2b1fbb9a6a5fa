"""``chouette review``: the cube decisions of a session's games made at a board the table gave,
each scored by the engine for its pair's cube (:mod:`chouette.review`).

A review is three steps, so that the engine never runs inside a transaction (a table's
keeper is never held up by it): :func:`gather` reads the decisions and the evaluations the
ledger keeps (one read), the engine is asked for the boards not kept (outside the ledger,
:mod:`files.gnubg`), and :func:`keep` stores its answers (one short write), so that a second
review asks it nothing. :func:`scored` then puts the two together.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from chouette.errors import ChouetteError
from chouette.line import normal_name
from chouette.names import match
from chouette.review import Asked, Decision, Equities, Reviewed, Summary, decisions, review
from chouette.review import summaries as summarised
from chouette.session import SessionInfo
from chouette.text import clipped
from chouette.words import Said, said
from db.codec import event_from_body, line_from_json
from db.ledger import BOARD_KEY, Ledger
from db.positions import chouette_game

#: The engine, as :func:`files.gnubg.evaluate` is: the boards asked, the session's beavers
#: and the plies in; each board's equities and the engine's name out.
Engine = Callable[[Sequence[Asked], bool, int], tuple[dict[Asked, Equities], str]]


@dataclass(frozen=True)
class Gathered:
    """What a review needs from the ledger: the session, each decision with a board (and its
    game's number and pair's stake) in the games that are over, the evaluations kept of their
    boards, and the game in progress, left out (None: none)."""

    session: SessionInfo
    plies: int
    found: tuple[tuple[int, Decision, int], ...]
    kept: Mapping[Asked, tuple[Equities, str]]
    playing: int | None = None  # the game in progress, left out

    @property
    def missing(self) -> list[Asked]:
        """The boards the engine is still to be asked about, Jacoby's first (gnubg starts a
        session for each Jacoby setting)."""
        wanted = {d.asked for _, d, _ in self.found if d.unscored is None and d.asked}
        return sorted(
            (a for a in wanted if a is not None and a not in self.kept),
            key=lambda a: (not a.cube.jacoby, a.position, not a.cube.centred),
        )


@dataclass(frozen=True)
class Review:
    """A session's decisions reviewed, game by game, and each player's summary; ``engine``:
    the engine that scored them (None: nothing was scored); ``waiting``: the decisions
    whose boards the engine was not asked about (a page reads the kept evaluations only);
    ``playing``: the game in progress, not reviewed until it is over."""

    session: SessionInfo
    plies: int
    items: tuple[tuple[int, Reviewed], ...]
    players: tuple[Summary, ...]
    engine: str | None
    waiting: int = 0
    playing: int | None = None


def gather(
    book: Ledger, info: SessionInfo, *, number: int | None, player: str | None, plies: int
) -> Gathered:
    """Every decision of the session's chouette games (game ``number`` only, if given; the
    decisions ``player`` made only, if given) made at a board, and the evaluations kept."""
    games = book.stored_games(info) if number is None else [chouette_game(book, info, number)]
    if number is not None and not games[0].over:
        raise ChouetteError(in_progress(number))
    playing = next((g.number for g in games if g.kind == "chouette" and not g.over), None)
    who = _player(book, info, player) if player is not None else None
    found: list[tuple[int, Decision, int]] = []
    for game in games:
        if game.kind != "chouette" or not game.over:
            continue
        bodies = [body for _, body in book.event_bodies(game.id)]
        if not any(BOARD_KEY in body for body in bodies):
            continue  # no board given in this game: nothing to review, no replay
        events = [event_from_body(body) for body in bodies]
        line = line_from_json(game.line_before)
        for decision in decisions(line, info.rules, events):
            if decision.position is None or (who is not None and decision.player != who):
                continue
            stake = info.pair_stake(decision.box, decision.member)
            found.append((game.number, decision, stake))
    asks = {d.asked for _, d, _ in found if d.asked is not None}
    kept = book.evaluations(
        (a for a in asks if a is not None), beavers=info.rules.beavers, plies=plies
    )
    return Gathered(info, plies, tuple(found), kept, playing)


def in_progress(number: int) -> Said:
    """Why the game in progress is not reviewed."""
    return said(
        "game {number} is in progress: its decisions are reviewed once it is over (no engine "
        "advises a game while it is played)",
        number=str(number),
    )


def _player(book: Ledger, info: SessionInfo, typed: str) -> str:
    known = sorted(set(info.line.order) | set(book.players(info)))
    found = match(normal_name(typed), known)
    if found is None:
        raise ChouetteError(
            said(
                "{player} is not a player of {session}",
                player=clipped(normal_name(typed)),
                session=info.name,
            )
        )
    return found


def mine(gathered: Gathered, player: str) -> Gathered:
    """The decisions ``player`` made, of those gathered."""
    return replace(gathered, found=tuple(f for f in gathered.found if f[1].player == player))


def ask(gathered: Gathered, engine: Engine) -> tuple[dict[Asked, Equities], str]:
    """The engine's answers for the boards not kept (nothing asked when all are)."""
    missing = gathered.missing
    if not missing:
        return {}, ""
    return engine(missing, gathered.session.rules.beavers, gathered.plies)


def keep(book: Ledger, gathered: Gathered, answers: Mapping[Asked, Equities], engine: str) -> None:
    """Store the engine's answers (one kept meanwhile by another review stays)."""
    book.keep_evaluations(
        answers, beavers=gathered.session.rules.beavers, plies=gathered.plies, engine=engine
    )


def scored(
    gathered: Gathered, answers: Mapping[Asked, Equities] | None = None, engine: str = ""
) -> Review:
    """The review: each decision scored by the evaluations kept and the engine's new
    answers (a decision whose board has neither is counted as waiting, not scored)."""
    known = {a: eq for a, (eq, _) in gathered.kept.items()}
    known.update(answers or {})
    names = {name for _, name in gathered.kept.values() if name}
    if answers and engine:
        names.add(engine)
    items: list[tuple[int, Reviewed]] = []
    waiting = 0
    for number, decision, stake in gathered.found:
        asked = decision.asked
        equities = known.get(asked) if asked is not None else None
        if equities is None and decision.unscored is None:
            waiting += 1
            continue
        items.append((number, review(decision, equities, stake)))
    return Review(
        gathered.session,
        gathered.plies,
        tuple(items),
        tuple(summarised(r for _, r in items)),
        ", ".join(sorted(names)) or None,
        waiting,
        gathered.playing,
    )
