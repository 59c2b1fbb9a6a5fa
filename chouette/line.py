"""The line: who sits where, the roll-off, joining and leaving, and the rotation after a game.

The line is the seating order. The first seated player who is not sitting out is the
**box**; the others are the **team**, in order, led by the **captain**. A box **partner**
(house rule ``partner-from``) keeps their place in the order but plays on the box's side.
A player **away** from the table (house rule ``proxies``) still plays: a named proxy decides
for them, or their cube follows the captain's. A line grown too long **splits** into two
tables, the bottom of the line forming the new one.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

from chouette.errors import LineError
from chouette.names import case_twin, look_alike
from chouette.rules import MIN_SPLIT, HouseRules
from chouette.text import clipped
from chouette.words import Said, Sayable, joined, said, said_n

RESERVED_NAMES = frozenset({"box", "team", "centre", "center", "member", "all"})
MAX_NAME_LENGTH = 80


def normal_name(name: str) -> str:
    """A name as typed, the way it is stored: NFC-normalised, without surrounding spaces
    (``zoe`` + a combining diaeresis, as some keyboards send it, is ``zoë``)."""
    return unicodedata.normalize("NFC", name).strip()


def _check_text(name: str, what: str) -> str:
    """``name`` as stored, or refused as ``what`` (``player``, ``session``, ``night``) in a
    sentence of its own for each (other languages decline the words around the name)."""
    text = normal_name(name)
    if not text:
        raise LineError(
            {
                "player": said("a player's name cannot be empty"),
                "session": said("a session's name cannot be empty"),
                "night": said("a night's name cannot be empty"),
            }[what]
        )
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Zl", "Zp") for ch in text):
        shown = repr(text)
        raise LineError(
            {
                "player": said(
                    "{name} cannot be a player's name: it has control characters or is not "
                    "valid text",
                    name=shown,
                ),
                "session": said(
                    "{name} cannot be a session's name: it has control characters or is not "
                    "valid text",
                    name=shown,
                ),
                "night": said(
                    "{name} cannot be a night's name: it has control characters or is not "
                    "valid text",
                    name=shown,
                ),
            }[what]
        )
    if len(text) > MAX_NAME_LENGTH:
        shown, most = repr(clipped(text, 40)), MAX_NAME_LENGTH
        raise LineError(
            {
                "player": said(
                    "{name} cannot be a player's name: longer than {most} characters",
                    name=shown,
                    most=most,
                ),
                "session": said(
                    "{name} cannot be a session's name: longer than {most} characters",
                    name=shown,
                    most=most,
                ),
                "night": said(
                    "{name} cannot be a night's name: longer than {most} characters",
                    name=shown,
                    most=most,
                ),
            }[what]
        )
    return text


def check_name(name: str) -> str:
    """A player's name as stored: NFC-normalised text that a report can show on one line."""
    text = _check_text(name, "player")
    if text.casefold() in RESERVED_NAMES:
        raise LineError(
            said("{name} cannot be a player's name: it is a word the scorer uses", name=repr(text))
        )
    return text


def check_session_name(name: str) -> str:
    """A session's name: one line of text, like a player's name."""
    return _check_text(name, "session")


def _not_an_option(text: str, what: str) -> str:
    """``text`` unless it starts with ``-``, refused as ``what`` (``player``, ``session``)."""
    if text.startswith("-") and what == "player":
        raise LineError(
            said(
                "{name} cannot be a player's name: it starts with '-', which a command line "
                "reads as an option",
                name=repr(text),
            )
        )
    if text.startswith("-"):
        raise LineError(
            said(
                "{name} cannot be a session's name: it starts with '-', which a command line "
                "reads as an option",
                name=repr(text),
            )
        )
    return text


def check_new_name(name: str) -> str:
    """A name given to a new player (``new``, ``join``, a roll-off): as :func:`check_name`,
    and not starting with ``-``: every command line (the CLI's, the table's prompt, each
    button of ``chouette serve``'s page) would read ``--all`` as an option. A name a ledger
    or an export holds already is read as it is (a command line gives it after ``--``)."""
    return _not_an_option(check_name(name), "player")


def check_new_session_name(name: str) -> str:
    """A name given to a session (``new``, ``split``, ``sessions --rename``): as
    :func:`check_session_name`, and not starting with ``-`` (see :func:`check_new_name`)."""
    return _not_an_option(check_session_name(name), "session")


def check_night_name(name: str) -> str:
    """A night's name (``new --night NAME``): one line of text, like a session's name."""
    return _check_text(name, "night")


#: A player away whose cube follows the captain's (the proxy of :attr:`Line.away`).
FOLLOWS = None


