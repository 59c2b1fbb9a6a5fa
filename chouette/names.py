"""Which player a typed name means.

A name is stored as it was first written (``bob``, ``Zoë``), and every report and event keeps
that spelling. What a person types at the table may differ in case (``BOB``, ``zoë``): it
means the one player whose name differs from it only in case. Two players of one session
whose names differ only in case are refused (``new``, ``join``), so a typed name means at
most one player; a ledger written before that rule may hold two, and then only the exact
spelling picks one. A name that means nobody is refused with the closest names suggested.

Names that only look alike are one person named twice, or two a table cannot tell apart: a
Cyrillic ``а`` in ``Аnn``, a fullwidth ``ＢＯＢ``, ``Ian`` and ``lan``. They are found by
Unicode's confusable detection (UTS #39: two texts look alike when their *skeletons* are
equal, each character mapped to its prototype by Unicode's confusables.txt,
:mod:`chouette.confusables`), case aside (:func:`look_alike`). One session refuses them
(``new``, ``join``); across the ledger a new player's name is written as the ledger already
writes that person (``ZOË`` is ``Zoë``), and one that only looks like a player the ledger
has is asked about (:func:`as_known`).
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from chouette.errors import PlayerError
from chouette.text import clipped
from chouette.words import Said, Sayable, joined, said


def case_twin(name: str, known: Iterable[str]) -> str | None:
    """The known name, other than ``name`` itself, that differs from it only in case."""
    folded = name.casefold()
    return next((k for k in known if k != name and k.casefold() == folded), None)


@lru_cache(maxsize=4096)
def looks(name: str) -> frozenset[str]:
    """What ``name`` looks like, case aside: its casefolded text, and its UTS #39 skeleton
    (NFD, each character to its prototype, NFD again), casefolded, of the name as written,
    casefolded, and in its compatibility form (NFKC: Unicode's data maps ``ＢＯＢ`` to
    ``BOB`` but not ``ｂｏｂ`` to ``bob``). ``Ian`` is ``lan``."""
    from chouette.confusables import PROTOTYPES

    def skeleton(text: str) -> str:
        mapped = "".join(PROTOTYPES.get(c, c) for c in unicodedata.normalize("NFD", text))
        return unicodedata.normalize("NFD", mapped).casefold()

    folded = name.casefold()
    compatible = unicodedata.normalize("NFKC", folded).casefold()
    return frozenset((folded, skeleton(name), skeleton(folded), skeleton(compatible)))


def look_alike(name: str, known: Iterable[str]) -> str | None:
    """The known name, other than ``name`` itself, that looks like it (:func:`looks`) though
    they differ in more than case (a case twin is :func:`case_twin`'s)."""
    folded, seen = name.casefold(), looks(name)
    return next(
        (k for k in known if k.casefold() != folded and looks(k) & seen),
        None,
    )


@dataclass(frozen=True)
class Known:
    """A new player's name as the ledger writes that person (``name``), and what to say
    when it is not as typed (``said``)."""

    name: str
    said: Said | None = None


def as_known(typed: str, known: Sequence[str], *, confirm: str, new: bool = False) -> Known:
    """``typed``, a name given to a player who joins a session (``new``, ``join``), as the
    ledger's players (``known``) write that person: the name as written; else the one known
    name that differs from it only in case (``ZOË`` is ``Zoë``: one person, one account in
    ``owed``, ``settle --all`` and ``stats``). Asked about (refused, naming the ledger's
    spelling) when it could be two known names, or only looks like one (a Cyrillic ``а``, a
    fullwidth letter, ``1`` for ``l``): ``confirm`` is the option that says it is someone
    else, given as ``new``."""
    if typed in known:
        return Known(typed)
    folded = typed.casefold()
    same = list(dict.fromkeys(k for k in known if k.casefold() == folded))
    if len(same) > 1:
        raise PlayerError(
            said(
                "{typed} could be {names}, who have played in this ledger: type the name "
                "exactly as the ledger writes it",
                typed=clipped(typed),
                names=joined(same, " or "),
            )
        )
    if same:
        return Known(
            same[0],
            said(
                "{typed} is written {name}, as the ledger writes that player",
                typed=clipped(typed),
                name=same[0],
            ),
        )
    alike = look_alike(typed, known)
    if alike is not None and not new:
        raise PlayerError(
            said(
                "{typed} looks like {name}, who has played in this ledger: type {name} to "
                "mean that player, or give {confirm} if {typed} is someone else",
                typed=clipped(typed),
                name=alike,
                confirm=confirm,
            )
        )
    return Known(typed)


def closest(typed: str, known: Iterable[str], count: int = 3) -> list[str]:
    """The known names most like ``typed`` (case aside), closest first; none when nothing
    is alike."""
    by_fold: dict[str, str] = {}
    for name in known:
        by_fold.setdefault(name.casefold(), name)
    alike = difflib.get_close_matches(typed.casefold(), list(by_fold), n=count, cutoff=0.6)
    return [by_fold[f] for f in alike]


def did_you_mean(typed: str, known: Iterable[str]) -> str:
    """``"; did you mean bob?"``, or nothing when no known name is alike (in English: a
    refusal says it in its reader's words, :func:`unknown_player`)."""
    alike = _alike(typed, known)
    return "" if alike is None else str(said("; did you mean {names}?", names=alike))


def _alike(typed: str, known: Iterable[str]) -> Sayable | None:
    """``bob``, ``dean or don``, ``dean, don or ann``: the known names like ``typed``."""
    alike = closest(typed, known)
    if not alike:
        return None
    if len(alike) == 1:
        return alike[0]
    return said("{names} or {last}", names=joined(alike[:-1]), last=alike[-1])


#: What a refusal says of a name that is nobody it could be, by what the command looked in.
UNKNOWN: dict[str, Callable[[str], Said]] = {
    "is not in the line": lambda player: said("{player} is not in the line", player=player),
    "is not playing this game": lambda player: said(
        "{player} is not playing this game", player=player
    ),
    "has not played in this session": lambda player: said(
        "{player} has not played in this session", player=player
    ),
    "has played in no session here": lambda player: said(
        "{player} has played in no session here", player=player
    ),
    "has played in no session": lambda player: said(
        "{player} has played in no session", player=player
    ),
}


def unknown_player(typed: str, known: Iterable[str], unknown: str | Said) -> Sayable:
    """The refusal of ``typed``, a name that is none of ``known``: ``unknown`` says why, as
    a key of :data:`UNKNOWN`, or a sentence of its own whose ``{player}`` is the name typed
    (any other text: after the name, in English); then the closest names, if any."""
    who = clipped(typed)
    if isinstance(unknown, Said):
        refusal: Sayable = replace(unknown, values=(("player", who), *unknown.values))
    elif unknown in UNKNOWN:
        refusal = UNKNOWN[unknown](who)
    else:
        refusal = f"{who} {unknown}"
    alike = _alike(typed, known)
    if alike is None:
        return refusal
    return said("{refusal}; did you mean {names}?", refusal=refusal, names=alike)


def match(typed: str, known: Sequence[str]) -> str | None:
    """The known player ``typed`` means: the name as written, else the one known name that
    differs from it only in case; None when it means nobody. Refused when it could mean two
    (an older ledger with ``bob`` and ``Bob``, and ``BOB`` typed)."""
    if typed in known:
        return typed
    folded = typed.casefold()
    found = list(dict.fromkeys(k for k in known if k.casefold() == folded))
    if len(found) > 1:
        raise PlayerError(
            said(
                "{typed} could be {names}: type the name exactly as it is written",
                typed=clipped(typed),
                names=joined(found, " or "),
            )
        )
    return found[0] if found else None


def resolve(typed: str, known: Sequence[str], unknown: str | Said) -> str:
    """The known player ``typed`` means (see :func:`match`), or a refusal that reads
    ``"{typed} {unknown}"`` (``"zed is not in the line"``: :func:`unknown_player`) and
    suggests the closest names."""
    found = match(typed, known)
    if found is None:
        raise PlayerError(unknown_player(typed, known, unknown))
    return found
