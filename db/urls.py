"""The ledger's address: a file path (SQLite) or an SQLAlchemy URL, read and shown without
any database library (the quick read path and ``--help`` import this, not SQLAlchemy).

A URL's options (its query) are honoured or refused, never passed on unread
(:func:`url_options`): an SQLite URL takes ``mode=ro``, a ledger opened read-only, whose
commands that write are refused; a PostgreSQL URL takes libpq's connection parameters
(``sslmode``, ``connect_timeout``, …) and ``options=-csearch_path=SCHEMA``, the schema the
ledger lives in. Anything else is refused, named.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qsl, unquote, urlencode

from chouette.errors import ChouetteError
from chouette.text import clipped
from chouette.words import Said, said, said_n


def database_url(value: str) -> str:
    """A file path (SQLite) or an SQLAlchemy URL."""
    if "\x00" in value:
        raise ChouetteError(
            said("{value} is no ledger's name: it holds a NUL character", value=repr(value))
        )
    if "://" in value:
        return value
    try:
        return "sqlite:///" + str(Path(value).expanduser().resolve())
    except (OSError, RuntimeError) as err:  # a name too long, a loop of links
        raise ChouetteError(
            said("cannot use the ledger at {file}: {reason}", file=value, reason=str(err))
        ) from None


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


#: libpq's connection parameters, which a PostgreSQL URL may carry (SQLAlchemy hands them to
#: the driver as they are). ``client_encoding`` is not among them: chouette talks UTF-8.
LIBPQ = frozenset(
    {
        "host", "hostaddr", "port", "dbname", "user", "password", "passfile", "require_auth",
        "channel_binding", "connect_timeout", "options", "application_name",
        "fallback_application_name", "keepalives", "keepalives_idle", "keepalives_interval",
        "keepalives_count", "tcp_user_timeout", "sslmode", "sslnegotiation", "sslcompression",
        "sslcert", "sslkey", "sslpassword", "sslcertmode", "sslrootcert", "sslcrl", "sslcrldir",
        "sslsni", "requirepeer", "ssl_min_protocol_version", "ssl_max_protocol_version",
        "gssencmode", "krbsrvname", "gsslib", "gssdelegation", "service",
        "target_session_attrs", "load_balance_hosts",
    }
)  # fmt: skip
SCHEMA_NAME = re.compile(r"[a-z_][a-z0-9_$]{0,62}")


@dataclass(frozen=True)
class UrlOptions:
    """What a ledger's URL asks for: ``url`` to connect with (an SQLite URL without its
    query: chouette opens the file itself), a ledger opened read-only (SQLite's
    ``mode=ro``), and the schema the ledger lives in (PostgreSQL's ``search_path``)."""

    url: str
    read_only: bool = False
    schema: str | None = None


def url_options(url: str) -> UrlOptions:
    """The options of ``url``, honoured or refused with their names (see the module)."""
    base, mark, query = url.partition("?")
    if not mark:
        return UrlOptions(url)
    given: dict[str, str] = {}
    for key, value in parse_qsl(query, keep_blank_values=True):
        if key in given and given[key] != value:
            raise ChouetteError(
                said("the ledger's URL gives {key} twice: give it once", key=clipped(key))
            )
        given[key] = value
    if url.startswith("sqlite"):
        return _sqlite_options(base, given)
    if url.startswith("postgresql"):
        return _postgres_options(base, given)
    return UrlOptions(url)


def _sqlite_options(base: str, given: dict[str, str]) -> UrlOptions:
    takes = said("an SQLite ledger's URL takes mode=ro only: the ledger opened read-only")
    unknown = sorted(set(given) - {"mode"})
    if unknown:
        raise ChouetteError(
            said("the ledger's URL has {options} ({takes})", options=_named(unknown), takes=takes)
        )
    if "mode" in given and given["mode"] != "ro":
        raise ChouetteError(
            said(
                "the ledger's URL says mode={mode}: {takes}",
                mode=clipped(given["mode"]),
                takes=takes,
            )
        )
    return UrlOptions(base, read_only="mode" in given)


def _postgres_options(base: str, given: dict[str, str]) -> UrlOptions:
    unknown = sorted(set(given) - LIBPQ)
    if unknown:
        raise ChouetteError(
            said(
                "the database URL has {options} (a PostgreSQL URL takes libpq's connection "
                "parameters, such as sslmode or connect_timeout, and "
                "options=-csearch_path=SCHEMA)",
                options=_named(unknown),
            )
        )
    schema = None
    if "options" in given:
        settings = _server_options(given.pop("options"))
        others = sorted(set(settings) - {"search_path"})
        if others:
            if "lock_timeout" in others:
                raise ChouetteError(
                    said(
                        "the database URL's options set what chouette does not take: {names} "
                        "(it takes -csearch_path=SCHEMA, the ledger's schema; "
                        "CHOUETTE_LOCK_TIMEOUT sets the lock timeout)",
                        names=_listed(others),
                    )
                )
            raise ChouetteError(
                said(
                    "the database URL's options set what chouette does not take: {names} (it "
                    "takes -csearch_path=SCHEMA, the ledger's schema)",
                    names=_listed(others),
                )
            )
        if "search_path" in settings:
            schema = settings["search_path"].strip().lower()
            if not SCHEMA_NAME.fullmatch(schema):
                raise ChouetteError(
                    said(
                        "the database URL's search_path is {schema}: name the one schema the "
                        "ledger lives in (letters, digits and _)",
                        schema=repr(clipped(settings["search_path"])),
                    )
                )
    query = urlencode(given)
    return UrlOptions(base + (f"?{query}" if query else ""), schema=schema)


def _server_options(text: str) -> dict[str, str]:
    """The settings of libpq's ``options`` (``-c name=value``, ``-cname=value``,
    ``--name=value``; a backslash keeps a space in a word)."""
    words = [w.replace("\\ ", " ") for w in re.split(r"(?<!\\)\s+", text.strip()) if w]
    settings: dict[str, str] = {}
    at = 0
    while at < len(words):
        word = words[at]
        if word == "-c" and at + 1 < len(words):
            word, at = words[at + 1], at + 2
        elif word.startswith("-c") or word.startswith("--"):
            word, at = word[2:], at + 1
        else:
            raise ChouetteError(
                said(
                    "the database URL's options hold {word}: chouette takes "
                    "-csearch_path=SCHEMA there",
                    word=repr(clipped(word)),
                )
            )
        name, equals, value = word.partition("=")
        if not equals:
            raise ChouetteError(
                said(
                    "the database URL's options hold {word}, which sets nothing: write "
                    "-csearch_path=SCHEMA",
                    word=repr(clipped(word)),
                )
            )
        settings[name.replace("-", "_").lower()] = value
    return settings


def _named(names: list[str]) -> Said:
    """``an option chouette does not take: foo`` (or ``options …: foo, bar``)."""
    return said_n(
        "an option chouette does not take: {names}",
        "options chouette does not take: {names}",
        len(names),
        names=_listed(names),
    )


def _listed(names: list[str]) -> str:
    return ", ".join(clipped(n, 40) for n in names[:5]) + (", …" if len(names) > 5 else "")


def ledger_files(url: str) -> list[Path]:
    """The files of the SQLite ledger at ``url`` (its journal and write-ahead log too), which
    an export or a report must never be written over; none for a server's ledger."""
    file = sqlite_file(url)
    if file is None:
        return []
    return [file, *(file.with_name(file.name + end) for end in ("-wal", "-shm", "-journal"))]