@dataclass(frozen=True)
class Line:
    """The seating order, who sits out, the box's partner, who was last sent down, and who
    is away: ``(player, proxy)`` pairs, the proxy a name or :data:`FOLLOWS` (the player's cube
    follows the captain's), in the order they were named. ``alone``: the box declined a
    partner for its run (house rule ``partner-optional``). ``banks``: under ``table-stakes``,
    each player's bank in points, everyone who has played in the session (who left too).
    ``credits``: how far below zero a player's balance may go, in cents (``chouette
    credit``; house rule ``credit-rule``), for the players given one.
    """

    order: tuple[str, ...]
    sitting_out: frozenset[str] = field(default_factory=frozenset)
    partner: str | None = None
    last_down: str | None = None
    away: tuple[tuple[str, str | None], ...] = ()
    alone: bool = False
    banks: tuple[tuple[str, int], ...] = ()
    credits: tuple[tuple[str, int], ...] = ()

    def bank(self, name: str) -> int | None:
        """What ``name`` has left to lose, in points (house rule ``table-stakes``), or None
        when the session plays without table stakes."""
        return dict(self.banks).get(name)

    @property
    def proxies(self) -> dict[str, str]:
        """Players away with a named proxy: who decides for them."""
        return {p: by for p, by in self.away if by is not None}

    @property
    def followers(self) -> frozenset[str]:
        """Players away whose cube follows the captain's."""
        return frozenset(p for p, by in self.away if by is FOLLOWS)

    @property
    def active(self) -> tuple[str, ...]:
        """The seated players who play the next game, in order."""
        return tuple(p for p in self.order if p not in self.sitting_out)

    @property
    def box(self) -> str | None:
        active = self.active
        return active[0] if active else None

    @property
    def team(self) -> tuple[str, ...]:
        """Captain first, then the crew."""
        return tuple(p for p in self.active[1:] if p != self.partner)

    @property
    def captain(self) -> str | None:
        team = self.team
        return team[0] if team else None

    @property
    def crew(self) -> tuple[str, ...]:
        return self.team[1:]

    def describe(self) -> Sayable:
        """``ann+pat | bob, cat`` (with who sits out, who is away, the banks), in the
        reader's words where it has any."""
        parts: list[Sayable] = []
        if self.box is None:
            parts.append(said("(nobody seated)"))
        else:
            box = self.box + (f"+{self.partner}" if self.partner else "")
            parts.append(f"{box} | {', '.join(self.team)}" if self.team else box)
        if self.sitting_out:
            out = [p for p in self.order if p in self.sitting_out]
            parts.append(said("(sitting out: {players})", players=", ".join(out)))
        if self.away:
            away = joined((away_text(p, by) for p, by in self.away), "; ")
            parts.append(said("(away: {players})", players=away))
        if self.banks:
            banks = dict(self.banks)
            shown = ", ".join(f"{p} {banks[p]}" for p in self.order if p in banks)
            parts.append(said("(banks: {banks})", banks=shown))
        return parts[0] if len(parts) == 1 else joined(parts, "  ")


def away_text(player: str, proxy: str | None) -> Sayable:
    """``dan decides for cat`` / ``cat's cube follows the captain's``."""
    if proxy is FOLLOWS:
        return said("{player}'s cube follows the captain's", player=player)
    return said("{proxy} decides for {player}", proxy=proxy, player=player)


def new_line(players: Sequence[str], rules: HouseRules) -> Line:
    """The line for a new session, in the order given (box first)."""
    names = [check_new_name(p) for p in players]
    seen: list[str] = []
    for name in names:
        if name in seen:
            raise LineError(said("{player} is named twice", player=name))
        twin = case_twin(name, seen)
        if twin is not None:
            raise LineError(
                said(
                    "{twin} and {player} differ only in case: {reason}",
                    twin=twin,
                    player=name,
                    reason=CASE_TWINS,
                )
            )
        seen.append(name)
    for at, name in enumerate(names):
        alike = look_alike(name, names[:at])
        if alike is not None:
            raise LineError(_look_alikes(alike, name))
    return seat(_banked(Line(tuple(names)), rules), rules)


def _banked(line: Line, rules: HouseRules) -> Line:
    """Under ``table-stakes``, a bank for every player in the line who has none yet."""
    if rules.table_stakes is None:
        return line
    have = dict(line.banks)
    new = tuple((p, rules.table_stakes) for p in line.order if p not in have)
    return replace(line, banks=line.banks + new) if new else line


def set_bank(line: Line, name: str, points: int, rules: HouseRules) -> Line:
    """A player's bank set anew (a re-entry, or another buy-in), between games; a player
    sitting out because their bank was empty plays again."""
    if rules.table_stakes is None:
        raise LineError(said("this session has no table stakes (house rule --table-stakes POINTS)"))
    name = normal_name(name)
    if name not in line.order and line.bank(name) is None:
        raise LineError(said("{player} has not played in this session", player=name))
    if points < 1:
        raise LineError(said("a bank is 1 point or more, not {points}", points=points))
    if line.bank(name) == points:
        raise LineError(said("{player}'s bank is {points} already", player=name, points=points))
    banks = tuple((p, points if p == name else b) for p, b in line.banks)
    back = replace(line, banks=banks)
    if name in line.sitting_out and (line.bank(name) or 0) <= 0:
        back = replace(back, sitting_out=back.sitting_out - {name})
        captain = line.captain
        if captain is not None and line.order.index(name) < line.order.index(captain):
            back = _at_bottom(back, name, rules)
    return seat(back, rules)


