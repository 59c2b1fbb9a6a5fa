"""Money is exact: integer cents, parsed from text through Decimal, never a float."""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from decimal import Decimal

from chouette.errors import ChouetteError, LimitError, MoneyError
from chouette.limits import LIMIT, MONEY_LIMIT, check_cents
from chouette.text import clipped
from chouette.words import Money, Sayable, said

Cents = int


#: Commas read as thousands separators: groups of three digits, and a decimal point or a
#: second comma to show they cannot be a decimal comma (``1,000.00``, ``1,000,000``).
_THOUSANDS = re.compile(r"[+-]?[0-9]{1,3}(,[0-9]{3})+(\.[0-9]*)?")
_AMOUNT = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)")
#: A decimal comma that cannot be a thousands separator (one or two digits after it, as a
#: Dane or a Czech writes money: ``2,50``, ``1.000,50``).
_DECIMAL_COMMA = re.compile(r"[+-]?([0-9]+|[0-9]{1,3}(\.[0-9]{3})+),[0-9]{1,2}")
#: Points that could be between thousands (``1.000``: one thousand to a Dane, one to a Briton).
_THOUSANDS_POINTS = re.compile(r"[+-]?[1-9][0-9]{0,2}(\.[0-9]{3})+")


def parse_money(text: str) -> Cents:
    """``"5"``, ``"5.00"``, ``"$2.50"``, ``"0.05"``, ``"1,000.00"``, ``"2,50"``,
    ``"1.000,50"`` -> cents.

    A comma is a decimal comma when it cannot be anything else (one or two digits after it:
    ``2,50`` is 2.50), and a thousands separator when it cannot be anything else (``1,000.00``,
    ``1,000,000``). Refuses anything but digits, points and commas (no exponent: ``1e3``), a
    fraction of a cent, an amount past the ledger's limit (:class:`LimitError`), and what
    could be read two ways: ``5,000`` (five thousand, or five with a decimal comma?) and
    ``1.000`` (one thousand with a point between thousands, or one?)."""
    echo = repr(clipped(text))  # what a refusal shows of it
    cleaned = text.strip().lstrip("$€£").strip()
    for unit in ("kr.", "kr", "Kč"):  # as a Dane and a Czech write it after the amount
        cleaned = cleaned.removesuffix(unit).strip()
    if _DECIMAL_COMMA.fullmatch(cleaned):
        cleaned = cleaned.replace(".", "").replace(",", ".")
    elif _THOUSANDS_POINTS.fullmatch(cleaned):
        raise MoneyError(
            said(
                "{typed}: the point could be between thousands or before decimals; write 1000 "
                "or 1.00 (or a decimal comma: 1,00)",
                typed=echo,
            )
        )
    elif "," in cleaned:
        if not (_THOUSANDS.fullmatch(cleaned) and ("." in cleaned or cleaned.count(",") > 1)):
            raise MoneyError(
                said(
                    "{typed}: a comma could be a decimal comma or a thousands separator; write "
                    "decimals with one or two digits after the point or comma (5.00, 5,00), and "
                    "commas between thousands with a point (1,000.00)",
                    typed=echo,
                )
            )
        cleaned = cleaned.replace(",", "")
    # Digits and a point only: Decimal would also read Python's digit grouping (5_00: 500.00),
    # an exponent (1e3: 1000.00, a slip of the finger from 13), other scripts' digits, NaN.
    if not _AMOUNT.fullmatch(cleaned):
        raise MoneyError(said("{typed} is not an amount of money", typed=echo))
    amount = Decimal(cleaned)
    # Exact, without the decimal context (which would round 5,000 digits): the digits and
    # the exponent say how big the amount is and whether it is a whole number of cents.
    sign, digits, exponent = amount.as_tuple()
    assert isinstance(exponent, int)
    if not any(digits):
        return 0
    if amount.adjusted() >= 20 or amount.copy_abs() * 100 > LIMIT:
        raise LimitError(
            said(
                "{typed} is past the ledger's limit of {limit}",
                typed=repr(clipped(text.strip())),
                limit=MONEY_LIMIT,
            )
        )
    whole = int("".join(map(str, digits)))
    shift = exponent + 2  # the exponent of the amount in cents
    if shift >= 0:
        whole = int(whole * 10**shift)  # shift < 22: the amount is below the limit
    elif -shift > len(digits) or whole % int(10**-shift):
        raise MoneyError(said("{typed} is not a whole number of cents", typed=echo))
    else:
        whole //= int(10**-shift)
    return -whole if sign else whole


