"""Payment codes drawn (:mod:`chouette.payments` makes their texts): a PNG a payment, written
whole into a folder, or drawn in the terminal. Made with segno (the ``qr`` extra, also in
``serve``), at the error correction level the EPC asks for (M), in UTF-8 as the payloads
declare, without an ECI header (bank apps read the bytes as their format says).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from chouette.errors import ChouetteError
from chouette.payments import PaymentCode
from chouette.words import said
from files.whole import reason, write_whole

#: Pixels a module of a code is drawn with, in a PNG (big enough for a phone's camera).
SCALE = 8


def _segno() -> Any:
    try:
        import segno
    except ImportError:
        raise ChouetteError(
            said(
                "payment codes need the segno library, which is not installed: in chouette's "
                "clone, with the pip that installed chouette, pip install '.[qr]'"
            )
        ) from None
    return segno


def made(payload: str) -> Any:
    """The QR code of ``payload`` (segno's): level M exactly, UTF-8 bytes."""
    return _segno().make(payload, error="m", boost_error=False, encoding="utf-8", micro=False)


def png(payload: str) -> bytes:
    """The code as a PNG image."""
    out = io.BytesIO()
    made(payload).save(out, kind="png", scale=SCALE, border=4)
    return out.getvalue()


def drawn(payload: str) -> str:
    """The code drawn with block characters, for a terminal."""
    out = io.StringIO()
    made(payload).terminal(out=out, compact=True)
    return out.getvalue()


def file_name(code: PaymentCode) -> str:
    """``FROM-TO.png``, a name no folder can be read into (a ``/`` is written ``_``)."""
    name = code.file_name.replace("/", "_").replace("\\", "_").replace("\x00", "_")
    return "_" + name[1:] if name.startswith(".") else name


def write_codes(folder: Path, codes: Sequence[PaymentCode]) -> list[Path]:
    """Each code that is drawn (:attr:`PaymentCode.drawn`) as ``folder/FROM-TO.png``, the
    folder made if it is missing; the files written (readable by their owner alone: they
    hold account numbers)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        written = []
        for code in codes:
            if code.drawn:
                target = folder / file_name(code)
                write_whole(target, png(code.payload), private=True)
                written.append(target)
    except OSError as err:
        raise ChouetteError(
            said(
                "cannot write the payment codes to {folder}: {reason}",
                folder=str(folder),
                reason=reason(err),
            )
        ) from None
    return written