def set_credit(line: Line, name: str, cents: int, rules: HouseRules | None = None) -> Line:
    """A player's credit (how far below zero their balance may go), set anew, between games;
    0 takes it away. Under ``table-stakes`` the bank is the credit (in points, and nobody can
    lose past it): no credit in money is taken."""
    if rules is not None and rules.table_stakes is not None:
        raise LineError(
            said(
                "under table stakes a player's bank is their credit (nobody loses past it): "
                "chouette bank NAME POINTS sets it"
            )
        )
    name = normal_name(name)
    if name not in line.order and name not in dict(line.credits):
        raise LineError(said("{player} is not in the line", player=name))
    if cents < 0:
        raise LineError(said("a credit is 0 or more, not {cents}", cents=cents))
    if dict(line.credits).get(name, 0) == cents:
        if cents == 0:
            raise LineError(said("{player} has no credit", player=name))
        raise LineError(said("{player} has that credit already", player=name))
    kept = tuple((p, c) for p, c in line.credits if p != name)
    return replace(line, credits=kept + (((name, cents),) if cents else ()))


def _check_bank(line: Line, name: str) -> None:
    """A player whose bank is empty takes a seat again only with a new bank."""
    bank = line.bank(name)
    if bank is not None and bank <= 0:
        raise LineError(
            said(
                "{player}'s bank is empty: give {player} a new bank first "
                "(chouette bank {player} POINTS)",
                player=name,
            )
        )


def covers(line: Line, name: str, members: int, cube: int = 1) -> bool:
    """Whether ``name`` can cover the starting cube (``cube`` points: 1, or the house rule
    ``starting-cube``) against ``members`` opponents (a player without a bank always can)."""
    bank = line.bank(name)
    return bank is None or bank >= members * cube


def uncovered(line: Line, cube: int = 1) -> Said | None:
    """Under ``table-stakes`` (Florida): why no game can start with the line as seated, or
    None. The box (after :func:`seat` moved the first who can ahead) must cover the starting
    cube (``cube`` points: 1, or the house rule ``starting-cube``) against every member, and
    the captain against the box; when nobody seated can, the box would be seated anyway and
    a member who won would be paid 0."""
    if not line.banks or line.box is None or not line.team:
        return None
    banks = joined(f"{p} {line.bank(p)}" for p in line.active if line.bank(p) is not None)
    need = len(line.team)
    if not covers(line, line.box, need, cube) and cube != 1:
        return said(
            "under table stakes nobody seated can cover the box's starting cube of {cube} "
            "against {members} members ({points} points; banks: {banks}): give one of them a "
            "bank of {points} or more (chouette bank NAME {points}) or sit a player out before "
            "the game starts",
            cube=cube,
            members=need,
            points=need * cube,
            banks=banks,
        )
    if not covers(line, line.box, need):
        return said_n(
            "under table stakes nobody seated can cover the box's starting cube against {n} "
            "member ({n} point; banks: {banks}): give one of them a bank of {n} or more "
            "(chouette bank NAME {points}) or sit a player out before the game starts",
            "under table stakes nobody seated can cover the box's starting cube against {n} "
            "members ({n} points; banks: {banks}): give one of them a bank of {n} or more "
            "(chouette bank NAME {points}) or sit a player out before the game starts",
            need,
            banks=banks,
            points=str(need),
        )
    if not covers(line, line.team[0], 1, cube) and cube != 1:
        return said(
            "under table stakes nobody seated can cover the captain's starting cube of {cube} "
            "against the box ({cube} points; banks: {banks}): give one of them a bank of "
            "{cube} or more (chouette bank NAME {cube}) or sit a player out before the game "
            "starts",
            cube=cube,
            banks=banks,
        )
    if not covers(line, line.team[0], 1):
        return said(
            "under table stakes nobody seated can cover the captain's starting cube against "
            "the box (1 point; banks: {banks}): give one of them a bank of 1 or more "
            "(chouette bank NAME 1) or sit a player out before the game starts",
            banks=banks,
        )
    return None


def check_covered(line: Line, cube: int = 1) -> None:
    """Refuse to start a game :func:`uncovered` says nobody can box."""
    why = uncovered(line, cube)
    if why is not None:
        raise LineError(why)


def _covered(line: Line, cube: int) -> Line:
    """Under ``table-stakes`` (Florida): the box can cover the starting cube (``cube``
    points) against every member, and the captain against the box; a player who cannot is
    kept out of those seats, the first in line who can moving ahead of them."""
    if not line.banks:
        return line
    active = line.active
    members = len(active) - 1
    need = {0: members * cube, 1: cube}
    order = list(line.order)
    for seat_at in (0, 1):
        seated = [p for p in order if p not in line.sitting_out]
        if len(seated) <= seat_at or covers(line, seated[seat_at], need[seat_at]):
            continue
        able = [p for p in seated[seat_at + 1 :] if covers(line, p, need[seat_at])]
        if able:
            order.remove(able[0])
            order.insert(order.index(seated[seat_at]), able[0])
    return replace(line, order=tuple(order)) if order != list(line.order) else line


