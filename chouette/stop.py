"""A fair stop (``new --rounds N`` or ``--until HH:MM``): when the session ends, agreed at its
start and kept with its house rules.

Under ``rounds`` game N is the last round. Under ``until`` the first game started at or
after that moment is the last round (a game in progress when the time comes is played out,
and one more is played: everyone knows which game is the last before it starts). After the
last round the session plays no more games (payments and settling go on).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from chouette.errors import ChouetteError
from chouette.rules import HouseRules
from chouette.words import Sayable, said, said_n


def next_at(now: datetime, hour: int, minute: int) -> datetime:
    """The first moment at ``hour``:``minute`` (in ``now``'s zone) after ``now``: 01:00 typed
    at 20:00 is tomorrow's."""
    moment = now.replace(hour=hour, minute=minute, second=0, microsecond=0)
    return moment if moment > now else moment + timedelta(days=1)


def parse_clock(text: str) -> tuple[int, int]:
    """``23:30`` -> (23, 30)."""
    hours, colon, minutes = text.strip().partition(":")
    if colon and hours.isdigit() and minutes.isdigit() and len(minutes) == 2:
        hour, minute = int(hours), int(minutes)
        if hour < 24 and minute < 60:
            return hour, minute
    raise ChouetteError(
        said("--until is a time of day, HH:MM (23:30), not {typed}", typed=repr(text[:40]))
    )


@dataclass(frozen=True)
class StopState:
    """Where the session stands against its stop: the last round's number once it is known,
    whether the game in progress (or the next one) is it, and whether the session ended."""

    last: int | None
    last_round: bool
    ended: bool
    agreed: Sayable  # (``str()`` of it, the English, for programs)

    def told(self, number: int) -> Sayable | None:
        """What the scorer says of it (``number``: the game in progress or the next), as a
        clause: ``game 3 is the last round, as agreed (3 games)``."""
        if self.ended:
            return said(
                "the session has ended after game {last}, as agreed ({agreed})",
                last=self.last,
                agreed=self.agreed,
            )
        if self.last_round:
            return said(
                "game {number} is the last round, as agreed ({agreed})",
                number=number,
                agreed=self.agreed,
            )
        return None

    def sentence(self, number: int) -> Sayable | None:
        """:meth:`told` as a sentence of its own: ``Game 3 is the last round, as agreed (3
        games).``"""
        if self.ended:
            return said(
                "The session has ended after game {last}, as agreed ({agreed}).",
                last=self.last,
                agreed=self.agreed,
            )
        if self.last_round:
            return said(
                "Game {number} is the last round, as agreed ({agreed}).",
                number=number,
                agreed=self.agreed,
            )
        return None


def agreed(rules: HouseRules) -> Sayable:
    """The stop in words: ``12 games`` / ``until 23:30``."""
    if rules.rounds is not None:
        return said_n("{n} game", "{n} games", rules.rounds, n=rules.rounds)
    assert rules.until is not None
    return said("until {time}", time=datetime.fromisoformat(rules.until).strftime("%H:%M"))


def stop_state(
    rules: HouseRules,
    number: int,
    started: Sequence[tuple[int, datetime]],
    now: datetime,
    *,
    in_progress: bool,
) -> StopState | None:
    """The session's stop (None: none was agreed) with game ``number`` in progress
    (``in_progress``) or next; ``started``: each game's number and when it started."""
    if rules.rounds is None and rules.until is None:
        return None
    if rules.rounds is not None:
        last: int | None = rules.rounds
    else:
        assert rules.until is not None
        deadline = datetime.fromisoformat(rules.until)
        last = min((n for n, at in started if at >= deadline), default=None)
        if last is None and not in_progress and now >= deadline:
            last = number  # time is up: the next game is the last round
    ended = last is not None and number > last
    return StopState(last, last == number, ended, agreed(rules))


def check_not_ended(state: StopState | None, number: int) -> None:
    """A new game is refused once the session has ended."""
    if state is not None and state.ended:
        raise ChouetteError(
            said(
                "{stop}: no game {number} (chouette new starts another session)",
                stop=state.told(number),
                number=number,
            )
        )
