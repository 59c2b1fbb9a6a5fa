"""What the scorekeeper may do now, and the command line each form of the page posts.

Pure: the rules decide. :func:`legal` tries every candidate event on the game as it stands
with :func:`chouette.game.apply` (and every change of the line with :mod:`chouette.line`)
and enables the ones that apply, so the page offers exactly what the CLI would accept.
Each button posts the CLI's own words (the page's templates write them), which the CLI runs
as it runs a line at ``chouette table``; :func:`line_of` puts a form's pieces together.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from itertools import combinations

from chouette.errors import ChouetteError
from chouette.game import (
    ANSWERS,
    Answer,
    AnswerAct,
    AutoDouble,
    BuyOut,
    CaptainResign,
    Carry,
    Deal,
    Double,
    End,
    Event,
    ExtraAnswer,
    ExtraDouble,
    Game,
    Resign,
    ResignAnswer,
    answer_all,
    apply,
    apply_all,
    start,
)
from chouette.line import Line, choose_partner, leave, sit_in, sit_out
from chouette.rules import MIN_SPLIT, HouseRules
from chouette.text import clipped
from chouette.words import said

# The box's doubles are offered as every legal set of members up to this many candidates
# (2^8 - 1 sets, each tried by the rules: well under a millisecond); past it, each member
# alone and all of them together.
MAX_SUBSETS = 8


@dataclass(frozen=True)
class Legal:
    """The actions the rules allow now. ``in_game``: a game is in progress (the line cannot
    change); ``playable``: a game can be played (a box and a captain are seated)."""

    in_game: bool = False
    playable: bool = False
    members: tuple[str, ...] = ()
    auto_double: bool = False
    auto_double_box: bool = False
    buy_out: bool = False
    carry: int = 0
    carry_accept: bool = False
    resign: bool = False
    resign_answers: Mapping[str, frozenset[str]] = field(default_factory=dict)
    box_doubles: frozenset[frozenset[str]] = frozenset()
    member_doubles: frozenset[str] = frozenset()
    team_double: bool = False
    answers: Mapping[str, frozenset[str]] = field(default_factory=dict)
    take_all: bool = False
    drop_all: bool = False
    deals: frozenset[str] = frozenset()
    end: bool = False
    undo: bool = False
    join: bool = False
    leave: frozenset[str] = frozenset()
    sit_out: frozenset[str] = frozenset()
    sit_in: frozenset[str] = frozenset()
    accept_rules: frozenset[str] = frozenset()
    #: An extra may be given (house rule ``extras``, a game in progress), a proxy named
    #: (``proxies``, between games), the table split (between games, six or more seated).
    extra: bool = False
    proxy: bool = False
    split: bool = False
    #: Each live extra's cube (house rule ``extra-redoubles``), by (team side, box side):
    #: which of ``double-extra``, ``take-extra``, ``drop-extra`` apply now.
    extra_cubes: Mapping[tuple[str, str], frozenset[str]] = field(default_factory=dict)
    #: The box resigns to one member (house rule ``resignations per-member``): whether it
    #: may, member by member.
    resign_to: Mapping[str, bool] = field(default_factory=dict)
    #: The captain resigns and a member takes over (house rule ``captain-resigns
    #: takeover``): whether each member other than the captain may take over.
    captain_resigns: Mapping[str, bool] = field(default_factory=dict)
    #: The box names its partner between games (``partner-pick box``), each seated player
    #: whether they may be named; ``partner_none``: the box may play alone.
    partners: Mapping[str, bool] = field(default_factory=dict)
    partner_none: bool = False

    def extra_act(self, team_side: str, box_side: str, act: str) -> bool:
        """Whether ``act`` (``double-extra``, ``take-extra``, ``drop-extra``) applies to
        the extra of ``team_side`` and ``box_side`` now."""
        return act in self.extra_cubes.get((team_side, box_side), frozenset())

    def box_may_double(self, member: str) -> bool:
        """Whether some legal double of the box includes ``member``."""
        return any(member in targets for targets in self.box_doubles)

    def box_double_lists(self) -> list[list[str]]:
        """The box's legal doubles, each as its members in the order of the team."""
        found = [[m for m in self.members if m in targets] for targets in self.box_doubles]
        return sorted(found, key=lambda names: (len(names), [self.members.index(m) for m in names]))

    @property
    def box_doubles_most(self) -> list[str]:
        """The largest set of members the box may double at once (the first such set in
        the order of the team); empty if none."""
        found = self.box_double_lists()
        most = max((len(names) for names in found), default=0)
        return next((names for names in found if len(names) == most), [])

    def answer(self, member: str, act: str) -> bool:
        return act in self.answers.get(member, frozenset())

    def resign_answer(self, member: str, act: str) -> bool:
        """Whether ``member`` may accept (``resign-accept``) or refuse (``resign-refuse``)
        the box's resignation now."""
        return act in self.resign_answers.get(member, frozenset())