def banks_after(line: Line, points: dict[str, int]) -> Line:
    """The banks after a game booked ``points``; a player whose bank is empty sits out (they
    play again once their bank is set anew: :func:`set_bank`)."""
    if not line.banks:
        return line
    banks = tuple((p, b + points.get(p, 0)) for p, b in line.banks)
    broke = {p for p, b in banks if b <= 0 and p in line.order}
    return replace(line, banks=banks, sitting_out=line.sitting_out | broke)


CASE_TWINS = said("one session cannot tell them apart (give one of them another name)")


def _look_alikes(first: str, second: str) -> Said:
    """Two names of one session that look alike (:func:`chouette.names.look_alike`)."""
    return said(
        "{first} and {second} look alike: one player named twice, or two players one session "
        "cannot tell apart (give one of them another name)",
        first=first,
        second=second,
    )


def seat(line: Line, rules: HouseRules) -> Line:
    """Keep or pick the box's partner as the house rules ``partner-from`` and
    ``partner-pick`` say. Under ``partner-run`` a partnership lasts the box's run even
    below partner-from (while box, partner and a captain are seated); under ``partner-pick
    box`` nobody is picked (the box names its partner), nor for a box that declined one.
    Under ``table-stakes`` a player who cannot cover the starting cube is kept out of the
    box and the captaincy."""
    line = _covered(line, rules.starting_cube)
    active = line.active
    kept = line.partner in active[1:]
    through_run = rules.partner_run and kept and len(active) >= 3
    if rules.partner_from is None or (len(active) < rules.partner_from and not through_run):
        return replace(line, partner=None) if line.partner else line
    if kept:
        return line
    if line.alone or rules.partner_pick == "box":
        return replace(line, partner=None) if line.partner else line
    candidates = active[1:]
    pick = candidates[1] if rules.partner_pick == "next" else candidates[-1]
    return replace(line, partner=pick)


def choose_partner(line: Line, name: str | None, rules: HouseRules) -> Line:
    """The box names its partner (house rule ``partner-pick box``), or plays alone (``None``:
    under ``partner-pick box`` or ``partner-optional``), for its run: between games."""
    box = line.box
    if rules.partner_from is None:
        raise LineError(said("this session has no box partners (house rule --partner-from N)"))
    seated = len(line.active)
    if name is None:
        if rules.partner_pick != "box" and not rules.partner_optional:
            raise LineError(
                said(
                    "a partner is not optional in this session (partner-pick {pick}, without "
                    "--partner-optional): the box plays with one",
                    pick=rules.partner_pick,
                )
            )
        if line.partner is None and (line.alone or rules.partner_pick == "box"):
            raise LineError(said("{box} already plays alone", box=box))
        return replace(line, partner=None, alone=rules.partner_pick != "box")
    if rules.partner_pick != "box":
        raise LineError(
            said(
                "the partner is picked by the house rule partner-pick {pick}, not named "
                "(partner-pick box lets the box name one)",
                pick=rules.partner_pick,
            )
        )
    if seated < rules.partner_from:
        raise LineError(
            said(
                "{seated} seated, and a partner from {start}: {box} plays alone",
                seated=seated,
                start=rules.partner_from,
                box=box,
            )
        )
    _require_seated(line, name)
    if name in line.sitting_out:
        raise LineError(said("{player} sits out: a partner plays", player=name))
    if name == box:
        raise LineError(said("{player} is the box", player=name))
    if name == line.captain:
        raise LineError(
            said(
                "{player} is the captain, who leads the team: name a member of the crew",
                player=name,
            )
        )
    if name == line.partner:
        raise LineError(said("{player} is already the box's partner", player=name))
    return replace(line, partner=name)


#: Why a partnership begins or ends with an undo.
LINE_UNDONE = said("undo put the line back as it was")


def partner_news(
    before: Line, after: Line, rules: HouseRules, cause: Sayable | None = None
) -> list[Sayable]:
    """What the scorer says when the box's partner changes with the line (a join, a leave, a
    sit-out or sit-in, a game's rotation, a bank set anew): who stops or starts being the
    partner, why, and the seats it moves under the same box (the partner back on the team,
    perhaps as captain; a captain who becomes the partner, and who captains instead).
    ``cause``: the reason when the line changed by other means (undo, a correction)."""
    if before.partner == after.partner:
        return []
    news = (partner_ended(before, after, rules, cause), partner_began(before, after, rules, cause))
    return [text for text in news if text is not None]


