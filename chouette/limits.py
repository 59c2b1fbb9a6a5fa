"""The largest numbers the ledger keeps, and the checks where numbers are made.

Every amount of money (a stake, a payment, a booking, a running balance) is at most
:data:`LIMIT` cents either way, and every count of points (a deal, a booking, a running
balance) at most :data:`LIMIT` points: 10^15, ten trillion in money, which no club reaches,
while a sum of nine thousand such numbers still fits the 64 bits a database keeps
(2^63 ≈ 9.2 × 10^18). A number past it is refused where it is made: a stake or a payment
as it is read, a deal as it is given, a game at the event that would let it book more, a
balance before it moves.

Every other whole number a command takes, or the house rules hold, has its bounds here too
(:data:`NUMBERS`): a game's number, a cube's maximum, the automatic doubles, beavers and
seats the rules count, a roll-off's seed, how many entries to list. The CLI refuses a number
outside them as it reads the command line (exit 2, the bounds named); house rules read back
from the ledger or an export are refused by :class:`chouette.rules.HouseRules` itself.
"""

from __future__ import annotations

from chouette.errors import LimitError
from chouette.words import Number, Sayable, said, said_in

LIMIT = 10**15
#: The limit as people read it.
SHOWN = "1,000,000,000,000,000"
MONEY_SHOWN = "10,000,000,000,000.00"
#: The limit in money, as the reader's language writes it (English: :data:`MONEY_SHOWN`,
#: its thousands grouped as no other amount in English is).
MONEY_LIMIT = said_in("the ledger's limit in money", "10,000,000,000,000.00")


#: The longest command line the table's prompt and the keeper's page read (a name, a note and
#: a command fit many times); a longer one is refused unread.
LONGEST_LINE = 10_000

#: A game's number in a session (``--game N``, ``game N``): 1 to a thousand million.
GAMES = 10**9
#: The times a cube may double: 2^48 is the largest cube whose backgammon (× 3) stays within
#: :data:`LIMIT` points, so ``--auto-doubles`` and ``--beaver-limit`` stop there.
DOUBLINGS = 48
#: The highest ``--max-cube``: 2^48 = 281,474,976,710,656.
MAX_CUBE = 2**DOUBLINGS
#: The players a rule may count (``--partner-from``, ``--split-at``).
SEATS = 1_000
#: A roll-off's seed (``--seed``): what 64 bits keep.
SEED = 2**63 - 1
#: Entries a list may be asked for (``log --limit``).
ENTRIES = 10**9
#: A TCP port (``serve --port``; 0: any free one).
PORT = 65_535
#: The longest level of a chouette tournament, in minutes (a day), and the last level an
#: event may take entries until.
LEVEL_MINUTES = 24 * 60
LEVELS = 1_024

#: Every bounded whole number, by the option or argument that takes it: (least, most).
NUMBERS: dict[str, tuple[int, int]] = {
    "--game": (1, GAMES),
    "game N": (1, GAMES),
    "amend N": (1, GAMES),
    "position N": (1, GAMES),
    "position STEP": (1, GAMES),
    "review --plies": (0, 3),
    "amend --cube": (1, MAX_CUBE),
    "deal POINTS": (-LIMIT, LIMIT),
    "extra --points": (1, LIMIT),
    "extra --premium": (0, LIMIT),
    "log --limit": (1, ENTRIES),
    "approve N": (1, ENTRIES),
    "refuse N": (1, ENTRIES),
    "new --seed": (0, SEED),
    "--auto-doubles": (0, DOUBLINGS),
    "--beaver-limit": (1, DOUBLINGS),
    "--max-cube": (1, MAX_CUBE),
    "--starting-cube": (1, MAX_CUBE),
    "--partner-from": (3, SEATS),
    "--partner-share": (0, 100),
    "--split-at": (5, SEATS),
    "--table-stakes": (1, LIMIT),
    "bank POINTS": (1, LIMIT),
    "--rounds": (1, GAMES),
    "serve --port": (0, PORT),
    "event new --bank": (1, LIMIT),
    "event new --minutes": (1, LEVEL_MINUTES),
    "event new --reentries-until": (1, LEVELS),
    "event draw --seed": (0, SEED),
    "event next --seed": (0, SEED),
    "event end --seed": (0, SEED),
}


def within(value: int, least: int, most: int, what: Sayable) -> int:
    """``value`` if from ``least`` to ``most``; else a :class:`LimitError` naming ``what``
    and the bounds (a number of thousands of digits is not even turned into text)."""
    if not least <= value <= most:
        raise LimitError(
            said(
                "{what} must be from {least} to {most}, not {value}",
                what=what,
                least=Number(least),
                most=Number(most),
                value=_number(value),
            )
        )
    return value


def check_points(points: int, what: Sayable) -> int:
    """``points`` if within the limit; else a :class:`LimitError` naming ``what``."""
    if not -LIMIT <= points <= LIMIT:
        raise LimitError(
            said(
                "{what}: {points} is past the ledger's limit of {limit} points",
                what=what,
                points=_points(points),
                limit=Number(LIMIT),
            )
        )
    return points


def check_cents(cents: int, what: Sayable) -> int:
    """``cents`` if within the limit; else a :class:`LimitError` naming ``what``."""
    if not -LIMIT <= cents <= LIMIT:
        raise LimitError(
            said("{what} is past the ledger's limit of {limit}", what=what, limit=MONEY_LIMIT)
        )
    return cents


def check_balance(player: str, points: int, cents: int) -> None:
    """A running balance after a booking: within the limit, or the booking is refused."""
    if not (-LIMIT <= points <= LIMIT and -LIMIT <= cents <= LIMIT):
        raise LimitError(
            said(
                "{player}'s running balance would pass the ledger's limit ({limit} points, "
                "{money} in money): nothing was written",
                player=player,
                limit=Number(LIMIT),
                money=MONEY_LIMIT,
            )
        )


def _points(number: int) -> Sayable:
    """A count of points for a message (see :func:`_number`)."""
    if abs(number) < 10**30:
        return said("{number} points", number=str(number))
    return said("a number of points some {digits} digits long", digits=_digits(number))


def _number(number: int) -> Sayable:
    """A number for a message: in full up to 30 digits, else how long it is (a number of
    thousands of digits is not even turned into text)."""
    if abs(number) < 10**30:
        return str(number)
    return said("a number some {digits} digits long", digits=_digits(number))


def _digits(number: int) -> int:
    """About how many digits ``number`` has (within one), without writing it out."""
    return int(abs(number).bit_length() * 0.30103) + 1  # log10(2)
