"""Which player a typed name means.

A name is stored as it was first written (``bob``, ``Zoë``), and every report and event keeps
that spelling. What a person types at the table may differ in case (``BOB``, ``zoë``): it
means the one player whose name differs from it only in case. Two players of one session
whose names differ only in case are refused (``new``, ``join``), so a typed name means at
most one player; a ledger written before that rule may hold two, and then only the exact
spelling picks one. A name that means nobody is refused with the closest names suggested.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence

from chouette.errors import PlayerError
from chouette.text import clipped


def case_twin(name: str, known: Iterable[str]) -> str | None:
    """The known name, other than ``name`` itself, that differs from it only in case."""
    folded = name.casefold()
    return next((k for k in known if k != name and k.casefold() == folded), None)


def closest(typed: str, known: Iterable[str], count: int = 3) -> list[str]:
    """The known names most like ``typed`` (case aside), closest first; none when nothing
    is alike."""
    by_fold: dict[str, str] = {}
    for name in known:
        by_fold.setdefault(name.casefold(), name)
    alike = difflib.get_close_matches(typed.casefold(), list(by_fold), n=count, cutoff=0.6)
    return [by_fold[f] for f in alike]


def did_you_mean(typed: str, known: Iterable[str]) -> str:
    """``"; did you mean bob?"``, or nothing when no known name is alike."""
    alike = closest(typed, known)
    if not alike:
        return ""
    listed = alike[0] if len(alike) == 1 else f"{', '.join(alike[:-1])} or {alike[-1]}"
    return f"; did you mean {listed}?"


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
            f"{clipped(typed)} could be {' or '.join(found)}: type the name exactly as it is "
            "written"
        )
    return found[0] if found else None


def resolve(typed: str, known: Sequence[str], unknown: str) -> str:
    """The known player ``typed`` means (see :func:`match`), or a refusal that reads
    ``"{typed} {unknown}"`` (``"zed is not in the line"``) and suggests the closest names."""
    found = match(typed, known)
    if found is None:
        raise PlayerError(f"{clipped(typed)} {unknown}{did_you_mean(typed, known)}")
    return found
