"""Money that gets paid: each player's account, and a payment code for a settlement line.

A player's :class:`Account` is kept for the whole club (``chouette account``): the
account holder's name, an IBAN, a phone number (a Danish MobilePay user is paid by phone)
and a Swish number. The IBAN's checksum is checked at the door, by an established library
(python-stdnum), before anything is written; here it is only written the one way (upper
case, no spaces).

A settlement line ``bob pays ann 12.50`` becomes what a bank app reads
(:func:`payment_code`), in the currency the table pays in:

- **EUR**: the European Payments Council's QR code (EPC069-12, version 002, "GiroCode"): a
  SEPA credit transfer to ann's IBAN, ``EUR12.50``, the session and night as its text;
- **CZK**: the Czech banking association's Short Payment Descriptor ("QR Platba", SPAYD
  1.0): ``SPD*1.0*ACC:…*AM:12.50*CC:CZK*MSG:…``;
- **SEK**: Swish's prefilled code (``C<number>;<amount>;<message>;<lock>``);
- **DKK**, or a payee with only a phone number: no code (MobilePay's links are for
  businesses), the number and amount written out.

A payee without what the currency needs gets no code, and the line says so: nothing is
ever made up. An amount its code cannot carry (:data:`AMOUNTS`, each format's published
limits) gets no code either: the line is refused, naming the payer, the payee and the
limit, rather than a code a bank app would reject. What is drawn (a PNG, or the terminal)
is the door's: here the texts only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal
from urllib.parse import quote

from chouette.errors import ChouetteError
from chouette.money import Cents
from chouette.text import clipped
from chouette.words import Money, Sayable, said

Currency = Literal["EUR", "CZK", "SEK", "DKK"]
CURRENCIES: tuple[Currency, ...] = ("EUR", "CZK", "SEK", "DKK")

#: EPC069-12's limits: the payee's name, the unstructured remittance text, the amount.
EPC_NAME, EPC_TEXT, EPC_LARGEST = 70, 140, 99_999_999_999
#: SPAYD 1.0's limits: the message, the payee's name, the amount's characters.
SPAYD_MESSAGE, SPAYD_NAME, SPAYD_AMOUNT = 60, 35, 10
#: Swish's message (in its app, 50 characters).
SWISH_MESSAGE = 50
#: The longest of an account's fields as typed (an IBAN is at most 34 characters).
LONGEST_FIELD = 70
#: Swish's amounts, in öre: 1.00 to 999,999,999,999.99 SEK (its payment requests' published
#: bounds, developer.getswish.se; its QR format's own specification names none).
SWISH_LEAST, SWISH_LARGEST = 100, 99_999_999_999_999


@dataclass(frozen=True)
class Account:
    """Where a player is paid: the ``holder``'s name (the player's name when none is
    given), an ``iban`` (upper case, no spaces, checked), a ``phone`` and a ``swish``
    number (as given, digits and a leading ``+``)."""

    player: str
    holder: str = ""
    iban: str = ""
    phone: str = ""
    swish: str = ""

    @property
    def name(self) -> str:
        """Whom the bank pays: the holder, else the player."""
        return self.holder or self.player

    def grouped(self) -> str:
        """The IBAN in groups of four, as ``account --list`` shows it to the keeper (at the
        terminal only: shared pages and reports never show it)."""
        return " ".join(self.iban[i : i + 4] for i in range(0, len(self.iban), 4))


def compact(iban: str) -> str:
    """An IBAN as a bank writes it in a code: upper case, without spaces."""
    return "".join(iban.split()).upper()


def phone_number(text: str) -> str:
    """A phone or Swish number as given, its spaces, dashes and dots dropped: digits, and
    a leading ``+``. Anything else is refused by the caller (None here)."""
    number = "".join(c for c in text.strip() if c not in " -.()")
    digits = number[1:] if number.startswith("+") else number
    if not digits.isascii() or not digits.isdigit() or not 5 <= len(digits) <= 15:
        return ""
    return number


def amount_text(cents: Cents, decimal: str = ".") -> str:
    """``1250`` as ``12.50`` (no thousands: a bank's code groups none)."""
    whole, part = divmod(cents, 100)
    return f"{whole}{decimal}{part:02d}"


def epc(account: Account, cents: Cents, text: str) -> str:
    """The EPC069-12 payload (version 002, UTF-8, a SEPA credit transfer, no BIC)."""
    lines = [
        "BCD",
        "002",
        "1",
        "SCT",
        "",
        account.name[:EPC_NAME],
        account.iban,
        f"EUR{amount_text(cents)}",
        "",
        "",
        text[:EPC_TEXT],
    ]
    return "\n".join(lines)


def _spayd_value(text: str) -> str:
    """A SPAYD value: ``*`` is its separator, written ``%2A`` (and ``%`` itself ``%25``)."""
    return text.replace("%", "%25").replace("*", "%2A")


def spayd(account: Account, cents: Cents, text: str) -> str:
    """The Short Payment Descriptor (SPAYD 1.0) for a payment in koruna."""
    fields = [
        ("ACC", account.iban),
        ("AM", amount_text(cents)),
        ("CC", "CZK"),
        ("RN", _spayd_value(account.name[:SPAYD_NAME])),
        ("MSG", _spayd_value(text[:SPAYD_MESSAGE])),
    ]
    return "SPD*1.0*" + "*".join(f"{key}:{value}" for key, value in fields)


def swish(account: Account, cents: Cents, text: str) -> str:
    """Swish's prefilled code: the number, the amount (a decimal comma), the message (URL
    encoded), and the lock mask 0 (nothing editable: the app pays what the code says)."""
    number = account.swish.lstrip("+")
    message = quote(text[:SWISH_MESSAGE], safe="")
    return f"C{number};{amount_text(cents, ',')};{message};0"


Kind = Literal["epc", "spayd", "swish", "phone", "none", "refused"]

#: The amounts each code carries, in cents, as its format publishes them: EPC069-12 from
#: 0.01 to 999,999,999.99 EUR; SPAYD 1.0's ``AM`` at most 10 characters, its decimal point
#: among them (at most 9,999,999.99 CZK), from 0.01; Swish 1.00 to 999,999,999,999.99 SEK.
#: A phone number written out carries any amount.
AMOUNTS: dict[Kind, tuple[Cents, Cents]] = {
    "epc": (1, EPC_LARGEST),
    "spayd": (1, 10 ** (SPAYD_AMOUNT - 1) - 1),
    "swish": (SWISH_LEAST, SWISH_LARGEST),
}
#: Each code's name, as its format calls itself.
CODE_NAMES: dict[Kind, str] = {
    "epc": "EPC069-12 (GiroCode)",
    "spayd": "QR Platba (SPAYD)",
    "swish": "Swish",
}


@dataclass(frozen=True)
class PaymentCode:
    """A settlement line's way to pay: ``kind`` (``epc``, ``spayd``, ``swish``: a code,
    its ``payload``; ``phone``: the number and amount written out; ``none``: nothing known;
    ``refused``: an amount the payee's code cannot carry) and ``said``, the line in words
    for the reader (for ``refused``, why)."""

    payer: str
    payee: str
    cents: Cents
    kind: Kind
    payload: str
    said: Sayable

    @property
    def drawn(self) -> bool:
        """Whether it is a code a bank app scans."""
        return self.kind in ("epc", "spayd", "swish")

    @property
    def file_name(self) -> str:
        """``FROM-TO.png``."""
        return f"{self.payer}-{self.payee}.png"


def remittance(session: str, night: str) -> str:
    """The payment's text, for the payee's bank statement: ``chouette friday, night
    2026-11-20``."""
    return f"chouette {session}, night {night}"


def payment_code(
    payer: str,
    payee: str,
    cents: Cents,
    account: Account | None,
    currency: Currency,
    text: str,
) -> PaymentCode:
    """How ``payer`` pays ``payee`` ``cents`` in ``currency``: the code the payee's account
    allows (the module says which), else the phone number written out, else nothing; an
    amount that code cannot carry (:data:`AMOUNTS`) is ``refused``, with why."""
    who = {"payer": payer, "payee": payee, "amount": Money(cents), "currency": currency}

    def code(kind: Kind, payload: str, line: Sayable) -> PaymentCode:
        least, most = AMOUNTS.get(kind, (cents, cents))
        if least <= cents <= most:
            return PaymentCode(payer, payee, cents, kind, payload, line)
        named = {"code": CODE_NAMES[kind], **who}
        why = (
            said(
                "{payer} pays {payee} {amount} {currency}: more than a payment code carries "
                "({code}: at most {most} {currency}); no code is made for this payment: pay "
                "it another way",
                most=Money(most),
                **named,
            )
            if cents > most
            else said(
                "{payer} pays {payee} {amount} {currency}: less than a payment code carries "
                "({code}: at least {least} {currency}); no code is made for this payment: pay "
                "it another way",
                least=Money(least),
                **named,
            )
        )
        return PaymentCode(payer, payee, cents, "refused", "", why)

    if account is not None and account.iban and currency in ("EUR", "CZK"):
        line = said(
            "{payer} pays {payee} {amount} {currency}: scan the code to pay {holder}",
            holder=account.name,
            **who,
        )
        if currency == "EUR":
            return code("epc", epc(account, cents, text), line)
        return code("spayd", spayd(account, cents, text), line)
    if account is not None and account.swish and currency == "SEK":
        line = said(
            "{payer} pays {payee} {amount} SEK: scan the code with Swish",
            payer=payer,
            payee=payee,
            amount=Money(cents),
        )
        return code("swish", swish(account, cents, text), line)
    if account is not None and account.phone:
        line = said(
            "{payer} pays {payee} {amount} {currency} to the phone number {phone}",
            phone=account.phone,
            **who,
        )
        return code("phone", "", line)
    line = said(
        "{payer} pays {payee} {amount} {currency}: {payee} has no account for it "
        "(chouette account {payee})",
        **who,
    )
    return code("none", "", line)


def check_holder(text: str) -> str:
    """An account holder's name as a bank writes it: one line, at most 70 characters (the
    longest a code carries)."""
    name = " ".join(text.split())
    if len(name) > LONGEST_FIELD or any(ord(c) < 32 or c == "\x7f" for c in text):
        raise ChouetteError(
            said(
                "{name} is no account holder's name: one line of at most {most} characters",
                name=repr(clipped(text, 40)),
                most=LONGEST_FIELD,
            )
        )
    return name


def check_number(text: str, what: Sayable) -> str:
    """A phone or Swish number (:func:`phone_number`), or a refusal naming ``what``; empty
    text is none."""
    if not text.strip():
        return ""
    number = phone_number(text)
    if not number:
        raise ChouetteError(
            said(
                "{number} is no {what}: digits, with a leading + for the country if you like",
                number=repr(clipped(text, 40)),
                what=what,
            )
        )
    return number
