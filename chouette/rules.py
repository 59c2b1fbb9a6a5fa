"""House rules: every option a club chooses for a session, as one frozen value."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from datetime import datetime
from typing import Any, Literal, get_args

from chouette.errors import ChouetteError
from chouette.limits import NUMBERS, within
from chouette.words import said

CubeMode = Literal["multi", "single"]
Retention = Literal[
    "captain", "net-profit", "net-not-loss", "won-not-loss", "beat-all", "score-sign"
]
ActingCaptain = Literal["keep-seat", "inherit"]
Newcomer = Literal["after-loser", "before-loser"]
BoxDoubles = Literal["any", "same-level", "with-captain"]
PartnerPick = Literal["next", "last", "box"]
Consultation = Literal["free", "no-cube-no-talk", "none", "after-accept"]
JacobyScope = Literal["per-cube", "any-cube-turned"]
BeaversBy = Literal["both", "team", "box"]
AutoPastLimit = Literal["ignored", "box-choice", "carry-over"]
BoxTakes = Literal["any", "half", "break-even"]
Scope = Literal["several", "all"]
Resignations = Literal["board", "per-member"]
CaptainResigns = Literal["board", "takeover"]
RollOff = Literal["one-die", "two-dice", "four-dice"]
CreditRule = Literal["warn", "refuse"]

#: The scoring a new session is played under. Edition 1 is how chouette scored before the
#: rules' edges were settled (issue 13: the acting captain under ``inherit``, a partner's own
#: stake, the single-cube beaver, ``partner-pick last``, a 0 deal with the captain). A session
#: keeps the edition it was started with, so its stored games replay to what was booked.
#: Edition 3 (issue 25): under mandatory beaver a deal on the box's double is an answer
#: like any other, so the lone-taker check applies to it.
#: Edition 4 (issue 25): under ``retention captain`` a deal at 0 with the captain is no win
#: for the box (RULES.md §3: the box stays only if it beat the captain), so the captain
#: takes the box, unless the table declared the box the winner (``deal C 0 --won-by box``).
EDITION = 4

#: The fewest players in the line a split makes two tables of (each at least 3).
MIN_SPLIT = 6

#: The bounds of every whole number of the rules (:data:`chouette.limits.NUMBERS`), checked
#: however the rules were made: typed, or read back from the ledger, a record or an export.
BOUNDS: dict[str, tuple[int, int]] = {
    "auto_doubles": NUMBERS["--auto-doubles"],
    "max_cube": NUMBERS["--max-cube"],
    "starting_cube": NUMBERS["--starting-cube"],
    "partner_from": NUMBERS["--partner-from"],
    "partner_share": NUMBERS["--partner-share"],
    "split_at": NUMBERS["--split-at"],
    "beaver_limit": NUMBERS["--beaver-limit"],
    "table_stakes": NUMBERS["--table-stakes"],
    "rounds": NUMBERS["--rounds"],
    "edition": (1, EDITION),
}

_CHOICES: dict[str, tuple[str, ...]] = {
    "cubes": get_args(CubeMode),
    "retention": get_args(Retention),
    "acting_captain": get_args(ActingCaptain),
    "newcomer": get_args(Newcomer),
    "box_doubles": get_args(BoxDoubles),
    "partner_pick": get_args(PartnerPick),
    "consultation": get_args(Consultation),
    "jacoby_scope": get_args(JacobyScope),
    "beavers_by": get_args(BeaversBy),
    "auto_past_limit": get_args(AutoPastLimit),
    "box_takes": get_args(BoxTakes),
    "box_takes_scope": get_args(Scope),
    "lone_taker_scope": get_args(Scope),
    "resignations": get_args(Resignations),
    "captain_resigns": get_args(CaptainResigns),
    "roll_off": get_args(RollOff),
    "credit_rule": get_args(CreditRule),
}

#: Options written by :meth:`HouseRules.to_dict` only when not at their default: rules stored
#: before the option existed read, and digest in a session's chain, as they always did.
QUIET_DEFAULTS: dict[str, object] = {
    "captain_resigns": "board",
    "roll_off": "one-die",
    "partner_optional": False,
    "partner_run": False,
    "buy_outs": False,
    "table_stakes": None,
    "credit_rule": "warn",
    "rounds": None,
    "until": None,
    "box_takes_scope": "several",
    "lone_taker_scope": "several",
    "starting_cube": 1,
}

#: The rules that need another one on (``raccoons`` need ``beavers``), and the value each
#: takes when that one is switched off: given off beside a preset or a session that had
#: them (``--rules la --no-extras``), they follow it off unless given themselves
#: (:func:`chouette.presets.override`), as the checks of :class:`HouseRules` would refuse
#: them on.
FOLLOW_OFF: dict[str, dict[str, object]] = {
    "beavers": {"raccoons": False, "beavers_by": "both", "beaver_limit": None},
    "jacoby": {"jacoby_scope": "per-cube"},
    "extras": {"mandatory_extras": False, "extra_redoubles": False},
    "partner_from": {"partner_optional": False, "partner_run": False, "buy_outs": False},
}


@dataclass(frozen=True)
class HouseRules:
    """The options of RULES.md, with its defaults. Option names use ``_`` for the CLI's ``-``."""

    cubes: CubeMode = "multi"
    jacoby: bool = True
    beavers: bool = True
    raccoons: bool = True
    auto_doubles: int = 0
    max_cube: int | None = None
    retention: Retention = "captain"
    acting_captain: ActingCaptain = "keep-seat"
    newcomer: Newcomer = "after-loser"
    box_doubles: BoxDoubles = "any"
    mandatory_beaver: bool = False
    partner_from: int | None = None
    partner_pick: PartnerPick = "next"
    partner_share: int = 50
    partner_optional: bool = False
    partner_run: bool = False
    buy_outs: bool = False
    extras: bool = False
    consultation: Consultation = "free"
    proxies: bool = False
    split_at: int | None = None
    jacoby_scope: JacobyScope = "per-cube"
    beavers_by: BeaversBy = "both"
    beaver_limit: int | None = None
    auto_past_limit: AutoPastLimit = "ignored"
    box_takes: BoxTakes = "any"
    box_takes_scope: Scope = "several"
    lone_taker_scope: Scope = "several"
    mandatory_extras: bool = False
    extra_redoubles: bool = False
    resignations: Resignations = "board"
    captain_resigns: CaptainResigns = "board"
    deals: bool = True
    roll_off: RollOff = "one-die"
    table_stakes: int | None = None
    credit_rule: CreditRule = "warn"
    rounds: int | None = None
    until: str | None = None
    starting_cube: int = 1
    edition: int = EDITION

    @property
    def settled_edges(self) -> bool:
        """Whether the rules' edges are scored as settled in edition 2 (see :data:`EDITION`)."""
        return self.edition >= 2

    @property
    def deal_answers(self) -> bool:
        """Whether a deal on the box's pending double is checked as an answer to it (the
        mandatory beaver's lone taker), as in edition 3 (see :data:`EDITION`)."""
        return self.edition >= 3

    @property
    def zero_deal_loses(self) -> bool:
        """Whether a pair dealt at 0 with the captain is no win for the box (the captain
        rule's box goes), as in editions 1 and 4; editions 2 and 3 kept the box."""
        return self.edition == 1 or self.edition >= 4

    def __post_init__(self) -> None:
        self._check_bounds(wild_only=True)  # a number past any bound: not even shown whole
        for name, choices in _CHOICES.items():
            if getattr(self, name) not in choices:
                option = name.replace("_", "-")
                raise ChouetteError(
                    said(
                        "{option} must be one of {choices}, not {value}",
                        option=option,
                        choices=", ".join(choices),
                        value=repr(getattr(self, name)),
                    )
                )
        if self.raccoons and not self.beavers:
            raise ChouetteError(said("raccoons need beavers: turn beavers on or raccoons off"))
        if self.jacoby_scope != "per-cube" and not self.jacoby:
            raise ChouetteError(
                said(
                    "jacoby-scope {scope} needs Jacoby: turn jacoby on or leave the scope per-cube",
                    scope=self.jacoby_scope,
                )
            )
        if not self.beavers and (self.beavers_by != "both" or self.beaver_limit is not None):
            option = "beavers-by" if self.beavers_by != "both" else "beaver-limit"
            raise ChouetteError(
                said(
                    "{option} needs beavers: turn beavers on or leave {option} out",
                    option=option,
                )
            )
        if self.beaver_limit is not None and self.beaver_limit < 1:
            raise ChouetteError(
                said(
                    "beaver-limit must be 1 or more (no beavers at all: --no-beavers), not {value}",
                    value=self.beaver_limit,
                )
            )
        for option, on in (
            ("mandatory-extras", self.mandatory_extras),
            ("extra-redoubles", self.extra_redoubles),
        ):
            if on and not self.extras:
                raise ChouetteError(
                    said("{option} needs extras: turn extras on or {option} off", option=option)
                )
        if self.mandatory_extras and self.mandatory_beaver:
            raise ChouetteError(
                said(
                    "mandatory-beaver and mandatory-extras are two answers to the lone taker: "
                    "choose one"
                )
            )
        if self.auto_doubles < 0:
            raise ChouetteError(said("auto-doubles must be 0 or more"))
        if self.max_cube is not None and (self.max_cube < 1 or self.max_cube & (self.max_cube - 1)):
            raise ChouetteError(
                said(
                    "max-cube must be a power of two (1, 2, 4, …), not {value}",
                    value=self.max_cube,
                )
            )
        if self.starting_cube < 1 or self.starting_cube & (self.starting_cube - 1):
            raise ChouetteError(
                said(
                    "starting-cube must be a power of two (1, 2, 4, …), not {cube}",
                    cube=self.starting_cube,
                )
            )
        if self.max_cube is not None and self.starting_cube > self.max_cube:
            raise ChouetteError(
                said(
                    "starting-cube {cube} is above max-cube {most}: no cube could start there",
                    cube=self.starting_cube,
                    most=self.max_cube,
                )
            )
        if self.partner_from is not None and self.partner_from < 3:
            raise ChouetteError(
                said("partner-from needs at least 3 seated players (box, partner, captain)")
            )
        for option, on in (
            ("partner-optional", self.partner_optional),
            ("partner-run", self.partner_run),
            ("buy-outs", self.buy_outs),
        ):
            if on and self.partner_from is None:
                raise ChouetteError(
                    said(
                        "{option} is a rule of box partners: give --partner-from N, or leave "
                        "{option} out",
                        option=option,
                    )
                )
        if self.partner_optional and self.partner_pick == "box":
            raise ChouetteError(
                said(
                    "under partner-pick box the box names a partner or plays alone: "
                    "partner-optional goes without saying"
                )
            )
        if self.table_stakes is not None and (self.partner_from is not None or self.extras):
            other = "partner-from" if self.partner_from is not None else "extras"
            raise ChouetteError(
                said(
                    "table-stakes caps each player's losses pair by pair: it does not go with "
                    "{option} (a box partner's or an extra's share of a capped loss is not "
                    "defined by the Florida rules it comes from)",
                    option=other,
                )
            )
        if self.rounds is not None and self.until is not None:
            raise ChouetteError(said("a session stops after --rounds N or --until HH:MM, not both"))
        if self.until is not None:
            try:
                moment = datetime.fromisoformat(self.until)
            except (TypeError, ValueError):
                moment = None
            if moment is None or moment.tzinfo is None:
                raise ChouetteError(
                    said(
                        "until must be a moment with its offset (ISO 8601), not {value}",
                        value=repr(self.until),
                    )
                )
        if not 0 <= self.partner_share <= 100:
            raise ChouetteError(
                said("partner-share is a percentage (0-100), not {value}", value=self.partner_share)
            )
        if self.split_at is not None and self.split_at < MIN_SPLIT - 1:
            raise ChouetteError(
                said(
                    "split-at must be {least} or more (a split needs {players} players: two "
                    "tables of {half}), not {value}",
                    least=MIN_SPLIT - 1,
                    players=MIN_SPLIT,
                    half=MIN_SPLIT // 2,
                    value=self.split_at,
                )
            )
        if self.edition not in range(1, EDITION + 1):
            raise ChouetteError(
                said(
                    "edition must be 1 to {most}, not {value}",
                    most=EDITION,
                    value=repr(self.edition),
                )
            )
        self._check_bounds()

    def _check_bounds(self, *, wild_only: bool = False) -> None:
        """Every whole number within its :data:`BOUNDS` (``wild_only``: only those past
        every bound, before the checks whose messages show the number)."""
        for name, (least, most) in BOUNDS.items():
            value = getattr(self, name)
            if isinstance(value, int) and (not wild_only or abs(value) > 2**63):
                within(value, least, most, name.replace("_", "-"))

    def to_dict(self) -> dict[str, Any]:
        """The rules as plain JSON-ready values, keyed by the CLI's option names."""
        return {
            name.replace("_", "-"): value
            for name, value in asdict(self).items()
            if name not in QUIET_DEFAULTS or QUIET_DEFAULTS[name] != value
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HouseRules:
        """Rules written by :meth:`to_dict`: unknown keys are refused, missing ones default
        (a session stored without an ``edition`` was started before editions: edition 1)."""
        known = {f.name: f.type for f in fields(cls)}
        values: dict[str, Any] = {"edition": 1}
        for key, value in data.items():
            name = key.replace("-", "_")
            if name not in known:
                raise ChouetteError(said("unknown house rule {rule}", rule=repr(key)))
            kind = known[name]
            if kind == "bool" and not isinstance(value, bool):
                raise ChouetteError(
                    said("{key} must be true or false, not {value}", key=key, value=repr(value))
                )
            if kind in ("int", "int | None") and (
                isinstance(value, bool) or not isinstance(value, int | None)
            ):
                raise ChouetteError(
                    said("{key} must be a whole number, not {value}", key=key, value=repr(value))
                )
            if kind == "str | None" and not isinstance(value, str | None):
                raise ChouetteError(
                    said("{key} must be text, not {kind}", key=key, kind=repr(value))
                )
            if kind == "int" and value is None:
                raise ChouetteError(
                    said("{key} must be a whole number, not {value}", key=key, value="null")
                )
            values[name] = value
        return cls(**values)

    def describe(self) -> list[tuple[str, str]]:
        """The rules as (option, value) in words, for the heading of a report."""
        return [
            ("cubes", self.cubes),
            ("jacoby", self.jacoby_scope if self.jacoby else "off"),
            ("beavers", _on(self.beavers)),
            ("raccoons", _on(self.raccoons)),
            ("beavers-by", self.beavers_by),
            ("beaver-limit", "none" if self.beaver_limit is None else str(self.beaver_limit)),
            ("auto-doubles", str(self.auto_doubles)),
            ("auto-past-limit", self.auto_past_limit),
            ("max-cube", "none" if self.max_cube is None else str(self.max_cube)),
            *([("starting-cube", str(self.starting_cube))] if self.starting_cube != 1 else []),
            ("retention", self.retention),
            ("acting-captain", self.acting_captain),
            ("newcomer", self.newcomer),
            ("box-doubles", self.box_doubles),
            ("box-takes", self.box_takes),
            ("box-takes-scope", self.box_takes_scope),
            ("mandatory-beaver", _on(self.mandatory_beaver)),
            ("lone-taker-scope", self.lone_taker_scope),
            ("partner-from", "off" if self.partner_from is None else str(self.partner_from)),
            ("partner-pick", self.partner_pick),
            ("partner-share", f"{self.partner_share}%"),
            ("partner-optional", _on(self.partner_optional)),
            ("partner-run", _on(self.partner_run)),
            ("buy-outs", _on(self.buy_outs)),
            ("extras", _on(self.extras)),
            ("mandatory-extras", _on(self.mandatory_extras)),
            ("extra-redoubles", _on(self.extra_redoubles)),
            ("resignations", self.resignations),
            ("captain-resigns", self.captain_resigns),
            ("deals", _on(self.deals)),
            ("consultation", self.consultation),
            ("proxies", _on(self.proxies)),
            ("split-at", "off" if self.split_at is None else str(self.split_at)),
            ("roll-off", self.roll_off),
            ("table-stakes", "off" if self.table_stakes is None else str(self.table_stakes)),
            ("credit-rule", self.credit_rule),
            ("rounds", "none" if self.rounds is None else str(self.rounds)),
            ("until", "none" if self.until is None else self.until),
            *([("edition", f"{self.edition} (older scoring)")] if self.edition < EDITION else []),
        ]

    def summary(self) -> str:
        """One line: the options that differ from the defaults (or "standard rules")."""
        default = dict(HouseRules().describe())
        changed = [f"{k} {v}" for k, v in self.describe() if default.get(k) != v]
        return ", ".join(changed) if changed else "standard rules"


def _on(flag: bool) -> str:
    return "on" if flag else "off"
