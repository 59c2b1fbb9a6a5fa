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

The map of the house. Every room holds one job; a room imports only the rooms below it
(``tests/system/test_rooms.py`` proves it: no cycle, no arrow back up).

**The rules** (this package; pure):

- the table: :mod:`~chouette.rules` (house rules, declared once), :mod:`~chouette.presets`
  (the clubs' published rule sets), :mod:`~chouette.card` (the rules card in words),
  :mod:`~chouette.line` (seats, roll-off, rotation), :mod:`~chouette.session` (a session and
  its game in progress, as the rules see them), :mod:`~chouette.names` (which player a typed
  name means, and names that look alike, by :mod:`~chouette.confusables`: Unicode's data,
  kept in ``chouette/unicode/``), :mod:`~chouette.stop` (a fair stop);
- a game: :mod:`~chouette.game` (cubes and events), :mod:`~chouette.points` (what a board is
  worth), :mod:`~chouette.outcome` (a finished game's points, money and next line),
  :mod:`~chouette.exposure` (what each player has at risk), :mod:`~chouette.amend`
  (corrections with a trail), :mod:`~chouette.record` (the chouette game record),
  :mod:`~chouette.position` (the board at a cube decision: a Position ID or an XGID),
  :mod:`~chouette.review` (each cube decision scored from an engine's equities, pair by
  pair);
- a tournament: :mod:`~chouette.event` (entries, banks carried over levels with a rising
  starting cube, tables drawn from a seed, re-entries, the ranking and the payouts);
- money: :mod:`~chouette.money` (cents), :mod:`~chouette.limits` (the largest numbers),
  :mod:`~chouette.settlement` (who pays whom), :mod:`~chouette.costs` (fees and shared
  costs), :mod:`~chouette.nights` (club nights and debts that last), :mod:`~chouette.payments`
  (each player's account, and the payment code a bank app reads),
  :mod:`~chouette.proposals` (what a player may propose from their phone for the keeper to
  approve), :mod:`~chouette.stats` (the club's memory);
- trust: :mod:`~chouette.chain` (the tamper-evident record), :mod:`~chouette.checks` (what is
  wrong with a record, as values);
- words: :mod:`~chouette.words` (what is said, as values, and a reader's language),
  :mod:`~chouette.report` (reports as data), :mod:`~chouette.page` (the HTML page),
  :mod:`~chouette.text` (text shown safely), :mod:`~chouette.errors` (the errors);
- other programs' files: :mod:`~chouette.engines` (GNU Backgammon, eXtreme Gammon, BGBlitz,
  SGF and neutral records, read into two-party results).

**Around it**, in the clone beside this package (installed, inside it as ``chouette._app``):

- ``files/``: the files a command reads or writes beside the ledger (an engine file found
  out and checked whole, a file of records read whole, an export or a report written whole),
  and GNU Backgammon run as its own program to evaluate cube decisions (``files.gnubg``);
- ``db/``: the ledger only (SQLModel tables, migrations, one transaction per command, and
  ``db/commands.py``: what each command does to it);
- ``web/``: ``chouette serve``, the pages for the keeper, the players and the room (it runs
  the pages' command lines with the CLI's runner, handed to it, never imported);
- ``cli.py``: the ``chouette`` command, a thin door over ``db/``'s use cases, with
  ``typer_internals.py`` beside it (all it takes from Typer that has no public API);
- ``tests/``: the proofs, filed by subject; ``bench/``: the benchmark, in ratios.
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