def _applies(game: Game, event: Event) -> bool:
    try:
        apply(game, event)
    except ChouetteError:
        return False
    return True


def _changes(
    line: Line, rules: HouseRules, change: Callable[[Line, str, HouseRules], Line]
) -> frozenset[str]:
    found = set()
    for name in line.order:
        try:
            change(line, name, rules)
        except ChouetteError:
            continue
        found.add(name)
    return frozenset(found)


def legal(
    line: Line,
    rules: HouseRules,
    game: Game | None,
    *,
    undo: bool = False,
    carry: int | None = None,
    waiting: frozenset[str] = frozenset(),
) -> Legal:
    """Every action the rules allow on ``game`` (None: no game in progress, the next one
    starts with ``line``, after ``carry`` automatic doubles carried over); ``undo``: whether
    the ledger has something undo takes back; ``waiting``: the seated players who have not
    accepted the session's rules (they may, at any time)."""
    between = game is None
    base = Legal(
        in_game=not between,
        undo=undo,
        accept_rules=waiting,
        join=between,
        leave=_changes(line, rules, leave) if between else frozenset(),
        sit_out=_changes(line, rules, sit_out) if between else frozenset(),
        sit_in=_changes(line, rules, sit_in) if between else frozenset(),
        extra=rules.extras and not between,
        proxy=rules.proxies and between,
        split=between and len(line.active) >= MIN_SPLIT,
        partners=_partners(line, rules) if between else {},
        partner_none=between and _partner_none(line, rules),
    )
    if game is None:
        try:
            game = start(line, rules, carry)
        except ChouetteError:  # nobody to play: no box, or no captain
            return base
    if game.over:  # (a stored game in progress never is; kept safe anyway)
        return base
    members = game.members
    answers = {m: frozenset(a for a in ANSWERS if _applies(game, Answer(a, m))) for m in members}
    return replace(
        base,
        playable=True,
        members=members,
        auto_double=_applies(game, AutoDouble()),
        auto_double_box=rules.auto_past_limit == "box-choice"
        and _applies(game, AutoDouble(box_chose=True)),
        buy_out=rules.buy_outs and _applies(game, BuyOut()),
        carry=(game.carry_in or 0) if _applies(game, Carry(False)) else 0,
        carry_accept=game.carry_in is not None and _applies(game, Carry(True)),
        resign=_applies(game, Resign("single")),
        resign_answers={
            m: frozenset(
                act
                for act, yes in (("resign-accept", True), ("resign-refuse", False))
                if _applies(game, ResignAnswer(yes, m))
            )
            for m in game.resigning
        },
        box_doubles=_box_doubles(game),
        member_doubles=frozenset(m for m in members if _applies(game, Double("member", (m,)))),
        team_double=_applies(game, Double("team")),
        answers={m: acts for m, acts in answers.items() if acts},
        take_all=_answers_all(game, "take"),
        drop_all=_answers_all(game, "drop"),
        deals=frozenset(m for m in members if _applies(game, Deal(m, 0))),
        end=_applies(game, End("box")),
        extra_cubes=_extra_cubes(game),
        resign_to={m: _applies(game, Resign("single", (m,))) for m in members}
        if rules.resignations == "per-member"
        else {},
        captain_resigns={
            m: _applies(game, CaptainResign("single", m)) for m in members if m != game.captain
        }
        if rules.captain_resigns == "takeover"
        else {},
    )


def _partner_choice(line: Line, rules: HouseRules, name: str | None) -> bool:
    """Whether the box may name ``name`` its partner (None: play alone) now."""
    try:
        choose_partner(line, name, rules)
    except ChouetteError:
        return False
    return True


def _partners(line: Line, rules: HouseRules) -> dict[str, bool]:
    """Between games, whom the box may name its partner (house rule ``partner-pick box``):
    every seated player but the box, each with whether they may be named now."""
    if rules.partner_from is None or rules.partner_pick != "box":
        return {}
    return {p: _partner_choice(line, rules, p) for p in line.order if p != line.box}


def _partner_none(line: Line, rules: HouseRules) -> bool:
    """Whether the box may play alone (``partner-pick box`` or ``partner-optional``)."""
    return rules.partner_from is not None and _partner_choice(line, rules, None)


