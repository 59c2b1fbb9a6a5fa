"""The rules card: a session's house rules in plain words, its stakes, the preset they came
from and what was changed, and who accepted them when.

A table agrees its rules before the first game; the card is what it agrees to, on one
screen (``chouette rules``). Each house rule is a sentence a player reads without knowing
chouette's option names (:func:`rule_lines`); where the rules came from is an
:class:`Origin` (a published preset, a club's own, or the options given to ``chouette
new``); each player's acceptance is an :class:`Acceptance` of the rules and stake as they
were then, so an acceptance of other rules does not count for these.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from datetime import datetime
from typing import Any, Literal

from chouette.errors import ChouetteError
from chouette.money import Cents
from chouette.presets import Override, Preset, published
from chouette.report import Local, as_given
from chouette.rules import EDITION, HouseRules
from chouette.words import (
    ENGLISH,
    ENGLISH_WORDS,
    Money,
    Sayable,
    Translator,
    Words,
    joined,
    marked,
    reason_of,
    said,
    said_in,
    said_n,
)

Kind = Literal["published", "club"]


@dataclass(frozen=True)
class Origin:
    """Where a session's house rules came from. ``preset``: the preset's name (None: the
    options given to ``chouette new`` alone); ``kind``: a ``published`` preset or the
    ``club``'s own (saved at ``saved_at`` from the session ``saved_from``); ``overrides``:
    the options given beside it that changed it (beside no preset: the options that differ
    from chouette's defaults). ``known``: False for a session started before rules cards,
    whose origin was not kept."""

    preset: str | None = None
    kind: Kind | None = None
    saved_at: datetime | None = None
    saved_from: str | None = None
    overrides: tuple[Override, ...] = ()
    known: bool = True

    def to_dict(self) -> dict[str, Any]:
        """As the ledger keeps it (JSON-ready; times as ISO text)."""
        return {
            "preset": self.preset,
            "kind": self.kind,
            "saved_at": None if self.saved_at is None else self.saved_at.isoformat(),
            "saved_from": self.saved_from,
            "overrides": [[o.name, o.preset, o.value] for o in self.overrides],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Origin:
        """An origin written by :meth:`to_dict` (refused if it is not one)."""
        try:
            kind = data["kind"]
            if kind not in (None, "published", "club"):
                raise ValueError(
                    said("a preset's kind is published or club, not {kind}", kind=repr(kind))
                )
            saved = data.get("saved_at")
            overrides = tuple(
                Override(str(name).replace("-", "_"), preset, value)
                for name, preset, value in data.get("overrides", ())
            )
            return cls(
                preset=data["preset"],
                kind=kind,
                saved_at=None if saved is None else datetime.fromisoformat(saved),
                saved_from=data.get("saved_from"),
                overrides=overrides,
            )
        except (KeyError, TypeError, ValueError) as err:
            raise ChouetteError(
                said(
                    "a session's rules origin is not readable ({reason})",
                    reason=reason_of(err, repr),
                )
            ) from None


#: A session started before chouette kept where its rules came from.
UNKNOWN = Origin(known=False)


def origin_of(
    rules: HouseRules,
    given: Mapping[str, Any],
    preset: Preset | None = None,
    club: tuple[str, HouseRules, datetime, str] | None = None,
) -> tuple[HouseRules, Origin]:
    """The house rules a new session plays, and their origin: a published ``preset``, a
    club's own (``club``: its name, rules, when and from which session it was saved) or
    neither (``rules``: chouette's defaults), with the options ``given`` beside it (field
    names) put over it."""
    from chouette.presets import override

    if preset is not None:
        made, changed = override(preset.rules, given)
        return made, Origin(preset.name, "published", overrides=changed)
    if club is not None:
        name, saved, at, source = club
        made, changed = override(saved, given)
        return made, Origin(name, "club", at, source, changed)
    made, changed = override(rules, given)
    return made, Origin(overrides=changed)


def origin_like(
    rules: HouseRules, origin: Origin, given: Mapping[str, Any]
) -> tuple[HouseRules, Origin]:
    """The house rules of a session started like another (``chouette new --like``): the
    other's ``rules`` (played at chouette's edition now, as any new session), with the
    options ``given`` put over them, and their origin: the other's preset and its changes,
    with those given merged in (an option put back at the preset's value is no change);
    beside no preset (or one not known), the options that differ from chouette's defaults.
    The other's stop (``rounds``, ``until``) is its evening's own: it is not carried over."""
    from chouette.presets import Override, override

    evening = ("rounds", "until")  # each evening agrees its own stop: not carried over
    rules = replace(rules, edition=EDITION, rounds=None, until=None)
    made, _ = override(rules, given)
    if origin.preset is None or not origin.known:
        defaults = HouseRules()
        differ = {
            f.name: getattr(made, f.name)
            for f in fields(HouseRules)
            if getattr(made, f.name) != getattr(defaults, f.name)
        }
        return origin_of(defaults, differ)
    changes = {o.option: o for o in origin.overrides if o.option not in evening}
    for option in given:
        before = changes[option].preset if option in changes else getattr(rules, option)
        changes.pop(option, None)
        if getattr(made, option) != before:
            changes[option] = Override(option, before, getattr(made, option))
    return made, replace(origin, overrides=tuple(changes.values()))


@dataclass(frozen=True)
class Acceptance:
    """``player`` accepted the rules ``rules`` (as :meth:`HouseRules.to_dict` writes them)
    at the stake ``stake`` at the moment ``at``."""

    player: str
    at: datetime
    rules: Mapping[str, Any]
    stake: Cents


@dataclass(frozen=True)
class Card:
    """Everything the rules card says: the session, its stake (and the players' own), house
    rules and their origin, the players who should accept them (``seated``) and the
    acceptances recorded, oldest first."""

    session: str
    stake: Cents
    rules: HouseRules
    origin: Origin = UNKNOWN
    player_stakes: Mapping[str, Cents] = field(default_factory=dict)
    seated: tuple[str, ...] = ()
    acceptances: tuple[Acceptance, ...] = ()

    def holds(self, acceptance: Acceptance) -> bool:
        """Whether an acceptance is of these rules at this stake."""
        return dict(acceptance.rules) == self.rules.to_dict() and acceptance.stake == self.stake

    @property
    def accepted(self) -> list[Acceptance]:
        """Each player's acceptance of these rules (the first, if given twice), in order."""
        found: dict[str, Acceptance] = {}
        for acceptance in self.acceptances:
            if self.holds(acceptance):
                found.setdefault(acceptance.player, acceptance)
        return sorted(found.values(), key=lambda a: a.at)

    @property
    def earlier(self) -> list[Acceptance]:
        """Acceptances of other rules (or another stake), by players who have not accepted
        these: they must accept again."""
        now = {a.player for a in self.accepted}
        return [a for a in self.acceptances if not self.holds(a) and a.player not in now]

    @property
    def waiting(self) -> list[str]:
        """The players seated who have not accepted these rules, in the order of the line."""
        now = {a.player for a in self.accepted}
        return [p for p in self.seated if p not in now]


def check_accept(card: Card, players: Sequence[str]) -> None:
    """Refused, naming them, if any of ``players`` accepted these rules already or is named
    twice: an acceptance is recorded once."""
    seen: set[str] = set()
    for player in players:
        if player in seen:
            raise ChouetteError(said("{player} is named twice", player=player))
        seen.add(player)
    done = {a.player: a for a in card.accepted}
    again = [p for p in players if p in done]
    if again:
        raise ChouetteError(
            said(
                "{names} accepted these rules already: nothing recorded (chouette rules shows "
                "who accepted them)",
                names=", ".join(again),
            )
        )


def names_text(players: Sequence[str]) -> Sayable:
    """``ann``, ``ann and bob``, ``ann, bob and cat``."""
    names = list(players)
    if len(names) == 1:
        return names[0]
    return said("{names} and {last}", names=joined(names[:-1]), last=names[-1])


def accepted_text(players: Sequence[str]) -> Sayable:
    """``ann and bob accept the rules``."""
    return said_n(
        "{names} accepts the rules",
        "{names} accept the rules",
        len(players),
        names=names_text(players),
    )


# ---------------------------------------------------------------- the rules in words


def _on(flag: bool) -> str:
    return "on" if flag else "off"


def value_text(value: Any) -> str:
    """An option's value as the card writes it: ``on``/``off``, ``off`` for none, the rest
    as it is."""
    if isinstance(value, bool):
        return _on(value)
    if value is None:
        return "off"
    return str(value)


#: Each line of the card, and the options it says.
TOPICS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (marked("Cubes"), ("cubes", "max_cube", "starting_cube")),
    (marked("Box doubles"), ("box_doubles",)),
    (
        marked("Box answers"),
        ("box_takes", "box_takes_scope", "mandatory_beaver", "lone_taker_scope"),
    ),
    (marked("Beavers"), ("beavers", "raccoons", "beavers_by", "beaver_limit")),
    (marked("Automatic doubles"), ("auto_doubles", "auto_past_limit")),
    (marked("Gammons"), ("jacoby", "jacoby_scope")),
    (marked("Rotation"), ("retention",)),
    (marked("Captain out"), ("acting_captain",)),
    (marked("Newcomers"), ("newcomer",)),
    (
        marked("Partner"),
        (
            "partner_from",
            "partner_pick",
            "partner_share",
            "partner_optional",
            "partner_run",
            "buy_outs",
        ),
    ),
    (marked("Extras"), ("extras", "mandatory_extras", "extra_redoubles", "lone_taker_scope")),
    (marked("Settling"), ("deals", "resignations", "captain_resigns")),
    (marked("Talk"), ("consultation",)),
    (marked("Away"), ("proxies",)),
    (marked("Size"), ("split_at",)),
    (marked("Roll-off"), ("roll_off",)),
    (marked("Table stakes"), ("table_stakes",)),
    (marked("Credit"), ("credit_rule",)),
    (marked("Stop"), ("rounds", "until")),
    (marked("Scoring"), ("edition",)),
)


def rule_lines(rules: HouseRules, tr: Translator = ENGLISH) -> list[tuple[str, str]]:
    """Every house rule in plain words, a sentence per topic of :data:`TOPICS` (the
    scoring edition only when it is an older one), in ``tr``'s language; each topic by its
    English name (:func:`topic_name` says it in another language)."""
    r, _ = rules, tr.gettext
    rules_said: dict[str, str] = {}
    if r.cubes == "multi":
        cubes = _("Each member has their own cube against the box")
    else:
        cubes = _(
            "One cube for the team: the captain doubles for all, and each member takes or "
            "drops the box's doubles alone"
        )
    rules_said["Cubes"] = cubes + (
        _("; no cube goes above {most}.").format(most=r.max_cube) if r.max_cube else "."
    )
    if r.starting_cube != 1:
        rules_said["Cubes"] += " " + _(
            "Every cube starts the game at {cube}, centred: a single is worth {cube} points."
        ).format(cube=r.starting_cube)
    if r.cubes == "single":
        rules_said["Box doubles"] = _("The box doubles the team's one cube.")
    else:
        rules_said["Box doubles"] = {
            "any": _("The box may double any members it chooses."),
            "same-level": _("The box doubles every cube at the same level together."),
            "with-captain": _(
                "When the box doubles a cube at the level of the captain's, it doubles the "
                "captain's too (automatic doubles aside)."
            ),
        }[r.box_doubles]
    answers = {
        ("any", "several"): _("The box takes or drops each member's double as it likes."),
        ("any", "all"): _("The box takes or drops each member's double as it likes."),
        ("half", "several"): _(
            "When several members double together, the box takes at least half of them or "
            "drops them all (of two: both or neither)."
        ),
        ("half", "all"): _(
            "When every member still in doubles the box at once, the box takes at least half "
            "of them or drops them all (of two: both or neither); doubles from fewer it "
            "answers as it likes."
        ),
        ("break-even", "several"): _(
            "When several members double together, the box takes enough of them to break "
            "even on a single game, always the captain's, or drops them all (of two: both or "
            "neither)."
        ),
        ("break-even", "all"): _(
            "When every member still in doubles the box at once, the box takes enough of them "
            "to break even on a single game, always the captain's, or drops them all (of two: "
            "both or neither); doubles from fewer it answers as it likes."
        ),
    }[r.box_takes, r.box_takes_scope]
    if r.mandatory_beaver:
        answers += (
            " "
            + {
                "several": _(
                    "A member who alone takes a box double given to several must beaver or drop."
                ),
                "all": _(
                    "A member who alone takes a box double given to the whole team (every member "
                    "still in) must beaver or drop."
                ),
            }[r.lone_taker_scope]
        )
    rules_said["Box answers"] = answers
    if not r.beavers:
        rules_said["Beavers"] = _("No beavers, no raccoons.")
    else:
        text = {
            ("both", True): _("Beavers allowed by either side; raccoons allowed"),
            ("team", True): _("Beavers allowed by the team only; raccoons allowed"),
            ("box", True): _("Beavers allowed by the box only; raccoons allowed"),
            ("both", False): _("Beavers allowed by either side; raccoons not allowed"),
            ("team", False): _("Beavers allowed by the team only; raccoons not allowed"),
            ("box", False): _("Beavers allowed by the box only; raccoons not allowed"),
        }[r.beavers_by, r.raccoons]
        if r.beaver_limit is not None:
            text += tr.ngettext(
                "; a pair plays at most {count} beaver or raccoon on one double",
                "; a pair plays at most {count} beavers and raccoons on one double",
                r.beaver_limit,
            ).format(count=r.beaver_limit)
        rules_said["Beavers"] = text + "."
    if r.auto_doubles == 0:
        rules_said["Automatic doubles"] = {
            "ignored": _("None."),
            "box-choice": _("Only if the box chooses, on a tied opening roll."),
            "carry-over": _(
                "None in the game: a tied opening roll carries over to the next game, for "
                "the box to accept or decline."
            ),
        }[r.auto_past_limit]
    else:
        rules_said["Automatic doubles"] = {
            "ignored": tr.ngettext(
                "A tied opening roll doubles every cube, which stays centred, once a game at "
                "most; a tie past that changes nothing.",
                "A tied opening roll doubles every cube, which stays centred, {count} times a "
                "game at most; a tie past that changes nothing.",
                r.auto_doubles,
            ),
            "box-choice": tr.ngettext(
                "A tied opening roll doubles every cube, which stays centred, once a game at "
                "most; past that, only if the box chooses.",
                "A tied opening roll doubles every cube, which stays centred, {count} times a "
                "game at most; past that, only if the box chooses.",
                r.auto_doubles,
            ),
            "carry-over": tr.ngettext(
                "A tied opening roll doubles every cube, which stays centred, once a game at "
                "most; a tie past that carries over to the next game, for the box to accept "
                "or decline.",
                "A tied opening roll doubles every cube, which stays centred, {count} times a "
                "game at most; a tie past that carries over to the next game, for the box to "
                "accept or decline.",
                r.auto_doubles,
            ),
        }[r.auto_past_limit].format(count=r.auto_doubles)
    if not r.jacoby:
        rules_said["Gammons"] = _("Gammons and backgammons always count (no Jacoby rule).")
    elif r.jacoby_scope == "per-cube":
        rules_said["Gammons"] = _(
            "Jacoby: a gammon or backgammon counts single against a member whose cube was "
            "never turned (automatic doubles do not turn it)."
        )
    else:
        rules_said["Gammons"] = _(
            "Jacoby: gammons and backgammons count single until any cube of the game is "
            "turned and accepted."
        )
    rules_said["Rotation"] = (
        {
            "captain": _(
                "The box stays if it beat the captain; otherwise the captain takes the box."
            ),
            "net-profit": _("The box stays if it won points on the game overall (more than 0)."),
            "net-not-loss": _(
                "The box stays if it lost no points on the game overall (0 or more)."
            ),
            "won-not-loss": _(
                "The box stays if it won the game (the board, or the last member still in "
                "passed its cube or dealt below 0) and lost no points on it; a box that won "
                "but lost points goes to the bottom, the captain just above it."
            ),
            "beat-all": _("The box stays only if it beat every member."),
            "score-sign": _(
                "The box stays if it won points on the game; otherwise the captain takes the "
                "box if the captain won points; otherwise nobody moves."
            ),
        }[r.retention]
        + " "
        + _("The loser goes to the bottom of the line.")
    )
    rules_said["Captain out"] = {
        "keep-seat": _(
            "A captain who is out hands the board to an acting captain, but the captain's own "
            "result decides the rotation."
        ),
        "inherit": _(
            "A captain who drops loses the seat at once; the acting captain's result counts "
            "as the captain's."
        ),
    }[r.acting_captain]
    rules_said["Newcomers"] = {
        "after-loser": _("A newcomer sits at the bottom, behind the player just sent down."),
        "before-loser": _("A newcomer sits at the bottom, ahead of the player just sent down."),
    }[r.newcomer]
    if r.partner_from is None:
        rules_said["Partner"] = _("No box partner.")
    else:
        rules_said["Partner"] = {
            "next": _(
                "From {seated} seated, the box plays with a partner (the member after the "
                "captain), who takes {share} per cent of the box's result, the odd point to "
                "the box."
            ),
            "last": _(
                "From {seated} seated, the box plays with a partner (the last in line), who "
                "takes {share} per cent of the box's result, the odd point to the box."
            ),
            "box": _(
                "From {seated} seated, the box may name a partner from the crew (chouette "
                "partner), who takes {share} per cent of the box's result, the odd point to "
                "the box."
            ),
        }[r.partner_pick].format(seated=r.partner_from, share=r.partner_share)
        if r.partner_optional:
            rules_said["Partner"] += " " + _(
                "The box may decline the partner and play alone for its run."
            )
        if r.partner_run:
            rules_said["Partner"] += " " + _(
                "A partnership lasts the box's whole run, even when players leave."
            )
        if r.buy_outs:
            rules_said["Partner"] += " " + _(
                "The box may buy its partner out of the live cubes, paying the partner's share "
                "of their value, and play them alone (the Chicago buy-out)."
            )
    if not r.extras:
        rules_said["Extras"] = _("No extras.")
    else:
        text = _("Extras (side bets on the board) allowed")
        if r.mandatory_extras:
            text += {
                "several": _("; a lone taker takes every extra offered or drops the box's double"),
                "all": _(
                    "; a lone taker of a box double given to the whole team takes every extra "
                    "offered or drops the box's double"
                ),
            }[r.lone_taker_scope]
        if r.extra_redoubles:
            text += _("; an extra's cube may be redoubled")
        rules_said["Extras"] = text + "."
    deals = _("Deals allowed") if r.deals else _("No deals (settlements)")
    resign = {
        "board": _("the box resigns the whole board or nothing"),
        "per-member": _("the box may resign to some members, each accepting or refusing"),
    }[r.resignations]
    takeover = _(
        "a captain who resigns loses their own game at the level resigned and goes to the "
        "bottom of the line, and a member of their choice takes over the captain's place"
    )  # (the default, that the captain's resignation is the board's, goes without saying)
    captain = f"; {takeover}" if r.captain_resigns == "takeover" else ""
    rules_said["Settling"] = f"{deals}; {resign}{captain}."
    rules_said["Talk"] = (
        {
            "free": _("Anyone may talk over the team's plays."),
            "no-cube-no-talk": _(
                "Only members whose cube was turned may talk over the plays (no cube, no talk)."
            ),
            "none": _("No consultation at all."),
            "after-accept": _(
                "Only members whose cube was turned and accepted may talk over the plays."
            ),
        }[r.consultation]
        + " "
        + _("(The table keeps this rule: chouette does not check it.)")
    )
    rules_said["Away"] = (
        _("A player away names a proxy, or their cube follows the captain's.")
        if r.proxies
        else _("A player away sits out (no proxies).")
    )
    rules_said["Size"] = (
        _("No limit on the table's size.")
        if r.split_at is None
        else _("More than {most} in the line: chouette says it is time to split the table.").format(
            most=r.split_at
        )
    )
    if r.roll_off != "one-die":
        rules_said["Roll-off"] = {
            "two-dice": _(
                "The starting order is rolled with two dice each, a double counting twice "
                "(3-3 is 12); ties roll again."
            ),
            "four-dice": _(
                "The starting order is rolled with four dice each, summed; ties roll again."
            ),
        }[r.roll_off]
    if r.table_stakes is not None:
        rules_said["Table stakes"] = _(
            "Each player starts with a bank of {points} points and loses no more than it "
            "holds (all in: the winners share what there is); an empty bank sits out until "
            "it is set anew; who cannot cover the starting cube against every opponent is "
            "kept out of the box and the captaincy."
        ).format(points=r.table_stakes)
    if r.rounds is not None:
        rules_said["Stop"] = _(
            "Game {number} is the last round; the session ends after it."
        ).format(number=r.rounds)
    elif r.until is not None:
        rules_said["Stop"] = _(
            "The first game started at or after {time} is the last round; the session ends "
            "after it."
        ).format(time=datetime.fromisoformat(r.until).strftime("%H:%M"))
    if r.credit_rule == "refuse":
        rules_said["Credit"] = _(
            "A double or an answer that would let the game take a player past their credit "
            "(chouette credit) is refused."
        )
    if r.edition < EDITION:
        rules_said["Scoring"] = _(
            "Edition {edition}: scored as chouette scored when the session was started."
        ).format(edition=r.edition)
    return [(topic, rules_said[topic]) for topic, _options in TOPICS if topic in rules_said]


def topic_name(topic: str, tr: Translator = ENGLISH) -> str:
    """A topic of :data:`TOPICS` in ``tr``'s language."""
    return tr.gettext(topic)


# ---------------------------------------------------------------- the rules in one line


#: The house rules' options as the one-line summary names them, in the reader's words.
OPTION_WORDS: Mapping[str, Sayable] = {
    "cubes": said_in("option", "cubes"),
    "jacoby": said_in("option", "jacoby"),
    "beavers": said_in("option", "beavers"),
    "raccoons": said_in("option", "raccoons"),
    "beavers-by": said_in("option", "beavers-by"),
    "beaver-limit": said_in("option", "beaver-limit"),
    "auto-doubles": said_in("option", "auto-doubles"),
    "auto-past-limit": said_in("option", "auto-past-limit"),
    "max-cube": said_in("option", "max-cube"),
    "retention": said_in("option", "retention"),
    "acting-captain": said_in("option", "acting-captain"),
    "newcomer": said_in("option", "newcomer"),
    "box-doubles": said_in("option", "box-doubles"),
    "box-takes": said_in("option", "box-takes"),
    "box-takes-scope": said_in("option", "box-takes-scope"),
    "mandatory-beaver": said_in("option", "mandatory-beaver"),
    "lone-taker-scope": said_in("option", "lone-taker-scope"),
    "partner-from": said_in("option", "partner-from"),
    "partner-pick": said_in("option", "partner-pick"),
    "partner-share": said_in("option", "partner-share"),
    "partner-optional": said_in("option", "partner-optional"),
    "partner-run": said_in("option", "partner-run"),
    "buy-outs": said_in("option", "buy-outs"),
    "extras": said_in("option", "extras"),
    "mandatory-extras": said_in("option", "mandatory-extras"),
    "extra-redoubles": said_in("option", "extra-redoubles"),
    "resignations": said_in("option", "resignations"),
    "captain-resigns": said_in("option", "captain-resigns"),
    "deals": said_in("option", "deals"),
    "consultation": said_in("option", "consultation"),
    "proxies": said_in("option", "proxies"),
    "split-at": said_in("option", "split-at"),
    "roll-off": said_in("option", "roll-off"),
    "table-stakes": said_in("option", "table-stakes"),
    "credit-rule": said_in("option", "credit-rule"),
    "rounds": said_in("option", "rounds"),
    "until": said_in("option", "until"),
    "edition": said_in("option", "edition"),
}

#: The options' values that are words (``on``, ``captain``), in the reader's words.
VALUE_WORDS: Mapping[str, Sayable] = {
    "on": said_in("value", "on"),
    "off": said_in("value", "off"),
    "none": said_in("value", "none"),
    "multi": said_in("value", "multi"),
    "single": said_in("value", "single"),
    "captain": said_in("value", "captain"),
    "net-profit": said_in("value", "net-profit"),
    "net-not-loss": said_in("value", "net-not-loss"),
    "won-not-loss": said_in("value", "won-not-loss"),
    "score-sign": said_in("value", "score-sign"),
    "beat-all": said_in("value", "beat-all"),
    "keep-seat": said_in("value", "keep-seat"),
    "inherit": said_in("value", "inherit"),
    "after-loser": said_in("value", "after-loser"),
    "before-loser": said_in("value", "before-loser"),
    "any": said_in("value", "any"),
    "same-level": said_in("value", "same-level"),
    "with-captain": said_in("value", "with-captain"),
    "next": said_in("value", "next"),
    "last": said_in("value", "last"),
    "box": said_in("value", "box"),
    "free": said_in("value", "free"),
    "no-cube-no-talk": said_in("value", "no-cube-no-talk"),
    "after-accept": said_in("value", "after-accept"),
    "per-cube": said_in("value", "per-cube"),
    "any-cube-turned": said_in("value", "any-cube-turned"),
    "both": said_in("value", "both"),
    "team": said_in("value", "team"),
    "ignored": said_in("value", "ignored"),
    "box-choice": said_in("value", "box-choice"),
    "carry-over": said_in("value", "carry-over"),
    "half": said_in("value", "half"),
    "break-even": said_in("value", "break-even"),
    "several": said_in("value", "several"),
    "all": said_in("value", "all"),
    "board": said_in("value", "board"),
    "per-member": said_in("value", "per-member"),
    "takeover": said_in("value", "takeover"),
    "one-die": said_in("value", "one-die"),
    "two-dice": said_in("value", "two-dice"),
    "four-dice": said_in("value", "four-dice"),
    "warn": said_in("value", "warn"),
    "refuse": said_in("value", "refuse"),
}


def summary(rules: HouseRules) -> Sayable:
    """:meth:`HouseRules.summary` in the reader's words: the options that differ from the
    defaults, each its name and value (``beavers off, auto-doubles 1``), or ``standard
    rules``; its English, ``str()``, is the summary's."""
    default = dict(HouseRules().describe())
    changed = [(k, v) for k, v in rules.describe() if default.get(k) != v]
    if not changed:
        return said("standard rules")
    return joined(joined([OPTION_WORDS.get(k, k), " ", _value_words(k, v)], "") for k, v in changed)


def _value_words(option: str, value: str) -> Sayable:
    """An option's value in the summary: a word of :data:`VALUE_WORDS`, an older edition,
    or a number as it is."""
    if option == "edition" and value.endswith(" (older scoring)"):
        return said("{edition} (older scoring)", edition=value.removesuffix(" (older scoring)"))
    return VALUE_WORDS.get(value, value)


# ---------------------------------------------------------------- the card


def _changed_topics(card: Card) -> set[str]:
    options = {o.option for o in card.origin.overrides}
    if card.origin.preset is None:
        return set()
    return {topic for topic, names in TOPICS if options & set(names)}


def overrides_text(overrides: Sequence[Override]) -> Sayable:
    """``jacoby off (the preset: on), split-at 8 (the preset: 7)`` (nothing for none)."""
    if not overrides:
        return ""
    return joined(
        said(
            "{option} {value} (the preset: {preset})",
            option=o.name,
            value=value_text(o.value),
            preset=value_text(o.preset),
        )
        for o in overrides
    )


def origin_lines(card: Card, local: Local = as_given, *, marked: bool = False) -> list[Sayable]:
    """Where the card's rules came from, and what was changed (``marked``: the card marks
    the lines changed with ``*``)."""
    origin = card.origin
    if not origin.known:
        return [
            said("Preset: not recorded (the session was started before rules cards)."),
            said("Differs from chouette's defaults: {summary}.", summary=card.rules.summary()),
        ]
    if origin.preset is None:
        given = ", ".join(f"{o.name} {value_text(o.value)}" for o in origin.overrides)
        if given:
            return [said("Preset: none; chouette's defaults, with {options}.", options=given)]
        return [said("Preset: none; chouette's defaults (no option given).")]
    lines: list[Sayable]
    if origin.kind == "club":
        lines = [_club_origin(origin, local)]
    else:
        found = published(origin.preset)
        if found is None:  # (a preset of a later chouette)
            lines = [said("Preset: {preset}.", preset=origin.preset)]
        else:
            values = {"preset": found.name, "title": found.title, "source": found.source.cite()}
            lines = [
                said("Preset: {preset}, {title}, {source} (partly read)", **values)
                if found.source.partly_read
                else said("Preset: {preset}, {title}, {source}", **values)
            ]
            ours = [c for c in found.ours if c.option not in {o.option for o in origin.overrides}]
            if ours:
                lines.append(
                    said(
                        "Where the source is silent, chouette chose: {choices} (chouette rules "
                        "--preset {preset} says why).",
                        choices=", ".join(f"{c.name} {value_text(c.value)}" for c in ours),
                        preset=found.name,
                    )
                )
    if origin.overrides:
        changed = overrides_text(origin.overrides)
        lines.append(
            said("Changed from the preset (marked *): {changes}.", changes=changed)
            if marked
            else said("Changed from the preset: {changes}.", changes=changed)
        )
    return lines


def _club_origin(origin: Origin, local: Local) -> Sayable:
    """``Preset: friday, the club's own (saved on 2026-11-20 20:41 CET from fri).``"""
    values = {"preset": origin.preset, "source": origin.saved_from}
    if origin.saved_at is None and origin.saved_from:
        return said("Preset: {preset}, the club's own (saved from {source}).", **values)
    if origin.saved_at is None:
        return said("Preset: {preset}, the club's own (saved).", **values)
    when = when_text(origin.saved_at, local)
    if origin.saved_from:
        return said(
            "Preset: {preset}, the club's own (saved on {when} from {source}).", when=when, **values
        )
    return said("Preset: {preset}, the club's own (saved on {when}).", when=when, **values)


def card_text(
    card: Card, local: Local = as_given, width: int | None = None, words: Words = ENGLISH_WORDS
) -> list[str]:
    """``chouette rules``: the card on one screen (``width``: the screen's columns, each rule
    wrapped to them under its own heading; None: a rule a line), in ``words``."""
    lines = [words(said("Rules card: {session}", session=card.session))]
    fit = _fit(width)
    own = joined(
        joined([p, Money(c)], " ") for p, c in card.player_stakes.items() if c != card.stake
    )
    stake = Money(card.stake)
    lines += fit(
        words(
            said(
                "Stake: {stake} a point; own stakes: {own} (a pair plays at the lower).",
                stake=stake,
                own=own,
            )
            if own.parts
            else said("Stake: {stake} a point.", stake=stake)
        )
    )
    for line in origin_lines(card, local, marked=True):
        lines += fit(words(line))
    lines.append("")
    changed = _changed_topics(card)
    column = max(len(topic_name(topic, words)) for topic, _ in TOPICS) + 2
    for topic, text in rule_lines(card.rules, words):
        mark = " *" if topic in changed else ""
        line = f"  {topic_name(topic, words) + ':':<{column}}{text}{mark}"
        if width is None or len(line) <= width:
            lines.append(line)
        else:
            lines += textwrap.wrap(
                line, max(width, column + 22), subsequent_indent=" " * (column + 2)
            )
    lines.append("")
    for line in acceptance_lines(card, local):
        lines += fit(words(line))
    return lines


def _fit(width: int | None) -> Callable[[str], list[str]]:
    """A line as it fits ``width`` columns (None: as it is), its rest indented; an address
    is never broken."""

    def fit(line: str) -> list[str]:
        if width is None or len(line) <= width:
            return [line]
        return textwrap.wrap(
            line,
            max(width, 40),
            subsequent_indent="  ",
            break_long_words=False,
            break_on_hyphens=False,
        )

    return fit


def acceptance_lines(card: Card, local: Local = as_given) -> list[Sayable]:
    """Who accepted the rules and when, and who has not yet."""
    accepted = card.accepted
    lines: list[Sayable] = []
    if accepted:
        shown = ", ".join(f"{a.player} ({when_text(a.at, local)})" for a in accepted)
        lines.append(said("Accepted by: {players}.", players=shown))
    else:
        lines.append(said("Accepted by: nobody yet."))
    earlier = sorted({a.player for a in card.earlier})
    if earlier:
        lines.append(
            said(
                "Accepted other rules before: {players} (to accept again).",
                players=", ".join(earlier),
            )
        )
    if card.waiting:
        lines.append(
            said(
                "Not yet accepted: {players} (chouette accept PLAYER...).",
                players=", ".join(card.waiting),
            )
        )
    return lines


def when_text(moment: datetime, local: Local = as_given) -> str:
    """A moment in the reader's local time, its zone named: ``2026-11-24 20:41 CET``."""
    here = local(moment)
    name = here.tzname()
    return f"{here:%Y-%m-%d %H:%M}" + (f" {name}" if name else "")


def acceptance_json(acceptance: Acceptance) -> dict[str, Any]:
    return {"player": acceptance.player, "at": acceptance.at.isoformat()}


def origin_json(origin: Origin) -> dict[str, Any] | None:
    """The preset of ``rules --json``: None when the rules came from no preset."""
    if not origin.known or origin.preset is None:
        return None
    out: dict[str, Any] = {"name": origin.preset, "kind": origin.kind}
    found = published(origin.preset) if origin.kind == "published" else None
    if found is not None:
        out.update(
            title=found.title,
            source={"tag": found.source.tag, "title": found.source.title, "url": found.source.url},
            partly_read=found.source.partly_read,
        )
    if origin.kind == "club":
        out.update(
            saved_at=None if origin.saved_at is None else origin.saved_at.isoformat(),
            saved_from=origin.saved_from,
        )
    return out


def card_json(card: Card) -> dict[str, Any]:
    """``rules --json``."""
    return {
        "session": card.session,
        "stake_cents": card.stake,
        "player_stakes": {p: c for p, c in card.player_stakes.items() if c != card.stake},
        "preset": origin_json(card.origin),
        "origin_known": card.origin.known,
        "overridden": [
            {"option": o.name, "preset": o.preset, "value": o.value} for o in card.origin.overrides
        ],
        "rules": card.rules.to_dict(),
        "card": [{"topic": topic, "text": text} for topic, text in rule_lines(card.rules)],
        "accepted": [acceptance_json(a) for a in card.accepted],
        "not_accepted": card.waiting,
    }


# ---------------------------------------------------------------- the presets


@dataclass(frozen=True)
class ClubPreset:
    """A club's own preset, saved in the ledger: its name, rules, when and from which
    session."""

    name: str
    rules: HouseRules
    saved_at: datetime
    saved_from: str


def preset_lines(preset: Preset, words: Words = ENGLISH_WORDS) -> list[Sayable]:
    """``chouette rules --preset NAME``: a published preset, its source, every option it sets
    with the words that set it (options set by the same words together: the source's own,
    quoted as it writes them), and the rules in ``words``."""
    source = preset.source
    values = {"title": source.title, "source": source.cite()}
    lines: list[Sayable] = [
        said("Preset {preset}: {title}", preset=preset.name, title=preset.title),
        said(
            "Source: {title}, {source} (only partly read: its words here are the research "
            "notes' reading)",
            **values,
        )
        if source.partly_read
        else said("Source: {title}, {source}", **values),
        "",
        said("The source states:"),
    ]
    by_words: dict[str, list[str]] = {}
    for c in preset.stated:
        by_words.setdefault(c.words, []).append(f"{c.name} {value_text(c.value)}")
    lines += [f"  {', '.join(options)}: \u201c{text}\u201d" for text, options in by_words.items()]
    if preset.ours:
        lines.append(said("Chouette's choices where the source is silent:"))
        lines += [
            f"  {c.name} {value_text(c.value)}: {words.gettext(c.words)}" for c in preset.ours
        ]
    lines.append(said("Every other house rule: chouette's default."))
    if preset.notes:
        lines.append(said("Not set by the preset:"))
        lines += [f"  {words.gettext(note)}" for note in preset.notes]
    lines.append("")
    return lines + _rules_in_words(preset.rules, words)


def _rules_in_words(rules: HouseRules, words: Words) -> list[Sayable]:
    """Every house rule a line, under its topic's name, in ``words``."""
    width = max(len(topic_name(topic, words)) for topic, _ in TOPICS) + 2
    return [
        f"  {topic_name(topic, words) + ':':<{width}}{text}"
        for topic, text in rule_lines(rules, words)
    ]


def club_preset_lines(
    preset: ClubPreset, local: Local = as_given, words: Words = ENGLISH_WORDS
) -> list[Sayable]:
    """A club's own preset, as ``chouette rules --preset NAME`` prints it."""
    return [
        said(
            "Preset {preset}: the club's own, saved on {when} from {session}",
            preset=preset.name,
            when=when_text(preset.saved_at, local),
            session=preset.saved_from,
        ),
        "",
        *_rules_in_words(preset.rules, words),
    ]


def preset_json(preset: Preset) -> dict[str, Any]:
    """A published preset in ``rules --presets --json``."""
    return {
        "name": preset.name,
        "kind": "published",
        "title": preset.title,
        "source": {
            "tag": preset.source.tag,
            "title": preset.source.title,
            "url": preset.source.url,
        },
        "partly_read": preset.source.partly_read,
        "rules": preset.rules.to_dict(),
        "stated": [{"option": c.name, "value": c.value, "words": c.words} for c in preset.stated],
        "ours": [{"option": c.name, "value": c.value, "why": c.words} for c in preset.ours],
        "notes": list(preset.notes),
    }


def club_preset_json(preset: ClubPreset) -> dict[str, Any]:
    """A club's own preset in ``rules --presets --json``."""
    return {
        "name": preset.name,
        "kind": "club",
        "saved_at": preset.saved_at.isoformat(),
        "saved_from": preset.saved_from,
        "rules": preset.rules.to_dict(),
    }
