"""An account's IBAN as the ledger keeps it: checked once, by the command that saves it and
by the restore that reads it back (its own module, so that neither imports the other)."""

from __future__ import annotations

from chouette.errors import ChouetteError
from chouette.payments import compact
from chouette.text import clipped
from chouette.words import said


def checked_iban(text: str) -> str:
    """An IBAN, checked by its country's length and format and its ISO 13616 check digits
    (python-stdnum's), as a code carries it (upper case, no spaces); empty text is none."""
    from stdnum.exceptions import ValidationError
    from stdnum.iban import validate

    if not text.strip():
        return ""
    try:
        return str(validate(compact(text)))
    except ValidationError as err:
        raise ChouetteError(
            said(
                "{iban} is no IBAN ({why}): nothing written",
                iban=repr(clipped(text, 40)),
                why=said("its check digits are wrong")
                if "checksum" in type(err).__name__.lower()
                else said("its length or format is not its country's"),
            )
        ) from None