def partner_ended(
    before: Line, after: Line, rules: HouseRules, cause: Sayable | None = None
) -> Sayable | None:
    """``dan is no longer the box's partner: 4 seated, a partner from 5; dan plays on the
    team again``, when the partner changes (:func:`partner_news`)."""
    gone = before.partner
    if gone is None or gone == after.partner:
        return None
    seated, start, same_box = len(after.active), rules.partner_from, before.box == after.box
    why: Sayable
    if cause is not None:
        why = cause
    elif gone not in after.order:
        why = said("{player} left the line", player=gone)
    elif gone in after.sitting_out:
        why = said("{player} sits out", player=gone)
    elif after.partner is None and (start is None or seated < start):
        why = said("{seated} seated, a partner from {start}", seated=seated, start=start)
    elif after.alone or (after.partner is None and same_box):
        why = said("{box} plays alone", box=after.box)
    elif not same_box:
        why = said("the box changed hands")
    elif rules.partner_pick == "box":
        why = said("{box} named {partner} instead", box=after.box, partner=after.partner)
    else:
        why = said("the line changed")
    if same_box and gone in after.team:  # (a new box: the rotation says where everyone goes)
        if gone == after.captain:
            return said(
                "{player} is no longer the box's partner: {why}; {player} plays on the team "
                "again, as captain",
                player=gone,
                why=why,
            )
        return said(
            "{player} is no longer the box's partner: {why}; {player} plays on the team again",
            player=gone,
            why=why,
        )
    return said("{player} is no longer the box's partner: {why}", player=gone, why=why)


def partner_began(
    before: Line, after: Line, rules: HouseRules, cause: Sayable | None = None
) -> Sayable | None:
    """``dan becomes the box's partner: 5 seated, a partner from 5 (the next after the
    box)``, when the partner changes (:func:`partner_news`)."""
    new = after.partner
    if new is None or new == before.partner:
        return None
    seated, start = len(after.active), rules.partner_from
    why: Sayable
    if cause is not None:
        why = cause
    else:
        pick = {
            "next": said("the next after the box"),
            "last": said("the last in line"),
            "box": said("named by the box"),
        }[rules.partner_pick]
        if seated < (start or 0):
            why = said(
                "{seated} seated, a partner from {start} ({pick}; the partnership lasts the "
                "box's run)",
                seated=seated,
                start=start,
                pick=pick,
            )
        else:
            why = said(
                "{seated} seated, a partner from {start} ({pick})",
                seated=seated,
                start=start,
                pick=pick,
            )
    if before.box == after.box and new == before.captain and after.captain is not None:
        return said(
            "{player} becomes the box's partner: {why}; {captain} is captain in {player}'s place",
            player=new,
            why=why,
            captain=after.captain,
        )
    return said("{player} becomes the box's partner: {why}", player=new, why=why)


def check_between_games(in_progress: int | None) -> None:
    """The line changes only between games (``in_progress``: the game being played, if any)."""
    if in_progress is not None:
        raise LineError(
            said("game {number} is in progress: change the line after it ends", number=in_progress)
        )


def _require_seated(line: Line, name: str) -> None:
    if name not in line.order:
        raise LineError(said("{player} is not in the line", player=name))


def join(line: Line, name: str, rules: HouseRules) -> Line:
    """A newcomer takes a seat at the bottom (or in front of the last loser: ``newcomer``)."""
    name = check_new_name(name)
    if name in line.order:
        raise LineError(said("{player} is already in the line", player=name))
    twin = case_twin(name, line.order)
    if twin is not None:
        raise LineError(
            said(
                "{twin} is already in the line, and {player} differs only in case",
                twin=twin,
                player=name,
            )
        )
    alike = look_alike(name, line.order)
    if alike is not None:
        raise LineError(_look_alikes(alike, name))
    _check_bank(line, name)
    return seat(_banked(_at_bottom(line, name, rules), rules), rules)


def _at_bottom(line: Line, name: str, rules: HouseRules) -> Line:
    """``name`` seated where a newcomer sits: at the bottom, or in front of the last loser."""
    order = [p for p in line.order if p != name]
    if rules.newcomer == "before-loser" and line.last_down in order:
        order.insert(order.index(line.last_down), name)
    else:
        order.append(name)
    return replace(line, order=tuple(order))


def _check_not_deciding(line: Line, name: str, what: str) -> None:
    """A proxy decides at the table: one who decides for a player away cannot leave it."""
    for member, by in line.away:
        if by == name and member != name:
            if what == "leave":
                raise LineError(
                    said(
                        "{proxy} decides for {member}, who is away: {proxy} cannot leave while "
                        "deciding for {member} (name another proxy first: chouette proxy "
                        "{member} --by NAME, or --withdraw it)",
                        proxy=name,
                        member=member,
                    )
                )
            raise LineError(
                said(
                    "{proxy} decides for {member}, who is away: {proxy} cannot sit out while "
                    "deciding for {member} (name another proxy first: chouette proxy {member} "
                    "--by NAME, or --withdraw it)",
                    proxy=name,
                    member=member,
                )
            )