def _extra_cubes(game: Game) -> dict[tuple[str, str], frozenset[str]]:
    """Each extra's cube still standing (house rule ``extra-redoubles``) and what applies
    to it now."""
    if not game.rules.extra_redoubles:
        return {}
    found: dict[tuple[str, str], frozenset[str]] = {}
    for extra, cube in zip(game.extras, game.extra_cubes, strict=True):
        if cube.void or cube.result is not None:
            continue
        pair = (extra.team_side, extra.box_side)
        found[pair] = frozenset(
            act
            for act, event in (
                ("double-extra", ExtraDouble(*pair)),
                ("take-extra", ExtraAnswer("take", *pair)),
                ("drop-extra", ExtraAnswer("drop", *pair)),
            )
            if _applies(game, event)
        )
    return found


def _box_doubles(game: Game) -> frozenset[frozenset[str]]:
    """The sets of members the box may double in one turn (single cube: the one cube,
    named by no member)."""
    if game.rules.cubes == "single":
        return frozenset({frozenset()}) if _applies(game, Double("box")) else frozenset()
    pool = [
        m
        for m in game.members
        if (cube := game.cubes[m]).live and cube.offer is None and cube.owner != "member"
    ]
    if len(pool) <= MAX_SUBSETS:
        candidates = [c for size in range(1, len(pool) + 1) for c in combinations(pool, size)]
    else:
        candidates = [(m,) for m in pool] + [tuple(pool)]
    return frozenset(
        frozenset(targets) for targets in candidates if _applies(game, Double("box", targets))
    )


def _answers_all(game: Game, act: AnswerAct) -> bool:
    try:
        apply_all(game, answer_all(game, act))
    except ChouetteError:
        return False
    return True


# ---------------------------------------------------------------- a posted form, as words

#: A field of the page's forms naming one of the CLI's options: ``--note``, ``--stake``.
OPTION_FIELD = re.compile(r"--[a-z][a-z-]{0,40}")


def line_of(fields: Iterable[tuple[str, str]]) -> str:
    """The command line a form of the keeper's page posts: the CLI's own words, as typed at
    ``chouette table``. A form gives them in pieces, in its order (a button is one of them,
    where it stands), so that it works without the page's script too:

    - ``line``: words as they are (``take --game 3 -- bob``; a button's, a hidden field's,
      or the command line typed whole); the words after a ``--`` in it are names, and so
      are all its words when none of them starts with ``-`` and the command came before
      (``ann bob cat``: the players an older page's form gave so);
    - ``word``: one word typed or picked (a name, an amount, points): a name;
    - ``words``: words typed in one field, each a name (a new session's players);
    - ``--option`` (``--note``, ``--stake``): that option with the value typed, quoted as
      one (``--note='the cash'``), left out when nothing is typed.

    The names (and amounts) come last, after ``--``, each quoted as one word
    (``'ann marie'``), so that none is ever read as an option: a player called ``--all``
    is ``drop --game 3 -- --all``, not ``drop --all``. Empty pieces are left out; other fields
    (``session``) are not words."""
    head: list[str] = []
    names: list[str] = []
    for key, given in fields:
        value = given.strip()
        if not value:
            continue
        if key == "line":
            words = _split(value)
            if words is not None and "--" in words:
                at = words.index("--")
                head += [shlex.join(words[:at])] if at else []
                names += words[at + 1 :]
            elif words and head and not any(w.startswith("-") for w in words):
                names += words  # names alone, after the command (a form of an older page)
            else:
                head.append(value)
        elif key == "word":
            names.append(value)
        elif key == "words":
            typed = _split(value)
            if typed is None:
                raise ChouetteError(
                    said("an unclosed quotation mark in {words}", words=repr(clipped(value)))
                )
            names += typed
        elif OPTION_FIELD.fullmatch(key):
            head.append(f"{key}={shlex.quote(value)}")
    if not names:
        return " ".join(head)
    return " ".join([*head, "--", *map(shlex.quote, names)])


def _split(text: str) -> list[str] | None:
    """``text`` split into words as a shell splits them (None: it cannot be, a quotation
    mark left open)."""
    try:
        return shlex.split(text)
    except ValueError:
        return None


def session_alone(line: str) -> str | None:
    """The session a line of ``--session NAME`` alone names: at the ``chouette table`` prompt
    such a line moves the table there, and on the keeper's page it switches the session the
    page runs. None for any other line."""
    try:
        words = shlex.split(line)
    except ValueError:
        return None
    if len(words) == 2 and words[0] == "--session":
        return words[1]
    if len(words) == 1 and words[0].startswith("--session="):
        return words[0].split("=", 1)[1]
    return None
