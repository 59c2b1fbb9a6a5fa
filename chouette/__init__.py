"""chouette: the rules of backgammon chouettes and money sessions, pure and proven.

For the next maintainer, the table in a paragraph. Three or more people share one board.
The **box** plays alone against the **team**: the **captain** (who moves the checkers) and the
**crew** behind. The seating order is the **line**: position 0 is the box, 1 the captain.
Every team member plays their own money game against the box, so every member has their own
doubling **cube** against the box: a value (1, 2, 4, …), an **owner** (centre, the box, or
that member) and possibly a pending offer (a double, beaver or raccoon waiting for an
answer). The side that owns a cube may redouble it; a centred cube may be turned by either
side. A double may be taken (the taker owns the cube at twice the value), dropped (the
dropper pays the value before the double and that pair is over), or beavered (taken and
turned straight back; the beaverer keeps the cube), and a beaver may be raccooned. When the
board ends, every pair still live is paid cube × 1, 2 or 3 (Jacoby: a centred cube pays a
single). After each game the line rotates by the house rule ``retention``.

Everything here is pure: standard library only, no database, no terminal, no clock, no
hidden randomness (a roll-off takes a seeded generator). The database (``db/``) and the CLI
(``cli.py``) call in; nothing here calls out, but for :mod:`chouette.__main__`, the
``chouette`` command's door to ``cli.py`` (which the installed package carries inside it).

Modules, as the nouns of the game: :mod:`~chouette.rules` (house rules),
:mod:`~chouette.line` (seats, roll-off, rotation), :mod:`~chouette.game` (cubes and events),
:mod:`~chouette.outcome` (points, money, next line), :mod:`~chouette.settlement` (who pays
whom), :mod:`~chouette.record` (the chouette game record), :mod:`~chouette.money` (cents).
"""

from chouette.errors import (
    AutoDoubleIgnored,
    ChouetteError,
    EngineFileError,
    LineError,
    MoneyError,
    RecordError,
    RuleError,
)

__all__ = [
    "AutoDoubleIgnored",
    "ChouetteError",
    "EngineFileError",
    "LineError",
    "MoneyError",
    "RecordError",
    "RuleError",
]