def leave(line: Line, name: str, rules: HouseRules) -> Line:
    """The player leaves the line (their balance stays in the ledger). A proxy leaves only
    once nobody away has them deciding for them."""
    name = normal_name(name)
    _require_seated(line, name)
    _check_not_deciding(line, name, "leave")
    return seat(
        Line(
            order=tuple(p for p in line.order if p != name),
            sitting_out=line.sitting_out - {name},
            partner=None if line.partner == name else line.partner,
            last_down=None if line.last_down == name else line.last_down,
            away=tuple((p, by) for p, by in line.away if p != name),
            alone=line.alone and line.box != name,
            banks=line.banks,
            credits=line.credits,
        ),
        rules,
    )


def sit_out(line: Line, name: str, rules: HouseRules) -> Line:
    """The player keeps their place but is skipped when the seats are filled."""
    name = normal_name(name)
    _require_seated(line, name)
    if name in line.sitting_out:
        raise LineError(said("{player} is already sitting out", player=name))
    _check_not_deciding(line, name, "sit out")
    partner = None if line.partner == name else line.partner
    alone = line.alone and line.box != name
    out = replace(line, sitting_out=line.sitting_out | {name}, partner=partner, alone=alone)
    return seat(out, rules)


def sit_in(line: Line, name: str, rules: HouseRules, before: Line | None = None) -> Line:
    """A player who sat out plays again from their place in the line, unless that place is
    ahead of the captain: the box, the box's partner and the captain change hands only by
    rotation, so a player whose place would give them one of those seats (the box who sat
    out, say, or a member the rotation carried up while they were away) rejoins where a
    newcomer sits instead (at the bottom, or in front of the last loser). With no game
    played since they sat out (``before``: the line then), nothing was handed on: they take
    back their place and seat, the box's partnership included, as if they had never gone."""
    name = normal_name(name)
    _require_seated(line, name)
    if name not in line.sitting_out:
        raise LineError(said("{player} is not sitting out", player=name))
    _check_bank(line, name)
    back = replace(line, sitting_out=line.sitting_out - {name})
    if before is not None:
        if before.partner == name:
            back = replace(back, partner=name)
        if before.box == name:
            back = replace(back, alone=before.alone)
        return seat(back, rules)
    captain = line.captain
    if captain is not None and line.order.index(name) < line.order.index(captain):
        back = _at_bottom(back, name, rules)
    return seat(back, rules)


def name_proxy(line: Line, name: str, proxy: str | None, rules: HouseRules) -> Line:
    """``name`` is away from the next game on: ``proxy`` decides for them, or (``FOLLOWS``)
    their cube follows the captain's, until withdrawn. A player whose cube follows the
    captain's cannot be the box or the captain: nobody would be at the table for them. A
    proxy is at the table: not away, and not going away while deciding for someone."""
    name = normal_name(name)
    if not rules.proxies:
        raise LineError(
            said("proxies are off in this session (house rule --proxies): a player away sits out")
        )
    _require_seated(line, name)
    if name in line.sitting_out:
        raise LineError(
            said(
                "{player} is sitting out: a proxy is for a player who plays while away",
                player=name,
            )
        )
    for member, by in line.away:
        if by == name and member != name:
            raise LineError(
                said(
                    "{player} decides for {member}: name {member} another proxy first",
                    player=name,
                    member=member,
                )
            )
    if proxy is FOLLOWS:
        if name == line.box:
            raise LineError(
                said(
                    "{player} is the box of the next game: a cube cannot follow the captain's "
                    "there (name a proxy with --by, or sit {player} out)",
                    player=name,
                )
            )
        if name == line.captain:
            raise LineError(
                said(
                    "{player} is the captain of the next game: a cube cannot follow the "
                    "captain's there (name a proxy with --by, or sit {player} out)",
                    player=name,
                )
            )
    else:
        proxy = normal_name(proxy)
        if proxy == name:
            raise LineError(said("{player} cannot be their own proxy", player=name))
        if proxy not in line.order:
            raise LineError(
                said(
                    "{proxy} is not in the line ({line}): a proxy decides at the table",
                    proxy=clipped(proxy),
                    line=", ".join(line.order),
                )
            )
        if proxy in line.sitting_out:
            raise LineError(
                said("{proxy} is sitting out: a proxy decides at the table", proxy=proxy)
            )
        if proxy in dict(line.away):
            raise LineError(said("{proxy} is away too: a proxy decides at the table", proxy=proxy))
    away = [(p, by) for p, by in line.away if p != name]
    at = next((i for i, (p, _) in enumerate(line.away) if p == name), len(away))
    away.insert(at, (name, proxy))
    return replace(line, away=tuple(away))


def withdraw_proxy(line: Line, name: str) -> Line:
    """``name`` is back at the table: their proxy is withdrawn."""
    name = normal_name(name)
    _require_seated(line, name)
    if name not in dict(line.away):
        raise LineError(said("{player} is not away: there is no proxy to withdraw", player=name))
    return replace(line, away=tuple((p, by) for p, by in line.away if p != name))


