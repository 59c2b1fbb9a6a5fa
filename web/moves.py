"""What the scorekeeper may do now, and the events each button of the page makes.

Pure: the rules decide. :func:`legal` tries every candidate event on the game as it stands
with :func:`chouette.game.apply` (and every change of the line with :mod:`chouette.line`)
and enables the ones that apply, so the page offers exactly what the CLI would accept.
:func:`read_action` turns a posted form into an :class:`Action`, and :func:`events_for`
into the events the CLI's command of the same name makes (``take --all`` through
:func:`chouette.game.answer_all`, as ``chouette take --all`` does).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations

from chouette.amend import parse_cubes
from chouette.errors import ChouetteError
from chouette.game import (
    ANSWERS,
    Answer,
    AnswerAct,
    AutoDouble,
    BuyOut,
    Carry,
    Deal,
    Double,
    End,
    Event,
    Game,
    Resign,
    ResignAnswer,
    answer_all,
    apply,
    apply_all,
    start,
)
from chouette.limits import NUMBERS
from chouette.line import Line, leave, sit_in, sit_out
from chouette.points import MULTIPLIER, Kind
from chouette.rules import MIN_SPLIT, HouseRules
from chouette.text import clipped

# The box's doubles are offered as every legal set of members up to this many candidates
# (2^8 - 1 sets, each tried by the rules: well under a millisecond); past it, each member
# alone and all of them together.
MAX_SUBSETS = 8

LINE_ACTS = ("join", "leave", "sit-out", "sit-in")
PLAY_ACTS = (
    "auto-double",
    "auto-double-box",
    "buy-out",
    "carry-accept",
    "carry-decline",
    "double-box",
    "double-member",
    "double-team",
    *ANSWERS,
    "take-all",
    "drop-all",
    "deal",
    "resign",
    "resign-accept",
    "resign-refuse",
    "end",
)
ACTS = (*PLAY_ACTS, "undo", *LINE_ACTS, "accept-rules", "amend")


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
    )


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


# ---------------------------------------------------------------- a posted action


@dataclass(frozen=True)
class Action:
    """One button of the scorekeeper's page, as posted: ``act`` (one of :data:`ACTS`), the
    member or members it names, and its values."""

    act: str
    members: tuple[str, ...] = ()
    points: int = 0
    winner: str = "box"
    kind: Kind = "single"
    resigned: bool = False
    name: str = ""
    stake: str = ""
    number: int = 0  # the game a correction is for
    note: str = ""  # why it is corrected
    cubes: tuple[tuple[str, int], ...] = ()  # the members' cubes a correction sets

    @property
    def member(self) -> str:
        if len(self.members) != 1:
            raise ChouetteError(f"{self.act}: name one member")
        return self.members[0]


def read_action(fields: Mapping[str, Sequence[str]]) -> Action:
    """The action a form posts: ``act``, ``member`` (repeated for the box's double),
    ``points``, ``end`` (``box gammon``), ``resigned``, ``name`` and ``stake``."""

    def one(key: str) -> str:
        values = fields.get(key) or [""]
        return values[-1].strip()

    act = one("act")
    if act not in ACTS:
        raise ChouetteError(f"there is no action {act!r} on this page")
    members = tuple(m.strip() for m in fields.get("member", ()) if m.strip())
    points = 0
    if act == "deal":
        text = one("points")
        try:
            points = int(text)
        except ValueError:
            raise ChouetteError(
                f"the points of a deal are a whole number (+ to the member, - to the box), "
                f"not {text!r}"
            ) from None
    winner, _, kind = one("end").partition(" ")
    kind = kind or "single"
    cubes = _cubes(one("cube")) if act == "amend" else ()
    if act == "amend" and not winner and cubes:
        winner = "keep"  # the board's end as it was: only cubes are corrected
    elif act in ("end", "amend") and (winner not in ("box", "team") or kind not in MULTIPLIER):
        raise ChouetteError(
            f"{act}: say who won (box or team) and how (single, gammon, backgammon)"
        )
    number = 0
    if act == "amend":
        text = one("number")
        least, most = NUMBERS["amend N"]
        if not text.isdigit() or not least <= int(text) <= most:
            raise ChouetteError(f"amend: the game is a number from {least}, not {clipped(text)!r}")
        number = int(text)
    if act == "resign":
        kind = one("level") or "single"
        if kind not in MULTIPLIER:
            raise ChouetteError("resign: say how (single, gammon, backgammon)")
    return Action(
        act=act,
        members=members,
        points=points,
        winner=winner or "box",
        kind=kind,  # type: ignore[arg-type]
        resigned=one("resigned") in ("1", "on", "yes", "true"),
        name=one("name"),
        stake=one("stake"),
        number=number,
        note=one("note"),
        cubes=cubes,
    )


def _cubes(text: str) -> tuple[tuple[str, int], ...]:
    """A correction's cubes as typed on the page: ``bob=4 cat=2`` (or with commas)."""
    try:
        return tuple(parse_cubes(text.replace(",", " ").split()).items())
    except ChouetteError as err:
        raise ChouetteError(f"amend: {err}") from None


def events_for(action: Action, game: Game | None) -> list[Event]:
    """The events of a cube or board action, as the CLI's command of the same name makes
    them (``game``: the game in progress, if any)."""
    act = action.act
    if act == "auto-double":
        return [AutoDouble()]
    if act == "auto-double-box":
        return [AutoDouble(box_chose=True)]
    if act == "buy-out":
        return [BuyOut()]
    if act in ("carry-accept", "carry-decline"):
        return [Carry(act == "carry-accept")]
    if act == "resign":
        return [Resign(action.kind)]
    if act in ("resign-accept", "resign-refuse"):
        return [ResignAnswer(act == "resign-accept", action.member)]
    if act == "double-box":
        return [Double("box", action.members)]
    if act == "double-member":
        return [Double("member", (action.member,))]
    if act == "double-team":
        return [Double("team")]
    if act in ("take-all", "drop-all"):
        answer: AnswerAct = "take" if act == "take-all" else "drop"
        if game is None:
            raise ChouetteError(f"there is no pending double to {answer}")
        return answer_all(game, answer)
    if act in ANSWERS:
        return [Answer(act, action.member)]
    if act == "deal":
        return [Deal(action.member, action.points)]
    if act == "end":
        return [End(action.winner, action.kind, action.resigned)]  # type: ignore[arg-type]
    raise ChouetteError(f"{act} is not an event of the game")


# ---------------------------------------------------------------- the CLI's commands, as forms

#: The page's forms that are the CLI's own commands, run by the CLI (:meth:`web.table.Table.
#: run_words`): each names its command's words from the form's fields.
CLI_FORMS = ("new", "pay", "proxy", "split", "extra", "settle", "sheet")


def command_for(act: str, fields: Mapping[str, Sequence[str]]) -> list[str]:
    """The command a form of :data:`CLI_FORMS` stands for, as the CLI's words: what one would
    type at the table's prompt. A value is one word each (never read as an option: a name
    or amount starting with ``-`` is refused; a note is given as ``--note=TEXT``)."""

    def one(key: str) -> str:
        values = fields.get(key) or [""]
        return values[-1].strip()

    def word(key: str, what: str) -> str:
        value = one(key)
        if not value:
            raise ChouetteError(f"{act}: give {what}")
        if value.startswith("-"):
            raise ChouetteError(f"{act}: {what} cannot start with '-' ({clipped(value)!r})")
        return value

    def flag(key: str) -> bool:
        return one(key) in ("1", "on", "yes", "true")

    if act == "pay":
        words = ["pay", word("payer", "who pays"), word("payee", "who is paid")]
        words.append(word("amount", "the amount"))
        if one("note"):
            words.append(f"--note={one('note')}")
        return words + (["--advance"] if flag("advance") else [])
    if act == "proxy":
        member = word("member", "the player away")
        if flag("withdraw"):
            return ["proxy", member, "--withdraw"]
        if not one("by"):
            return ["proxy", member, "--follows", "captain"]
        return ["proxy", member, "--by", word("by", "who decides for them")]
    if act == "split":
        return ["split", word("name", "the new table's session")]
    if act == "extra":
        words = ["extra", word("team_side", "the member"), word("box_side", "the other side")]
        for key in ("points", "premium"):
            if one(key):
                words += [f"--{key}", word(key, f"the {key}")]
        return words
    if act == "new":
        players = one("players").replace(",", " ").split()
        if any(p.startswith("-") for p in players) or len(players) < 2:
            raise ChouetteError("new: give the players in line order, box first, two or more")
        words = ["new", word("name", "the session's name"), *players]
        if one("stake"):
            words += ["--stake", word("stake", "the stake")]
        if one("rules"):
            words += ["--rules", word("rules", "the preset")]
        return words
    if act in ("settle", "sheet"):
        return [act]
    raise ChouetteError(f"there is no action {act!r} on this page")