def check_stake(cents: Cents, what: Sayable | None = None) -> Cents:
    """A stake per point: more than zero (a stake of nothing or less would make the winner
    pay) and within the ledger's limit (``what``: the stake, by default)."""
    what = said("the stake") if what is None else what
    if cents <= 0:
        raise ChouetteError(
            said("{what} must be more than zero, not {amount}", what=what, amount=Money(cents))
        )
    return check_cents(cents, what)


def check_payment(
    payer: str, payee: str, cents: Cents, players: Collection[str], session: str
) -> None:
    """A payment between two of the session's players: not to oneself, more than zero and
    within the limit."""
    if payer == payee:
        raise ChouetteError(said("{player} cannot pay themselves", player=payer))
    if cents <= 0:
        raise ChouetteError(said("a payment must be more than zero"))
    check_cents(cents, said("a payment of {amount}", amount=Money(cents)))
    for name in (payer, payee):
        if name not in players:
            raise ChouetteError(
                said(
                    "{player} has not played in {session} (book a payment in the session they "
                    "played in, with --session)",
                    player=name,
                    session=session,
                )
            )


@dataclass(frozen=True)
class Advance:
    """A payment from ``payer`` to ``payee`` of ``cents`` against their balances (what
    each is owed, +, or owes, −, payments included): ``owed`` is the most a payment between
    them can settle, the smaller of what the payer owes and what the payee is owed; the
    rest, ``over``, is more than the payer owes that person: an advance (a loan, a credit,
    a balance taken over), which a player means or mistypes."""

    payer: str
    payee: str
    cents: Cents
    payer_before: Cents
    payee_before: Cents

    @property
    def owed(self) -> Cents:
        return max(0, min(-self.payer_before, self.payee_before))

    @property
    def over(self) -> Cents:
        return max(0, self.cents - self.owed)

    def leaves(self) -> Sayable:
        """The balances the payment leaves: ``bob +6.00 and ann -4.00``."""
        return said(
            "{payer} {payer_after} and {payee} {payee_after}",
            payer=self.payer,
            payer_after=Money(self.payer_before + self.cents, sign=True),
            payee=self.payee,
            payee_after=Money(self.payee_before - self.cents, sign=True),
        )

    def refusal(self) -> Sayable:
        """Why the payment is refused unless it is meant as an advance."""
        owes = (
            said(
                "{payer} owes {payee} {amount} at most",
                payer=self.payer,
                payee=self.payee,
                amount=Money(self.owed),
            )
            if self.owed
            else said("{payer} owes {payee} nothing", payer=self.payer, payee=self.payee)
        )
        return said(
            "{owes} ({payer} {payer_balance}, {payee} {payee_balance}): paying {amount} would "
            "leave {leaves}; nothing was written. Give --advance if it is meant (a loan, a "
            "credit, a balance taken over)",
            owes=owes,
            payer=self.payer,
            payer_balance=Money(self.payer_before, sign=True),
            payee=self.payee,
            payee_balance=Money(self.payee_before, sign=True),
            amount=Money(self.cents),
            leaves=self.leaves(),
        )

    def warning(self) -> Sayable:
        """What an advance booked says."""
        return said(
            "{payer} paid {payee} {amount} more than {payer} owed: an advance, leaving {leaves}",
            payer=self.payer,
            payee=self.payee,
            amount=Money(self.over),
            leaves=self.leaves(),
        )


def check_new_stake(
    name: str, session: str, stake: Cents, now: Cents, *, has_played: bool
) -> Cents:
    """A stake for a player who joins (again): their games already booked must replay to the
    same money, so once they have played the stake cannot change in that session."""
    check_stake(stake, said("{player}'s stake", player=name))
    if has_played and stake != now:
        raise ChouetteError(
            said(
                "{player} has played in {session} at {stake} a point: a different stake needs a "
                "new session (the games already booked must replay to the same money)",
                player=name,
                session=session,
                stake=Money(now),
            )
        )
    return stake


def format_money(cents: Cents, *, sign: bool = False) -> str:
    """12345 -> ``"123.45"``; -5 -> ``"-0.05"``; with ``sign``, +12345 -> ``"+123.45"``."""
    whole, part = divmod(abs(cents), 100)
    text = f"{whole}.{part:02d}"
    if cents < 0:
        return "-" + text
    if sign and cents > 0:
        return "+" + text
    return text


def share(amount: int, percent: int) -> int:
    """``percent`` % of ``amount``, rounded toward zero (the odd unit stays with the rest)."""
    part = abs(amount) * percent // 100
    return part if amount >= 0 else -part
