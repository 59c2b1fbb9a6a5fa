"""Money is exact: integer cents, parsed from text through Decimal, never a float."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from chouette.errors import MoneyError

Cents = int


def parse_money(text: str) -> Cents:
    """``"5"``, ``"5.00"``, ``"$2.50"``, ``"0.05"`` -> cents; refuses fractions of a cent."""
    cleaned = text.strip().replace(",", "").lstrip("$€£")
    try:
        amount = Decimal(cleaned)
    except InvalidOperation:
        raise MoneyError(f"{text!r} is not an amount of money") from None
    if not amount.is_finite():
        raise MoneyError(f"{text!r} is not an amount of money")
    cents = amount * 100
    if cents != cents.to_integral_value():
        raise MoneyError(f"{text!r} is not a whole number of cents")
    return int(cents)


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
