"""Club presets: published chouette rule sets, as house rules, each citing its source.

A club starts an evening from a preset (``chouette new NAME PLAYER... --rules la``) rather
than typing twenty options. Each preset here is one rule set a club or an author has
published, as far as chouette's house rules can express it, and nothing more:

- :attr:`Preset.stated`: every option the source states, with the source's own words (a
  source only partly readable is quoted as the research notes of ``CLUB-RULESETS.md`` read
  it, and says so: :attr:`Source.partly_read`);
- :attr:`Preset.ours`: the options chouette chose where the source is silent or cannot be
  followed to the letter, each with the reason;
- :attr:`Preset.notes`: what the source says that the preset does not set (a rule chouette
  cannot express, or a choice the source leaves to the table), so that a table reads it.

Every other option is chouette's default (:class:`~chouette.rules.HouseRules`). The tests
hold each preset to its source (tests/rules/test_presets.py quotes the words for every option).
A club's own presets, saved from an evening's session (``chouette rules --save NAME``), live
in the ledger; a saved preset may not take a published one's name.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from chouette.errors import ChouetteError
from chouette.line import check_session_name
from chouette.rules import FOLLOW_OFF, HouseRules
from chouette.words import marked, said


@dataclass(frozen=True)
class Source:
    """Where a rule set was published: its tag in ``CLUB-RULESETS.md`` (``S11``), title and
    address; ``partly_read``: only part of it could be read (its words here are the
    research notes' reading)."""

    tag: str
    title: str
    url: str
    partly_read: bool = False

    def cite(self) -> str:
        """``[S11] https://…``"""
        return f"[{self.tag}] {self.url}"


@dataclass(frozen=True)
class Choice:
    """One option of a preset (a :class:`~chouette.rules.HouseRules` field) and its value,
    with the words that set it: the source's own, or (chouette's choice) the reason."""

    option: str
    value: Any
    words: str

    @property
    def name(self) -> str:
        """The option as the CLI spells it (``box-takes``)."""
        return self.option.replace("_", "-")


@dataclass(frozen=True)
class Preset:
    """A published rule set as house rules (see the module's docstring)."""

    name: str
    title: str
    source: Source
    stated: tuple[Choice, ...]
    ours: tuple[Choice, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def rules(self) -> HouseRules:
        """The house rules: what the source states, chouette's choices, defaults for the rest."""
        return HouseRules(**{c.option: c.value for c in (*self.stated, *self.ours)})


def _said(words: str, **options: Any) -> tuple[Choice, ...]:
    """Each option the same words set."""
    return tuple(Choice(option, value, words) for option, value in options.items())


def _rules_of(*groups: tuple[Choice, ...]) -> tuple[Choice, ...]:
    return tuple(choice for group in groups for choice in group)


_AMSTERGAMMON = Source(
    "T2",
    'Amstergammon "Dutch Chouette Scorekeeping" (The Scorekeeper), its two rule sets',
    "https://www.amstergammon.nl/ag-chouette",
    partly_read=True,
)


#: Chouette's defaults for what the part of a source that could be read does not say.
_DEFAULTS_UNREAD = (
    Choice("jacoby", True, marked("not in the part read: chouette's default")),
    Choice(
        "retention",
        "captain",
        marked("not in the part read: chouette's default, the box stays if it beat the captain"),
    ),
)


def _amstergammon(name: str, title: str, raccoons: bool, words: str) -> Preset:
    return Preset(
        name=name,
        title=title,
        source=_AMSTERGAMMON,
        stated=_rules_of(
            _said("winner of box vs captain is box; loser to the end", retention="captain"),
            _said("a cube per member", cubes="multi"),
            _said('"no cube, no talk"', consultation="no-cube-no-talk"),
            _said('"same value, same action"', box_doubles="same-level"),
            _said("partner split equal, remainder to box", partner_share=50),
            _said("deals box↔members", deals=True),
            _said(words, raccoons=raccoons),
        ),
        ours=(
            Choice(
                "beavers",
                True,
                marked(
                    "beavers are not stated in the visible text; a rule set that names raccoons "
                    "is taken to play beavers"
                ),
            ),
            Choice("jacoby", True, marked("not stated in the visible text: chouette's default")),
        ),
        notes=(
            marked(
                '"Same value, same action" also has the box take or drop the cubes of one value '
                "alike: chouette holds the box to it only when it doubles."
            ),
            marked(
                "After a deal with the captain the winner must be declared: chouette deal C 0 "
                "--won-by box|captain (without it, a deal at 0 gives the captain the box)."
            ),
            marked(
                "When the box takes a partner is not stated: a table that takes one says "
                "--partner-from N."
            ),
        ),
    )


PUBLISHED: tuple[Preset, ...] = (
    Preset(
        name="act",
        title="Backgammon ACT local chouette rules",
        source=Source(
            "S5",
            "Backgammon ACT local chouette rules (the same text at backgammontips.org)",
            "http://www.home.netspeed.com.au/gregash/Backgammon/CHOUETTE.htm",
        ),
        stated=_rules_of(
            _said("Each team member has their own cube.", cubes="multi"),
            _said(
                "Automatic doubles apply where the Captain and the Box both roll the same "
                "initial number. After the first automatic double, any others are at the "
                "discretion of the Box.",
                auto_doubles=1,
                auto_past_limit="box-choice",
            ),
            _said(
                'The "Jacoby Rule" applies. That is, a gammon can only be claimed against a '
                "player if their cube has been offered or accepted.",
                jacoby=True,
                jacoby_scope="per-cube",
            ),
            _said(
                'If a cube is accepted by an opponent it may be "beavered" ... the originator '
                'has the option of re-doubling (a "racoon"), but the cube remains on the side '
                "of the acceptor.",
                beavers=True,
                raccoons=True,
            ),
            _said(
                "If the box cubes all of the team and only one member decides to take, then "
                "they MUST beaver the cube.",
                mandatory_beaver=True,
                lone_taker_scope="all",
            ),
            _said("There is a limit of six in any chouette.", split_at=6),
            _said(
                "New persons joining the chouette after the start of a game go to the position "
                "in the team after the Box or Captain for that game (depending on who loses).",
                newcomer="after-loser",
            ),
            _said(
                "Advice can only be given by those persons who have offered or accepted a cube "
                "(not an automatic cube) or where the captain asks for advice.",
                consultation="no-cube-no-talk",
            ),
        ),
        ours=(
            Choice(
                "retention",
                "captain",
                marked(
                    "the rules' rotation was not read: chouette's default, the box stays if it "
                    "beat the captain"
                ),
            ),
        ),
        notes=(
            marked(
                "Where possible the box must take the captain's cube if they offer it (unless it "
                "took other members' cubes before the captain offered): not checked by chouette."
            ),
            marked("New persons joining the chouette are at the discretion of the box."),
            marked("Persons who have been dropped, or other spectators, may not offer advice."),
        ),
    ),
    _amstergammon(
        "amsterdam-020", "Amstergammon 020 Amsterdam", False, "020 Amsterdam (no raccoon)"
    ),
    _amstergammon("rotterdam-010", "Amstergammon 010 Rotterdam", True, "010 Rotterdam (raccoon)"),
    Preset(
        name="boston",
        title="Boston Chouette Rules (Albert Steg, 2017)",
        source=Source(
            "S10",
            "Boston Chouette Rules (Albert Steg, BGonline, 2017)",
            "https://www.bgonline.org/forums/webbbs_config.pl?read=201931",
            partly_read=True,
        ),
        stated=_rules_of(
            _said("Separate Cubes for every player.", cubes="multi"),
            _said(
                "Jacoby rule is in effect. (No gammons unless the Cube has been turned).",
                jacoby=True,
                jacoby_scope="per-cube",
            ),
            _said("Beavers are allowed.", beavers=True),
        ),
        ours=(
            Choice(
                "raccoons",
                True,
                marked(
                    '"No Raccoons except by mutual consent.": chouette cannot ask for consent, so '
                    "it books a raccoon the table agreed to"
                ),
            ),
            Choice(
                "retention",
                "captain",
                marked(
                    "the rules after the fifth were not read: chouette's default, the box stays "
                    "if it beat the captain"
                ),
            ),
        ),
        notes=(
            marked(
                "The stakes of the chouette should be noted on the score sheet; unknown or "
                "transient players may be asked to 'Buy Points' to join the game."
            ),
            marked('"Legal Plays": every player and spectator points out an illegal play.'),
        ),
    ),
    Preset(
        name="cambridge",
        title="Cambridge Backgammon chouette rules",
        source=Source(
            "S8",
            "Cambridge Backgammon chouette rules",
            "https://cambridgebackgammon.org/chouette-rules/",
        ),
        stated=_rules_of(
            _said(
                "Rotation is determined by the result of Captain vs Box.",
                retention="captain",
                acting_captain="keep-seat",
            ),
            _said("The Jacoby rule is in force.", jacoby=True, jacoby_scope="per-cube"),
            _said("No beavers.", beavers=False, raccoons=False),
            _said("No props/extras/whatever you call them.", extras=False),
            _said("No settlements.", deals=False),
            _said(
                "Automatics are exclusively at the discretion of the Box. Usually they "
                "aren't played.",
                auto_doubles=0,
                auto_past_limit="box-choice",
            ),
            _said(
                "New players join at the bottom of the rotation (so will be ahead of the "
                "losing Captain or Box in the next game).",
                newcomer="before-loser",
            ),
            _said(
                "they may nominate a proxy to make cube decisions on their behalf. If no proxy "
                "is nominated, their cube will be played as per the captains.",
                proxies=True,
            ),
            _said(
                "Consulting option 1: only consult after the cube is turned ... No consulting "
                "until your cube is turned.",
                consultation="no-cube-no-talk",
            ),
        ),
        notes=(
            marked(
                "Consulting option 2, full consultation (usually played at St Neots, or when "
                "introducing beginners): --consultation free."
            ),
            marked("The box may desire the team to make cube decisions in order: not tracked."),
        ),
    ),
    Preset(
        name="clinton-hill",
        title="Clinton Hill Backgammon Club house rules",
        source=Source(
            "S9",
            "Clinton Hill Backgammon Club house rules",
            "https://www.clintonhillbackgammon.com/chouettes.html",
        ),
        stated=_rules_of(
            _said("The Jacoby rule is in effect", jacoby=True, jacoby_scope="per-cube"),
            _said("No auto-doubles in opening rolls (unless previously agreed to)", auto_doubles=0),
            _said("Beavers and Raccoons allowed (and encouraged)", beavers=True, raccoons=True),
            _said(
                "While in the Box, the Box must take half or more of cubes offered to continue "
                "playing",
                box_takes="half",
                box_takes_scope="several",
            ),
            _said(
                "Team members may not discuss gameplay unless their cube has been turned",
                consultation="no-cube-no-talk",
            ),
            _said(
                "Cubes are independent, and no discussion of cube accepting/declining as it "
                "happens",
                cubes="multi",
            ),
        ),
        notes=(
            marked(
                "Of two members' doubles, chouette's box-takes half takes both or neither (ESK's "
                "words); the club's page says only half or more."
            ),
            marked(
                "If the captain decides to take alone, they must beaver: chouette's "
                "--mandatory-beaver holds every lone taker to it, not only the captain, so the "
                "preset leaves it off."
            ),
            marked("The team answers a cube from the end of the line to the captain: not tracked."),
            marked(
                "A box that takes a partner (the table's choice: --partner-from N) may discuss "
                "cube action with them, not checker play."
            ),
        ),
    ),
    Preset(
        name="colorado",
        title="Colorado Backgammon chouette rules",
        source=Source(
            "S3",
            "Colorado Backgammon chouette rules and score sheets",
            "http://www.coloradobackgammon.com/?p=223",
            partly_read=True,
        ),
        stated=_rules_of(
            _said("Each member of the Team has a doubling cube.", cubes="multi"),
            _said(
                "The last person on the team would be the first invited to be Partner, if any.",
                partner_pick="last",
            ),
            _said(
                "A cube is said to be in the game if and only if it has been turned and "
                "accepted ... Those without a cube in the game must not consult or comment.",
                consultation="after-accept",
            ),
            _said(
                "Optionally Box may take a Partner when there are 6 or more players.",
                partner_from=6,
                partner_optional=True,
            ),
            _said("The starting order is rolled with 2 dice (doubles count)", roll_off="two-dice"),
        ),
        notes=(
            marked("Typically 1 point equals $5: the stake is the table's (--stake)."),
            marked("Players may not consult on cube decisions."),
        ),
    ),
    Preset(
        name="esk",
        title="ESK gammon chouette rules",
        source=Source(
            "S7",
            "ESK gammon (moonconnect) chouette rules",
            "http://moonconnect.eu/eskgammon/index.php/chouette/",
            partly_read=True,
        ),
        stated=_rules_of(
            _said(
                "take at least half of them or drop all; in a 3-player chouette, take both or "
                "drop both",
                box_takes="half",
            ),
            _said("beavers: no; raccoons: no (the ESK default)", beavers=False, raccoons=False),
            _said("automatic doubles: one by default", auto_doubles=1),
            _said("split or take a partner above 5", split_at=5),
            _said(
                "The captain may ask anyone whose cube is in the game, but may not give their "
                "own opinion unless their own cube is in",
                consultation="no-cube-no-talk",
            ),
        ),
        ours=(
            *_DEFAULTS_UNREAD,
            Choice(
                "box_takes_scope",
                "several",
                marked(
                    "the part read does not say whether the box is held to half of any "
                    "several members' doubles or only of everyone's at once: chouette's "
                    "default, any two or more together (a table that plays the other says "
                    "--box-takes-scope all)"
                ),
            ),
        ),
        notes=(
            marked("Above 5 a table may take a partner instead of splitting: --partner-from 6."),
            marked("No one discusses cube decisions."),
        ),
    ),
    Preset(
        name="florida-challenge",
        title='Florida State Backgammon "Chouette Challenge"',
        source=Source(
            "S29",
            'Florida State Backgammon "Chouette Challenge" rules',
            "http://floridastatebackgammon.com/rules",
            partly_read=True,
        ),
        stated=_rules_of(
            _said(
                "everyone starts with a bank (usually 50 points); a player is eliminated when "
                "their bank is empty; caps a player's losses at what they still have in their "
                'bank ("all in"), and bars players who cannot cover the starting cube against '
                "every opponent from being box or captain",
                table_stakes=50,
            ),
        ),
        ours=_DEFAULTS_UNREAD,
        notes=(
            marked(
                "Re-entries are allowed through the 4th session: chouette event reenter NAME "
                "(in a session alone: chouette bank NAME 50)."
            ),
            marked(
                "The starting cube rises each session (1, 2, 4 … 64): chouette event new NAME "
                "--bank 50 --levels 1,2,4,8,16,32,64 --reentries-until 4 runs the whole event "
                "(a session alone plays a level with --starting-cube N)."
            ),
            marked(
                "Tables are drawn at random (chouette event draw); a one-minute move clock can be "
                "imposed (chouette keeps a level's clock, --minutes, not the moves')."
            ),
        ),
    ),
    Preset(
        name="la",
        title="L.A. chouette rules (Joe Russell, 2013)",
        source=Source(
            "S11",
            "L.A. chouette rules (Joe Russell, BGonline, 2013)",
            "https://www.bgonline.org/forums/webbbs_config.pl?read=141034",
        ),
        stated=_rules_of(
            _said("Non-consulting at all times;", consultation="none"),
            _said("Individual cubes;", cubes="multi"),
            _said("Partners are optional with 6 players and mandatory with 7;", partner_from=7),
            _said(
                "If a player wishes to join a 7-handed game, the game splits into 2 4-handed games",
                split_at=7,
            ),
            _said(
                "When the box takes a partner, the next player in line is it and must accept "
                "or quit the chouette;",
                partner_pick="next",
            ),
            _said(
                "If the box is doubled by everyone at the same time, he must take enough cubes "
                "to at least break even and he must take the captain(in a 3-handed chouette, "
                "the box must take both or pass both);",
                box_takes="break-even",
                box_takes_scope="all",
            ),
            _said(
                "the passing crew members may offer extras. The lone taker then must make a "
                "decision to either pass the box's cube or take extras from each crew member "
                "that chooses to give one;",
                extras=True,
                mandatory_extras=True,
            ),
            _said(
                "If the cubes are at the same level and the box doubles anybody, he must double "
                "the captain(autos are an artificial increase and are not counted in this "
                "calculation);",
                box_doubles="with-captain",
            ),
            _said(
                "To retain the box you must win the game, if played to completion against "
                "anyone, or have the last active crew member pass your cube or make a negative "
                "settlement. Your net result for the game can not result in a loss;",
                retention="won-not-loss",
            ),
        ),
        ours=(
            Choice(
                "jacoby",
                True,
                marked(
                    "not in the rules as posted; the research notes take L.A. to play it "
                    "(implicitly)"
                ),
            ),
        ),
        notes=(
            marked(
                "Partners are optional with 6 players: a table of 6 that takes one says "
                "--partner-from 6."
            ),
            marked("All players must use a cup and roll through a baffle box."),
        ),
    ),
    Preset(
        name="laws-1931",
        title="1931 Chouette Rules",
        source=Source(
            "S1",
            "1931 Chouette Rules (the committee of the 1931 Laws of Backgammon), bkgm.com",
            "https://bkgm.com/variants/Chouette-1931.html",
        ),
        stated=_rules_of(
            _said(
                "He is, however, the final arbiter ... A double offered by the Man in the Box "
                "may be refused by any partner. Each rejector forfeits to the Man in the Box "
                "his count previous to the proposed double.",
                cubes="single",
            ),
            _said(
                "Should the Captain decline to accept a double offered by the Man in the Box "
                "he loses his position",
                acting_captain="inherit",
            ),
            _said(
                "He retains his position until defeated. In such event, he retires as a player "
                "and takes his place as the last ranking member",
                retention="captain",
            ),
            _said(
                "He becomes the last ranking member in the first game in which he participates.",
                newcomer="after-loser",
            ),
            _said(
                "The Captain may consult with any or all of the partners on any question that "
                "may arise in the course of the game.",
                consultation="free",
            ),
        ),
        ours=(
            Choice(
                "jacoby",
                False,
                marked(
                    "the Jacoby rule came decades later; the 1931 rules count gammons as they fall"
                ),
            ),
            Choice("beavers", False, marked("the 1931 rules name no beavers")),
            Choice("raccoons", False, marked("the 1931 rules name no raccoons")),
        ),
        notes=(marked("Each member throws a die for the starting order: chouette new --roll."),),
    ),
    Preset(
        name="woolsey",
        title="Kit Woolsey's FIBS chouette regulations (draft)",
        source=Source(
            "S2",
            'Kit Woolsey, proposed FIBS "Chouette Regulations" (rec.games.backgammon archive)',
            "http://www.bkgm.com/rgb/rgb.cgi?view+1087",
        ),
        stated=_rules_of(
            _said(
                "If there are 6 to 10 players, then the box must take a partner (not optional).",
                partner_from=6,
            ),
            _said(
                "3rd highest is parter with box ... the next player in line becomes partner "
                "with the box.",
                partner_pick="next",
            ),
            _said(
                "he goes to the bottom of the rotation for the first game he plays (that is, he "
                "is behind the player who just lost the previous game).",
                newcomer="after-loser",
            ),
            _said("The size of the chouette is limited to 10", split_at=10),
            _said(
                "If a partnership in the box just won and somebody leaves to reduce the number "
                "of players to below 6, the partnership remains intact for the remainder of "
                "the box run.",
                partner_run=True,
            ),
            _said(
                "When the box wins that player retains the box, the losing captain goes to the "
                "bottom of the rotation",
                retention="captain",
            ),
        ),
    ),
)


def preset_key(name: str) -> str:
    """A preset's name as looked up: case, dots and spaces aside (``L.A.`` is ``la``)."""
    return "-".join(name.casefold().replace(".", "").split())


BY_KEY: Mapping[str, Preset] = {preset_key(p.name): p for p in PUBLISHED}


def published(name: str) -> Preset | None:
    """The published preset called ``name`` (see :func:`preset_key`), if there is one."""
    return BY_KEY.get(preset_key(name))


def check_preset_name(name: str) -> str:
    """A name for a club's own preset: one line of text, not a published preset's name."""
    text = check_session_name(name)
    taken = published(text)
    if taken is not None:
        raise ChouetteError(
            said(
                "{name} is the name of the published preset {preset} ({title}): a club's own "
                "preset takes another name",
                name=text,
                preset=taken.name,
                title=taken.title,
            )
        )
    return text


# ---------------------------------------------------------------- a preset with options beside it


@dataclass(frozen=True)
class Override:
    """An option given beside a preset: its value there, and the value given."""

    option: str
    preset: Any
    value: Any

    @property
    def name(self) -> str:
        return self.option.replace("_", "-")


def override(base: HouseRules, given: Mapping[str, Any]) -> tuple[HouseRules, tuple[Override, ...]]:
    """``base`` with the options ``given`` (HouseRules field names) put over it, and what
    changed (an option given at the preset's own value changes nothing and is not listed).
    A rule given off takes the rules that need it off with it, unless they are given too
    (:data:`~chouette.rules.FOLLOW_OFF`: ``--no-extras`` beside L.A.'s mandatory extras).
    Refused as the house rules refuse a combination that cannot be played."""
    known = {f.name for f in fields(HouseRules)}
    values = {f.name: getattr(base, f.name) for f in fields(HouseRules)}
    for option in given:
        if option not in known:
            raise ChouetteError(
                said("unknown house rule {rule}", rule=repr(option.replace("_", "-")))
            )
    given = dict(given)
    for rule, followers in FOLLOW_OFF.items():
        if rule in given and given[rule] in (False, None):
            given |= {f: off for f, off in followers.items() if f not in given}
    values.update(given)
    rules = HouseRules(**values)
    changed = tuple(
        Override(option, getattr(base, option), value)
        for option, value in given.items()
        if getattr(base, option) != value
    )
    return rules, changed