def split(line: Line, rules: HouseRules) -> tuple[Line, Line]:
    """Two tables from one line: the bottom half of the players who play (rounded down, so
    the first table keeps the odd one) forms the new table in their order, its first the new
    box; anyone sitting out below the cut goes with them. Each table keeps its players' away
    and sitting-out marks; a partner is picked again where the house rules say."""
    active = line.active
    if len(active) < MIN_SPLIT:
        raise LineError(
            said(
                "a split needs {least} players in the line (two tables of at least {half}): "
                "{playing} play now",
                least=MIN_SPLIT,
                half=MIN_SPLIT // 2,
                playing=len(active),
            )
        )
    first = active[len(active) - len(active) // 2]
    cut = line.order.index(first)
    for member, by in line.away:
        if by is not None and (member in line.order[:cut]) != (by in line.order[:cut]):
            raise LineError(
                said(
                    "{proxy} decides for {member}, who is away, and they would sit at different "
                    "tables after the split: name {member} another proxy first (chouette proxy "
                    "{member} --by NAME, or --withdraw it)",
                    proxy=by,
                    member=member,
                )
            )

    def table(order: tuple[str, ...], partner: str | None, alone: bool) -> Line:
        return seat(
            Line(
                order=order,
                sitting_out=line.sitting_out & set(order),
                partner=partner if partner in order else None,
                last_down=line.last_down if line.last_down in order else None,
                away=tuple((p, by) for p, by in line.away if p in order),
                alone=alone,
                banks=tuple((p, b) for p, b in line.banks if p in order),
                credits=tuple((p, c) for p, c in line.credits if p in order),
            ),
            rules,
        )

    return table(line.order[:cut], line.partner, line.alone), table(line.order[cut:], None, False)


def split_due(line: Line, rules: HouseRules) -> Sayable | None:
    """Under ``split-at N``, what the scorer says once more than N play in the line (a split
    is the organiser's call: the scorer only says so)."""
    playing = len(line.active)
    if rules.split_at is None or playing <= rules.split_at:
        return None
    return said(
        "{playing} play in the line, past the house's split-at {most}: `chouette split NAME` "
        "moves the bottom {moved} to a new table",
        playing=playing,
        most=rules.split_at,
        moved=playing // 2,
    )


def line_notes(line: Line, rules: HouseRules) -> list[Sayable]:
    """What the scorer says of the line between games: a split due (``split-at``), and a
    player away whose cube follows the captain's in a seat where it cannot (the rotation
    made them the box or the captain: the next game will not start so)."""
    notes = [note for note in [split_due(line, rules)] if note is not None]
    if line.box is not None and line.box in line.followers:
        notes.append(
            said(
                "{player} is away, their cube following the captain's, but is the box of the "
                "next game: name a proxy (chouette proxy {player} --by NAME), withdraw it, or "
                "sit {player} out",
                player=line.box,
            )
        )
    if line.captain is not None and line.captain in line.followers:
        notes.append(
            said(
                "{player} is away, their cube following the captain's, but is the captain of "
                "the next game: name a proxy (chouette proxy {player} --by NAME), withdraw it, "
                "or sit {player} out",
                player=line.captain,
            )
        )
    return notes


def send_down(line: Line, name: str) -> Line:
    """``name`` goes to the bottom of the line; everyone below moves up."""
    order = [p for p in line.order if p != name]
    order.append(name)
    return replace(line, order=tuple(order), last_down=name)


def rotate(
    line: Line,
    *,
    captain: str,
    box_keeps: bool,
    captain_beat_box: bool,
    rules: HouseRules,
) -> Line:
    """The line for the next game (RULES.md §3 and §4): :func:`rotation`'s line."""
    return rotation(
        line, captain=captain, box_keeps=box_keeps, captain_beat_box=captain_beat_box, rules=rules
    ).line


@dataclass(frozen=True)
class Rotation:
    """The line for the next game, and how the rotation moved the players, in sentences."""

    line: Line
    why: tuple[Sayable, ...]


def rotation(
    line: Line,
    *,
    captain: str,
    box_keeps: bool,
    captain_beat_box: bool,
    rules: HouseRules,
    box_last: bool = False,
) -> Rotation:
    """The line for the next game (RULES.md §3 and §4), with how it moved.

    Box keeps: the captain goes to the bottom, the partnership stays. Box goes: the captain
    (or, if the captain lost too, the member after the captain) becomes box, the old partner
    becomes captain, and the bottom of the line ends ``…, [old captain,] old box``.
    ``box_last``: the box won but lost points (``retention won-not-loss``): the member after
    the captain takes the box, whatever the captain's result, as in a double stand-up.
    """
    box = line.box
    if box is None:
        raise LineError(said("nobody is seated"))
    if box_keeps:
        kept = seat(send_down(line, captain), rules)
        return Rotation(
            kept,
            (
                said(
                    "{box} keeps the box; {captain}, the captain, goes to the bottom of the line",
                    box=box,
                    captain=captain,
                ),
            ),
        )
    team = line.team
    downs = [box]
    new_box = captain
    why: Sayable = said(
        "{captain} takes the box; {box} goes to the bottom of the line", captain=captain, box=box
    )
    if not captain_beat_box:
        after = team[team.index(captain) + 1 :] if captain in team else ()
        if after:
            new_box = after[0]
            downs = [captain, box]
            because = (
                said("the box won but lost points")
                if box_last
                else said("double stand-up: {captain} lost to the box too", captain=captain)
            )
            why = said(
                "{because}, so {new_box}, next in line, takes the box; {captain} and then {box} "
                "go to the bottom of the line",
                because=because,
                new_box=new_box,
                captain=captain,
                box=box,
            )
        else:
            why = said(
                "{captain} takes the box, nobody else being in line; {box} goes to the bottom",
                captain=captain,
                box=box,
            )
    order = [new_box] + [p for p in line.order if p != new_box]
    if line.partner is not None:
        order.remove(line.partner)
        order.insert(1, line.partner)
        captained = said("{partner}, the box's partner, becomes captain", partner=line.partner)
        why = joined([why, captained], "; ")
    moved = replace(line, order=tuple(order), partner=None, alone=False)
    for player in downs:
        moved = send_down(moved, player)
    if rules.partner_pick == "last" and rules.settled_edges:
        moved = _pick_last(moved, downs, rules)
    return Rotation(seat(moved, rules), (why,))


def _pick_last(line: Line, downs: Sequence[str], rules: HouseRules) -> Line:
    """``partner-pick last`` after the box changed hands: the lowest-placed player the game did
    not just send to the bottom (the box who lost does not join the new box at once), unless
    nobody else could be partner."""
    active = line.active
    if rules.partner_from is None or len(active) < rules.partner_from:
        return line
    candidates = [p for p in active[2:] if p not in downs] or list(active[2:])
    return replace(line, partner=candidates[-1])


class Dice(Protocol):
    """A seeded random generator (``random.Random``): the rules never make their own luck."""

    def randint(self, a: int, b: int) -> int: ...


@dataclass(frozen=True)
class RollOff:
    """The order a roll-off gave, with every round of rolls (ties re-roll among the tied):
    each roll's value, and the dice it was made of (``faces``, round by round)."""

    order: tuple[str, ...]
    rounds: tuple[tuple[tuple[str, int], ...], ...]
    faces: tuple[tuple[tuple[int, ...], ...], ...] = ()

    def told(self) -> list[Sayable]:
        """The rounds as the scorer prints them: ``round 1: ann 5, bob 3-3 (12)``."""
        lines: list[Sayable] = []
        for i, rolls in enumerate(self.rounds, start=1):
            dice = self.faces[i - 1] if self.faces else tuple((v,) for _, v in rolls)
            shown = [
                f"{p} {v}" if len(f) == 1 else f"{p} {'-'.join(map(str, f))} ({v})"
                for (p, v), f in zip(rolls, dice, strict=True)
            ]
            lines.append(said("round {number}: {rolls}", number=i, rolls=", ".join(shown)))
        return lines


#: How many dice each player rolls under the house rule ``roll-off``.
ROLL_DICE = {"one-die": 1, "two-dice": 2, "four-dice": 4}


def roll_value(faces: Sequence[int]) -> int:
    """What a roll-off roll is worth: one die, its number; two dice, their sum, a double
    counting twice (it plays four times: 3-3 is 12); four dice, their sum."""
    if len(faces) == 2 and faces[0] == faces[1]:
        return 4 * faces[0]
    return sum(faces)


def roll_off(players: Iterable[str], dice: Dice, how: str = "one-die") -> RollOff:
    """Everyone rolls (one die, two dice or four, as the house rule ``roll-off`` says):
    highest is box, second captain, and so on; ties re-roll among the tied only."""
    rounds: list[tuple[tuple[str, int], ...]] = []
    faces: list[tuple[tuple[int, ...], ...]] = []
    count = ROLL_DICE[how]

    def rank(group: list[str]) -> list[str]:
        if len(group) == 1:
            return group
        thrown = [tuple(dice.randint(1, 6) for _ in range(count)) for _ in group]
        rolls = tuple((p, roll_value(f)) for p, f in zip(group, thrown, strict=True))
        rounds.append(rolls)
        faces.append(tuple(thrown))
        ranked: list[str] = []
        for value in sorted({d for _, d in rolls}, reverse=True):
            ranked += rank([p for p, d in rolls if d == value])
        return ranked

    names = [check_new_name(p) for p in players]
    if len(set(names)) != len(names):
        dup = next(n for n in names if names.count(n) > 1)
        raise LineError(said("{player} is named twice", player=dup))
    return RollOff(tuple(rank(names)), tuple(rounds), tuple(faces))
