"""The ledger's address: a file path (SQLite) or an SQLAlchemy URL, read and shown without
any database library (the quick read path and ``--help`` import this, not SQLAlchemy)."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

from chouette.errors import ChouetteError


def database_url(value: str) -> str:
    """A file path (SQLite) or an SQLAlchemy URL."""
    if "\x00" in value:
        raise ChouetteError(f"{value!r} is no ledger's name: it holds a NUL character")
    if "://" in value:
        return value
    try:
        return "sqlite:///" + str(Path(value).expanduser().resolve())
    except (OSError, RuntimeError) as err:  # a name too long, a loop of links
        raise ChouetteError(f"cannot use the ledger at {value}: {err}") from None


def sqlite_file(url: str) -> Path | None:
    """The file of an SQLite URL (None for another database or an in-memory one)."""
    if not url.startswith("sqlite"):
        return None
    path = url.split("///", 1)[-1] if "///" in url else ""
    path = path.split("?", 1)[0]
    return Path(path) if path and path != ":memory:" else None


def _password(url: str) -> str | None:
    _, sep, rest = url.partition("://")
    at = rest.rfind("@")
    if not sep or at < 0 or ":" not in rest[:at]:
        return None
    return rest[:at].split(":", 1)[1]


def shown_url(url: str) -> str:
    """The URL as a message may show it: its password, if any, as ``***``."""
    secret = _password(url)
    if secret:
        scheme, _, rest = url.partition("://")
        at = rest.rfind("@")
        user = rest[:at].split(":", 1)[0]
        url = f"{scheme}://{user}:***{rest[at:]}"
    return re.sub(r"(?i)(password=)[^&]*", r"\1***", url)


def masked(message: str, url: str) -> str:
    """A message about ``url`` (a driver's error, say) without the URL's password in it."""
    secret = _password(url)
    if secret:
        for form in {secret, unquote(secret)}:
            if len(form) >= 2:
                message = message.replace(form, "***")
    return message


def where(url: str) -> str:
    """The ledger as messages name it: the SQLite file, or the URL without its password."""
    file = sqlite_file(url)
    return str(file) if file is not None else shown_url(url)
